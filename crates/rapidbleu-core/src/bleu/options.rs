//! BLEU's options, checked once: [`BleuOptions`] (how segments are tokenized and counted, and
//! how statistics become a score).
//!
//! Every option value is checked here and nowhere else; the messages name options as
//! sacreBLEU's `BLEU` does and values as the Python user wrote them.

use crate::bleu::layout::RowLayout;
use crate::error::{py_float, py_str, CoreError};
use crate::text::tokenize::Tokenizer;
use std::fmt::Display;

/// sacreBLEU's smoothing methods (`BLEU.SMOOTH_DEFAULTS`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smooth {
    /// No smoothing: a zero-match order gives precision 0 and score 0.
    None,
    /// `floor`: a zero-match order gets `100 * value / total`.
    Floor(f64),
    /// `add-k`: adds `k` to correct and total of orders 2..N.
    AddK(f64),
    /// `exp` (NIST mteval-v13a): the k-th zero-match order gets `100 / (2^k * total)`.
    Exp,
}

/// The names accepted by [`Smooth::from_name`].
pub const SMOOTH_NAMES: [&str; 4] = ["none", "floor", "add-k", "exp"];

/// The message for an unknown smoothing method, `shown` as the caller wrote it.
pub fn unknown_smooth_method(shown: impl Display) -> CoreError {
    CoreError::InvalidOption(format!(
        "unknown smooth_method {shown}; allowed: {}",
        SMOOTH_NAMES.join(", ")
    ))
}

/// The message for a smoothing value that is not allowed, `shown` as the caller wrote it.
pub fn invalid_smooth_value(shown: impl Display) -> CoreError {
    CoreError::InvalidOption(format!(
        "smooth_value must be a finite number >= 0 (or None), got {shown}"
    ))
}

impl Smooth {
    /// A method from its name and optional value (`None`: sacreBLEU's default,
    /// `BLEU.SMOOTH_DEFAULTS`: 0.1 for `floor`, 1 for `add-k`; `none` and `exp` take none).
    pub fn from_name(name: &str, value: Option<f64>) -> Result<Self, CoreError> {
        if let Some(v) = value {
            if !v.is_finite() || v < 0.0 {
                return Err(invalid_smooth_value(py_float(v)));
            }
        }
        Ok(match name {
            "none" => Smooth::None,
            "floor" => Smooth::Floor(value.unwrap_or(0.1)),
            "add-k" => Smooth::AddK(value.unwrap_or(1.0)),
            "exp" => Smooth::Exp,
            _ => return Err(unknown_smooth_method(py_str(name))),
        })
    }

    /// The method's name (one of [`SMOOTH_NAMES`]).
    pub fn name(self) -> &'static str {
        match self {
            Smooth::None => "none",
            Smooth::Floor(_) => "floor",
            Smooth::AddK(_) => "add-k",
            Smooth::Exp => "exp",
        }
    }

    /// The method's value (`floor`, `add-k`), defaults applied.
    pub fn value(self) -> Option<f64> {
        match self {
            Smooth::Floor(v) | Smooth::AddK(v) => Some(v),
            Smooth::None | Smooth::Exp => None,
        }
    }
}

/// How the interpreter's `sum()` adds floats: CPython <= 3.11 adds left to right, 3.12+ uses
/// Neumaier compensation. The score must follow the interpreter sacreBLEU runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Summation {
    /// CPython <= 3.11.
    Plain,
    /// CPython >= 3.12.
    Neumaier,
}

/// How text becomes tokens: `BLEU._preprocess_segment` (lowercase, tokenize) then
/// `str.split()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextPrep {
    /// The Rust tokenizer (MeCab/SentencePiece output arrives pre-tokenized, with `none`).
    pub tokenizer: Tokenizer,
    /// Lowercase ASCII letters. Non-ASCII text must already have been lowercased with
    /// Python's `str.lower()` by the caller (its Unicode version is the interpreter's).
    pub lowercase_ascii: bool,
}

/// BLEU's options: tokenizer, lowercasing, the n-gram order, smoothing, effective order and
/// the summation of the log precisions. Built once per metric, checked when built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BleuOptions {
    text: TextPrep,
    layout: RowLayout,
    smooth: Smooth,
    effective_order: bool,
    summation: Summation,
}

impl BleuOptions {
    /// sacreBLEU's `BLEU()`: `13a`, mixed case, order 4, `exp` smoothing, no effective order
    /// (and CPython <= 3.11's summation). The one place these defaults are written in Rust.
    pub const DEFAULT: BleuOptions = BleuOptions {
        text: TextPrep {
            tokenizer: Tokenizer::T13a,
            lowercase_ascii: false,
        },
        layout: RowLayout::DEFAULT,
        smooth: Smooth::Exp,
        effective_order: false,
        summation: Summation::Plain,
    };

    /// Checks the options (see [`RowLayout::new`] for the order's bound).
    pub fn new(
        tokenizer: Tokenizer,
        lowercase: bool,
        max_order: i64,
        smooth: Smooth,
        effective_order: bool,
        summation: Summation,
    ) -> Result<Self, CoreError> {
        Ok(BleuOptions {
            text: TextPrep {
                tokenizer,
                lowercase_ascii: lowercase,
            },
            layout: RowLayout::new(max_order)?,
            smooth,
            effective_order,
            summation,
        })
    }

    /// How segments are tokenized.
    pub fn text(&self) -> &TextPrep {
        &self.text
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> Tokenizer {
        self.text.tokenizer
    }

    /// Whether ASCII letters are lowercased (non-ASCII text by the caller).
    pub fn lowercase(&self) -> bool {
        self.text.lowercase_ascii
    }

    /// The highest n-gram order N.
    pub fn max_order(&self) -> usize {
        self.layout.max_order()
    }

    /// The statistics row of order N.
    pub fn layout(&self) -> RowLayout {
        self.layout
    }

    /// The smoothing method and its value.
    pub fn smooth(&self) -> Smooth {
        self.smooth
    }

    /// Whether the geometric mean stops at the last order with a non-zero total.
    pub fn effective_order(&self) -> bool {
        self.effective_order
    }

    /// How `sum()` adds the log precisions.
    pub fn summation(&self) -> Summation {
        self.summation
    }
}

impl Default for BleuOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing() {
        assert_eq!(Smooth::from_name("floor", None), Ok(Smooth::Floor(0.1)));
        assert_eq!(
            Smooth::from_name("add-k", None).map(Smooth::value),
            Ok(Some(1.0))
        );
        assert_eq!(Smooth::from_name("exp", Some(3.0)), Ok(Smooth::Exp));
        let msg = |e: CoreError| e.to_string();
        let e = msg(Smooth::from_name("Exp", None).unwrap_err());
        assert!(e.contains("unknown smooth_method 'Exp'; allowed: none, floor, add-k, exp"));
        for (v, shown) in [
            (-1.0, "-1.0"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            let e = msg(Smooth::from_name("floor", Some(v)).unwrap_err());
            assert!(
                e.starts_with("smooth_value must be") && e.ends_with(shown),
                "{e}"
            );
        }
    }

    #[test]
    fn options() {
        let o = BleuOptions::new(
            Tokenizer::Intl,
            true,
            6,
            Smooth::None,
            true,
            Summation::Plain,
        );
        let o = o.unwrap();
        assert_eq!(
            (o.max_order(), o.layout().row_len(), o.lowercase()),
            (6, 14, true)
        );
        assert_eq!(BleuOptions::default().max_order(), 4);
        let e = BleuOptions::new(
            Tokenizer::T13a,
            false,
            0,
            Smooth::Exp,
            false,
            Summation::Plain,
        );
        assert!(e.is_err());
    }
}

//! chrF's options, checked once (`CHRF.__init__`, sacreBLEU 2.6.0).

use crate::error::CoreError;
use std::fmt::Display;

/// The highest `char_order` or `word_order` accepted.
///
/// sacreBLEU accepts any order, but a row holds 3 int64 per order per segment and sacreBLEU
/// keeps a `Counter` per order per reference, so huge orders only exhaust memory (orders beyond
/// a segment's length add zero rows). 100 is far above any published setting (6 and 2).
pub const MAX_ORDER: usize = 100;

/// The largest `factor` (`beta ** 2`) accepted: `2**52`, i.e. `|beta| <= 2**26`.
///
/// Below it `factor` and `1 + factor` are exact doubles, so sacreBLEU's integer arithmetic on
/// an int `beta` (`factor = beta ** 2`, `(1 + factor) * prec` with an exact int) and the f64
/// arithmetic here round identically; above it `float(1 + factor)` and `1.0 + float(factor)`
/// could differ.
pub const MAX_FACTOR: f64 = 4_503_599_627_370_496.0;

/// Everything that turns text into chrF statistics and statistics into a score.
///
/// Built only through [`ChrfOptions::new`], so every value holds the invariants it checks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChrfOptions {
    char_order: usize,
    word_order: usize,
    factor: f64,
    whitespace: bool,
    eps_smoothing: bool,
    lowercase_ascii: bool,
}

impl ChrfOptions {
    /// Checks the options.
    ///
    /// - `char_order`, `word_order`: 0 to [`MAX_ORDER`] each, and not both 0. sacreBLEU would
    ///   score 0.0 for every input with both 0 (or raise `ZeroDivisionError` with
    ///   `eps_smoothing`), and with a negative order it silently scores fewer orders than it
    ///   counts (`self.order = char_order + word_order`).
    /// - `factor`: sacreBLEU's `factor = beta ** 2`, **computed by the caller in Python**: for
    ///   an int `beta` it is an exact int, but for a float `beta` CPython's `**` calls the C
    ///   library's `pow`, which differs from `beta * beta` in the last bit for about 0.1% of
    ///   random doubles (measured with glibc), so it cannot be recomputed here. Finite, 0 to
    ///   [`MAX_FACTOR`].
    /// - `whitespace`: keep whitespace characters in character n-grams.
    /// - `eps_smoothing`: chrF++.py's mean of per-order F scores instead of the effective-order
    ///   F of averaged precision and recall.
    /// - `lowercase_ascii`: lowercase ASCII letters. With sacreBLEU's `lowercase=True`, text
    ///   with non-ASCII characters must already be lowercased by the caller with Python's own
    ///   `str.lower()` (its Unicode tables are the interpreter's), as for BLEU.
    pub fn new(
        char_order: i64,
        word_order: i64,
        factor: f64,
        whitespace: bool,
        eps_smoothing: bool,
        lowercase_ascii: bool,
    ) -> Result<Self, CoreError> {
        let char_order = check_order("char_order", char_order)?;
        let word_order = check_order("word_order", word_order)?;
        if char_order + word_order == 0 {
            return Err(CoreError::InvalidOption(
                "char_order and word_order are both 0: at least one n-gram order is needed \
                 (sacreBLEU would score 0.0 for everything, or divide by zero with eps_smoothing)"
                    .to_string(),
            ));
        }
        if !(factor.is_finite() && (0.0..=MAX_FACTOR).contains(&factor)) {
            return Err(CoreError::InvalidOption(format!(
                "beta ** 2 must be a finite number from 0 to 2**52 (|beta| up to 2**26), \
                 got {factor}"
            )));
        }
        Ok(ChrfOptions {
            char_order,
            word_order,
            factor,
            whitespace,
            eps_smoothing,
            lowercase_ascii,
        })
    }

    /// Character n-gram orders `1..=char_order`.
    pub fn char_order(&self) -> usize {
        self.char_order
    }

    /// Word n-gram orders `1..=word_order` (2 for chrF++).
    pub fn word_order(&self) -> usize {
        self.word_order
    }

    /// All orders: `char_order + word_order` (sacreBLEU's `self.order`).
    pub fn order(&self) -> usize {
        self.char_order + self.word_order
    }

    /// `beta ** 2`.
    pub fn factor(&self) -> f64 {
        self.factor
    }

    /// Whether whitespace characters are kept in character n-grams.
    pub fn whitespace(&self) -> bool {
        self.whitespace
    }

    /// Whether scores use chrF++.py's epsilon smoothing (signature `eff:no`).
    pub fn eps_smoothing(&self) -> bool {
        self.eps_smoothing
    }

    /// Whether ASCII letters are lowercased.
    pub fn lowercase_ascii(&self) -> bool {
        self.lowercase_ascii
    }

    /// Statistics per segment: `[hyp, ref, match]` for each char order, then each word order.
    pub fn row_len(&self) -> usize {
        3 * self.order()
    }
}

/// The message for an order (`char_order`, `word_order`) that is not allowed, `shown` as the
/// caller wrote it.
pub fn invalid_order(name: &str, shown: impl Display) -> CoreError {
    CoreError::InvalidOption(format!(
        "{name} must be an integer from 0 to {MAX_ORDER}, got {shown}"
    ))
}

/// The message for a `beta` that is not allowed, `shown` as the caller wrote it.
pub fn invalid_beta(shown: impl Display) -> CoreError {
    CoreError::InvalidOption(format!(
        "beta must be an int or a float from 0 to 2**26, got {shown}"
    ))
}

fn check_order(name: &str, order: i64) -> Result<usize, CoreError> {
    match usize::try_from(order) {
        Ok(o) if o <= MAX_ORDER => Ok(o),
        _ => Err(invalid_order(name, order)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks() {
        let p = ChrfOptions::new(6, 2, 4.0, false, false, false).unwrap();
        assert_eq!((p.order(), p.row_len()), (8, 24));
        assert!(ChrfOptions::new(0, 2, 4.0, false, true, false).is_ok());
        assert!(ChrfOptions::new(6, 0, 0.0, false, false, false).is_ok());
        assert!(ChrfOptions::new(100, 100, MAX_FACTOR, false, false, false).is_ok());
        for (c, w, f) in [
            (0, 0, 4.0),
            (-1, 2, 4.0),
            (6, -1, 4.0),
            (101, 0, 4.0),
            (6, i64::MAX, 4.0),
            (6, 0, -1.0),
            (6, 0, f64::NAN),
            (6, 0, f64::INFINITY),
            (6, 0, MAX_FACTOR * 2.0),
        ] {
            let e = ChrfOptions::new(c, w, f, false, false, false).unwrap_err();
            assert!(matches!(e, CoreError::InvalidOption(_)), "{c} {w} {f}");
        }
    }
}

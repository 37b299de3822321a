//! sacreBLEU's tokenizers (`sacrebleu/tokenizers/`), byte-identical, without Python.
//!
//! Every tokenizer takes a segment that has already been lowercased (if asked) and
//! `rstrip()`ed, as `BLEU._preprocess_segment` does, and produces exactly the string the
//! sacreBLEU tokenizer of the same name returns. Callers that only need the tokens (the n-gram
//! counter) pass `normalize = false` to skip the final `' '.join(line.split())`: the tokens of
//! `line.split()` are the same either way.

mod char;
mod intl;
mod regexp;
mod t13a;
mod unicode_tables;
mod zh;

use crate::error::{py_str, CoreError};
use crate::text::whitespace::{py_split, py_split_ranges};
use std::fmt::Display;

/// The tokenizers implemented in Rust. MeCab and SentencePiece tokenizers live in Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    /// `none`: the line unchanged.
    None,
    /// `13a`: mteval-v13a, sacreBLEU's default (`Tokenizer13a`).
    T13a,
    /// `intl`: mteval-v14 international (`TokenizerV14International`).
    Intl,
    /// `zh`: Chinese characters split, then the 13a regexes (`TokenizerZh`).
    Zh,
    /// `char`: every character a token (`TokenizerChar`).
    Char,
}

/// The names accepted by [`Tokenizer::from_name`], in sacreBLEU's order.
pub const TOKENIZER_NAMES: [&str; 5] = ["none", "zh", "13a", "intl", "char"];

/// Reusable buffers so that tokenizing a segment allocates nothing in the steady state.
#[derive(Default, Debug)]
pub struct TokBuf {
    pub(crate) out: Vec<u8>,
    pub(crate) tmp: Vec<u8>,
    pub(crate) tmp2: Vec<u8>,
    /// 13a's entity replacements (`t13a::replacements`) and their scratch.
    pub(crate) repl: String,
    pub(crate) repl_tmp: String,
}

/// The message for an unknown tokenizer name, `shown` as the caller wrote it.
pub fn unknown_tokenizer(shown: impl Display) -> CoreError {
    CoreError::InvalidOption(format!(
        "unknown tokenizer {shown}; the Rust tokenizers are: {}",
        TOKENIZER_NAMES.join(", ")
    ))
}

impl Tokenizer {
    /// Looks a tokenizer up by its sacreBLEU name.
    pub fn from_name(name: &str) -> Result<Self, CoreError> {
        Ok(match name {
            "none" => Tokenizer::None,
            "13a" => Tokenizer::T13a,
            "intl" => Tokenizer::Intl,
            "zh" => Tokenizer::Zh,
            "char" => Tokenizer::Char,
            _ => return Err(unknown_tokenizer(py_str(name))),
        })
    }

    /// The sacreBLEU name of this tokenizer (also its signature field).
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::None => "none",
            Tokenizer::T13a => "13a",
            Tokenizer::Intl => "intl",
            Tokenizer::Zh => "zh",
            Tokenizer::Char => "char",
        }
    }

    /// Tokenizes `line` into `buf` and returns the result.
    ///
    /// With `normalize`, the result is exactly sacreBLEU's tokenizer output; without it, only
    /// its `str.split()` tokens are guaranteed to be the same.
    pub fn tokenize<'b>(self, line: &str, buf: &'b mut TokBuf, normalize: bool) -> &'b str {
        buf.out.clear();
        match self {
            Tokenizer::None => buf.out.extend_from_slice(line.as_bytes()),
            Tokenizer::T13a => t13a::tokenize_13a(line, buf),
            Tokenizer::Intl => intl::tokenize_intl(line, buf),
            Tokenizer::Zh => zh::tokenize_zh(line, buf),
            Tokenizer::Char => char::tokenize_char(line, &mut buf.out),
        }
        let needs_join =
            normalize && matches!(self, Tokenizer::T13a | Tokenizer::Intl | Tokenizer::Zh);
        if needs_join {
            std::mem::swap(&mut buf.out, &mut buf.tmp);
            buf.out.clear();
            let src = as_str(&buf.tmp);
            for (i, tok) in py_split(src).enumerate() {
                if i > 0 {
                    buf.out.push(b' ');
                }
                buf.out.extend_from_slice(tok.as_bytes());
            }
        }
        as_str(&buf.out)
    }
}

impl Tokenizer {
    /// The tokens of `line` (the `str.split()` of [`Tokenizer::tokenize`]'s output) as byte
    /// ranges into the returned buffer, appended to `ranges` (which is cleared first). The
    /// buffer has slack bytes after the last token (see `token_map::padded`).
    pub fn tokens<'b>(
        self,
        line: &str,
        buf: &'b mut TokBuf,
        ranges: &mut Vec<(u32, u32)>,
    ) -> &'b [u8] {
        ranges.clear();
        if self == Tokenizer::T13a {
            t13a::tokens_13a(line, buf, ranges);
        } else if self == Tokenizer::None {
            // The line is its own output: split it where it lies (a copy would be checked
            // as UTF-8 again, a fifth of scoring pre-tokenized Japanese).
            buf.out.clear();
            buf.out.extend_from_slice(line.as_bytes());
            py_split_ranges(line, ranges);
        } else {
            let out = self.tokenize(line, buf, false);
            py_split_ranges(out, ranges);
        }
        // Every tokenizer leaves its output in `buf.out`.
        crate::engine::token_map::padded(&mut buf.out);
        &buf.out
    }
}

/// Views tokenizer output as `str`.
///
/// Every tokenizer only inserts ASCII bytes at character boundaries of valid UTF-8 input or
/// copies whole characters, so the output is valid UTF-8; the check is a cheap guard and
/// yields an empty string rather than a panic if that invariant were ever broken.
fn as_str(bytes: &[u8]) -> &str {
    debug_assert!(std::str::from_utf8(bytes).is_ok());
    std::str::from_utf8(bytes).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 13a token scanner equals splitting the 13a output, on every string of length <= 5
    /// over an alphabet that exercises every rule, and on random longer strings.
    #[test]
    fn fast_13a_tokens_equal_split_output() {
        let alphabet: Vec<char> = "a1.,-' (\u{a0}\u{3000}é&<\n".chars().collect();
        let mut buf = TokBuf::default();
        let mut ranges = Vec::new();
        let mut check = |s: &str| {
            let expected: Vec<String> = py_split(Tokenizer::T13a.tokenize(s, &mut buf, true))
                .map(str::to_string)
                .collect();
            let out = Tokenizer::T13a.tokens(s, &mut buf, &mut ranges).to_vec();
            let got: Vec<String> = ranges
                .iter()
                .map(|&(a, b)| String::from_utf8_lossy(&out[a as usize..b as usize]).into_owned())
                .collect();
            assert_eq!(got, expected, "input {s:?}");
        };
        let k = alphabet.len();
        for len in 0..=5u32 {
            for mut code in 0..k.pow(len) {
                let mut s = String::new();
                for _ in 0..len {
                    s.push(alphabet[code % k]);
                    code /= k;
                }
                check(&s);
            }
        }
        // Longer strings also draw on every lead byte that can start Python whitespace
        // (0xc2, 0xe1-0xe3), characters with those lead bytes that are not whitespace, and the
        // control bytes the SIMD scanner marks loosely.
        let mut wide = alphabet.clone();
        wide.extend(
            "\u{85}\u{1680}\u{2009}\u{202f}\u{205f}\u{3000}„–ß¢\u{3001}\x01\x7f\x1b".chars(),
        );
        let k = wide.len();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            let mut s = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Long enough to cross the scanner's 16-byte chunks and 64-byte blocks.
            for j in 0..(x % 150) {
                s.push(wide[((x >> (j % 50)) as usize + j as usize * 7) % k]);
            }
            check(&s);
            check(&format!("{s}&amp;lt;<skipped>-\n{s}"));
        }
    }

    #[test]
    fn names_round_trip() {
        for name in TOKENIZER_NAMES {
            assert_eq!(Tokenizer::from_name(name).map(|t| t.name()), Ok(name));
        }
        assert!(Tokenizer::from_name("13A").is_err());
    }
}

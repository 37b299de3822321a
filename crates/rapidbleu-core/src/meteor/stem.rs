//! NLTK's `PorterStemmer().stem(word)` (`nltk/stem/porter.py`, mode `NLTK_EXTENSIONS`, the
//! stemmer `meteor_score` uses by default) for any Unicode word, over the byte port that ROUGE
//! uses ([`crate::rouge::porter`]).
//!
//! `stem` lowercases the word (`word.lower()`, [`super::lower`]), returns it unstemmed when the
//! word given has at most two characters (`len(word) <= 2`, counted before lowercasing), and
//! otherwise applies the rules, which test only ASCII letters: any other character is a
//! consonant that equals only itself. So a word is stemmed as bytes: ASCII characters as they
//! are, every other character as one byte >= 0x80, equal for equal neighbours and different
//! for different ones (the only comparison of two characters the rules make is of the last two
//! letters, `_ends_double_consonant`). The rules only cut and append ASCII suffixes (and turn a
//! final `y` into `i`), so byte `k` of the result that is >= 0x80 is character `k` of the word.

use super::lower::py_lower_into;
use crate::rouge::porter;

/// Reusable buffers for [`Stemmer::stem`].
#[derive(Debug, Default)]
pub struct Stemmer {
    lowered: String,
    chars: Vec<char>,
    bytes: Vec<u8>,
    out: Vec<u8>,
}

impl Stemmer {
    /// `PorterStemmer().stem(word)` into `out` (cleared first).
    ///
    /// Example: `"Running"` gives `"run"`, `"études"` gives `"étude"`.
    pub fn stem(&mut self, word: &str, out: &mut String) {
        out.clear();
        py_lower_into(word, &mut self.lowered);
        if word.chars().nth(2).is_none() {
            out.push_str(&self.lowered);
            return;
        }
        if self.lowered.is_ascii() {
            porter::stem(self.lowered.as_bytes(), &mut self.out);
            out.extend(self.out.iter().map(|&b| b as char));
            return;
        }
        self.chars.clear();
        self.chars.extend(self.lowered.chars());
        self.bytes.clear();
        let mut prev: Option<(char, u8)> = None;
        for &c in &self.chars {
            let b = if c.is_ascii() {
                c as u8
            } else {
                match prev {
                    Some((p, pb)) if p == c => pb,
                    Some((_, 0x80)) => 0x81,
                    _ => 0x80,
                }
            };
            prev = Some((c, b));
            self.bytes.push(b);
        }
        porter::stem(&self.bytes, &mut self.out);
        out.extend(self.out.iter().enumerate().map(|(k, &b)| {
            if b >= 0x80 {
                self.chars[k]
            } else {
                b as char
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nltk_examples() {
        // Outputs of nltk 3.10.4's PorterStemmer().stem.
        let mut s = Stemmer::default();
        let mut out = String::new();
        for (w, want) in [
            ("Running", "run"),
            ("études", "étude"),
            ("IS", "is"),
            ("İS", "i̇s"),
            ("was", "wa"),
            ("ŁŁŁing", "łłłing"),
            ("caresses", "caress"),
        ] {
            s.stem(w, &mut out);
            assert_eq!(out, want, "{w}");
        }
    }
}

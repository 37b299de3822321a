//! A segment's text as sequences of symbol ids: its characters (`extract_all_char_ngrams`)
//! and its words (`CHRF._remove_punctuation`), sacreBLEU 2.6.0.
//!
//! The hypothesis is interned first (every symbol gets an id); references are then only
//! looked up, and a reference symbol the hypothesis lacks gets [`ABSENT`] (it cannot match,
//! and no n-gram containing it can). Ids are small and dense so that counts live in arrays.

use crate::ngram_map::{padded, NgramMap, TokenMap};
use crate::whitespace::{is_py_space, py_split_ranges};

/// The id of a symbol that the hypothesis lacks. Real ids start at 1.
pub(crate) const ABSENT: u32 = 0;

/// Ids below this are ASCII characters: byte `b` is id `b + 1`.
const ASCII_IDS: u32 = 129;

/// Python's whitespace among ASCII bytes (`str.split()`): `\t\n\v\f\r`, `\x1c`-`\x1f`, space.
/// (Rust's `u8::is_ascii_whitespace` lacks `\v` and `\x1c`-`\x1f`.)
#[inline(always)]
fn is_ascii_py_space(b: u8) -> bool {
    matches!(b, 0x09..=0x0d | 0x1c..=0x20)
}

/// Code points to ids for one segment.
///
/// Performance decision: ASCII characters need no table (their id is the byte plus one), and
/// the other code points go through one small open-addressing map. The ids of the hypothesis
/// are dense apart from the 128 ASCII ids, so per-id arrays stay a few hundred entries long.
#[derive(Debug, Default)]
pub(crate) struct CharVocab {
    other: NgramMap,
    next: u32,
}

impl CharVocab {
    /// Forgets the previous segment's characters (O(1)).
    pub(crate) fn clear(&mut self) {
        // Back to the smallest table (grown by `intern` as needed), so that a short segment's
        // few characters stay within a few cache lines after a long one.
        self.other.clear_for(0);
        self.next = ASCII_IDS;
    }

    /// Every id given so far is below this.
    pub(crate) fn n_ids(&self) -> usize {
        self.next as usize
    }

    /// Appends the ids of the characters of `text` to `out` (cleared first), giving new
    /// characters new ids. Unless `whitespace`, Python's whitespace is dropped first
    /// (`''.join(line.split())`).
    pub(crate) fn intern(&mut self, text: &str, whitespace: bool, out: &mut Vec<u32>) {
        out.clear();
        if text.is_ascii() {
            return ascii_ids(text.as_bytes(), whitespace, out);
        }
        // Each non-ASCII character takes at least two bytes.
        self.other.reserve(text.len() / 2);
        for c in text.chars() {
            if !whitespace && is_py_space(c) {
                continue;
            }
            let cp = c as u32;
            let id = if cp < 128 {
                cp + 1
            } else {
                let id = self.other.insert_reserved(u64::from(cp), self.next);
                self.next += u32::from(id == self.next);
                id
            };
            out.push(id);
        }
    }

    /// Appends the ids of the characters of `text` to `out` (not cleared: references are
    /// stored back to back), [`ABSENT`] for characters the hypothesis lacks.
    pub(crate) fn lookup(&self, text: &str, whitespace: bool, out: &mut Vec<u32>) {
        if text.is_ascii() {
            // An ASCII character keeps its id even if the hypothesis lacks it: its count there
            // is zero, so it matches nothing, and no map holds n-grams starting with it.
            return ascii_ids(text.as_bytes(), whitespace, out);
        }
        for c in text.chars() {
            if !whitespace && is_py_space(c) {
                continue;
            }
            let cp = c as u32;
            out.push(if cp < 128 {
                cp + 1
            } else {
                self.other.get_or(u64::from(cp), ABSENT)
            });
        }
    }
}

/// The ids of ASCII `bytes`, appended to `out`.
///
/// Performance decision: every byte is written and the write position only advances past
/// kept ones, so spaces (every few bytes, unpredictably) cost no branch.
fn ascii_ids(bytes: &[u8], whitespace: bool, out: &mut Vec<u32>) {
    let start = out.len();
    if whitespace {
        out.extend(bytes.iter().map(|&b| u32::from(b) + 1));
        return;
    }
    out.resize(start + bytes.len() + 1, 0);
    let mut k = start;
    for &b in bytes {
        out[k] = u32::from(b) + 1;
        k += usize::from(!is_ascii_py_space(b));
    }
    out.truncate(k);
}

/// `CHRF._remove_punctuation`: appends to `out` the byte ranges of the words of `text`.
///
/// Each `str.split()` token of two or more characters loses one character of ASCII
/// punctuation (`string.punctuation`, which is exactly `u8::is_ascii_punctuation`): the last
/// if it is punctuation, else the first if it is. So `(hi)` gives `(hi` and `)` (sacreBLEU
/// issue #124). Byte tests suffice: a non-ASCII character neither begins nor ends with an
/// ASCII byte, so a one-character token of several bytes is never split, as in Python.
pub(crate) fn word_ranges(text: &str, split: &mut Vec<(u32, u32)>, out: &mut Vec<(u32, u32)>) {
    let bytes = text.as_bytes();
    split.clear();
    py_split_ranges(text, split);
    out.clear();
    for &(a, b) in split.iter() {
        let (first, last) = (bytes[a as usize], bytes[b as usize - 1]);
        if b - a >= 2 && last.is_ascii_punctuation() {
            out.extend([(a, b - 1), (b - 1, b)]);
        } else if b - a >= 2 && first.is_ascii_punctuation() {
            out.extend([(a, a + 1), (a + 1, b)]);
        } else {
            out.push((a, b));
        }
    }
}

/// Words to ids for one segment (ids from 1, in order of first appearance in the hypothesis).
#[derive(Debug, Default)]
pub(crate) struct WordVocab {
    map: TokenMap,
    split: Vec<(u32, u32)>,
    words: Vec<(u32, u32)>,
    /// A reference's bytes with slack after them, for [`TokenMap::get_at`]'s fast path.
    pad: Vec<u8>,
}

impl WordVocab {
    /// Forgets the previous segment's words (O(1)).
    pub(crate) fn clear(&mut self) {
        self.map.clear();
    }

    /// Every id given so far is below this.
    pub(crate) fn n_ids(&self) -> usize {
        self.map.len() + 1
    }

    /// The ids of the words of `text`, in `out` (cleared first), giving new words new ids.
    pub(crate) fn intern(&mut self, text: &str, out: &mut Vec<u32>) {
        word_ranges(text, &mut self.split, &mut self.words);
        out.clear();
        // One copy of the text into the map's arena, then the words are found there.
        let base = self.map.append_arena(text.as_bytes());
        for &(a, b) in &self.words {
            let (id, _) = self
                .map
                .get_or_insert_arena(base + a as usize, (b - a) as usize);
            out.push(id + 1);
        }
    }

    /// Appends the ids of the words of `text` to `out`, [`ABSENT`] for words the hypothesis
    /// lacks.
    pub(crate) fn lookup(&mut self, text: &str, out: &mut Vec<u32>) {
        word_ranges(text, &mut self.split, &mut self.words);
        self.pad.clear();
        self.pad.extend_from_slice(text.as_bytes());
        padded(&mut self.pad);
        for &(a, b) in &self.words {
            let id = self.map.get_at(&self.pad, a as usize, (b - a) as usize);
            out.push(id.map_or(ABSENT, |id| id + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<&str> {
        let (mut split, mut out) = (Vec::new(), Vec::new());
        word_ranges(text, &mut split, &mut out);
        out.iter()
            .map(|&(a, b)| &text[a as usize..b as usize])
            .collect()
    }

    #[test]
    fn remove_punctuation_like_sacrebleu() {
        // sacreBLEU 2.6.0: CHRF()._remove_punctuation("(hi) hello, 'x' a . ,, ()")
        assert_eq!(
            words("(hi) hello, 'x' a . ,, ()"),
            vec!["(hi", ")", "hello", ",", "'x", "'", "a", ".", ",", ",", "(", ")"]
        );
        assert_eq!(
            words("é. .é é\u{1f}x\u{200b}."),
            vec!["é", ".", ".", "é", "é", "x\u{200b}", "."]
        );
    }

    #[test]
    fn ascii_punctuation_is_string_punctuation() {
        let punct: Vec<u8> = (0..=255u8).filter(u8::is_ascii_punctuation).collect();
        assert_eq!(punct, b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".to_vec());
    }

    #[test]
    fn char_ids_drop_python_whitespace() {
        let mut v = CharVocab::default();
        v.clear();
        let mut hyp = Vec::new();
        v.intern("a\u{a0}b\u{200b}\x1fé", false, &mut hyp);
        assert_eq!(hyp, vec![98, 99, ASCII_IDS, ASCII_IDS + 1]);
        v.intern("a \x1c\x0b", true, &mut hyp);
        assert_eq!(hyp, vec![98, 33, 29, 12]);
        let mut r = Vec::new();
        v.lookup("\u{200b}ü a", false, &mut r);
        assert_eq!(r, vec![ASCII_IDS, ABSENT, 98]);
    }
}

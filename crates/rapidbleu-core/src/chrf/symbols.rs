//! A segment's text as sequences of symbol ids: its characters (`extract_all_char_ngrams`)
//! and its words (`CHRF._remove_punctuation`), sacreBLEU 2.6.0.
//!
//! The hypothesis is interned first (every symbol gets an id); references are then only
//! looked up, and a reference symbol the hypothesis lacks gets [`ABSENT`] (it cannot match,
//! and no n-gram containing it can). Ids are small and dense so that counts live in arrays.

use super::scan::Scan;
use crate::engine::ngram_map::NgramMap;
use crate::engine::token_map::{padded, TokenMap};

/// The id of a symbol that the hypothesis lacks. Real ids start at 1.
pub(crate) const ABSENT: u32 = 0;

/// Ids below this are ASCII characters: byte `b` is id `b + 1`.
const ASCII_IDS: u32 = 129;

/// Texts longer than this (bytes) count their non-ASCII characters before reserving room.
const LONG_TEXT: usize = 1 << 16;

/// Code points to ids for one segment.
///
/// Performance decision: ASCII characters need no table (their id is the byte plus one), and
/// the other code points go through one small open-addressing map. The ids of the hypothesis
/// are dense apart from the 128 ASCII ids, so per-id arrays stay a few hundred entries long.
#[derive(Debug, Default)]
pub(crate) struct CharVocab {
    other: NgramMap,
    next: u32,
    /// One text's ids before they are appended (see [`super::room`]).
    scratch: Vec<u32>,
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

    /// The ids of the characters of `text` in `out` (cleared first), giving new characters new
    /// ids. Unless `whitespace`, Python's whitespace (`scan.space`) is dropped first
    /// (`''.join(line.split())`).
    pub(crate) fn intern(&mut self, text: &str, scan: &Scan, whitespace: bool, out: &mut Vec<u32>) {
        out.clear();
        // Room for every non-ASCII character the text can hold. Each takes two bytes or more:
        // half the length bounds them, which is what a sentence reserves (no pass over it).
        // A long text counts them instead (each begins with a byte 0xC0 or above): half of a
        // 10 MB line of ASCII reserved 256 MB of slots for 5 million imagined ones (issue 25).
        let others = if text.len() <= LONG_TEXT {
            text.len() / 2
        } else {
            non_ascii_chars(text)
        };
        self.other.reserve(others);
        let CharVocab {
            other,
            next,
            scratch,
        } = self;
        char_ids(text, scan, whitespace, scratch, out, |cp| {
            let id = other.insert_reserved(u64::from(cp), *next);
            *next += u32::from(id == *next);
            id
        });
    }

    /// Appends the ids of the characters of `text` to `out` (references are stored back to
    /// back), [`ABSENT`] for non-ASCII characters the hypothesis lacks. (An ASCII character
    /// keeps its id even if the hypothesis lacks it: it matches nothing there.)
    pub(crate) fn lookup(&mut self, text: &str, scan: &Scan, whitespace: bool, out: &mut Vec<u32>) {
        let CharVocab { other, scratch, .. } = self;
        char_ids(text, scan, whitespace, scratch, out, |cp| {
            other.get_or(u64::from(cp), ABSENT)
        });
    }
}

/// How many characters of `text` are not ASCII (each begins with a byte 0xC0 or above): a long
/// text's pass, kept out of line so that a sentence's code is as it was.
#[cold]
#[inline(never)]
fn non_ascii_chars(text: &str) -> usize {
    text.bytes().filter(|&b| b >= 0xc0).count()
}

/// Appends the ids of the characters of `text` to `out`: `b + 1` for an ASCII byte `b`, and
/// `other(code point)` for other characters; whitespace is dropped unless `whitespace`.
///
/// Performance decision: the text is read eight bytes at a time. The ASCII bytes before the
/// first byte with its high bit set (all eight, in most blocks of European text) are written
/// as one block, each id in place and the write position advanced past the kept ones, with
/// no branch per byte; then one non-ASCII character is decoded whole (CJK text: one step per
/// character, not per byte).
#[inline(always)]
fn char_ids(
    text: &str,
    scan: &Scan,
    whitespace: bool,
    scratch: &mut Vec<u32>,
    out: &mut Vec<u32>,
    mut other: impl FnMut(u32) -> u32,
) {
    let bytes = text.as_bytes();
    let space = scan.space();
    // Room for a block of eight ids past every write position (which is at most the byte's).
    let ids = super::room(scratch, bytes.len() + 8);
    let keep_space = u8::from(whitespace);
    let (mut i, mut k) = (0, 0);
    while i < bytes.len() {
        if let (Some(b8), Some(sp8)) =
            (bytes[i..].first_chunk::<8>(), space[i..].first_chunk::<8>())
        {
            // How many ASCII bytes lead the block.
            let high = u64::from_le_bytes(*b8) & 0x8080_8080_8080_8080;
            let ascii = (high.trailing_zeros() / 8) as usize;
            if ascii > 0 {
                let dst: &mut [u32; 8] = (&mut ids[k..k + 8]).try_into().expect("8 ids");
                // Two copies: all eight (the usual block, no mask per byte), or fewer.
                k += if ascii == 8 {
                    ascii_block(dst, (b8, sp8), keep_space, 8)
                } else {
                    ascii_block(dst, (b8, sp8), keep_space, ascii)
                };
                i += ascii;
                continue;
            }
        }
        // One character starts at `i` (a boundary): ASCII near the end, or not ASCII.
        let keep = (keep_space | (space[i] ^ 1)) != 0;
        let (id, len) = match text.get(i..).and_then(|t| t.chars().next()) {
            Some(c) if !c.is_ascii() => (if keep { other(c as u32) } else { ABSENT }, c.len_utf8()),
            _ => (u32::from(bytes[i]) + 1, 1),
        };
        ids[k] = id;
        k += usize::from(keep);
        i += len;
    }
    out.extend_from_slice(&ids[..k]);
}

/// Writes the ids of the first `ascii` bytes of `b8` (ASCII) to `dst`, each in place;
/// returns how many are kept (`sp8`: whitespace bytes, dropped unless `keep_space`).
#[inline(always)]
fn ascii_block(
    dst: &mut [u32; 8],
    (b8, sp8): (&[u8; 8], &[u8; 8]),
    keep_space: u8,
    ascii: usize,
) -> usize {
    let mut n = 0;
    for (t, (&b, &sp)) in b8.iter().zip(sp8).enumerate() {
        // `n` counts the bytes kept before this one, so it is below 8 (the mask says so to
        // the compiler: no bounds check).
        dst[n & 7] = u32::from(b) + 1;
        n += usize::from((keep_space | (sp ^ 1)) & u8::from(t < ascii));
    }
    n
}

/// Words to ids for one segment (ids from 1, in order of first appearance in the hypothesis).
#[derive(Debug, Default)]
pub(crate) struct WordVocab {
    map: TokenMap,
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

    /// The ids of the words of `text` (`scan.words`), in `out` (cleared first), giving new
    /// words new ids.
    pub(crate) fn intern(&mut self, text: &str, scan: &Scan, out: &mut Vec<u32>) {
        out.clear();
        // One copy of the text into the map's arena, then the words are found there.
        let base = self
            .map
            .append_arena(text.as_bytes(), scan.word_ranges().len());
        for &(a, b) in scan.word_ranges() {
            let (id, _) = self
                .map
                .get_or_insert_arena(base + a as usize, (b - a) as usize);
            out.push(id + 1);
        }
    }

    /// Appends the ids of the words of `text` (`scan.words`) to `out`, [`ABSENT`] for words
    /// the hypothesis lacks.
    pub(crate) fn lookup(&mut self, text: &str, scan: &Scan, out: &mut Vec<u32>) {
        self.pad.clear();
        self.pad.extend_from_slice(text.as_bytes());
        padded(&mut self.pad);
        for &(a, b) in scan.word_ranges() {
            let id = self.map.get_at(&self.pad, a as usize, (b - a) as usize);
            out.push(id.map_or(ABSENT, |id| id + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &mut CharVocab, text: &str, whitespace: bool, intern: bool) -> Vec<u32> {
        let mut scan = Scan::default();
        scan.spaces(text);
        let mut out = Vec::new();
        if intern {
            v.intern(text, &scan, whitespace, &mut out);
        } else {
            v.lookup(text, &scan, whitespace, &mut out);
        }
        out
    }

    #[test]
    fn char_ids_of_ascii_runs_and_mixed_text() {
        // Texts of every length up to 40 over ASCII, Python whitespace and non-ASCII
        // characters, so that eight-byte blocks are all ASCII, mixed, or cut by the end.
        let pieces = [
            "a", " ", "Zq", "\x1f", "é", "\u{3000}", "\t", ".,", "\u{200b}", "xyz",
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut text = String::new();
            while text.len() < (x % 41) as usize {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text.push_str(pieces[(x % pieces.len() as u64) as usize]);
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for whitespace in [false, true] {
                let mut v = CharVocab::default();
                v.clear();
                let mut other = std::collections::HashMap::new();
                let want: Vec<u32> = text
                    .chars()
                    .filter(|&c| whitespace || !crate::text::whitespace::is_py_space(c))
                    .map(|c| {
                        if c.is_ascii() {
                            c as u32 + 1
                        } else {
                            let next = ASCII_IDS + other.len() as u32;
                            *other.entry(c).or_insert(next)
                        }
                    })
                    .collect();
                assert_eq!(ids(&mut v, &text, whitespace, true), want, "{text:?}");
            }
        }
    }

    #[test]
    fn char_ids_drop_python_whitespace() {
        let mut v = CharVocab::default();
        v.clear();
        let hyp = ids(&mut v, "a\u{a0}b\u{200b}\x1fé", false, true);
        assert_eq!(hyp, vec![98, 99, ASCII_IDS, ASCII_IDS + 1]);
        let hyp = ids(&mut v, "a \x1c\x0b", true, true);
        assert_eq!(hyp, vec![98, 33, 29, 12]);
        let r = ids(&mut v, "\u{200b}ü a\u{3000}", false, false);
        assert_eq!(r, vec![ASCII_IDS, ABSENT, 98]);
        let r = ids(&mut v, "\u{200b}ü a\u{3000}", true, false);
        assert_eq!(r, vec![ASCII_IDS, ABSENT, 33, 98, ABSENT]);
    }
}

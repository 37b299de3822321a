//! One pass over a segment's bytes: which bytes belong to Python whitespace characters
//! (`str.split()`'s set, as in `crate::whitespace`), and from that the byte ranges of its
//! words after `CHRF._remove_punctuation` (sacreBLEU 2.6.0).
//!
//! Performance decision: spaces come every few bytes, unpredictably, so nothing here branches
//! on them. Bytes are classified by range tests; word boundaries are the 0/1 transitions of
//! the space mask, packed 64 bytes to a word and read by bit scans; punctuation is split off with selects. A
//! slower pass decodes characters only when the text holds a byte that can begin a
//! multi-byte whitespace character (0xC2, 0xE1, 0xE2, 0xE3).

use crate::text::whitespace::is_py_space;

/// The scan of one text (buffers reused from text to text, see [`super::room`]).
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// `space[i]` is 1 where byte `i` belongs to a whitespace character, else 0.
    space: Vec<u8>,
    /// The text's length in bytes.
    len: usize,
    starts: Vec<u32>,
    ends: Vec<u32>,
    /// Byte ranges of the words (`words[..n_words]`), after [`Scan::words`].
    words: Vec<(u32, u32)>,
    n_words: usize,
}

impl Scan {
    /// Fills [`Scan::space`] for `text`.
    pub(crate) fn spaces(&mut self, text: &str) {
        let bytes = text.as_bytes();
        self.len = bytes.len();
        let space = super::room(&mut self.space, bytes.len());
        // An ASCII whitespace byte for Python: `\t\n\v\f\r`, `\x1c`-`\x1f` and space (Rust's
        // `u8::is_ascii_whitespace` lacks `\v` and `\x1c`-`\x1f`). `maybe`: some byte may begin a
        // multi-byte whitespace character (U+0085, U+00A0: 0xC2; U+1680: 0xE1; U+2000-U+205F:
        // 0xE2; U+3000: 0xE3). Performance decision: range tests by wrapping subtraction, not a
        // table, so the loop is vectorised (16 or 32 bytes a step).
        let mut maybe = 0u8;
        for (m, &b) in space.iter_mut().zip(bytes) {
            *m = u8::from(b.wrapping_sub(0x09) < 5) | u8::from(b.wrapping_sub(0x1c) < 5);
            maybe |= u8::from(b == 0xc2) | u8::from(b.wrapping_sub(0xe1) < 3);
        }
        if maybe != 0 {
            for (i, c) in text.char_indices() {
                if !c.is_ascii() && is_py_space(c) {
                    space[i..i + c.len_utf8()].fill(1);
                }
            }
        }
    }

    /// Fills [`Scan::words`] for `text` (after [`Scan::spaces`]): `_remove_punctuation` over
    /// `text.split()`.
    ///
    /// Each token of two or more characters loses one character of ASCII punctuation
    /// (`string.punctuation`, which is exactly `u8::is_ascii_punctuation`): the last if it is
    /// punctuation, else the first if it is. So `(hi)` gives `(hi` and `)` (sacreBLEU issue
    /// #124). Byte tests suffice: a non-ASCII character neither begins nor ends with an ASCII
    /// byte, so a one-character token of several bytes is never split, as in Python.
    pub(crate) fn words(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let n = bytes.len();
        let starts = super::room(&mut self.starts, n / 2 + 2);
        // A token open at the end ends in the padding block, at `n`.
        let ends = super::room(&mut self.ends, n / 2 + 2);
        // Tokens start where a space is followed by a non-space, and end the other way. The
        // space mask is packed 64 bytes to a word, so a block costs a few instructions plus
        // one per token edge (the byte before the text counts as a space, and so do the
        // bytes after it: a token open at the end ends at `n`).
        let (mut ns, mut ne, mut prev) = (0, 0, 1u64);
        let mut edges = |block: &[u8; 64], base: u32| {
            let m = pack64(block);
            let before = (m << 1) | prev;
            prev = m >> 63;
            let (mut s, mut e) = (!m & before, m & !before);
            while s != 0 {
                starts[ns] = base + s.trailing_zeros();
                ns += 1;
                s &= s - 1;
            }
            while e != 0 {
                ends[ne] = base + e.trailing_zeros();
                ne += 1;
                e &= e - 1;
            }
        };
        let mut blocks = self.space[..n].chunks_exact(64);
        let mut base = 0u32;
        for block in &mut blocks {
            edges(block.try_into().expect("64 bytes"), base);
            base += 64;
        }
        let mut last = [1u8; 64];
        last[..blocks.remainder().len()].copy_from_slice(blocks.remainder());
        edges(&last, base);
        debug_assert_eq!(ns, ne);
        let words = super::room(&mut self.words, 2 * ns + 1);
        let mut nw = 0;
        for (&a, &b) in starts[..ns].iter().zip(&ends[..ns]) {
            let long = b - a >= 2;
            let last = long && bytes[b as usize - 1].is_ascii_punctuation();
            let first = long && bytes[a as usize].is_ascii_punctuation();
            let cut = if last {
                b - 1
            } else if first {
                a + 1
            } else {
                b
            };
            words[nw] = (a, cut);
            words[nw + 1] = (cut, b);
            nw += 1 + usize::from(cut != b);
        }
        self.n_words = nw;
    }

    /// `space[i]` is 1 where byte `i` of the text belongs to a whitespace character.
    pub(crate) fn space(&self) -> &[u8] {
        &self.space[..self.len]
    }

    /// Byte ranges of the words, after [`Scan::words`].
    pub(crate) fn word_ranges(&self) -> &[(u32, u32)] {
        &self.words[..self.n_words]
    }
}

/// Bit `k` of the result is byte `k` of `block` (each byte 0 or 1).
///
/// Performance decision: one multiply gathers eight 0/1 bytes into a byte (byte `k` lands at
/// bit `56 + k` of the product, and no two partial products meet there), so 64 bytes of the
/// mask take eight multiplies instead of 64 compares and stores.
#[inline(always)]
fn pack64(block: &[u8; 64]) -> u64 {
    let mut m = 0u64;
    for (k, eight) in block.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
        m |= (w.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::whitespace::py_split;

    fn words(text: &str) -> Vec<&str> {
        let mut s = Scan::default();
        s.spaces(text);
        s.words(text);
        s.word_ranges()
            .iter()
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
            words("é. .é é\u{1f}x\u{200b}.\u{3000}\u{2003}„a“"),
            vec!["é", ".", ".", "é", "é", "x\u{200b}", ".", "„a“"]
        );
        assert_eq!(words(""), Vec::<&str>::new());
        assert_eq!(words(" \u{a0} "), Vec::<&str>::new());
    }

    #[test]
    fn words_at_every_length_across_blocks() {
        // Texts cut at every length (64-byte blocks full, cut, or with a
        // token running to the end or into the next block): the words are Python's tokens.
        let base = "ab cde  f\tghij\u{3000}k lmnopqrstuvwxyz0123456789ABCDEFGHIJ   KL \u{85}m ";
        // And a token longer than a block.
        let long = format!("{}{} {}", base.repeat(2), "y".repeat(70), base.repeat(2));
        for n in 0..=long.len() {
            let Some(text) = long.get(..n) else { continue };
            for text in [text.to_string(), format!(" {text}"), format!("{text}x")] {
                assert_eq!(
                    words(&text),
                    py_split(&text).collect::<Vec<_>>(),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn pack64_gathers_every_byte() {
        for v in 0..=255u64 {
            for k in 0..8 {
                let mut block = [0u8; 64];
                for b in 0..8 {
                    block[8 * k + b] = ((v >> b) & 1) as u8;
                }
                assert_eq!(pack64(&block), v << (8 * k));
            }
        }
        assert_eq!(pack64(&[1u8; 64]), u64::MAX);
    }

    #[test]
    fn ascii_punctuation_is_string_punctuation() {
        let punct: Vec<u8> = (0..=255u8).filter(u8::is_ascii_punctuation).collect();
        assert_eq!(punct, b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".to_vec());
    }

    #[test]
    fn space_mask_and_tokens_are_pythons() {
        // Every code point below U+3100 (all of Python's whitespace is there) and every 61st
        // above, between letters: the mask marks exactly the bytes of Python's whitespace,
        // and without ASCII punctuation the words are `str.split()`'s tokens.
        let text: String = (0..=0x10ffffu32)
            .filter(|&cp| cp < 0x3100 || cp % 61 == 0)
            .filter_map(char::from_u32)
            .filter(|c| !c.is_ascii_punctuation())
            .flat_map(|c| ['a', c, 'b'])
            .collect();
        assert_eq!(words(&text), py_split(&text).collect::<Vec<_>>());
        let mut s = Scan::default();
        s.spaces(&text);
        for (i, c) in text.char_indices() {
            let want = u8::from(is_py_space(c));
            assert!(
                s.space[i..i + c.len_utf8()].iter().all(|&m| m == want),
                "{c:?}"
            );
        }
    }
}

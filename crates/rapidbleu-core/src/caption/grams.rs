//! The n-grams of one image's captions, numbered: pycocoevalcap's `precook` (`s.split()`, then
//! every n-gram of order 1, then of order 2, ...) with tokens and n-grams as dense codes local
//! to the image, so counts are arrays instead of dictionaries of tuples.

use crate::text::whitespace::py_split;
use rustc_hash::FxHashMap;

/// The prefix of a unigram's key (no n-gram has this code: codes are counted from 0).
pub(crate) const NO_PREFIX: u32 = u32::MAX;

/// The key of an n-gram: the code of its (n-1)-gram prefix ([`NO_PREFIX`] for a unigram) and
/// its last token's code, so n-grams of any order are keyed exactly by two `u32`.
#[inline]
pub(crate) fn key(prefix: u32, last: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(last)
}

/// Token and n-gram codes of one image (made per image: its maps borrow the captions).
#[derive(Default)]
pub(crate) struct ImageGrams<'a> {
    tokens: FxHashMap<&'a str, u32>,
    ngrams: FxHashMap<u64, u32>,
}

impl<'a> ImageGrams<'a> {
    /// The codes of `caption`'s tokens (Python's `caption.split()`), into `out` (cleared).
    pub(crate) fn tokens(&mut self, caption: &'a str, out: &mut Vec<u32>) {
        out.clear();
        for t in py_split(caption) {
            let next = self.tokens.len() as u32;
            out.push(*self.tokens.entry(t).or_insert(next));
        }
    }

    /// The codes of the n-grams of `tokens` of orders `1..=max_n`, in `precook`'s order (every
    /// unigram left to right, then every bigram, ...), into `out` (cleared).
    pub(crate) fn ngrams(&mut self, tokens: &[u32], max_n: usize, out: &mut Vec<u32>) {
        out.clear();
        let mut prev_start = 0;
        for k in 1..=max_n.min(tokens.len()) {
            let start = out.len();
            for i in 0..=tokens.len() - k {
                let prefix = if k == 1 { NO_PREFIX } else { out[prev_start + i] };
                let next = self.ngrams.len() as u32;
                let code = *self
                    .ngrams
                    .entry(key(prefix, tokens[i + k - 1]))
                    .or_insert(next);
                out.push(code);
            }
            prev_start = start;
        }
    }

    /// Number of distinct n-grams coded so far.
    pub(crate) fn len(&self) -> usize {
        self.ngrams.len()
    }
}

/// The order (1-based) of the n-gram at `index` of [`ImageGrams::ngrams`]'s output for `len`
/// tokens, and the index where that order starts: order `k` holds `len - k + 1` n-grams.
#[cfg(test)]
pub(crate) fn order_of(index: usize, len: usize) -> usize {
    let mut start = 0;
    let mut k = 1;
    while index >= start + (len + 1 - k) {
        start += len + 1 - k;
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precook_order() {
        let mut g = ImageGrams::default();
        let (mut toks, mut grams) = (Vec::new(), Vec::new());
        g.tokens("a b\u{3000}a  b", &mut toks);
        assert_eq!(toks, [0, 1, 0, 1]);
        g.ngrams(&toks, 4, &mut grams);
        // a b a b | ab ba ab | aba bab | abab
        assert_eq!(grams, [0, 1, 0, 1, 2, 3, 2, 4, 5, 6]);
        assert_eq!(order_of(3, 4), 1);
        assert_eq!(order_of(4, 4), 2);
        assert_eq!(order_of(9, 4), 4);
        g.tokens("", &mut toks);
        g.ngrams(&toks, 4, &mut grams);
        assert!(grams.is_empty());
        assert_eq!(g.len(), 7);
    }
}

//! The n-grams of one image's captions, numbered: pycocoevalcap's `precook` (`s.split()`, then
//! every n-gram of order 1, then of order 2, ...) with tokens and n-grams as dense codes local
//! to the image, so counts are arrays instead of dictionaries of tuples.
//!
//! Performance decision: a worker keeps one [`ImageGrams`] for all its images; the engine's
//! maps empty in O(1) between images, so an image costs no allocation.

use crate::engine::ngram_map::{ngram_key, NgramMap};
use crate::engine::token_map::{padded, TokenMap};
use crate::text::whitespace::py_split_ranges;

/// The prefix of a unigram's key (no n-gram has this code: codes are counted from 0).
pub(crate) const NO_PREFIX: u32 = u32::MAX;

/// The key of an n-gram: the code of its (n-1)-gram prefix ([`NO_PREFIX`] for a unigram) and
/// its last token's code, so n-grams of any order are keyed exactly by two `u32`.
#[inline]
pub(crate) fn key(prefix: u32, last: u32) -> u64 {
    ngram_key(prefix, last)
}

/// Token and n-gram codes of one image (cleared between images).
///
/// Performance decision: a unigram's code is given when its token is first seen (`unigram`,
/// by token code), so unigrams cost an array read instead of a look-up in the n-gram map (a
/// quarter of the n-grams). N-gram codes, unigrams' included, are numbered by `used`.
#[derive(Default)]
pub(crate) struct ImageGrams {
    tokens: TokenMap,
    ngrams: NgramMap,
    /// Per token code: its unigram's n-gram code.
    unigram: Vec<u32>,
    /// N-gram codes given since the last clear.
    used: u32,
    /// A caption's token byte ranges (scratch).
    ranges: Vec<(u32, u32)>,
    /// A caption's bytes, padded for the token map (scratch).
    text: Vec<u8>,
}

impl ImageGrams {
    /// Forgets the previous image's codes.
    pub(crate) fn clear(&mut self) {
        self.tokens.clear();
        self.ngrams.clear();
        self.unigram.clear();
        self.used = 0;
    }

    /// The codes of `caption`'s tokens (Python's `caption.split()`), into `out` (cleared).
    pub(crate) fn tokens(&mut self, caption: &str, out: &mut Vec<u32>) {
        out.clear();
        // One copy of the caption into the map's arena (see TokenMap::append_arena).
        let base = self
            .tokens
            .append_arena(caption.as_bytes(), caption.len().div_ceil(2));
        // Byte ranges, not `str::split`'s char-by-char iterator (a third of BLEU's time).
        self.ranges.clear();
        py_split_ranges(caption, &mut self.ranges);
        for &(a, b) in &self.ranges {
            let len = (b - a) as usize;
            let (code, new) = self.tokens.get_or_insert_arena(base + a as usize, len);
            if new {
                self.unigram.push(self.used);
                self.used += 1;
            }
            out.push(code);
        }
    }

    /// The codes of the n-grams of `tokens` of orders `1..=max_n`, in `precook`'s order (every
    /// unigram left to right, then every bigram, ...), into `out` (cleared).
    pub(crate) fn ngrams(&mut self, tokens: &[u32], max_n: usize, out: &mut Vec<u32>) {
        let len = tokens.len();
        let orders = max_n.min(len);
        self.ngrams.reserve(orders * len);
        // Written by index into a buffer of the final size, order by order: the prefixes are
        // the previous order's codes, read from the part already written.
        let total: usize = (1..=orders).map(|k| len + 1 - k).sum();
        out.clear();
        out.resize(total, 0);
        let (map, unigram) = (&mut self.ngrams, &self.unigram);
        let mut used = self.used;
        let (unigrams, mut rest) = out.split_at_mut(len.min(total));
        for (o, &t) in unigrams.iter_mut().zip(tokens) {
            *o = unigram[t as usize];
        }
        let mut prev: &[u32] = unigrams;
        for k in 2..=orders {
            let (cur, next_rest) = rest.split_at_mut(len + 1 - k);
            for ((o, &p), &t) in cur.iter_mut().zip(prev).zip(&tokens[k - 1..]) {
                let c = map.insert_reserved(key(p, t), used);
                used += u32::from(c == used);
                *o = c;
            }
            prev = cur;
            rest = next_rest;
        }
        self.used = used;
    }

    /// The codes of `caption`'s tokens that are coded already (given by
    /// [`ImageGrams::tokens`] since the last clear), [`NO_PREFIX`] for the others, into `out`
    /// (cleared). Nothing is coded.
    pub(crate) fn known_tokens(&mut self, caption: &str, out: &mut Vec<u32>) {
        out.clear();
        // A padded copy, for the map's branch-free path up to the caption's end.
        self.text.clear();
        self.text.extend_from_slice(caption.as_bytes());
        padded(&mut self.text);
        self.ranges.clear();
        py_split_ranges(caption, &mut self.ranges);
        for &(a, b) in &self.ranges {
            let code = self.tokens.get_at(&self.text, a as usize, (b - a) as usize);
            out.push(code.unwrap_or(NO_PREFIX));
        }
    }

    /// The codes of the n-grams of `tokens` (from [`ImageGrams::known_tokens`]) of orders
    /// `1..=max_n`, in `precook`'s order, [`NO_PREFIX`] for those not coded; into `out`
    /// (cleared). Nothing is coded.
    ///
    /// An n-gram with an unknown token or prefix has [`NO_PREFIX`] in its key, which no coded
    /// key has, so its look-up finds nothing without a branch on it.
    pub(crate) fn known_ngrams(&self, tokens: &[u32], max_n: usize, out: &mut Vec<u32>) {
        let len = tokens.len();
        let orders = max_n.min(len);
        let total: usize = (1..=orders).map(|k| len + 1 - k).sum();
        out.clear();
        out.resize(total, 0);
        let (unigrams, mut rest) = out.split_at_mut(len.min(total));
        let Some(last) = self.unigram.len().checked_sub(1) else {
            return out.fill(NO_PREFIX);
        };
        for (o, &t) in unigrams.iter_mut().zip(tokens) {
            // Without a branch on whether the token is known (a third of them are not).
            let known = (t as usize) <= last;
            let code = self.unigram[(t as usize).min(last)];
            *o = std::hint::select_unpredictable(known, code, NO_PREFIX);
        }
        let mut prev: &[u32] = unigrams;
        for k in 2..=orders {
            let (cur, next_rest) = rest.split_at_mut(len + 1 - k);
            for ((o, &p), &t) in cur.iter_mut().zip(prev).zip(&tokens[k - 1..]) {
                *o = self.ngrams.get_or(key(p, t), NO_PREFIX);
            }
            prev = cur;
            rest = next_rest;
        }
    }

    /// Number of distinct n-grams coded since the last [`ImageGrams::clear`].
    pub(crate) fn len(&self) -> usize {
        self.used as usize
    }
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
        g.tokens("", &mut toks);
        g.ngrams(&toks, 4, &mut grams);
        assert!(grams.is_empty());
        assert_eq!(g.len(), 7);
        g.clear();
        g.tokens("b", &mut toks);
        assert_eq!(toks, [0]);
        // The unigram's code is given with the token.
        assert_eq!(g.len(), 1);
    }
}

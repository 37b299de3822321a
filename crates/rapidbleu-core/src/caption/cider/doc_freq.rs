//! CIDEr-D's document frequencies: for every n-gram of orders 1..4, the number of images whose
//! reference set holds it (`CiderScorer.compute_doc_freq`: an n-gram counts once per image),
//! and the number of images.
//!
//! Built once from a corpus of references, text (`split()` tokens) or token IDs, and then only
//! read: the COCO evaluation builds it from the references it scores, a self-critical training
//! loop from its training set and reuses it for every batch.
//!
//! Performance decision: only frequencies of 2 or more are kept. CIDEr-D uses an n-gram's
//! frequency through `log(max(1, df))`, which is 0 for a frequency of 0 or 1, and an n-gram
//! found in 2 images has both of its (n-1)-grams in those 2 images (the Apriori property). So
//! the order-n pass counts only n-grams whose two (n-1)-grams are frequent: on 5,000 WMT
//! images of 5 references, 48k of 690k distinct n-grams have a frequency of 2 or more, and the
//! table of candidates stays in cache where the table of every n-gram (tens of MB) did not.

use super::MAX_ORDER;
use crate::caption::grams::key;
use crate::corpus::Groups;
use crate::engine::ngram_map::NgramMap;
use crate::engine::token_map::TokenMap;
use crate::error::CoreError;
use crate::text::whitespace::py_split_ranges;

/// "No code": a token the corpus lacks, or an n-gram that is not a candidate.
pub(crate) const NONE: u32 = u32::MAX;

/// The document frequencies of a reference corpus (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct DocumentFrequency {
    /// Whether the corpus was token IDs.
    pub(super) ids: bool,
    /// Text tokens -> token codes (a token's code is its unigram's code).
    text_vocab: TokenMap,
    /// Token IDs -> token codes.
    id_vocab: NgramMap,
    /// N-grams of order 2 or more and frequency 2 or more: `key(prefix code, last token code)`
    /// -> code (while building: every candidate).
    pub(super) ngrams: NgramMap,
    /// Per code (tokens first, then n-grams; after the build only those of frequency 2 or
    /// more): the number of images holding it.
    pub(super) df: Vec<u32>,
    pub(super) images: usize,
    /// Distinct tokens and n-gram candidates counted while building.
    pub(super) counted: usize,
}

/// What a caption is made of: text (tokens by Python's `split()`) or token IDs.
pub trait Caption<'a>: Copy + Send + Sync {
    /// Whether this kind is token IDs.
    const IDS: bool;

    /// The text, for text captions.
    fn text(self) -> Option<&'a str>;

    /// The token IDs, for token-ID captions.
    fn ids(self) -> Option<&'a [u32]>;
}

impl<'a> Caption<'a> for &'a str {
    const IDS: bool = false;

    fn text(self) -> Option<&'a str> {
        Some(self)
    }

    fn ids(self) -> Option<&'a [u32]> {
        None
    }
}

impl<'a> Caption<'a> for &'a [u32] {
    const IDS: bool = true;

    fn text(self) -> Option<&'a str> {
        None
    }

    fn ids(self) -> Option<&'a [u32]> {
        Some(self)
    }
}

/// An error unless `n` codes fit below [`NONE`].
pub(super) fn check_codes(n: usize) -> Result<(), CoreError> {
    if n >= NONE as usize {
        return Err(CoreError::TooLarge(format!(
            "the reference corpus has more than {} distinct tokens or n-gram candidates; \
             build the document frequencies from fewer references",
            NONE - 1
        )));
    }
    Ok(())
}

impl DocumentFrequency {
    /// The document frequencies of text references: `refs.get(i)` are image `i`'s.
    pub fn from_texts(refs: &Groups<&str>) -> Result<Self, CoreError> {
        Self::build(refs)
    }

    /// The document frequencies of token-ID references: `refs.get(i)` are image `i`'s.
    pub fn from_ids(refs: &Groups<&[u32]>) -> Result<Self, CoreError> {
        Self::build(refs)
    }

    /// Empties the frequencies for a count of `ids` (token IDs) or text (the tables' buffers
    /// stay).
    pub(super) fn reset(&mut self, ids: bool) {
        self.ids = ids;
        self.text_vocab.clear();
        self.id_vocab.clear();
        self.ngrams.clear();
        self.df.clear();
        self.images = 0;
        self.counted = 0;
    }

    /// The global code of a token of the corpus being built (added if new).
    pub(super) fn add_token(&mut self, tok: TokenRef<'_>) -> u32 {
        match tok {
            TokenRef::Text(t) => self.text_vocab.get_or_insert(t.as_bytes()),
            TokenRef::At(buf, start, len) => match self.text_vocab.get_at(buf, start, len) {
                Some(c) => c,
                None => self.text_vocab.get_or_insert(&buf[start..start + len]),
            },
            TokenRef::Id(id) => {
                self.id_vocab.reserve(1);
                let next = self.id_vocab.len() as u32;
                self.id_vocab.insert_reserved(u64::from(id), next)
            }
        }
    }

    /// The global code of a token, or [`NONE`] if the corpus lacks it.
    #[inline]
    pub(crate) fn token(&self, tok: TokenRef<'_>) -> u32 {
        match tok {
            TokenRef::Text(t) => self.text_vocab.get(t.as_bytes()).unwrap_or(NONE),
            TokenRef::At(buf, start, len) => {
                self.text_vocab.get_at(buf, start, len).unwrap_or(NONE)
            }
            TokenRef::Id(id) => self.id_vocab.get_or(u64::from(id), NONE),
        }
    }

    pub(super) fn vocab_len(&self) -> usize {
        if self.ids {
            self.id_vocab.len()
        } else {
            self.text_vocab.len()
        }
    }

    pub(crate) fn build<'a, C: Caption<'a>>(refs: &Groups<C>) -> Result<Self, CoreError> {
        check_codes(refs.len())?;
        let mut d = DocumentFrequency {
            ids: C::IDS,
            ..Default::default()
        };
        // Order 1: every token, and per reference where its tokens start in `toks`.
        let (mut toks, mut spans) = (Vec::new(), Vec::new());
        let mut last: Vec<u32> = Vec::new();
        let mut ranges = Vec::new();
        // Each token's bytes (or ID) by code, to rebuild the vocabulary with the frequent ones.
        let mut seen = Seen::default();
        for (img, group) in refs.iter().enumerate() {
            let stamp = img as u32 + 1;
            for &r in group {
                let start = toks.len();
                for_each_token(r, &mut ranges, |t| {
                    let c = d.add_token(t);
                    seen.record(c, t);
                    toks.push(c);
                });
                spans.push((start, toks.len(), img));
                check_codes(d.vocab_len())?;
                d.df.resize(d.vocab_len(), 0);
                last.resize(d.vocab_len(), 0);
                for &c in &toks[start..] {
                    if last[c as usize] != stamp {
                        last[c as usize] = stamp;
                        d.df[c as usize] += 1;
                    }
                }
            }
        }
        // Orders 2..4: candidates only (see the module documentation). `prev` holds each
        // reference's codes of the previous order, `cur` of this one (NONE: not a candidate).
        let (mut prev, mut cur) = (toks.clone(), Vec::with_capacity(toks.len()));
        let mut keys: Vec<(u64, u32)> = Vec::new();
        let mut prev_spans: Vec<usize> = spans.iter().map(|s| s.0).collect();
        for k in 2..=MAX_ORDER {
            cur.clear();
            let mut cur_spans = Vec::with_capacity(spans.len());
            for (s, &(start, end, img)) in spans.iter().enumerate() {
                cur_spans.push(cur.len());
                let stamp = img as u32 + 1;
                let len = end - start;
                if len < k {
                    continue;
                }
                let p = &prev[prev_spans[s]..];
                d.ngrams.reserve(len + 1 - k);
                for i in 0..=len - k {
                    let (a, b) = (p[i], p[i + 1]);
                    let frequent = |c: u32| c != NONE && d.df[c as usize] >= 2;
                    if !(frequent(a) && frequent(b)) {
                        cur.push(NONE);
                        continue;
                    }
                    let next = d.df.len() as u32;
                    let kk = key(a, toks[start + i + k - 1]);
                    let c = d.ngrams.insert_reserved(kk, next);
                    if c == next {
                        keys.push((kk, c));
                        check_codes(d.df.len() + 1)?;
                        d.df.push(0);
                        last.push(0);
                    }
                    if last[c as usize] != stamp {
                        last[c as usize] = stamp;
                        d.df[c as usize] += 1;
                    }
                    cur.push(c);
                }
            }
            std::mem::swap(&mut prev, &mut cur);
            prev_spans = cur_spans;
        }
        d.counted = d.df.len();
        d.compact(&keys, &seen);
        d.images = refs.len();
        Ok(d)
    }

    /// Keeps the tokens and candidates of frequency 2 or more only, renumbered densely
    /// (tokens first), in the vocabulary, the n-gram table and `df`.
    ///
    /// Performance decision: scoring looks every new token and n-gram of an image up in these
    /// tables, at random: of the example in the module documentation, 14k of 45k tokens and
    /// 34k of 200k candidates are kept, so the vocabulary shrinks from 4 MiB to 1 MiB and
    /// `df` from 1 MiB to 200 KiB, and the look-ups miss the cache far less. A token or
    /// n-gram of frequency 0 or 1 then has no code ([`NONE`]), which CIDEr-D cannot tell from
    /// a frequency of 1 (`log(max(1, df))` is 0 for both); an n-gram with such a token or
    /// prefix has a frequency of 0 or 1 too.
    fn compact(&mut self, keys: &[(u64, u32)], seen: &Seen) {
        let vocab = self.vocab_len();
        let mut renumber = vec![NONE; self.df.len()];
        let mut df = Vec::new();
        let codes = (0..vocab as u32).chain(keys.iter().map(|&(_, c)| c));
        for c in codes {
            if self.df[c as usize] >= 2 {
                renumber[c as usize] = df.len() as u32;
                df.push(self.df[c as usize]);
            }
        }
        if self.ids {
            self.id_vocab = NgramMap::default();
            self.id_vocab.reserve(df.len());
            for (c, &id) in seen.ids.iter().enumerate() {
                if renumber[c] != NONE {
                    self.id_vocab.insert_reserved(u64::from(id), renumber[c]);
                }
            }
        } else {
            self.text_vocab = TokenMap::default();
            for (c, w) in seen.spans.windows(2).enumerate() {
                if renumber[c] != NONE {
                    // In code order: the map gives the next code, the same as `renumber`'s.
                    self.text_vocab.get_or_insert(&seen.bytes[w[0]..w[1]]);
                }
            }
        }
        let mut ngrams = NgramMap::default();
        ngrams.reserve(keys.len().min(df.len()));
        for &(kk, c) in keys {
            let new = renumber[c as usize];
            if new != NONE {
                // A frequent n-gram's prefix and last token are frequent (the Apriori
                // property, see the module documentation), so both have new codes.
                let (prefix, last) = ((kk >> 32) as u32, kk as u32);
                ngrams
                    .insert_reserved(key(renumber[prefix as usize], renumber[last as usize]), new);
            }
        }
        self.ngrams = ngrams;
        self.df = df;
    }

    /// The code of the n-gram of prefix code `prefix` (a token code for a bigram) and last
    /// token code `last`, or [`NONE`] when its frequency is 0 or 1 (either way `log(max(1,
    /// df))` is 0; every code left after the build has a frequency of 2 or more).
    #[inline]
    pub(crate) fn extend(&self, prefix: u32, last: u32) -> u32 {
        if prefix == NONE || last == NONE {
            return NONE;
        }
        self.ngrams.get_or(key(prefix, last), NONE)
    }

    /// The document frequency of code `c` (0 for [`NONE`]).
    #[inline]
    pub(crate) fn count(&self, c: u32) -> u32 {
        if c == NONE {
            0
        } else {
            self.df[c as usize]
        }
    }

    /// The number of images the frequencies were counted over.
    pub fn images(&self) -> usize {
        self.images
    }

    /// The number of distinct tokens and n-gram candidates counted.
    pub fn len(&self) -> usize {
        self.counted
    }

    /// Whether no reference had a token.
    pub fn is_empty(&self) -> bool {
        self.counted == 0
    }

    /// The largest document frequency (0 when there is no n-gram).
    pub fn max_count(&self) -> u32 {
        self.df.iter().copied().max().unwrap_or(0)
    }

    /// Whether the corpus was token IDs (and so takes token-ID captions).
    pub fn is_ids(&self) -> bool {
        self.ids
    }

    /// The document frequency of the text n-gram `words` (1 to 4 tokens) when it is 2 or
    /// more; 0 or 1 otherwise (both count as 1 in CIDEr-D).
    pub fn of_words(&self, words: &[&str]) -> u32 {
        if words.is_empty() || words.len() > MAX_ORDER || self.ids {
            return 0;
        }
        let mut code = self.token(TokenRef::Text(words[0]));
        for w in &words[1..] {
            code = self.extend(code, self.token(TokenRef::Text(w)));
        }
        self.count(code)
    }
}

/// The tokens of a corpus being built, by code: text tokens' bytes, or IDs.
#[derive(Default)]
struct Seen {
    bytes: Vec<u8>,
    /// `bytes[spans[c]..spans[c + 1]]` is token `c`'s.
    spans: Vec<usize>,
    ids: Vec<u32>,
}

impl Seen {
    /// Records `tok` if `c` is a new code (codes are given in order).
    #[inline]
    fn record(&mut self, c: u32, tok: TokenRef<'_>) {
        match tok {
            TokenRef::Id(id) => {
                if c as usize == self.ids.len() {
                    self.ids.push(id);
                }
            }
            TokenRef::Text(t) => self.record_bytes(c, t.as_bytes()),
            TokenRef::At(buf, start, len) => self.record_bytes(c, &buf[start..start + len]),
        }
    }

    #[inline]
    fn record_bytes(&mut self, c: u32, b: &[u8]) {
        if self.spans.is_empty() {
            self.spans.push(0);
        }
        if c as usize + 1 == self.spans.len() {
            self.bytes.extend_from_slice(b);
            self.spans.push(self.bytes.len());
        }
    }
}

/// One token of a caption.
#[derive(Clone, Copy)]
pub(crate) enum TokenRef<'a> {
    Text(&'a str),
    /// The token `buf[start..start + len]` of a caption's bytes `buf`: found without a copy
    /// when 16 bytes of `buf` follow its start (TokenMap's branch-free path).
    At(&'a [u8], usize, usize),
    Id(u32),
}

/// Calls `f` on each token of `caption` (`split()` tokens of text; IDs); `ranges` is scratch.
#[inline]
pub(crate) fn for_each_token<'a, C: Caption<'a>>(
    caption: C,
    ranges: &mut Vec<(u32, u32)>,
    mut f: impl FnMut(TokenRef<'a>),
) {
    if let Some(text) = caption.text() {
        let bytes = text.as_bytes();
        ranges.clear();
        py_split_ranges(text, ranges);
        for &(a, b) in ranges.iter() {
            f(TokenRef::At(bytes, a as usize, (b - a) as usize));
        }
    } else if let Some(ids) = caption.ids() {
        ids.iter().for_each(|&id| f(TokenRef::Id(id)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_once_per_image_from_two() {
        let refs = Groups::from_iter([
            vec!["a b a", "a"],
            vec!["b\u{a0}c a b"],
            vec![""],
            vec!["a b c"],
        ]);
        let d = DocumentFrequency::from_texts(&refs).unwrap();
        assert_eq!(d.images(), 4);
        assert_eq!(d.of_words(&["a"]), 3);
        assert_eq!(d.of_words(&["b"]), 3);
        assert_eq!(d.of_words(&["a", "b"]), 3);
        assert_eq!(d.of_words(&["b", "c"]), 2);
        assert!(d.of_words(&["a", "b", "c"]) <= 1);
        assert!(d.of_words(&["c", "a"]) <= 1);
        assert_eq!(d.of_words(&["z"]), 0);
        assert_eq!(d.max_count(), 3);
        assert!(!d.is_ids());
        let ids: Vec<Vec<u32>> = vec![vec![7, 8, 7], vec![8, 7]];
        let groups = Groups::from_iter([vec![&ids[0][..]], vec![&ids[1][..]]]);
        let d = DocumentFrequency::from_ids(&groups).unwrap();
        assert!(d.is_ids());
        let (t7, t8) = (d.token(TokenRef::Id(7)), d.token(TokenRef::Id(8)));
        assert_eq!(d.count(d.extend(t8, t7)), 2);
        assert!(d.count(d.extend(t7, t8)) <= 1);
        assert_eq!(d.token(TokenRef::Id(9)), NONE);
    }
}

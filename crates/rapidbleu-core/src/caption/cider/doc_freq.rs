//! CIDEr-D's document frequencies: for every n-gram of orders 1..4, the number of images whose
//! reference set holds it (`CiderScorer.compute_doc_freq`: an n-gram counts once per image),
//! and the number of images.
//!
//! Built once from a corpus of references, text (`split()` tokens) or token IDs, and then only
//! read: the COCO evaluation builds it from the references it scores, a self-critical training
//! loop from its training set and reuses it for every batch. Tokens and n-grams are numbered
//! (a token's code, then an n-gram's code from its prefix's code and its last token), so an
//! n-gram of a caption is found with one lookup per order. The n-grams of a caption that the
//! corpus never saw get codes of their own in an [`Overlay`], made per image.

use super::MAX_ORDER;
use crate::caption::grams::{key, NO_PREFIX};
use crate::corpus::Groups;
use crate::engine::ngram_map::NgramMap;
use crate::engine::token_map::TokenMap;
use crate::error::CoreError;
use crate::text::whitespace::py_split;
use rustc_hash::FxHashMap;

/// Codes at or above this are an [`Overlay`]'s: the corpus's tokens and n-grams stay below.
const OVERLAY_BASE: u32 = 1 << 31;

/// The document frequencies of a reference corpus (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct DocumentFrequency {
    /// Text tokens -> codes (empty when built from token IDs, which are their own codes).
    tokens: TokenMap,
    /// Whether the corpus was token IDs.
    ids: bool,
    /// `key(prefix code, last token)` -> n-gram code.
    ngrams: NgramMap,
    /// Per n-gram code: the number of images whose references hold it.
    df: Vec<u32>,
    images: usize,
}

/// The n-gram codes of every reference of a corpus, as [`DocumentFrequency::build_coded`]
/// counted them: `codes[start..end]` and the token count per reference, in order.
#[derive(Default)]
pub(crate) struct CorpusCodes {
    pub(crate) codes: Vec<u32>,
    pub(crate) spans: Vec<(usize, usize, usize)>,
}

/// What a caption is made of: text (tokens by Python's `split()`) or token IDs.
pub trait Caption<'a>: Copy + Send + Sync {
    /// Whether this kind is token IDs.
    const IDS: bool;

    /// The caption's token codes into `out` (cleared): a text token's code in `df` or, for one
    /// `df` lacks, in `overlay`; a token ID itself.
    fn token_codes(self, df: &DocumentFrequency, overlay: &mut Overlay<'a>, out: &mut Vec<u32>);

    /// The caption's tokens, coded by `vocab` (growing), into `out` (the corpus pass).
    fn vocab_codes(self, vocab: &mut TokenMap, out: &mut Vec<u32>) -> Result<(), CoreError>;
}

impl<'a> Caption<'a> for &'a str {
    const IDS: bool = false;

    fn token_codes(self, df: &DocumentFrequency, overlay: &mut Overlay<'a>, out: &mut Vec<u32>) {
        out.clear();
        for t in py_split(self) {
            out.push(match df.tokens.get(t.as_bytes()) {
                Some(c) => c,
                None => overlay.token(t),
            });
        }
    }

    fn vocab_codes(self, vocab: &mut TokenMap, out: &mut Vec<u32>) -> Result<(), CoreError> {
        out.clear();
        for t in py_split(self) {
            out.push(vocab.get_or_insert(t.as_bytes()));
        }
        code(vocab.len()).map(|_| ())
    }
}

impl<'a> Caption<'a> for &'a [u32] {
    const IDS: bool = true;

    fn token_codes(self, _df: &DocumentFrequency, _o: &mut Overlay<'a>, out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(self);
    }

    fn vocab_codes(self, _vocab: &mut TokenMap, out: &mut Vec<u32>) -> Result<(), CoreError> {
        out.clear();
        out.extend_from_slice(self);
        Ok(())
    }
}

/// `n` as a code of the corpus, or an error when the corpus has too many tokens or n-grams.
fn code(n: usize) -> Result<u32, CoreError> {
    u32::try_from(n)
        .ok()
        .filter(|&c| c < OVERLAY_BASE)
        .ok_or_else(|| {
            CoreError::TooLarge(format!(
                "the reference corpus has more than {OVERLAY_BASE} distinct tokens or n-grams; \
                 build the document frequencies from fewer references"
            ))
        })
}

/// Codes for the tokens and n-grams of one image that the corpus lacks (from
/// [`OVERLAY_BASE`] up), so that its hypothesis and references still share them.
#[derive(Default)]
pub struct Overlay<'a> {
    tokens: FxHashMap<&'a str, u32>,
    ngrams: FxHashMap<u64, u32>,
}

impl<'a> Overlay<'a> {
    fn token(&mut self, t: &'a str) -> u32 {
        let next = OVERLAY_BASE + self.tokens.len() as u32;
        *self.tokens.entry(t).or_insert(next)
    }

    fn ngram(&mut self, k: u64) -> u32 {
        let next = OVERLAY_BASE + self.ngrams.len() as u32;
        *self.ngrams.entry(k).or_insert(next)
    }
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

    pub(crate) fn build<'a, C: Caption<'a>>(refs: &Groups<C>) -> Result<Self, CoreError> {
        Ok(Self::build_coded(refs, false)?.0)
    }

    /// [`DocumentFrequency::build`], and when `keep` the n-gram codes of every reference (in
    /// `refs`' order), which the COCO evaluation scores next without looking them up again.
    pub(crate) fn build_coded<'a, C: Caption<'a>>(
        refs: &Groups<C>,
        keep: bool,
    ) -> Result<(Self, CorpusCodes), CoreError> {
        let mut d = DocumentFrequency {
            ids: C::IDS,
            ..Default::default()
        };
        let mut kept = CorpusCodes::default();
        // The image that last counted each n-gram (+1), so it counts once per image.
        let mut last: Vec<u32> = Vec::new();
        let (mut toks, mut grams) = (Vec::new(), Vec::new());
        for (img, group) in refs.iter().enumerate() {
            let stamp = code(img + 1)?;
            for &r in group {
                r.vocab_codes(&mut d.tokens, &mut toks)?;
                d.corpus_ngrams(&toks, &mut grams)?;
                if keep {
                    let start = kept.codes.len();
                    kept.codes.extend_from_slice(&grams);
                    kept.spans.push((start, kept.codes.len(), toks.len()));
                }
                for &g in &grams {
                    let g = g as usize;
                    if g == last.len() {
                        last.push(0);
                        d.df.push(0);
                    }
                    if last[g] != stamp {
                        last[g] = stamp;
                        d.df[g] += 1;
                    }
                }
            }
        }
        d.images = refs.len();
        Ok((d, kept))
    }

    /// The codes of `toks`' n-grams of orders 1..4 in `precook`'s order, new ones added.
    fn corpus_ngrams(&mut self, toks: &[u32], out: &mut Vec<u32>) -> Result<(), CoreError> {
        out.clear();
        let orders = MAX_ORDER.min(toks.len());
        code(self.ngrams.len() + orders * toks.len())?;
        self.ngrams.reserve(orders * toks.len());
        let mut prev = 0;
        for k in 1..=orders {
            let start = out.len();
            for i in 0..=toks.len() - k {
                let prefix = if k == 1 { NO_PREFIX } else { out[prev + i] };
                let next = self.ngrams.len() as u32;
                out.push(self.ngrams.insert_reserved(key(prefix, toks[i + k - 1]), next));
            }
            prev = start;
        }
        Ok(())
    }

    /// The codes of `toks`' n-grams of orders 1..4 in `precook`'s order, those the corpus
    /// lacks from `overlay` (codes of [`DocumentFrequency::count`] 0).
    pub(crate) fn ngram_codes(&self, overlay: &mut Overlay<'_>, toks: &[u32], out: &mut Vec<u32>) {
        out.clear();
        let mut prev = 0;
        for k in 1..=MAX_ORDER.min(toks.len()) {
            let start = out.len();
            for i in 0..=toks.len() - k {
                let prefix = if k == 1 { NO_PREFIX } else { out[prev + i] };
                let kk = key(prefix, toks[i + k - 1]);
                let found = if prefix < OVERLAY_BASE || prefix == NO_PREFIX {
                    self.ngrams.get_or(kk, NO_PREFIX)
                } else {
                    NO_PREFIX
                };
                out.push(if found == NO_PREFIX { overlay.ngram(kk) } else { found });
            }
            prev = start;
        }
    }

    /// The document frequency of the n-gram of code `c` (0 for an overlay's).
    #[inline]
    pub(crate) fn count(&self, c: u32) -> u32 {
        self.df.get(c as usize).copied().unwrap_or(0)
    }

    /// The number of images the frequencies were counted over.
    pub fn images(&self) -> usize {
        self.images
    }

    /// The number of distinct n-grams.
    pub fn len(&self) -> usize {
        self.df.len()
    }

    /// Whether no reference had a token.
    pub fn is_empty(&self) -> bool {
        self.df.is_empty()
    }

    /// The largest document frequency (0 when there is no n-gram).
    pub fn max_count(&self) -> u32 {
        self.df.iter().copied().max().unwrap_or(0)
    }

    /// Whether the corpus was token IDs (and so takes token-ID captions).
    pub fn is_ids(&self) -> bool {
        self.ids
    }

    /// The document frequency of the text n-gram `words` (1 to 4 tokens; 0 if absent).
    pub fn of_words(&self, words: &[&str]) -> u32 {
        let mut prefix = NO_PREFIX;
        for w in words {
            let Some(t) = self.tokens.get(w.as_bytes()) else {
                return 0;
            };
            match self.ngrams.get_or(key(prefix, t), NO_PREFIX) {
                NO_PREFIX => return 0,
                c => prefix = c,
            }
        }
        if words.is_empty() || words.len() > MAX_ORDER {
            return 0;
        }
        self.count(prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_once_per_image() {
        let refs = Groups::from_iter([vec!["a b a", "a"], vec!["b\u{a0}c"], vec![""]]);
        let d = DocumentFrequency::from_texts(&refs).unwrap();
        assert_eq!(d.images(), 3);
        assert_eq!(d.of_words(&["a"]), 1);
        assert_eq!(d.of_words(&["b"]), 2);
        assert_eq!(d.of_words(&["a", "b"]), 1);
        assert_eq!(d.of_words(&["b", "c"]), 1);
        assert_eq!(d.of_words(&["c", "b"]), 0);
        assert_eq!(d.of_words(&["z"]), 0);
        assert_eq!(d.max_count(), 2);
        assert!(!d.is_ids());
        let ids: Vec<Vec<u32>> = vec![vec![7, 8, 7], vec![8]];
        let groups = Groups::from_iter([vec![&ids[0][..]], vec![&ids[1][..]]]);
        let d = DocumentFrequency::from_ids(&groups).unwrap();
        assert!(d.is_ids());
        // 7, 8, 7 8, 8 7, 7 8 7: five n-grams; 8 in both images.
        assert_eq!(d.len(), 5);
        assert_eq!(d.max_count(), 2);
    }

    #[test]
    fn overlay_codes_unknown_ngrams() {
        let refs = Groups::from_iter([vec!["a b"]]);
        let d = DocumentFrequency::from_texts(&refs).unwrap();
        let mut o = Overlay::default();
        let mut toks = Vec::new();
        let mut out = Vec::new();
        "x a b x".token_codes(&d, &mut o, &mut toks);
        d.ngram_codes(&mut o, &toks, &mut out);
        assert_eq!(out.len(), 4 + 3 + 2 + 1);
        // x, a, b, x: a and b known, x twice the same overlay code.
        assert_eq!(out[0], out[3]);
        assert!(out[0] >= OVERLAY_BASE && out[1] < OVERLAY_BASE);
        assert_eq!(d.count(out[5]), 1); // "a b"
        assert_eq!(d.count(out[4]), 0); // "x a"
    }
}

//! CIDEr-D of a corpus (`Cider().compute_score`: the document frequencies of the scored
//! images' references, then every image's score) with each caption split and coded once.
//!
//! Three passes:
//!
//! 1. **Coding**, images in parallel (a [`Part`] of consecutive images per task): each
//!    image's captions are split and their tokens and n-grams numbered locally to the image,
//!    in `precook`'s order, as scoring needs them; each distinct n-gram of the image keeps its
//!    prefix and suffix ((n-1)-grams), its last token, and whether a reference of the image
//!    holds it.
//! 2. **Counting** ([`super::count`]), order by order over those distinct n-grams only: an
//!    n-gram distinct within its image counts once for the image, which is
//!    `compute_doc_freq`'s rule, and only candidates are counted, as in [`super::doc_freq`]
//!    (both (n-1)-grams of frequency 2 or more). The hypotheses' n-grams that no reference of
//!    their image holds are looked up once an order is counted.
//! 3. **Scoring**, images in parallel: every n-gram's frequency is known, so the vectors and
//!    similarities ([`Scorer::similarity`]) read arrays only.
//!
//! Performance decision: the COCO evaluation used to count the frequencies from the
//! references' text (every reference split, and every token hashed, once more per order) on
//! one thread, then split and code each image again to score it, looking every new token and
//! n-gram up in the corpus's tables; the count was half of the time, and serial. Here the
//! text is split and hashed once, in parallel, and the count reads each image's distinct
//! n-grams (about half of the occurrences), on every core. The scores are the same floats: the
//! frequencies are the same, and the float operations are [`Scorer`]'s.

use super::count::{count, Shard};
use super::doc_freq::{check_codes, Caption, DocumentFrequency, TokenRef, NONE};
use super::local_tokens::{LocalTokens, NewToken};
use super::score::{Scorer, Sims};
use super::{CiderD, MAX_ORDER};
use crate::caption::grams::key;
use crate::caption::numeric::{np_mean, LogTable};
use crate::corpus::Corpus;
use crate::engine::ngram_map::NgramMap;
use crate::engine::parallel::{self, lock_briefly, Threads, MIN_PARALLEL};
use crate::engine::token_map::padded;
use crate::error::CoreError;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;
use std::sync::atomic::AtomicU32;
use std::sync::Mutex;

/// A token of a part: its bytes `tok_bytes[at..at + len]` (text), or its ID `at` (IDs).
#[derive(Clone, Copy, Default)]
pub(super) struct Tok {
    at: usize,
    len: usize,
}

/// The shard (of `shards`) that owns a key hashed to `h` (see [`super::count`]): the hash
/// mixed, then mapped onto `0..shards` by a multiplication (no division).
#[inline]
pub(super) fn shard_of(h: u64, shards: usize) -> usize {
    let mixed = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    ((u128::from(mixed) * shards as u128) >> 64) as usize
}

/// The bits of a corpus code that name its shard, for `shards` shards: shard `s`'s code `c`
/// is `c << bits | s` (a shift and a mask to read, where `c * shards + s` took a division).
#[inline]
pub(super) fn shard_bits(shards: usize) -> u32 {
    usize::BITS - shards.saturating_sub(1).leading_zeros()
}

/// A distinct n-gram of an image, with indices of the part: its own (`g`), its (n-1)-grams
/// without the last token and without the first (unused for a unigram), its last token.
#[derive(Clone, Copy, Default)]
pub(super) struct Gram {
    pub(super) g: u32,
    pub(super) prefix: u32,
    pub(super) suffix: u32,
    pub(super) last: u32,
}

/// The local tables of the image being coded (emptied in O(1) between images).
#[derive(Default)]
struct Coder {
    tokens: LocalTokens,
    /// `key(local prefix code, local token code)` -> local n-gram code (orders 2 and up).
    ngrams: NgramMap,
    toks: Vec<u32>,
    /// The image's new n-grams by order, and per local n-gram code whether a reference of
    /// the image holds it.
    new_grams: [Vec<Gram>; MAX_ORDER],
    in_ref: Vec<bool>,
    /// Per local token code: its unigram's local code, given when the token is first seen
    /// (no look-up in `ngrams`); the image's local n-gram codes given so far.
    unigram: Vec<u32>,
    used: u32,
    /// Scratch of [`Part::file_new`].
    sorted: Vec<Gram>,
}

/// Consecutive images, coded: their tokens and distinct n-grams numbered across the part (an
/// image's local code plus the image's first index), their captions' local codes.
///
/// Parts are kept between calls ([`PARTS`]), their buffers cleared, not freed.
#[derive(Default)]
pub(super) struct Part {
    coder: Coder,
    /// The shards of the count.
    shards: usize,
    /// Each image's distinct tokens, in first-seen order, and the shard owning each.
    pub(super) tokens: Vec<Tok>,
    tok_shard: Vec<u32>,
    /// The text captions' bytes, one after the other, then `SLACK` bytes: the tokens' bytes
    /// for the count.
    ///
    /// Performance decision: the count finds tokens in the corpus's vocabulary without a
    /// copy where `SLACK` bytes follow them; in the captions themselves a caption's last
    /// tokens lack them (a third of the tokens), and took the slow path.
    tok_bytes: Vec<u8>,
    /// The number of distinct n-grams (summed over the images).
    n_grams: usize,
    /// The distinct n-grams of each order that a reference of their image holds, images in
    /// order; and the others (the hypothesis's only).
    pub(super) ref_grams: [Vec<Gram>; MAX_ORDER],
    pub(super) hyp_grams: [Vec<Gram>; MAX_ORDER],
    /// Every caption's local n-gram codes in `precook`'s order (the hypothesis first).
    codes: Vec<u32>,
    /// Per caption: its codes `codes[start..end]` and its token count.
    caps: Vec<(usize, usize, usize)>,
    /// Per image, and one past the last: its first caption (in `caps`) and first n-gram.
    images: Vec<(usize, usize)>,
    /// Per token: the corpus's code ([`NONE`]: a frequency of 0 or 1), written by the
    /// shards of the count (each its own tokens).
    pub(super) gtok: Vec<AtomicU32>,
    /// Per n-gram: the corpus's code ([`NONE`]: a frequency of 0 or 1, or not a candidate).
    pub(super) gcode: Vec<AtomicU32>,
    /// Per n-gram: its document frequency when 2 or more, else 0 (the same `log(max(1, df))`).
    pub(super) gdf: Vec<u32>,
    /// Per shard: the n-grams of the order being counted that it owns, `(g, key)`, of the
    /// references and of the hypotheses (for the tokens, the key is the token's index).
    pub(super) batches: Vec<[Vec<(u32, u64)>; 2]>,
    sims: Sims,
    idf: Vec<f64>,
    once: Vec<(f64, f64)>,
}

impl Part {
    /// The heap bytes its buffers hold (the main ones).
    fn bytes(&self) -> usize {
        let lists = self.ref_grams.iter().chain(&self.hyp_grams).map(held);
        let batches = self.batches.iter().flatten().map(held);
        held(&self.tokens)
            + held(&self.tok_shard)
            + held(&self.tok_bytes)
            + held(&self.codes)
            + held(&self.caps)
            + held(&self.gtok)
            + held(&self.gcode)
            + held(&self.gdf)
            + lists.sum::<usize>()
            + batches.sum::<usize>()
    }

    /// Token `i` (of a part coded from IDs when `ids`).
    #[inline]
    pub(super) fn token(&self, i: usize, ids: bool) -> TokenRef<'_> {
        let t = self.tokens[i];
        if ids {
            TokenRef::Id(t.at as u32)
        } else {
            TokenRef::At(&self.tok_bytes, t.at, t.len)
        }
    }

    /// Codes images `first..end` of `corpus` (pass 1) for a count on `shards` shards,
    /// forgetting what the part held.
    fn code<'a, C: Caption<'a>>(
        &mut self,
        corpus: &Corpus<C>,
        (first, end): (usize, usize),
        shards: usize,
    ) -> Result<(), CoreError> {
        self.shards = shards;
        self.tokens.clear();
        self.tok_shard.clear();
        self.tok_bytes.clear();
        self.n_grams = 0;
        self.codes.clear();
        self.caps.clear();
        self.images.clear();
        for k in 0..MAX_ORDER {
            self.ref_grams[k].clear();
            self.hyp_grams[k].clear();
        }
        let mut c = std::mem::take(&mut self.coder);
        for i in first..end {
            c.tokens.clear();
            c.ngrams.clear();
            c.in_ref.clear();
            c.unigram.clear();
            c.used = 0;
            self.images.push((self.caps.len(), self.n_grams));
            let bases = (self.tokens.len(), self.n_grams);
            self.caption(&mut c, corpus.hyp(i), false, bases);
            for &r in corpus.refs(i) {
                self.caption(&mut c, r, true, bases);
            }
            self.n_grams = bases.1 + c.used as usize;
            self.file_new(&mut c, bases.1);
            check_codes(self.n_grams.max(self.tokens.len()))?;
        }
        self.coder = c;
        padded(&mut self.tok_bytes);
        self.images.push((self.caps.len(), self.n_grams));
        self.gtok.clear();
        self.gtok
            .resize_with(self.tokens.len(), || AtomicU32::new(NONE));
        self.gcode.clear();
        self.gcode
            .resize_with(self.n_grams, || AtomicU32::new(NONE));
        self.gdf.clear();
        self.gdf.resize(self.n_grams, 0);
        // The tokens' batches: the count's first order.
        self.batches.resize_with(shards, Default::default);
        for b in self.batches.iter_mut() {
            b[0].clear();
            b[1].clear();
        }
        for (which, list) in [&self.ref_grams[0], &self.hyp_grams[0]]
            .into_iter()
            .enumerate()
        {
            for gram in list {
                let s = if shards == 1 {
                    0
                } else {
                    self.tok_shard[gram.last as usize] as usize
                };
                self.batches[s][which].push((gram.g, u64::from(gram.last)));
            }
        }
        Ok(())
    }

    /// Codes one caption (a reference when `is_ref`) of the image whose tokens and n-grams
    /// start at `bases`.
    fn caption<'a, C: Caption<'a>>(
        &mut self,
        c: &mut Coder,
        caption: C,
        is_ref: bool,
        (tok_base, gram_base): (usize, usize),
    ) {
        let shards = self.shards;
        let Coder {
            tokens,
            ngrams,
            toks,
            new_grams,
            in_ref,
            unigram,
            used,
            ..
        } = c;
        // A new token's unigram: its code, and its record.
        let mut new_token = |lt: u32, used: &mut u32| {
            unigram.push(*used);
            new_grams[0].push(Gram {
                g: (gram_base + *used as usize) as u32,
                prefix: NONE,
                suffix: NONE,
                last: (tok_base + lt as usize) as u32,
            });
            in_ref.push(is_ref);
            *used += 1;
        };
        toks.clear();
        let at_bytes = self.tok_bytes.len();
        if let Some(text) = caption.text() {
            self.tok_bytes.extend_from_slice(text.as_bytes());
        }
        tokens.code(caption, toks, |lt, tok| {
            new_token(lt, used);
            match tok {
                NewToken::Text { bytes, at, len } => {
                    self.tokens.push(Tok {
                        at: at_bytes + at,
                        len,
                    });
                    if shards > 1 {
                        let h = FxBuildHasher.hash_one(&bytes[at..at + len]);
                        self.tok_shard.push(shard_of(h, shards) as u32);
                    }
                }
                NewToken::Id(id) => {
                    self.tokens.push(Tok {
                        at: id as usize,
                        len: 1,
                    });
                    if shards > 1 {
                        self.tok_shard.push(shard_of(u64::from(id), shards) as u32);
                    }
                }
            }
        });
        let len = toks.len();
        let orders = MAX_ORDER.min(len);
        ngrams.reserve(orders.saturating_sub(1) * len);
        // Written by index into room of the final size, order by order: the prefixes are the
        // previous order's codes, read from the part already written.
        let start = self.codes.len();
        let total: usize = (1..=orders).map(|k| len + 1 - k).sum();
        self.codes.resize(start + total, 0);
        let (unigrams, mut rest) = self.codes[start..].split_at_mut(len.min(total));
        for (o, &t) in unigrams.iter_mut().zip(toks.iter()) {
            let code = unigram[t as usize];
            in_ref[code as usize] |= is_ref;
            *o = code;
        }
        let mut prev: &[u32] = unigrams;
        let mut next = *used;
        for k in 2..=orders {
            let (cur, next_rest) = rest.split_at_mut(len + 1 - k);
            for (i, o) in cur.iter_mut().enumerate() {
                let (p, last) = (prev[i], toks[i + k - 1]);
                let code = ngrams.insert_reserved(key(p, last), next);
                if code == next {
                    new_grams[k - 1].push(Gram {
                        g: (gram_base + code as usize) as u32,
                        prefix: (gram_base + p as usize) as u32,
                        suffix: (gram_base + prev[i + 1] as usize) as u32,
                        last: (tok_base + last as usize) as u32,
                    });
                    in_ref.push(is_ref);
                    next += 1;
                } else {
                    in_ref[code as usize] |= is_ref;
                }
                *o = code;
            }
            prev = cur;
            rest = next_rest;
        }
        *used = next;
        self.caps.push((start, self.codes.len(), len));
    }

    /// Files the image's new n-grams (from `gram_base`) under `ref_grams` or `hyp_grams`,
    /// once every caption of the image is coded.
    ///
    /// Performance decision: without a branch (each n-gram written at both ends of a scratch
    /// buffer, one end advanced): whether a reference holds an n-gram is data the branch
    /// predictor cannot learn. The scratch is the image's size, so the part's lists grow by
    /// what they keep only (writing every n-gram to both lists doubled their memory).
    fn file_new(&mut self, c: &mut Coder, gram_base: usize) {
        for (k, new) in c.new_grams.iter_mut().enumerate() {
            let len = new.len();
            c.sorted.clear();
            c.sorted.resize(len, Gram::default());
            let (mut nr, mut nh) = (0, 0);
            for gram in new.iter() {
                let in_ref = c.in_ref[gram.g as usize - gram_base];
                // nr + nh is the n-grams filed so far, so the two ends never cross.
                c.sorted[nr] = *gram;
                c.sorted[len - 1 - nh] = *gram;
                nr += usize::from(in_ref);
                nh += usize::from(!in_ref);
            }
            self.ref_grams[k].extend_from_slice(&c.sorted[..nr]);
            self.hyp_grams[k].extend(c.sorted[len - nh..].iter().rev());
            new.clear();
        }
    }

    /// Scores the part's images into `out` (pass 3).
    fn score(&mut self, s: &Scorer<'_>, out: &mut [f64]) {
        let Part {
            sims,
            idf,
            once,
            images,
            gdf,
            caps,
            codes,
            ..
        } = self;
        for (i, o) in out.iter_mut().enumerate() {
            let ((cap, g0), (cap_end, g1)) = (images[i], images[i + 1]);
            idf.clear();
            once.clear();
            for &df in &gdf[g0..g1] {
                idf.push(s.idf(df));
                once.push(s.once(df));
            }
            let (start, end, len) = caps[cap];
            let refs = caps[cap + 1..cap_end]
                .iter()
                .map(|&(a, b, l)| (&codes[a..b], l));
            *o = s.similarity(sims, (&codes[start..end], len), refs, (idf, once));
        }
    }
}

/// Parts and shards kept between calls (see [`Part`]): a repeated evaluation (or the
/// benchmark's rounds) reuses their buffers instead of faulting fresh pages in.
///
/// Performance decision: with fresh buffers, page faults and the copies of growing vectors
/// were a third of a call's time on 5,000 images (tens of MiB written once each). Only the
/// buffers of calls holding at most [`POOL_BYTES`] are kept, so that one huge call does
/// not hold its memory for the life of the process.
static PARTS: Mutex<Vec<Part>> = Mutex::new(Vec::new());
static SHARDS: Mutex<Vec<Shard>> = Mutex::new(Vec::new());

/// The most memory the kept buffers may hold (their capacity): 5,000 images of 5 WMT-length
/// references (three times a COCO caption) take about 60 MiB, and are kept.
const POOL_BYTES: usize = 96 << 20;

/// The heap bytes a vector holds.
fn held<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// `n` items from `pool` (as many as it has), the others made.
fn take<T: Default>(pool: &Mutex<Vec<T>>, n: usize) -> Vec<T> {
    let mut out: Vec<T> = match lock_briefly(pool) {
        Some(mut p) => {
            let keep = p.len().saturating_sub(n);
            p.drain(keep..).collect()
        }
        None => Vec::new(),
    };
    out.resize_with(n, T::default);
    out
}

/// Gives `items` back to `pool`.
fn give<T>(pool: &Mutex<Vec<T>>, items: Vec<T>) {
    if let Some(mut p) = lock_briefly(pool) {
        p.extend(items);
    }
}

/// pycocoevalcap's `Cider(n, sigma).compute_score(gts, res)` on a corpus of images: the
/// document frequencies of its references, `ref_len` the log of its number of images, every
/// image's score and their `np.mean`.
pub fn corpus_scores<'a, C: Caption<'a>>(
    opts: CiderD,
    corpus: &Corpus<C>,
    log: &LogTable,
    threads: Threads,
) -> Result<(f64, Vec<f64>), CoreError> {
    let n = corpus.len();
    check_codes(n)?;
    let serial = threads == Threads::ONE || n < MIN_PARALLEL;
    let part_len = if serial {
        n.max(1)
    } else {
        parallel::chunk_len(n, threads)
    };
    let shards = if serial {
        1
    } else {
        parallel::install(threads, rayon::current_num_threads)
    };
    let mut parts = take(&PARTS, n.div_ceil(part_len));
    let mut sh = take(&SHARDS, shards);
    let result = score_parts(opts, corpus, log, threads, (&mut parts, &mut sh), part_len);
    let bytes =
        parts.iter().map(Part::bytes).sum::<usize>() + sh.iter().map(Shard::bytes).sum::<usize>();
    if bytes <= POOL_BYTES {
        give(&PARTS, parts);
        give(&SHARDS, sh);
    }
    result
}

/// [`corpus_scores`] with its parts and shards (`part_len` images per part).
fn score_parts<'a, C: Caption<'a>>(
    opts: CiderD,
    corpus: &Corpus<C>,
    log: &LogTable,
    threads: Threads,
    (parts, sh): (&mut [Part], &mut [Shard]),
    part_len: usize,
) -> Result<(f64, Vec<f64>), CoreError> {
    let n = corpus.len();
    let shards = sh.len();
    let code = |(i, p): (usize, &mut Part)| {
        let first = i * part_len;
        p.code(corpus, (first, (first + part_len).min(n)), shards)
    };
    if shards == 1 {
        parts.iter_mut().enumerate().try_for_each(code)?;
    } else {
        parallel::install(threads, || {
            parts.par_iter_mut().enumerate().try_for_each(code)
        })?;
    }
    let max_count = count::<C>(parts, sh, threads)?;
    // Scorer::similarity takes the frequencies per n-gram: no table is looked up.
    let none = DocumentFrequency::default();
    let scorer = Scorer::with_max_count(opts, &none, log, n, max_count)?;
    let mut scores = parallel::zeroed_on(n, 1, threads)?;
    if shards == 1 {
        for (p, out) in parts.iter_mut().zip(scores.chunks_mut(part_len)) {
            p.score(&scorer, out);
        }
    } else {
        parallel::install(threads, || {
            parts
                .par_iter_mut()
                .zip(scores.par_chunks_mut(part_len))
                .for_each(|(p, out)| p.score(&scorer, out));
        });
    }
    Ok((np_mean(&scores), scores))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Groups;

    /// Captions of `words` tokens at most from a vocabulary of `vocab` (a small one repeats
    /// n-grams across images), some empty, 1 to 5 references per image.
    fn captions(images: usize, vocab: u32, seed: u64) -> (Vec<Vec<u32>>, Vec<Vec<Vec<u32>>>) {
        let mut x = seed;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let caption = |next: &mut dyn FnMut(u64) -> u64| {
            let len = next(12) as usize;
            (0..len).map(|_| next(u64::from(vocab)) as u32).collect()
        };
        let hyps = (0..images).map(|_| caption(&mut next)).collect();
        let refs = (0..images)
            .map(|_| (0..1 + next(5)).map(|_| caption(&mut next)).collect())
            .collect();
        (hyps, refs)
    }

    /// The scores of the separate passes: frequencies counted, then each image scored.
    fn two_passes<'a, C: Caption<'a>>(corpus: &Corpus<C>, log: &LogTable) -> Vec<f64> {
        let df = DocumentFrequency::build(corpus.references()).unwrap();
        let s = Scorer::new(CiderD::default(), &df, log, corpus.len()).unwrap();
        s.scores(corpus, Threads::ONE).unwrap()
    }

    #[test]
    fn equals_the_separate_passes_on_any_number_of_shards() {
        let log = LogTable::libm(1024);
        for (images, vocab) in [(1, 5), (40, 6), (300, 9), (500, 40)] {
            let (hyps, refs) = captions(images, vocab, 7 + images as u64);
            let ids = Corpus::new(
                hyps.iter().map(Vec::as_slice).collect(),
                Groups::from_iter(refs.iter().map(|g| g.iter().map(Vec::as_slice))),
            )
            .unwrap();
            let word = |c: &Vec<u32>| c.iter().map(|t| format!("w{t}\u{a0}")).collect::<String>();
            let (th, tr): (Vec<String>, Vec<Vec<String>>) = (
                hyps.iter().map(word).collect(),
                refs.iter().map(|g| g.iter().map(word).collect()).collect(),
            );
            let text = Corpus::new(
                th.iter().map(String::as_str).collect(),
                Groups::from_iter(tr.iter().map(|g| g.iter().map(String::as_str))),
            )
            .unwrap();
            let want = two_passes(&ids, &log);
            assert_eq!(want, two_passes(&text, &log));
            for t in [1, 2, 3] {
                let t = Threads::new(t).unwrap();
                for _ in 0..2 {
                    // Twice: the second call reuses the kept parts and shards.
                    let (mean, got) = corpus_scores(CiderD::default(), &ids, &log, t).unwrap();
                    assert_eq!(got, want, "{images} images, {t:?}");
                    assert_eq!(mean, np_mean(&want));
                    let (_, got) = corpus_scores(CiderD::default(), &text, &log, t).unwrap();
                    assert_eq!(got, want, "{images} images, {t:?}");
                }
            }
        }
    }

    #[test]
    fn no_reference_word_is_an_error() {
        let log = LogTable::libm(8);
        let corpus = Corpus::new(vec!["a b"], Groups::from_iter([vec!["", " "]])).unwrap();
        let e = corpus_scores(CiderD::default(), &corpus, &log, Threads::ONE).unwrap_err();
        assert!(e.to_string().contains("ValueError"), "{e}");
    }
}

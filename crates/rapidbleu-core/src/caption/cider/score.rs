//! CIDEr-D scores of images (`CiderScorer.compute_cider`), float operations in its order:
//!
//! - `counts2vec`: for each distinct n-gram of a caption, in first-seen order by order
//!   (`precook`'s dictionary order), `tf * (ref_len - np.log(max(1, df)))`, and per order the
//!   sum of their squares (`pow(v, 2)`, C's `pow`) in that order, then its square root; the
//!   caption's "length" is its number of bigrams (`if n == 1` tests the order index);
//! - `sim`: per order, over the hypothesis's n-grams in order, `min(h, r) * r` summed, divided
//!   by the product of the norms when neither is 0, times `np.e ** (-(delta**2) / (2 *
//!   sigma**2))`;
//! - per image: the references' `sim` arrays added in order, `np.mean` over the orders,
//!   divided by the number of references, times 10.

use super::doc_freq::{Caption, DocumentFrequency, Overlay};
use super::CiderD;
use crate::caption::numeric::{np_mean, py_pow, LogTable};
use crate::corpus::Corpus;
use crate::engine::ngram_map::NgramMap;
use crate::engine::parallel::{self, Threads, WorkerPool};
use crate::error::CoreError;

/// Which number of images CIDEr-D takes the log of (`ref_len`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefLen {
    /// The images the document frequencies were counted over (the COCO evaluation, where
    /// they are the scored images, and a reward with a training corpus's frequencies).
    Corpus,
    /// The scored images (`CiderScorer.compute_cider` unchanged: `np.log(len(self.crefs))`)
    /// even when the document frequencies come from elsewhere.
    Batch,
}

/// One caption as `counts2vec` makes it: per distinct n-gram (in first-seen order, orders
/// ascending) its code, image-local index, count and TF-IDF value; where each order starts;
/// the norms and the length.
#[derive(Default)]
struct Vector {
    code: Vec<u32>,
    local: Vec<u32>,
    tf: Vec<u32>,
    value: Vec<f64>,
    /// `starts[k]..starts[k + 1]`: the n-grams of order `k + 1` (one entry per order present).
    starts: Vec<usize>,
    norm: Vec<f64>,
    length: i64,
}

/// Per-image scratch space of the scoring (reused across images).
#[derive(Default)]
struct Scratch {
    /// n-gram code -> image-local index.
    local: NgramMap,
    /// Per local index: position + 1 in the caption being built (0: not in it).
    pos: Vec<u32>,
    /// Per local index: the value in the reference being compared (0.0: not in it).
    ref_value: Vec<f64>,
    hyp: Vector,
    reference: Vector,
    score: Vec<f64>,
}

/// A worker's scratch space, reused across images.
#[derive(Default)]
pub struct Worker {
    toks: Vec<u32>,
    codes: Vec<u32>,
    /// The image's references' n-gram codes, and per reference its span and token count.
    ref_codes: Vec<u32>,
    ref_spans: Vec<(usize, usize, usize)>,
    scratch: Scratch,
}

/// Workers kept between calls (see [`WorkerPool`]): a training loop scores a batch per step.
static WORKERS: WorkerPool<Worker> = WorkerPool::new();

/// What every image of a call shares: options, frequencies, logs and `ref_len`.
pub struct Scorer<'d> {
    opts: CiderD,
    df: &'d DocumentFrequency,
    log: &'d LogTable,
    ref_len: f64,
    /// `2 * sigma**2`.
    two_sigma2: f64,
}

impl<'d> Scorer<'d> {
    /// A scorer of images against `df`, with `ref_len` the log of `ref_images` images.
    pub fn new(
        opts: CiderD,
        df: &'d DocumentFrequency,
        log: &'d LogTable,
        ref_images: usize,
    ) -> Result<Self, CoreError> {
        if ref_images == 0 {
            return Err(CoreError::InvalidInput(
                "CIDEr-D needs at least one image (it takes the log of their number)".into(),
            ));
        }
        log.covers(ref_images.max(df.max_count() as usize))?;
        let n = u32::try_from(ref_images).map_err(|_| {
            CoreError::TooLarge(format!(
                "{ref_images} images; score at most {} at once",
                u32::MAX
            ))
        })?;
        Ok(Scorer {
            opts,
            df,
            log,
            ref_len: log.ln(n),
            two_sigma2: 2.0 * py_pow(opts.sigma(), 2.0),
        })
    }

    /// A scorer of a batch of `batch` images against `df`, `ref_len` chosen by `ref_len`.
    pub fn for_batch(
        opts: CiderD,
        df: &'d DocumentFrequency,
        log: &'d LogTable,
        ref_len: RefLen,
        batch: usize,
    ) -> Result<Self, CoreError> {
        let images = match ref_len {
            RefLen::Corpus => df.images(),
            RefLen::Batch => batch,
        };
        Self::new(opts, df, log, images)
    }

    /// `ref_len`: `np.log` of the number of images.
    pub fn ref_len(&self) -> f64 {
        self.ref_len
    }

    /// `counts2vec` of the caption whose n-gram codes are `codes` (of `len` tokens) into `v`.
    fn vectorize(
        &self,
        codes: &[u32],
        len: usize,
        local: &mut NgramMap,
        pos: &mut Vec<u32>,
        v: &mut Vector,
    ) {
        v.code.clear();
        v.local.clear();
        v.tf.clear();
        v.value.clear();
        v.starts.clear();
        v.norm.clear();
        v.norm.resize(self.opts.n(), 0.0);
        local.reserve(codes.len());
        let mut at = 0;
        for k in 0..super::MAX_ORDER.min(len) {
            let first = v.code.len();
            v.starts.push(first);
            for &c in &codes[at..at + len - k] {
                let next = local.len() as u32;
                let l = local.insert_reserved(u64::from(c), next) as usize;
                if l >= pos.len() {
                    pos.resize(l + 1, 0);
                }
                if pos[l] == 0 {
                    v.code.push(c);
                    v.local.push(l as u32);
                    v.tf.push(0);
                    pos[l] = v.code.len() as u32;
                }
                v.tf[pos[l] as usize - 1] += 1;
            }
            at += len - k;
            for i in first..v.code.len() {
                // np.log(max(1.0, self.document_frequency[ngram]))
                let idf = self.log.ln(self.df.count(v.code[i]).max(1));
                let value = f64::from(v.tf[i]) * (self.ref_len - idf);
                v.value.push(value);
                v.norm[k] += py_pow(value, 2.0);
            }
        }
        v.starts.push(v.code.len());
        for &l in &v.local {
            pos[l as usize] = 0;
        }
        for x in v.norm.iter_mut() {
            *x = x.sqrt();
        }
        // `if n == 1: length += term_freq` tests the order index: the bigrams are counted.
        v.length = len.saturating_sub(1) as i64;
    }

    /// The codes of `caption`'s n-grams into `codes`; its token count.
    fn codes<'a, C: Caption<'a>>(
        &self,
        toks: &mut Vec<u32>,
        codes: &mut Vec<u32>,
        overlay: &mut Overlay<'a>,
        caption: C,
    ) -> usize {
        caption.token_codes(self.df, overlay, toks);
        self.df.ngram_codes(overlay, toks, codes);
        toks.len()
    }

    /// The CIDEr-D score of one image: `hyp` against `refs` (at least one).
    pub fn image<'a, C: Caption<'a>>(&self, w: &mut Worker, hyp: C, refs: &[C]) -> f64 {
        let mut overlay = Overlay::default();
        w.ref_codes.clear();
        w.ref_spans.clear();
        for &r in refs {
            let len = self.codes(&mut w.toks, &mut w.codes, &mut overlay, r);
            let start = w.ref_codes.len();
            w.ref_codes.extend_from_slice(&w.codes);
            w.ref_spans.push((start, w.ref_codes.len(), len));
        }
        let len = self.codes(&mut w.toks, &mut w.codes, &mut overlay, hyp);
        let (codes, spans) = (&w.ref_codes, &w.ref_spans);
        let refs = spans.iter().map(|&(s, e, l)| (&codes[s..e], l));
        self.score_coded(&mut w.scratch, &w.codes, len, refs)
    }

    /// The score of a hypothesis of n-gram codes `hyp` (`len` tokens) against references
    /// given as (codes, token count).
    fn score_coded<'c>(
        &self,
        s: &mut Scratch,
        hyp: &[u32],
        len: usize,
        refs: impl ExactSizeIterator<Item = (&'c [u32], usize)>,
    ) -> f64 {
        let n = self.opts.n();
        let n_refs = refs.len();
        s.local.clear();
        self.vectorize(hyp, len, &mut s.local, &mut s.pos, &mut s.hyp);
        s.score.clear();
        s.score.resize(n, 0.0);
        for (codes, len) in refs {
            self.vectorize(codes, len, &mut s.local, &mut s.pos, &mut s.reference);
            if s.ref_value.len() < s.local.len() {
                s.ref_value.resize(s.local.len(), 0.0);
            }
            let (h, rv) = (&s.hyp, &s.reference);
            for (&l, &v) in rv.local.iter().zip(&rv.value) {
                s.ref_value[l as usize] = v;
            }
            let delta = (h.length - rv.length) as f64;
            // np.e ** (-(delta ** 2) / (2 * self.sigma ** 2)), Python's float pow.
            let penalty = py_pow(std::f64::consts::E, -py_pow(delta, 2.0) / self.two_sigma2);
            for k in 0..n {
                let mut val = 0.0f64;
                if k + 1 < h.starts.len() {
                    for i in h.starts[k]..h.starts[k + 1] {
                        let vh = h.value[i];
                        let vr = s.ref_value[h.local[i] as usize];
                        // min(vec_hyp, vec_ref) * vec_ref, Python's min (the first unless
                        // the second is smaller).
                        val += if vr < vh { vr } else { vh } * vr;
                    }
                }
                if h.norm[k] != 0.0 && rv.norm[k] != 0.0 {
                    val /= h.norm[k] * rv.norm[k];
                }
                val *= penalty;
                s.score[k] += val;
            }
            for &l in &rv.local {
                s.ref_value[l as usize] = 0.0;
            }
        }
        let mut avg = np_mean(&s.score);
        avg /= n_refs as f64;
        avg * 10.0
    }

    /// The score of every image of `batch`, on `threads` threads.
    pub fn scores<'a, C: Caption<'a>>(
        &self,
        batch: &Corpus<C>,
        threads: Threads,
    ) -> Result<Vec<f64>, CoreError> {
        self.check_kind::<C>()?;
        let mut out = parallel::zeroed_on(batch.len(), 1, threads)?;
        parallel::for_each_row_in(&WORKERS, &mut out, 1, threads, Worker::default, |w, i, o| {
            o[0] = self.image(w, batch.hyp(i), batch.refs(i));
        });
        Ok(out)
    }

    /// An error unless captions of kind `C` are what the frequencies were counted over.
    pub fn check_kind<'a, C: Caption<'a>>(&self) -> Result<(), CoreError> {
        if C::IDS != self.df.is_ids() {
            let kind = |ids| if ids { "token IDs" } else { "text" };
            return Err(CoreError::InvalidInput(format!(
                "the document frequencies were counted over {} but the captions are {}; \
                 build them from the same kind",
                kind(self.df.is_ids()),
                kind(C::IDS)
            )));
        }
        Ok(())
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
    let (df, coded) = DocumentFrequency::build_coded(corpus.references(), true)?;
    if df.is_empty() {
        // compute_score's `max(self.document_frequency.values())` of nothing: ValueError.
        return Err(CoreError::InvalidInput(
            "no reference caption has a word, so CIDEr-D has no document frequency \
             (pycocoevalcap fails with ValueError: max() arg is an empty sequence)"
                .into(),
        ));
    }
    let scorer = Scorer::new(opts, &df, log, corpus.len())?;
    // Image i's references are spans first[i]..first[i + 1] of the coded references.
    let mut first = Vec::with_capacity(corpus.len() + 1);
    first.push(0);
    for i in 0..corpus.len() {
        first.push(first[i] + corpus.refs(i).len());
    }
    let mut scores = parallel::zeroed_on(corpus.len(), 1, threads)?;
    parallel::for_each_row_in(&WORKERS, &mut scores, 1, threads, Worker::default, |w, i, o| {
        let mut overlay = Overlay::default();
        let len = scorer.codes(&mut w.toks, &mut w.codes, &mut overlay, corpus.hyp(i));
        let refs = coded.spans[first[i]..first[i + 1]]
            .iter()
            .map(|&(s, e, l)| (&coded.codes[s..e], l));
        o[0] = scorer.score_coded(&mut w.scratch, &w.codes, len, refs);
    });
    Ok((np_mean(&scores), scores))
}

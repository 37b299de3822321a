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

pub use super::corpus::corpus_scores;
use super::doc_freq::{Caption, DocumentFrequency};
use super::local_tokens::LocalTokens;
use super::CiderD;
use crate::caption::grams::{key, NO_PREFIX};
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
/// ascending) its image-local code, count and TF-IDF value; where each order starts; the
/// norms and the length.
#[derive(Default)]
struct Vector {
    local: Vec<u32>,
    tf: Vec<u32>,
    value: Vec<f64>,
    /// `starts[k]..starts[k + 1]`: the n-grams of order `k + 1` (one entry per order present).
    starts: Vec<usize>,
    norm: Vec<f64>,
    length: i64,
}

/// An image's tokens and n-grams, numbered from 0 for each image (the maps empty in O(1)),
/// with each n-gram's global code and `np.log(max(1, df))`.
#[derive(Default)]
struct Local {
    tokens: LocalTokens,
    /// `key(local prefix code or NO_PREFIX, local token code)` -> local n-gram code.
    ngrams: NgramMap,
    /// Per local token code: its global code (or NONE).
    gtok: Vec<u32>,
    /// Per local n-gram code: its global code (or NONE) and its `np.log(max(1, df))`.
    gcode: Vec<u32>,
    idf: Vec<f64>,
    /// Per local n-gram code: its TF-IDF value for a count of 1, and that value's square.
    once: Vec<(f64, f64)>,
    toks: Vec<u32>,
}

impl Local {
    fn clear(&mut self) {
        self.tokens.clear();
        self.ngrams.clear();
        self.gtok.clear();
        self.gcode.clear();
        self.idf.clear();
        self.once.clear();
    }

    /// The local codes of `caption`'s n-grams in `precook`'s order, appended to `out`; its
    /// token count.
    fn codes<'a, C: Caption<'a>>(
        &mut self,
        s: &Scorer<'_>,
        caption: C,
        out: &mut Vec<u32>,
    ) -> usize {
        self.toks.clear();
        let Local {
            tokens, gtok, toks, ..
        } = self;
        tokens.code(caption, toks, |_, tok| gtok.push(s.df.token(tok.into())));
        let len = self.toks.len();
        let orders = super::MAX_ORDER.min(len);
        self.ngrams.reserve(orders * len);
        let base = out.len();
        let mut prev = base;
        for k in 1..=orders {
            let start = out.len();
            for i in 0..=len - k {
                let last = self.toks[i + k - 1];
                let prefix = if k == 1 { NO_PREFIX } else { out[prev + i] };
                let next = self.ngrams.len() as u32;
                let c = self.ngrams.insert_reserved(key(prefix, last), next);
                if c == next {
                    let g = if k == 1 {
                        self.gtok[last as usize]
                    } else {
                        s.df.extend(self.gcode[prefix as usize], self.gtok[last as usize])
                    };
                    self.gcode.push(g);
                    // np.log(max(1.0, self.document_frequency[ngram])); the value of a count
                    // of 1 (float(1) * (ref_len - df) is ref_len - df) and its square, which
                    // most n-grams of the image's captions take.
                    let df = s.df.count(g);
                    self.idf.push(s.log.ln(df.max(1)));
                    self.once.push(s.once(df));
                }
                out.push(c);
            }
            prev = start;
        }
        len
    }
}

/// A worker's scratch space, reused across images.
#[derive(Default)]
pub struct Worker {
    local: Local,
    hyp_codes: Vec<u32>,
    /// The image's references' local n-gram codes, and per reference its span and length.
    ref_codes: Vec<u32>,
    ref_spans: Vec<(usize, usize, usize)>,
    sims: Sims,
}

/// The scratch space of [`Scorer::similarity`], reused across images.
#[derive(Default)]
pub(super) struct Sims {
    /// Per local code: position + 1 in the caption being built (0: not in it).
    pos: Vec<u32>,
    /// Per local code: the value in the reference being compared (0.0: not in it).
    ref_value: Vec<f64>,
    hyp: Vector,
    reference: Vector,
    score: Vec<f64>,
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
    /// Per document frequency `df` below [`DF_TABLE`]: the TF-IDF value of a count of 1,
    /// `ref_len - np.log(max(1, df))`, and its square by C's `pow` (index 0 stands for df 0,
    /// the same as 1).
    by_df: Vec<(f64, f64)>,
    /// Per `|delta|` below [`PENALTY_TABLE`]: the length penalty (see [`Scorer::penalty`]).
    penalties: Vec<f64>,
}

/// Document frequencies whose value and square [`Scorer`] computes beforehand.
///
/// Performance decision: `pow(value, 2)` (C's `pow`, which exactness needs: it is not always
/// `value * value`) took a tenth of CIDEr-D's time when called for every new n-gram of an
/// image, but a count-1 value depends only on the n-gram's document frequency, and nearly all
/// of them are small. A scorer is made per call (a reward per batch), so the table stays short
/// enough to cost little; larger frequencies call `pow`.
const DF_TABLE: usize = 1024;

/// Length differences whose penalty [`Scorer`] computes beforehand (two `pow` calls each).
const PENALTY_TABLE: usize = 128;

impl<'d> Scorer<'d> {
    /// A scorer of images against `df`, with `ref_len` the log of `ref_images` images.
    pub fn new(
        opts: CiderD,
        df: &'d DocumentFrequency,
        log: &'d LogTable,
        ref_images: usize,
    ) -> Result<Self, CoreError> {
        Self::with_max_count(opts, df, log, ref_images, df.max_count())
    }

    /// [`Scorer::new`] where the largest document frequency is `max_count` (`df` then serves
    /// only [`Scorer::image`]; [`Scorer::similarity`] takes frequencies per code).
    pub(super) fn with_max_count(
        opts: CiderD,
        df: &'d DocumentFrequency,
        log: &'d LogTable,
        ref_images: usize,
        max_count: u32,
    ) -> Result<Self, CoreError> {
        if ref_images == 0 {
            return Err(CoreError::InvalidInput(
                "CIDEr-D needs at least one image (it takes the log of their number)".into(),
            ));
        }
        log.covers(ref_images.max(max_count as usize))?;
        let n = u32::try_from(ref_images).map_err(|_| {
            CoreError::TooLarge(format!(
                "{ref_images} images; score at most {} at once",
                u32::MAX
            ))
        })?;
        let ref_len = log.ln(n);
        let two_sigma2 = 2.0 * py_pow(opts.sigma(), 2.0);
        let top = (max_count as usize + 1).min(DF_TABLE);
        let by_df = (0..top)
            .map(|c| {
                let one = ref_len - log.ln((c as u32).max(1));
                (one, py_pow(one, 2.0))
            })
            .collect();
        let penalties = (0..PENALTY_TABLE)
            .map(|d| penalty_of(d as f64, two_sigma2))
            .collect();
        Ok(Scorer {
            opts,
            df,
            log,
            ref_len,
            two_sigma2,
            by_df,
            penalties,
        })
    }

    /// `(ref_len - np.log(max(1.0, df)), pow(that, 2))`: a count-1 n-gram's value and square.
    #[inline]
    pub(super) fn once(&self, df: u32) -> (f64, f64) {
        match self.by_df.get(df as usize) {
            Some(&v) => v,
            None => {
                let one = self.ref_len - self.log.ln(df.max(1));
                (one, py_pow(one, 2.0))
            }
        }
    }

    /// `np.log(max(1.0, df))`.
    #[inline]
    pub(super) fn idf(&self, df: u32) -> f64 {
        self.log.ln(df.max(1))
    }

    /// The length penalty of a length difference `delta` (an integer).
    #[inline]
    fn penalty(&self, delta: i64) -> f64 {
        match self.penalties.get(delta.unsigned_abs() as usize) {
            Some(&p) => p,
            None => penalty_of(delta as f64, self.two_sigma2),
        }
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

    /// `counts2vec` of the caption whose local n-gram codes are `codes` (of `len` tokens),
    /// with `idf` and `once` (see [`Scorer::similarity`]) per local code, into `v`.
    fn vectorize(
        &self,
        codes: &[u32],
        len: usize,
        (idf, once): (&[f64], &[(f64, f64)]),
        pos: &mut Vec<u32>,
        v: &mut Vector,
    ) {
        v.local.clear();
        v.tf.clear();
        v.value.clear();
        v.starts.clear();
        v.norm.clear();
        v.norm.resize(self.opts.n(), 0.0);
        if pos.len() < idf.len() {
            pos.resize(idf.len(), 0);
        }
        let mut at = 0;
        for k in 0..super::MAX_ORDER.min(len) {
            let first = v.local.len();
            v.starts.push(first);
            for &c in &codes[at..at + len - k] {
                let p = &mut pos[c as usize];
                if *p == 0 {
                    v.local.push(c);
                    v.tf.push(0);
                    *p = v.local.len() as u32;
                }
                v.tf[*p as usize - 1] += 1;
            }
            at += len - k;
            for i in first..v.local.len() {
                // float(term_freq) * (self.ref_len - df); norm[n] += pow(vec[n][ngram], 2)
                let l = v.local[i] as usize;
                let (value, square) = match v.tf[i] {
                    1 => once[l],
                    tf => {
                        let value = f64::from(tf) * (self.ref_len - idf[l]);
                        (value, py_pow(value, 2.0))
                    }
                };
                v.value.push(value);
                v.norm[k] += square;
            }
        }
        v.starts.push(v.local.len());
        for &l in &v.local {
            pos[l as usize] = 0;
        }
        for x in v.norm.iter_mut() {
            *x = x.sqrt();
        }
        // `if n == 1: length += term_freq` tests the order index: the bigrams are counted.
        v.length = len.saturating_sub(1) as i64;
    }

    /// The CIDEr-D score of one image: `hyp` against `refs` (at least one).
    pub fn image<'a, C: Caption<'a>>(&self, w: &mut Worker, hyp: C, refs: &[C]) -> f64 {
        w.local.clear();
        w.hyp_codes.clear();
        let hyp_len = w.local.codes(self, hyp, &mut w.hyp_codes);
        w.ref_codes.clear();
        w.ref_spans.clear();
        for &r in refs {
            let start = w.ref_codes.len();
            let len = w.local.codes(self, r, &mut w.ref_codes);
            w.ref_spans.push((start, w.ref_codes.len(), len));
        }
        let ref_codes = &w.ref_codes;
        let refs = w
            .ref_spans
            .iter()
            .map(|&(start, end, len)| (&ref_codes[start..end], len));
        let tables = (&w.local.idf[..], &w.local.once[..]);
        self.similarity(&mut w.sims, (&w.hyp_codes, hyp_len), refs, tables)
    }

    /// The CIDEr-D score of one image from its captions' local n-gram codes (each caption's
    /// codes in `precook`'s order, and its token count): the hypothesis's against each
    /// reference's (at least one), with per local code `idf`, `np.log(max(1, df))`, and
    /// `once`, the TF-IDF value of a count of 1 and its square ([`Scorer::once`]).
    pub(super) fn similarity<'c>(
        &self,
        w: &mut Sims,
        (hyp_codes, hyp_len): (&[u32], usize),
        refs: impl ExactSizeIterator<Item = (&'c [u32], usize)>,
        tables: (&[f64], &[(f64, f64)]),
    ) -> f64 {
        let n = self.opts.n();
        let n_refs = refs.len();
        let codes = tables.0.len();
        self.vectorize(hyp_codes, hyp_len, tables, &mut w.pos, &mut w.hyp);
        if w.ref_value.len() < codes {
            w.ref_value.resize(codes, 0.0);
        }
        w.score.clear();
        w.score.resize(n, 0.0);
        for (ref_codes, len) in refs {
            let rv = &mut w.reference;
            self.vectorize(ref_codes, len, tables, &mut w.pos, rv);
            let h = &w.hyp;
            for (&l, &v) in rv.local.iter().zip(&rv.value) {
                w.ref_value[l as usize] = v;
            }
            let penalty = self.penalty(h.length - rv.length);
            for k in 0..n {
                let mut val = 0.0f64;
                if k + 1 < h.starts.len() {
                    for i in h.starts[k]..h.starts[k + 1] {
                        let vh = h.value[i];
                        let vr = w.ref_value[h.local[i] as usize];
                        // min(vec_hyp, vec_ref) * vec_ref, Python's min (the first unless
                        // the second is smaller).
                        val += if vr < vh { vr } else { vh } * vr;
                    }
                }
                if h.norm[k] != 0.0 && rv.norm[k] != 0.0 {
                    val /= h.norm[k] * rv.norm[k];
                }
                val *= penalty;
                w.score[k] += val;
            }
            for &l in &rv.local {
                w.ref_value[l as usize] = 0.0;
            }
        }
        // np.mean(score) / len(refs) * 10.0
        let mut avg = np_mean(&w.score);
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
        parallel::for_each_row_in(
            &WORKERS,
            &mut out,
            1,
            threads,
            Worker::default,
            |w, i, o| {
                o[0] = self.image(w, batch.hyp(i), batch.refs(i));
            },
        );
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

/// `np.e ** (-(delta ** 2) / (2 * self.sigma ** 2))` (`compute_cider`'s `sim`), Python's float
/// pow both times; the same for `delta` and `-delta` (`pow` of an integer-valued float to the
/// power 2 is exact), so [`Scorer`] keeps it per `|delta|`.
fn penalty_of(delta: f64, two_sigma2: f64) -> f64 {
    py_pow(std::f64::consts::E, -py_pow(delta, 2.0) / two_sigma2)
}

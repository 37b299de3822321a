//! CIDEr-D as pycocoevalcap 1.2's `Cider().compute_score` computes it (`cider_scorer.py`), and
//! as a reward with document frequencies computed once from a training corpus.
//!
//! - [`doc_freq`]: the document frequencies (in how many images' reference sets each n-gram of
//!   orders 1..4 occurs), built once from text or from token IDs and reused for many batches;
//! - [`score`]: an image's score (`compute_cider`: TF-IDF vectors with `ref_len - log(df)`,
//!   clipped cosine similarity per order, the Gaussian length penalty, the mean over orders,
//!   over references, times 10), floats in the scorer's order, images in parallel;
//! - [`corpus`]: the COCO evaluation's call, frequencies and scores of one corpus, each caption
//!   coded once;
//! - [`metric`]: the [`crate::metric::Metric`] of CIDEr-D over given document frequencies.
//!
//! pycocoevalcap's `Cider(n, sigma)` counts n-grams up to order 4 whatever `n` (`cook_refs`
//! and `cook_test` are called with their default `n=4`): `n < 4` raises `IndexError` there,
//! and `n > 4` averages `n` orders of which the ones above 4 are zero. [`CiderD::new`] allows
//! `n >= 4` and keeps that arithmetic.

pub mod corpus;
mod count;
pub mod doc_freq;
mod local_tokens;
pub mod metric;
pub mod score;

pub use doc_freq::DocumentFrequency;

use crate::error::CoreError;

/// The highest n-gram order pycocoevalcap counts (see the module documentation).
pub const MAX_ORDER: usize = 4;

/// CIDEr-D's options: `n` orders averaged and the length penalty's `sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CiderD {
    n: usize,
    sigma: f64,
}

impl Default for CiderD {
    /// `Cider()`: `n = 4`, `sigma = 6.0`.
    fn default() -> Self {
        CiderD { n: 4, sigma: 6.0 }
    }
}

impl CiderD {
    /// `Cider(n=n, sigma=sigma)`; `n` at least 4 (see the module documentation), `sigma`
    /// finite and not 0.
    pub fn new(n: usize, sigma: f64) -> Result<Self, CoreError> {
        if !(MAX_ORDER..=64).contains(&n) {
            return Err(CoreError::InvalidOption(format!(
                "CIDEr-D's n must be 4 or more (at most 64; pycocoevalcap counts n-grams up to 4 \
                 and fails with IndexError below 4), got {n}"
            )));
        }
        if !sigma.is_finite() || sigma == 0.0 {
            return Err(CoreError::InvalidOption(format!(
                "CIDEr-D's sigma must be a finite number other than 0, got {sigma}"
            )));
        }
        Ok(CiderD { n, sigma })
    }

    /// The number of orders averaged.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The length penalty's standard deviation.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }
}

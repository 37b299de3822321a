//! Captions passed flat, as the COCO scorers' Python side gathers them: the hypotheses, every
//! image's references in one list (images in order), and each image's number of references.
//!
//! Performance decision: the generic glue reads one list of references per image
//! (`per_segment`), a collection per image, on the calling thread while the pool waits. One
//! list is read at once, on the pool ([`collect_on`]), and the images are cut from it by
//! their counts.

use crate::corpus::{borrow_all, collect_on, Owned};
use crate::errors::{type_name, ErrorKind, OrRaise};
use pyo3::prelude::*;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;

/// Flat captions read from Python (see the module documentation).
pub struct FlatCaptions<'py> {
    hyps: Owned<'py>,
    refs: Owned<'py>,
    counts: Vec<usize>,
}

impl<'py> FlatCaptions<'py> {
    /// Reads `hyps` (one str per image), `refs` (str) and `counts` (one positive int per
    /// image, summing to the number of references); large lists on `threads` threads.
    pub fn read(
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        counts: &Bound<'py, PyAny>,
        threads: Threads,
    ) -> PyResult<Self> {
        let py = hyps.py();
        let hyps = collect_on(hyps, "hypotheses", false, false, threads)?;
        let refs = collect_on(refs, "references", false, false, threads)?;
        let counts: Vec<usize> = counts.extract().map_err(|_| {
            ErrorKind::InputType.err(
                py,
                format!(
                    "reference counts must be a list of non-negative ints, not {}",
                    type_name(counts)
                ),
            )
        })?;
        if counts.len() != hyps.len() {
            return Err(ErrorKind::LengthMismatch.err(
                py,
                format!(
                    "{} hypotheses but {} reference counts",
                    hyps.len(),
                    counts.len()
                ),
            ));
        }
        if let Some(i) = counts.iter().position(|&c| c == 0) {
            return Err(
                ErrorKind::MissingReference.err(py, format!("image {i} has no reference caption"))
            );
        }
        let total = counts.iter().try_fold(0usize, |a, &c| a.checked_add(c));
        if total != Some(refs.len()) {
            return Err(ErrorKind::LengthMismatch.err(
                py,
                format!(
                    "the reference counts add up to {} but there are {} references",
                    total.map_or_else(|| "more than memory".to_string(), |t| t.to_string()),
                    refs.len()
                ),
            ));
        }
        Ok(FlatCaptions { hyps, refs, counts })
    }

    /// The corpus, borrowing the Python strings.
    pub fn corpus(&self, py: Python<'_>) -> PyResult<Corpus<&str>> {
        let items = borrow_all(&self.refs);
        let mut groups = Groups::with_capacity(self.counts.len(), items.len());
        let mut at = 0;
        for &c in &self.counts {
            groups.push_slice(&items[at..at + c]);
            at += c;
        }
        Corpus::new(borrow_all(&self.hyps), groups).or_raise(py)
    }
}

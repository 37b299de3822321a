//! `_core.TokenizedLines`: text that stays in Rust on its way to the statistics.
//!
//! What the line cache gives BLEU (MeCab's or SentencePiece's output, `None` where a reference
//! is missing), and Arrow text input ([`crate::arrow`]: the lines stay in the Arrow buffers).
//! The statistics read it without a Python string per line ([`crate::corpus::collect`] takes
//! it as it takes a list of `str`), and Python code reads it as a sequence of `str`, made when
//! an item is read.
//!
//! Performance decision: MeCab's output went from Rust to a Python `str` (UTF-8 decoded to
//! Python's own form) and back to UTF-8 for the statistics; on the five WMT22 en-ja systems
//! the two conversions cost about 5 ms of serial time in a cold BLEU, as much as a tenth of
//! MeCab's own parse on two threads.

use crate::arrow::ArrowText;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};
use std::sync::Arc;

/// Lines held by the core, `None` for a missing one; a read-only sequence.
#[pyclass(frozen, sequence, module = "rapidbleu._core")]
pub struct TokenizedLines {
    lines: Held,
}

/// Where the lines are.
enum Held {
    /// Strings of their own (the line cache's).
    Owned(Vec<Option<Arc<str>>>),
    /// Arrow buffers, kept alive here.
    Arrow(ArrowText),
}

impl TokenizedLines {
    /// The lines `lines`.
    pub fn new(lines: Vec<Option<Arc<str>>>) -> Self {
        TokenizedLines {
            lines: Held::Owned(lines),
        }
    }

    /// The lines of Arrow text.
    pub fn arrow(text: ArrowText) -> Self {
        TokenizedLines {
            lines: Held::Arrow(text),
        }
    }

    /// How many lines.
    pub fn len(&self) -> usize {
        match &self.lines {
            Held::Owned(v) => v.len(),
            Held::Arrow(a) => a.len(),
        }
    }

    /// Line `i` (below [`Self::len`]), `None` where missing; valid as long as `self`.
    pub fn get(&self, i: usize) -> Option<&str> {
        match &self.lines {
            Held::Owned(v) => v[i].as_deref(),
            Held::Arrow(a) => a.get(i),
        }
    }

    /// `f` of each line in order (`None` where missing), until it fails; where the lines are
    /// is looked at once, not per line.
    pub fn try_for_each<'a, E>(
        &'a self,
        mut f: impl FnMut(usize, Option<&'a str>) -> Result<(), E>,
    ) -> Result<(), E> {
        match &self.lines {
            Held::Owned(v) => v
                .iter()
                .enumerate()
                .try_for_each(|(i, l)| f(i, l.as_deref())),
            Held::Arrow(a) => (0..a.len()).try_for_each(|i| f(i, a.get(i))),
        }
    }
}

#[pymethods]
impl TokenizedLines {
    fn __len__(&self) -> usize {
        self.len()
    }

    /// Line `i` as a `str` or `None` (negative `i` counts from the end); a slice as a list.
    fn __getitem__<'py>(&self, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = index.py();
        if let Ok(slice) = index.cast::<PySlice>() {
            let s = slice.indices(self.len() as isize)?;
            let picked =
                (0..s.slicelength).map(|k| self.get((s.start + k as isize * s.step) as usize));
            return Ok(PyList::new(py, picked)?.into_any());
        }
        let i: isize = index.extract()?;
        let n = self.len() as isize;
        let at = if i < 0 { i + n } else { i };
        if !(0..n).contains(&at) {
            return Err(PyIndexError::new_err("TokenizedLines index out of range"));
        }
        Ok(self.get(at as usize).into_pyobject(py)?)
    }

    fn __repr__(&self) -> String {
        format!("<TokenizedLines of {} lines>", self.len())
    }
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TokenizedLines>()
}

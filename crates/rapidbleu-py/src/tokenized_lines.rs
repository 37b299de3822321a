//! `_core.TokenizedLines`: tokenized text that stays in Rust on its way to the statistics.
//!
//! What the line cache gives BLEU (MeCab's or SentencePiece's output, `None` where a reference
//! is missing). The statistics read it without a Python string per line
//! ([`crate::corpus::collect`] takes it as it takes a list of `str`), and Python code reads it
//! as a sequence of `str`, made when an item is read.
//!
//! Performance decision: MeCab's output went from Rust to a Python `str` (UTF-8 decoded to
//! Python's own form) and back to UTF-8 for the statistics; on the five WMT22 en-ja systems
//! the two conversions cost about 5 ms of serial time in a cold BLEU, as much as a tenth of
//! MeCab's own parse on two threads.

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};
use std::sync::Arc;

/// Tokenized lines held by the core, `None` for a missing one; a read-only sequence.
#[pyclass(frozen, sequence, module = "rapidbleu._core")]
pub struct TokenizedLines {
    lines: Vec<Option<Arc<str>>>,
}

impl TokenizedLines {
    /// The lines `lines`.
    pub fn new(lines: Vec<Option<Arc<str>>>) -> Self {
        TokenizedLines { lines }
    }

    /// The lines, to read without Python objects.
    pub fn lines(&self) -> &[Option<Arc<str>>] {
        &self.lines
    }
}

#[pymethods]
impl TokenizedLines {
    fn __len__(&self) -> usize {
        self.lines.len()
    }

    /// Line `i` as a `str` or `None` (negative `i` counts from the end); a slice as a list.
    fn __getitem__<'py>(&self, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = index.py();
        if let Ok(slice) = index.cast::<PySlice>() {
            let s = slice.indices(self.lines.len() as isize)?;
            let picked = (0..s.slicelength).map(|k| {
                let at = s.start + k as isize * s.step;
                self.lines[at as usize].as_deref()
            });
            return Ok(PyList::new(py, picked)?.into_any());
        }
        let i: isize = index.extract()?;
        let n = self.lines.len() as isize;
        let at = if i < 0 { i + n } else { i };
        if !(0..n).contains(&at) {
            return Err(PyIndexError::new_err("TokenizedLines index out of range"));
        }
        Ok(self.lines[at as usize].as_deref().into_pyobject(py)?)
    }

    fn __repr__(&self) -> String {
        format!("<TokenizedLines of {} lines>", self.lines.len())
    }
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TokenizedLines>()
}

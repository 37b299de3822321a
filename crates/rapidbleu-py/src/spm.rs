//! Glue for `rapidbleu_core::text::pieces`: the class `_core.PieceTable`.
//!
//! `rapidbleu/tokenizers/spm.py` encodes a batch to ids with the sentencepiece package (its own
//! threads, GIL released) and joins them here: one Python string per line instead of one per
//! piece plus a `" ".join`.

use crate::corpus::{collect, text};
use crate::errors::{guard, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rapidbleu_core::text::pieces::PieceTable;

/// A SentencePiece model's vocabulary, piece by id.
#[pyclass(frozen, module = "rapidbleu._core", name = "PieceTable")]
struct PyPieceTable {
    inner: PieceTable,
}

#[pymethods]
impl PyPieceTable {
    /// `pieces[id]` for every id of the model, and its unknown id (`sp.unk_id()`).
    #[new]
    fn new(pieces: &Bound<'_, PyAny>, unk_id: i64) -> PyResult<Self> {
        guard(|| {
            let owned = collect(pieces, "pieces", false, false)?;
            let inner = PieceTable::new(owned.iter().flatten().map(text), unk_id);
            Ok(PyPieceTable { inner })
        })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// `" ".join(pieces)` of each line's ids; `None` for a line with the unknown id (or an id
    /// outside the table), whose pieces are not the vocabulary's.
    fn join<'py>(
        &self,
        py: Python<'py>,
        ids: &Bound<'py, PyList>,
    ) -> PyResult<Vec<Option<Bound<'py, PyString>>>> {
        let mut out = Vec::with_capacity(ids.len());
        let mut buf = String::new();
        let mut line_ids: Vec<i64> = Vec::new();
        for (i, line) in ids.iter().enumerate() {
            let line = line.cast_into::<PyList>().map_err(|_| {
                ErrorKind::InputType.err(py, format!("ids[{i}] must be a list of int"))
            })?;
            line_ids.clear();
            for id in line.iter() {
                line_ids.push(id.extract::<i64>()?);
            }
            buf.clear();
            let joined = self.inner.join_into(line_ids.iter().copied(), &mut buf);
            out.push(joined.then(|| PyString::new(py, &buf)));
        }
        Ok(out)
    }
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPieceTable>()
}

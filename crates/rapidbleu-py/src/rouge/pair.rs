//! One `RougeScorer.score(target, prediction)` call in one core call: the two strings in, the
//! dict of rouge-score's `Score` named tuples out, with no corpus structure in between (no
//! item lists, no rows array, no NumPy).
//!
//! Performance decision: a program scores item by item, so the fixed cost of a call is the
//! cost. The statistics come from [`item_row`] on the calling thread (a spare worker, whose
//! vocabulary is its stem cache); the scores are computed here, in rouge-score's arithmetic
//! ([`score`]), and each `Score` is made by `tuple.__new__(Score, (p, r, f))` (what the named
//! tuple's own `__new__` does, without its Python frame). The GIL is kept for short texts,
//! where releasing and taking it back would cost more than the work; long ones are scored
//! with it released.

use super::text::utf8;
use crate::errors::{guard, ErrorKind, OrRaise};
use crate::metric::PyMetric;
use crate::rouge::options::PyRougeOptions;
use numpy::PyReadonlyArray2;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList, PyString, PyTuple, PyType};
use rapidbleu_core::metric::check_whole;
use rapidbleu_core::rouge::score::score;
use rapidbleu_core::rouge::stats::{item_row, Text, TextItem};
use rapidbleu_core::rouge::{RougeOptions, RougeType, MAX_TYPES};

/// Texts longer than this (bytes, both together) are scored with the GIL released: about
/// 10 µs of work, where giving the GIL up costs well under a microsecond.
const DETACH_BYTES: usize = 4096;

#[pymethods]
impl PyRougeOptions {
    /// rouge-score's `RougeScorer.score(target, prediction)` with its default tokenizer
    /// (sentences of rougeLsum at `\n`): rouge type -> `score_class(precision, recall,
    /// fmeasure)`, floats, and the int zeros of `_score_lcs` / `_summary_level_lcs` for rougeL
    /// and rougeLsum when a side has no tokens. `score_class` is a `tuple` subclass (the named
    /// tuple `Score`). `None` when `target` or `prediction` is not a `str`: the caller's
    /// general path says what is wrong.
    fn score_pair<'py>(
        &self,
        py: Python<'py>,
        target: &Bound<'py, PyAny>,
        prediction: &Bound<'py, PyAny>,
        score_class: &Bound<'py, PyType>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let options = <RougeOptions as PyMetric>::of(self);
        guard(|| {
            let (Ok(t), Ok(p)) = (target.cast::<PyString>(), prediction.cast::<PyString>()) else {
                return Ok(None);
            };
            if !score_class.is_subclass_of::<PyTuple>()? {
                return Err(ErrorKind::InputType.err(py, "score_class must be a tuple subclass"));
            }
            let (t, p) = (utf8(t)?, utf8(p)?);
            let item = TextItem {
                prediction: Text {
                    text: &p,
                    sentences: None,
                },
                targets: vec![Text {
                    text: &t,
                    sentences: None,
                }],
            };
            let mut row = [0i64; 3 * MAX_TYPES];
            let row = &mut row[..options.row_len()];
            if t.len() + p.len() > DETACH_BYTES {
                py.detach(|| item_row(&options, &item, row));
            } else {
                item_row(&options, &item, row);
            }
            let out = scores_dict(&options, row, score_class)?;
            Ok(Some(out))
        })
    }
}

/// rouge type -> `score_class(precision, recall, fmeasure)` of one statistics row, as
/// rouge-score's `score` returns it (its int zeros for an empty side of rougeL / rougeLsum).
fn scores_dict<'py>(
    options: &RougeOptions,
    row: &[i64],
    score_class: &Bound<'py, PyType>,
) -> PyResult<Bound<'py, PyDict>> {
    let py = score_class.py();
    let out = PyDict::new(py);
    for (ty, triple) in options.types().iter().zip(row.chunks(3)) {
        let (hits, pred, tgt) = (triple[0], triple[1], triple[2]);
        let values = if matches!(ty, RougeType::L | RougeType::Lsum) && (pred == 0 || tgt == 0) {
            // rouge-score's `Score(precision=0, recall=0, fmeasure=0)`: int zeros.
            let zero = 0i64.into_pyobject(py)?.into_any();
            [zero.clone(), zero.clone(), zero]
        } else {
            let (precision, recall, fmeasure) = score(hits, pred, tgt);
            [precision, recall, fmeasure].map(|v| PyFloat::new(py, v).into_any())
        };
        out.set_item(type_name(py, *ty), new_tuple(score_class, values)?)?;
    }
    Ok(out)
}

#[pymethods]
impl PyRougeOptions {
    /// `[score(t, p) ...]`'s dicts of statistics rows `(n, row_len)`: rouge type ->
    /// `score_class(precision, recall, fmeasure)`, as [`score_pair`](Self::score_pair) makes
    /// each.
    fn score_dicts<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, i64>,
        score_class: &Bound<'py, PyType>,
    ) -> PyResult<Bound<'py, PyList>> {
        let options = <RougeOptions as PyMetric>::of(self);
        guard(|| {
            if !score_class.is_subclass_of::<PyTuple>()? {
                return Err(ErrorKind::InputType.err(py, "score_class must be a tuple subclass"));
            }
            let width = options.row_len();
            let rows = rows.as_slice()?;
            check_whole(rows.len(), width).or_raise(py)?;
            let dicts = rows
                .chunks_exact(width)
                .map(|row| scores_dict(&options, row, score_class))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, dicts)
        })
    }
}

/// rouge-score's name of a rouge type (the only spellings [`RougeType::parse`] takes), interned.
fn type_name(py: Python<'_>, ty: RougeType) -> &Bound<'_, PyString> {
    match ty {
        RougeType::L => intern!(py, "rougeL"),
        RougeType::Lsum => intern!(py, "rougeLsum"),
        RougeType::N(1) => intern!(py, "rouge1"),
        RougeType::N(2) => intern!(py, "rouge2"),
        RougeType::N(3) => intern!(py, "rouge3"),
        RougeType::N(4) => intern!(py, "rouge4"),
        RougeType::N(5) => intern!(py, "rouge5"),
        RougeType::N(6) => intern!(py, "rouge6"),
        RougeType::N(7) => intern!(py, "rouge7"),
        RougeType::N(8) => intern!(py, "rouge8"),
        _ => intern!(py, "rouge9"),
    }
}

/// `tuple.__new__(class, values)`: the named tuple's own `__new__` without its Python frame.
/// `class` must be a subclass of `tuple` (checked by the caller).
///
/// Performance decision: made as `tuple.__new__` makes an instance of a subclass (its
/// `tp_alloc`, then the items), without the two tuples of arguments a call would build: one
/// object for the collector to count per `Score`, not three.
fn new_tuple<'py>(
    class: &Bound<'py, PyType>,
    values: [Bound<'py, PyAny>; 3],
) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    // SAFETY: `PyType_GetSlot` of a type returns its `tp_alloc` (checked not null), which for
    // a subclass of `tuple` (checked by the caller) allocates a tuple of `n` empty items (and
    // tracks it, as `tuple.__new__`'s does); `PyTuple_SetItem` on it, its only reference,
    // steals each item. A null result has an exception set, which `from_owned_ptr_or_err`
    // takes.
    unsafe {
        let slot = pyo3::ffi::PyType_GetSlot(class.as_type_ptr(), pyo3::ffi::Py_tp_alloc);
        if slot.is_null() {
            return Err(ErrorKind::InputType.err(py, "score_class has no tp_alloc"));
        }
        let alloc = std::mem::transmute::<*mut std::ffi::c_void, pyo3::ffi::allocfunc>(slot);
        let obj = Bound::from_owned_ptr_or_err(py, alloc(class.as_type_ptr(), 3))?;
        for (i, v) in values.into_iter().enumerate() {
            if pyo3::ffi::PyTuple_SetItem(obj.as_ptr(), i as isize, v.into_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(obj)
    }
}

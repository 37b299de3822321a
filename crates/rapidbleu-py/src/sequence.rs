//! What the glue reads as a sequence, in one place, for text and token input alike.
//!
//! A sequence is something with a length and an order that can be read more than once: a
//! list, a tuple, a NumPy array (a masked one without its masked entries), a torch tensor, or
//! any `collections.abc.Sequence` (`range`, `collections.deque`, user classes). Generators
//! and iterators (read once, then silently empty), sets and dicts (no order of their items
//! that means anything) are refused with a message that says so, everywhere.

use crate::errors::type_name;
use crate::errors::ErrorKind;
use numpy::PyUntypedArray;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PySequence, PyTuple, PyType};
use std::fmt::Display;

/// Whether `obj` is a sequence (see the module documentation; a `str` is one too, and
/// callers that want sequences of str refuse it first).
pub(crate) fn is_sequence(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>()
        || obj.cast::<PyUntypedArray>().is_ok()
        || obj.cast::<PySequence>().is_ok()
}

/// The `InputTypeError` for `obj` (named `what`) where a sequence of `items` was expected.
pub(crate) fn not_a_sequence(obj: &Bound<'_, PyAny>, what: &dyn Display, items: &str) -> PyErr {
    ErrorKind::InputType.err(
        obj.py(),
        format!(
            "{what} is a {}; expected a sequence (a list, tuple or array) of {items}; \
             generators and iterators (read only once), sets and dicts (no order) are not \
             sequences: pass list(...) of them",
            type_name(obj)
        ),
    )
}

/// `numpy.ma.MaskedArray`, looked up once.
static MASKED_ARRAY: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Whether `arr` (a NumPy array) is a masked array: its masked entries are not part of it.
pub(crate) fn is_masked(arr: &Bound<'_, PyAny>) -> PyResult<bool> {
    let cls = MASKED_ARRAY.import(arr.py(), "numpy.ma", "MaskedArray")?;
    arr.is_instance(cls)
}

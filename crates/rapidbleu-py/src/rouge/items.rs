//! Reading ROUGE's items from Python, shared by the default tokenizer's rows with given
//! sentences (`stats`) and the Unicode tokenizer's (`unicode`): predictions (`str`), each one's
//! list of targets (`str`), checked for shape, then borrowed as UTF-8.

use super::text::{strings, utf8};
use crate::errors::ErrorKind;
use crate::sequence::{is_sequence, not_a_sequence};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::borrow::Cow;

/// Predictions and, per prediction, its targets, as Python strings.
pub type ItemStrings<'py> = (Vec<Bound<'py, PyString>>, Vec<Vec<Bound<'py, PyString>>>);

/// Predictions and their targets borrowed as UTF-8 (lone surrogates read as [`utf8`] does).
pub type ItemText<'a> = (Vec<Cow<'a, str>>, Vec<Vec<Cow<'a, str>>>);

/// The items of a sequence argument (`what` in messages): a sequence as `crate::sequence`
/// decides for every input, never a generator, set or dict.
pub fn items<'py>(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if seq.is_instance_of::<PyString>() {
        return Err(ErrorKind::InputType.err(seq.py(), format!("{what} must be a list, not a str")));
    }
    if !is_sequence(seq) {
        return Err(not_a_sequence(seq, &what, "items"));
    }
    seq.try_iter()?.collect()
}

/// A `LengthMismatchError` unless `what` has `want` entries (one per prediction).
pub fn check_len(py: Python<'_>, what: &str, got: usize, want: usize) -> PyResult<()> {
    if got != want {
        return Err(ErrorKind::LengthMismatch.err(
            py,
            format!("{what} has {got} entries but there are {want} predictions"),
        ));
    }
    Ok(())
}

/// `predictions` (str) and `targets` (one list of str per prediction), read and checked. A
/// prediction with no target is left to the caller, whose core says which error it is.
pub fn item_strings<'py>(
    predictions: &Bound<'py, PyAny>,
    targets: &Bound<'py, PyAny>,
) -> PyResult<ItemStrings<'py>> {
    let preds = strings(predictions, "predictions")?;
    let lists = items(targets, "targets")?;
    check_len(targets.py(), "targets", lists.len(), preds.len())?;
    let tgts = lists
        .iter()
        .enumerate()
        .map(|(i, t)| strings(t, &format!("targets[{i}]")))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((preds, tgts))
}

/// The texts of [`item_strings`] borrowed as UTF-8 (they stay alive in the caller).
pub fn item_text<'a>(
    preds: &'a [Bound<'_, PyString>],
    tgts: &'a [Vec<Bound<'_, PyString>>],
) -> PyResult<ItemText<'a>> {
    let p = preds.iter().map(utf8).collect::<PyResult<_>>()?;
    let t = tgts
        .iter()
        .map(|t| t.iter().map(utf8).collect::<PyResult<_>>())
        .collect::<PyResult<_>>()?;
    Ok((p, t))
}

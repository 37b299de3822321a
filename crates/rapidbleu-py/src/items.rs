//! The per-item layout: `[{"candidate": str, "references": [str, ...]}, ...]` or
//! `[(candidate, references), ...]` -> a list of candidates and a list of reference lists.
//!
//! This is a loop over every item, so it runs here rather than in Python (about ten times
//! cheaper per item); the rules and messages are those documented in `rapidbleu.items`.

use crate::errors::type_name;
use crate::errors::{guard, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

/// Names of the candidate field, in order of preference (`rapidbleu.items.CANDIDATE_KEYS`).
pub(crate) const CANDIDATE_KEYS: [&str; 4] =
    ["candidate", "prediction", "hypothesis", "actual_output"];
/// Names of the references field (`rapidbleu.items.REFERENCE_KEYS`); one str is one reference.
pub(crate) const REFERENCE_KEYS: [&str; 3] = ["references", "reference", "expected_output"];

/// Candidate and references of item `i`.
fn fields<'py>(
    item: &Bound<'py, PyAny>,
    i: usize,
    mapping_abc: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let py = item.py();
    let from_mapping = |m: &Bound<'py, PyAny>| -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        // The first key present wins; the aliases are those of common evaluation datasets.
        let get = |keys: &[&str]| -> PyResult<Bound<'py, PyAny>> {
            for key in keys {
                if let Ok(value) = m.get_item(*key) {
                    return Ok(value);
                }
            }
            Err(ErrorKind::Input.err(
                py,
                format!(
                    "item {i} lacks '{}' (or an alias: {}); each item needs 'candidate' (str) \
                     and 'references' (list of str)",
                    keys[0],
                    keys[1..].join(", ")
                ),
            ))
        };
        Ok((get(&CANDIDATE_KEYS)?, get(&REFERENCE_KEYS)?))
    };
    if let Ok(d) = item.cast::<PyDict>() {
        return from_mapping(d.as_any());
    }
    let pair = item
        .cast::<PyTuple>()
        .map(|t| t.len() == 2)
        .unwrap_or(false)
        || item.cast::<PyList>().map(|l| l.len() == 2).unwrap_or(false);
    if pair {
        return Ok((item.get_item(0)?, item.get_item(1)?));
    }
    if item.is_instance(mapping_abc)? {
        return from_mapping(item);
    }
    Err(ErrorKind::InputType.err(
        py,
        format!(
            "item {i} is {}; expected a mapping with 'candidate' and 'references', or a \
             (candidate, references) pair",
            type_name(item)
        ),
    ))
}

/// `_core.split_items(items) -> (candidates, references)`.
#[pyfunction]
pub fn split_items<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    guard(|| {
        let abc = py.import("collections.abc")?.getattr("Mapping")?;
        let not_items = || {
            ErrorKind::InputType.err(
                py,
                "items must be a sequence of items, each {'candidate': str, 'references': [str, ...]} \
                 or a (candidate, references) pair",
            )
        };
        if items.is_instance_of::<PyString>()
            || items.is_instance_of::<PyBytes>()
            || items.is_instance(&abc)?
        {
            return Err(not_items());
        }
        let iter = items.try_iter().map_err(|_| not_items())?;
        let candidates = PyList::empty(py);
        let references = PyList::empty(py);
        for (i, item) in iter.enumerate() {
            let item = item?;
            let (cand, refs) = fields(&item, i, &abc)?;
            let refs = if refs.is_instance_of::<PyString>() {
                // One reference given as a plain string.
                PyList::new(py, [refs])?.into_any()
            } else if refs.cast::<PyList>().is_ok() || refs.cast::<PyTuple>().is_ok() {
                refs
            } else {
                return Err(ErrorKind::InputType.err(
                    py,
                    format!(
                        "item {i}: references is {}; expected a list of str",
                        type_name(&refs)
                    ),
                ));
            };
            if refs.len()? == 0 {
                return Err(ErrorKind::Input
                    .err(py, format!("item {i} has no reference; give at least one")));
            }
            // A token sequence / ID candidate (list, tuple, array, tensor) goes down the token
            // path (`rapidbleu.metrics.bleu.tokens`), which checks its types itself.
            // (A str is checked first: `hasattr` on a str raises and swallows an AttributeError.)
            let tokens = !cand.is_instance_of::<PyString>()
                && (cand.cast::<PyList>().is_ok()
                    || cand.cast::<PyTuple>().is_ok()
                    || cand.hasattr("__array__")?);
            // Check types here so that messages name the item, not an internal list.
            if !tokens && !cand.is_instance_of::<PyString>() {
                return Err(ErrorKind::InputType.err(
                    py,
                    format!("item {i}: candidate is {}; expected str", type_name(&cand)),
                ));
            }
            for (j, r) in refs.try_iter()?.enumerate() {
                let r = r?;
                if !tokens && !r.is_none() && !r.is_instance_of::<PyString>() {
                    return Err(ErrorKind::InputType.err(
                        py,
                        format!(
                            "item {i}: references[{j}] is {}; expected str",
                            type_name(&r)
                        ),
                    ));
                }
            }
            candidates.append(cand)?;
            references.append(refs)?;
        }
        if candidates.is_empty() {
            return Err(ErrorKind::EmptyInput.err(py, "no items to score"));
        }
        Ok((candidates, references))
    })
}

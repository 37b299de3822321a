//! pycocoevalcap 1.2's `gts`/`res` dictionaries (image id -> list of captions) read into the
//! core's corpus, checked as its scorers check them.
//!
//! Every scorer's `compute_score(gts, res)` asserts `gts.keys() == res.keys()` and, per image
//! in `gts`'s order, that `res[id]` is a list of one caption and `gts[id]` a non-empty list; a
//! failed check is the same `AssertionError`. A caption that is not a `str` is an
//! `InputTypeError` naming it (pycocoevalcap fails in its `.split()`).
//!
//! Performance decision: the captions are gathered into one list, every image's caption and
//! then every image's references, that the pool reads in place ([`collect_private`]). Read one
//! image's list at a time, the 25,000 references of 5,000 images went through the C API a
//! string at a time on the calling thread, before any worker could start: 1.7 ms of COCO
//! BLEU's 10.6 (`perf sched timehist`), and a Python pass building the lists came before it.

use crate::corpus::{borrow_all, collect_private, to_str, Owned};
use crate::errors::{type_name, ErrorKind, OrRaise};
use pyo3::exceptions::PyAssertionError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;

/// The captions of `gts`/`res`, kept alive, and where each image's references end.
pub(crate) struct Images<'py> {
    /// Every image's caption, then every image's references.
    lines: Owned<'py>,
    /// Per image, where its references end in `lines` (counted after the captions).
    ends: Vec<usize>,
}

/// pycocoevalcap's failed `assert`.
fn assertion() -> PyErr {
    PyAssertionError::new_err(())
}

/// `caption`, item `j` of the captions named `what`, as a `str`, else an `InputTypeError`.
fn caption<'py>(
    caption: Bound<'py, PyAny>,
    what: impl FnOnce() -> String,
    j: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if caption.is_instance_of::<PyString>() {
        return Ok(caption);
    }
    let message = format!("{}[{j}] is {}; expected str", what(), type_name(&caption));
    Err(ErrorKind::InputType.err(caption.py(), message))
}

/// `map[key]`, as a message names an image's captions.
fn image(map: &str, key: &Bound<'_, PyAny>) -> String {
    let key = key.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    format!("{map}[{key}]")
}

/// The error of the first caption of `list` that is not valid Unicode, named by its image
/// (`list` holds `n` captions, then the references ending at `ends`).
fn first_invalid(
    list: &Bound<'_, PyList>,
    keys: &Bound<'_, PyList>,
    n: usize,
    ends: &[usize],
) -> Option<PyErr> {
    list.iter().enumerate().find_map(|(i, s)| {
        let s = s.cast_into::<PyString>().ok()?;
        let (map, at, j) = if i < n {
            ("res", i, 0)
        } else {
            let at = ends.partition_point(|&end| end <= i - n);
            ("gts", at, i - n - at.checked_sub(1).map_or(0, |p| ends[p]))
        };
        to_str(&s, image(map, &keys.get_item(at).ok()?), j).err()
    })
}

impl<'py> Images<'py> {
    /// Reads `gts` and `res` (any mappings; dictionaries without a Python call per image), on
    /// `threads` threads.
    pub(crate) fn read(
        gts: &Bound<'py, PyAny>,
        res: &Bound<'py, PyAny>,
        threads: Threads,
    ) -> PyResult<Self> {
        let py = gts.py();
        let dicts = gts
            .cast_exact::<PyDict>()
            .ok()
            .zip(res.cast_exact::<PyDict>().ok());
        // The keys, in `gts`'s order, as a list: no code of a key (`__eq__`) can then change
        // what is being iterated.
        let keys = match dicts {
            // Equal sizes, and every key of `gts` found in `res` below: equal key sets.
            Some((g, r)) if g.len() != r.len() => return Err(assertion()),
            Some((g, _)) => g.keys(),
            None => {
                if gts.call_method0("keys")?.ne(res.call_method0("keys")?)? {
                    return Err(assertion());
                }
                let keys = gts.call_method0("keys")?.try_iter()?;
                PyList::new(py, keys.collect::<PyResult<Vec<_>>>()?)?
            }
        };
        let lookup = |map: &Bound<'py, PyAny>, key: &Bound<'py, PyAny>| match dicts {
            Some(_) => map.cast::<PyDict>()?.get_item(key)?.ok_or_else(assertion),
            None => map.get_item(key),
        };
        let mut lines = Vec::with_capacity(keys.len());
        let mut refs = Vec::with_capacity(5 * keys.len());
        let mut ends = Vec::with_capacity(keys.len());
        for key in keys.iter() {
            let (hypo, reference) = (lookup(res, &key)?, lookup(gts, &key)?);
            // assert(type(hypo) is list); assert(len(hypo) == 1); assert(type(ref) is list);
            // assert(len(ref) >= 1)
            let (Ok(hypo), Ok(reference)) = (
                hypo.cast_exact::<PyList>(),
                reference.cast_exact::<PyList>(),
            ) else {
                return Err(assertion());
            };
            if hypo.len() != 1 || reference.is_empty() {
                return Err(assertion());
            }
            lines.push(caption(hypo.get_item(0)?, || image("res", &key), 0)?);
            for (j, r) in reference.iter().enumerate() {
                refs.push(caption(r, || image("gts", &key), j)?);
            }
            ends.push(refs.len());
        }
        let n = lines.len();
        lines.append(&mut refs);
        let list = PyList::new(py, lines)?;
        match collect_private(list.clone(), "captions", threads) {
            Ok(lines) => Ok(Images { lines, ends }),
            // A lone surrogate: named by its image, not by its place in the gathered list.
            Err(e) => Err(first_invalid(&list, &keys, n, &ends).unwrap_or(e)),
        }
    }

    /// The number of images.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The corpus: each image's caption against its references.
    pub(crate) fn corpus(&self, py: Python<'_>) -> PyResult<Corpus<&str>> {
        let texts = borrow_all(&self.lines);
        let (hyps, refs) = texts.split_at(self.len());
        let mut groups = Groups::with_capacity(self.len(), refs.len());
        let mut start = 0;
        for &end in &self.ends {
            groups.push_slice(&refs[start..end]);
            start = end;
        }
        Corpus::new(hyps.to_vec(), groups).or_raise(py)
    }
}

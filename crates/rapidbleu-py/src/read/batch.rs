//! A list of sequences: a 2-D integer array or tensor (each row ending at its length, or with
//! every padding ID dropped; a masked array without its masked entries) or a Python sequence
//! of sequences.

use super::arrays::{as_i64_array, is_torch_tensor, torch_to_numpy, typed};
use super::sequence::push_seq;
use super::{set_kind, Collector, Indexed, Kind, Read};
use crate::errors::type_name;
use crate::errors::{ErrorKind, OrRaise};
use crate::sequence::{is_masked, is_sequence, not_a_sequence};
use numpy::{
    PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray2, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use rapidbleu_core::error::reserve;
use std::fmt::Display;

/// How rows of a 2-D array end: at a given length, or by dropping a padding id.
#[derive(Clone, Copy)]
enum RowEnd<'a> {
    Lengths(&'a [i64]),
    Pad(i64),
}

/// How the rows of a 2-D array end: at `lengths` (named `lengths_name` in messages) or
/// without every `pad` ID. One of the two is required: a padded batch read whole would count
/// its padding as tokens, a silently wrong score.
fn row_end<'a>(
    py: Python<'_>,
    lengths: Option<&'a [i64]>,
    lengths_name: &str,
    pad: Option<i64>,
    (rows, width): (usize, usize),
    what: &dyn Display,
) -> PyResult<RowEnd<'a>> {
    match (lengths, pad) {
        (Some(_), Some(_)) => {
            Err(ErrorKind::InvalidOption
                .err(py, format!("give {lengths_name} or pad_id, not both")))
        }
        (Some(l), None) => {
            if l.len() != rows {
                return Err(ErrorKind::LengthMismatch.err(
                    py,
                    format!(
                        "{what} has {rows} rows but {lengths_name} has {} lengths",
                        l.len()
                    ),
                ));
            }
            if let Some((i, &n)) = l
                .iter()
                .enumerate()
                .find(|&(_, &n)| n < 0 || n as u64 > width as u64)
            {
                return Err(ErrorKind::Input.err(
                    py,
                    format!(
                        "{lengths_name}[{i}] = {n} is outside 0..={width} (the width of {what})"
                    ),
                ));
            }
            Ok(RowEnd::Lengths(l))
        }
        (None, Some(p)) => Ok(RowEnd::Pad(p)),
        (None, None) => Err(ErrorKind::Input.err(
            py,
            format!(
                "{what} is a 2-D array of token IDs ({rows} x {width}), and nothing says where \
                 its rows end: pass pad_id=ID (every ID equal to it is dropped, left or right \
                 padding) or {lengths_name}=[...] (row i is row[:{lengths_name}[i]]); for rows \
                 without padding, {lengths_name}=[{width}] * {rows}"
            ),
        )),
    }
}

/// Reads the rows of a masked 2-D array: each row without its masked entries.
fn push_masked_rows<'py>(
    obj: &Bound<'py, PyAny>,
    rows: usize,
    what: &dyn Display,
    read: Read,
    (kind, col, buf): (&mut Kind, &mut Collector<'py>, &mut Vec<i64>),
) -> PyResult<usize> {
    for i in 0..rows {
        push_seq(&obj.get_item(i)?, &Indexed(what, i), read, kind, col, buf)?;
    }
    Ok(rows)
}

/// Reads a list of sequences: a 2-D integer array or tensor (rows cut at `lengths`, or with
/// every `pad` id dropped) or a Python sequence of sequences. Returns how many were read.
pub(crate) fn push_seqs<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Display,
    read: Read,
    (lengths, lengths_name): (Option<&[i64]>, &str),
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<usize> {
    let py = obj.py();
    let pad = read.pad;
    // Lists and tuples (the common case) skip the torch and NumPy checks.
    let listlike = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    let (obj, torch_dtype) = if !listlike && is_torch_tensor(obj) {
        let (arr, dtype) = torch_to_numpy(obj, what)?;
        (arr, Some(dtype))
    } else {
        (obj.clone(), None)
    };
    if listlike && lengths.is_none() {
        if let Ok(list) = obj.cast::<PyList>() {
            // A list (the common case, once per segment in NLTK's layout) is read by index.
            for (i, seq) in list.iter().enumerate() {
                push_seq(&seq, &Indexed(what, i), read, kind, col, buf)?;
            }
            return Ok(list.len());
        }
    }
    if let Some(arr) = obj.cast::<PyUntypedArray>().ok().filter(|_| !listlike) {
        let shape = arr.shape().to_vec();
        if arr.ndim() == 2 && is_masked(arr)? {
            if lengths.is_some() {
                return Err(ErrorKind::InvalidOption.err(
                    py,
                    format!(
                        "{what} is a masked array, whose mask says where its rows end; give \
                         {lengths_name} for plain arrays only"
                    ),
                ));
            }
            return push_masked_rows(&obj, shape[0], what, read, (kind, col, buf));
        }
        if arr.ndim() == 2 && arr.dtype().kind() == b'O' {
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} is a 2-D NumPy array of dtype object; give a list of token \
                     sequences, or a 2-D integer array with pad_id or {lengths_name}"
                ),
            ));
        }
        if arr.ndim() == 2 {
            let end = row_end(py, lengths, lengths_name, pad, (shape[0], shape[1]), what)?;
            let arr = as_i64_array(arr, what, torch_dtype.as_deref())?;
            let arr: PyReadonlyArray2<'_, i64> = typed::<PyArray2<i64>>(&arr, what)?.readonly();
            let view = arr.as_array();
            let (rows, width) = (view.nrows(), view.ncols());
            if rows > 0 && width > 0 {
                set_kind(py, kind, Kind::Ids, what)?;
            }
            let drop = match end {
                RowEnd::Pad(p) => Some(p),
                RowEnd::Lengths(_) => None,
            };
            // As for 1-D arrays: room for the copy is made fallibly.
            col.ids
                .try_reserve(rows.saturating_mul(width))
                .or_raise(py)?;
            reserve(buf, width).or_raise(py)?;
            for (i, row) in view.outer_iter().enumerate() {
                let n = match end {
                    RowEnd::Lengths(l) => l[i] as usize,
                    RowEnd::Pad(_) => width,
                };
                match (drop, row.as_slice()) {
                    // A contiguous row (the usual C-order array) is copied as one slice.
                    (None, Some(r)) => col.end_seq(&r[..n]),
                    _ => {
                        buf.clear();
                        buf.extend(row.iter().take(n).copied().filter(|&t| Some(t) != drop));
                        col.end_seq(buf);
                    }
                }
            }
            return Ok(rows);
        }
        if arr.ndim() != 1 {
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} is a {}-D array; expected a 2-D integer array (one row per \
                     sequence) or a list of sequences",
                    arr.ndim()
                ),
            ));
        }
    }
    if lengths.is_some() {
        return Err(ErrorKind::InvalidOption.err(
            py,
            format!(
                "{lengths_name} apply to a 2-D array, but {what} is {}",
                type_name(&obj)
            ),
        ));
    }
    if obj.is_instance_of::<PyString>() {
        return Err(ErrorKind::InputType.err(
            py,
            format!("{what} is a str; expected a list of sequences (lists of str or int)"),
        ));
    }
    let items = "token sequences";
    if !is_sequence(&obj) {
        return Err(not_a_sequence(&obj, what, items));
    }
    let iter = obj
        .try_iter()
        .map_err(|_| not_a_sequence(&obj, what, items))?;
    let mut n = 0;
    for (i, seq) in iter.enumerate() {
        push_seq(&seq?, &Indexed(what, i), read, kind, col, buf)?;
        n += 1;
    }
    Ok(n)
}

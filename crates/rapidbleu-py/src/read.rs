//! Reading pre-tokenised input from Python: token IDs (lists of int, NumPy integer arrays,
//! torch CPU tensors, 2-D arrays with lengths or a padding id) and tokens (lists of str) into
//! [`Collector`]s, with the messages of every input error.
//!
//! NumPy arrays are read through their buffers (no Python object per token), lists item by
//! item. IDs become one flat `i64` buffer, tokens borrow the UTF-8 of the Python strings (a
//! lone surrogate is encoded with `surrogatepass`, so every distinct string is a distinct byte
//! string, as distinct strings are distinct keys in NLTK's `Counter`).

use crate::corpus::type_name;
use crate::errors::{ErrorKind, OrRaise};
use numpy::{
    PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray2, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList, PyString, PyTuple};
use rapidbleu_core::corpus::Groups;
use rapidbleu_core::error::reserve;
use std::fmt::{self, Display};

/// What a corpus holds, decided by its first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Unknown,
    Ids,
    Tokens,
}

/// Sequences being collected; every sequence is pushed to both representations (only the one
/// of the corpus kind holds tokens), so empty sequences need no kind.
#[derive(Default)]
pub(crate) struct Collector<'py> {
    /// Token IDs, one group per sequence.
    pub(crate) ids: Groups<i64>,
    pub(crate) toks: Vec<Bound<'py, PyAny>>,
    pub(crate) tok_offsets: Vec<usize>,
}

impl<'py> Collector<'py> {
    fn end_seq(&mut self, ids: &[i64]) {
        self.ids.push_slice(ids);
        self.tok_offsets.push(self.toks.len());
    }
}

/// `base[index]`, formatted only when a message needs it (labels are built for every
/// sequence, messages almost never).
pub(crate) struct Indexed<'a>(pub(crate) &'a dyn Display, pub(crate) usize);

impl Display for Indexed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

fn is_torch_tensor(obj: &Bound<'_, PyAny>) -> bool {
    // Detected by the class's module, so torch is never imported here.
    obj.get_type()
        .module()
        .map(|m| m.to_string().split('.').next() == Some("torch"))
        .unwrap_or(false)
        && obj.hasattr("numpy").unwrap_or(false)
}

/// A torch tensor as a NumPy array (`.detach().numpy()`, zero-copy for CPU tensors).
fn torch_to_numpy<'py>(obj: &Bound<'py, PyAny>, what: &dyn Display) -> PyResult<Bound<'py, PyAny>> {
    obj.call_method0("detach")
        .and_then(|t| t.call_method0("numpy"))
        .map_err(|e| {
            ErrorKind::InputType.err(
                obj.py(),
                format!(
                    "{what} is a torch tensor that cannot be viewed as a NumPy array ({e}); \
                     move it to the CPU first with .cpu()"
                ),
            )
        })
}

/// A NumPy integer array as an `int64` array (converted by NumPy when its dtype differs).
fn as_i64_array<'py>(
    arr: &Bound<'py, PyUntypedArray>,
    what: &dyn Display,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = arr.py();
    let dt = arr.dtype();
    let (kind, size) = (dt.kind(), dt.itemsize());
    let converted = match kind {
        b'i' if size == 8 => return Ok(arr.clone()),
        b'i' | b'b' => arr.call_method1("astype", ("int64",))?,
        b'u' => {
            if size == 8 && arr.len() > 0 {
                let max: u64 = arr.call_method0("max")?.extract()?;
                if max > i64::MAX as u64 {
                    return Err(ErrorKind::Input.err(
                        py,
                        format!("{what} holds the token id {max}, larger than 2**63 - 1"),
                    ));
                }
            }
            arr.call_method1("astype", ("int64",))?
        }
        _ => {
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} is a NumPy array of dtype {}; token IDs must be integers",
                    dt.str().map(|s| s.to_string()).unwrap_or_default()
                ),
            ))
        }
    };
    Ok(converted.cast_into::<PyUntypedArray>()?)
}

fn mixed(py: Python<'_>, what: &dyn Display) -> PyErr {
    ErrorKind::InputType.err(
        py,
        format!(
            "{what} mixes token IDs (int) and tokens (str); one corpus holds one kind: \
             all sequences of int, or all sequences of str"
        ),
    )
}

fn set_kind(py: Python<'_>, kind: &mut Kind, want: Kind, what: &dyn Display) -> PyResult<()> {
    match *kind {
        Kind::Unknown => {
            *kind = want;
            Ok(())
        }
        k if k == want => Ok(()),
        _ => Err(mixed(py, what)),
    }
}

/// How rows of a 2-D array end: at a given length, or by dropping a padding id.
#[derive(Clone, Copy)]
enum RowEnd<'a> {
    Full,
    Lengths(&'a [i64]),
    Pad(i64),
}

/// How sequences are read.
#[derive(Clone, Copy)]
pub(crate) struct Read {
    /// An ID dropped wherever it occurs (padding).
    pub(crate) pad: Option<i64>,
    /// A str sequence is the sequence of its characters (NLTK iterates a str hypothesis);
    /// otherwise it is an error.
    pub(crate) str_chars: bool,
}

/// Reads one sequence (`what` names it in messages) into `col`.
fn push_seq<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Display,
    read: Read,
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<()> {
    let py = obj.py();
    let pad = read.pad;
    // Lists and tuples (the common case) skip the torch and NumPy checks.
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return push_list(obj, what, pad, kind, col, buf);
    }
    let obj = if is_torch_tensor(obj) {
        torch_to_numpy(obj, what)?
    } else {
        obj.clone()
    };
    buf.clear();
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        if arr.ndim() != 1 || arr.dtype().kind() == b'O' {
            if arr.dtype().kind() == b'O' {
                // An object array (e.g. of str): read item by item below.
                return push_list(&obj, what, pad, kind, col, buf);
            }
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} is a {}-D array; a sequence must be 1-D (give a batch as a 2-D \
                     array of hypotheses, with lengths or a padding id)",
                    arr.ndim()
                ),
            ));
        }
        let arr = as_i64_array(arr, what)?;
        let arr = arr.cast::<PyArray1<i64>>()?.readonly();
        if arr.len() > 0 {
            set_kind(py, kind, Kind::Ids, what)?;
        }
        let view = arr.as_array();
        // An array's length comes from the input (a broadcast view can be far larger than
        // memory): room for its copy is made fallibly.
        col.ids.try_reserve(view.len()).or_raise(py)?;
        reserve(buf, view.len()).or_raise(py)?;
        if let (None, Some(ids)) = (pad, view.as_slice()) {
            // A contiguous array without padding is copied as one slice.
            col.end_seq(ids);
        } else {
            buf.extend(view.iter().copied().filter(|&t| Some(t) != pad));
            col.end_seq(buf);
        }
        return Ok(());
    }
    if read.str_chars && obj.is_instance_of::<PyString>() {
        // Iterating a str yields its characters, as `list(hypothesis)` does in NLTK.
        return push_list(&obj, what, pad, kind, col, buf);
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(ErrorKind::InputType.err(
            py,
            format!(
                "{what} is a {}; a pre-tokenised sequence is a list of str tokens or of int \
                 token IDs (split or encode the text first)",
                type_name(&obj)
            ),
        ));
    }
    push_list(&obj, what, pad, kind, col, buf)
}

/// Reads a generic Python sequence of int or str.
fn push_list<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Display,
    pad: Option<i64>,
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<()> {
    buf.clear();
    // A list is read by index, without the iterator protocol (most input is lists).
    if let Ok(list) = obj.cast::<PyList>() {
        buf.reserve(list.len());
        let (mut j, mut len) = (0, list.len());
        while j < len {
            // Performance decision: an exact int in an ID corpus (the common case) is read
            // without a reference count, the str check, the kind bookkeeping and the error
            // path of `push_item` (they were three quarters of reading a list of IDs).
            if *kind == Kind::Ids {
                // SAFETY: `j < len`, the list's current length.
                if let Some(id) = unsafe { exact_int_at(list, j) } {
                    if pad != Some(id) {
                        buf.push(id);
                    }
                    j += 1;
                    continue;
                }
            }
            push_item(list.get_item(j)?, &Indexed(what, j), pad, kind, col, buf)?;
            j += 1;
            // `push_item` may have run Python code (an `__index__`) that changed the list.
            len = list.len();
        }
    } else {
        let iter = obj.try_iter().map_err(|_| {
            ErrorKind::InputType.err(
                obj.py(),
                format!(
                    "{what} is {}; expected a sequence of int token IDs or of str tokens",
                    type_name(obj)
                ),
            )
        })?;
        for (j, item) in iter.enumerate() {
            push_item(item?, &Indexed(what, j), pad, kind, col, buf)?;
        }
    }
    col.end_seq(buf);
    Ok(())
}

/// `list[j]` if it is an exact `int` that fits in 64 bits.
///
/// # Safety
/// `j` must be below the list's length.
unsafe fn exact_int_at(list: &Bound<'_, PyList>, j: usize) -> Option<i64> {
    // SAFETY: the GIL is held (`list` is a `Bound`) and `j` is below the length, so
    // `PyList_GetItem` returns a valid borrowed pointer (never NULL); it is used only here,
    // where no Python code runs (converting an exact int calls no `__index__`), so the list
    // cannot drop it. `PyList_GetItem` rather than the `PyList_GET_ITEM` macro: the extension is
    // built for the stable ABI (abi3, one wheel for every CPython >= 3.10), which has no macro.
    unsafe {
        let item = pyo3::ffi::PyList_GetItem(list.as_ptr(), j as pyo3::ffi::Py_ssize_t);
        if item.is_null() {
            pyo3::ffi::PyErr_Clear();
            return None;
        }
        if pyo3::ffi::Py_TYPE(item) != std::ptr::addr_of_mut!(pyo3::ffi::PyLong_Type) {
            return None;
        }
        let mut overflow = 0;
        let id = pyo3::ffi::PyLong_AsLongLongAndOverflow(item, &mut overflow);
        (overflow == 0).then_some(id)
    }
}

/// Reads one token (`what` names it in messages): a str into `col`, an int into `buf`.
fn push_item<'py>(
    item: Bound<'py, PyAny>,
    what: &dyn Display,
    pad: Option<i64>,
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<()> {
    let py = item.py();
    if let Ok(s) = item.cast::<PyString>() {
        set_kind(py, kind, Kind::Tokens, what)?;
        if s.to_str().is_ok() {
            col.toks.push(item);
        } else {
            // A lone surrogate: surrogatepass keeps distinct strings distinct.
            col.toks
                .push(s.call_method1("encode", ("utf-8", "surrogatepass"))?);
        }
        return Ok(());
    }
    match item.extract::<i64>() {
        Ok(id) => {
            set_kind(py, kind, Kind::Ids, what)?;
            if pad != Some(id) {
                buf.push(id);
            }
            Ok(())
        }
        Err(_) if item.is_instance_of::<PyInt>() => Err(ErrorKind::Input.err(
            py,
            format!(
                "{what} = {} does not fit in a signed 64-bit token ID",
                item.repr().map(|r| r.to_string()).unwrap_or_default()
            ),
        )),
        Err(_) => {
            let msg = if item.extract::<f64>().is_ok() {
                format!(
                    "{what} is {} ({}); token IDs must be integers",
                    type_name(&item),
                    item.repr().map(|r| r.to_string()).unwrap_or_default()
                )
            } else {
                format!(
                    "{what} is {}; tokens must be str, token IDs int (64-bit)",
                    type_name(&item)
                )
            };
            Err(ErrorKind::InputType.err(py, msg))
        }
    }
}

/// The row lengths of a 2-D array: all of them, `lengths`, or (with a padding id) all.
fn row_end<'a>(
    py: Python<'_>,
    lengths: Option<&'a [i64]>,
    pad: Option<i64>,
    rows: usize,
    width: usize,
    what: &dyn Display,
) -> PyResult<RowEnd<'a>> {
    match (lengths, pad) {
        (Some(_), Some(_)) => {
            Err(ErrorKind::InvalidOption.err(py, "give lengths or pad_id, not both"))
        }
        (Some(l), None) => {
            if l.len() != rows {
                return Err(ErrorKind::LengthMismatch.err(
                    py,
                    format!("{what} has {rows} rows but {} lengths", l.len()),
                ));
            }
            if let Some((i, &n)) = l
                .iter()
                .enumerate()
                .find(|&(_, &n)| n < 0 || n as usize > width)
            {
                return Err(ErrorKind::Input.err(
                    py,
                    format!("length {n} of {what}[{i}] is outside 0..={width} (the row width)"),
                ));
            }
            Ok(RowEnd::Lengths(l))
        }
        (None, Some(p)) => Ok(RowEnd::Pad(p)),
        (None, None) => Ok(RowEnd::Full),
    }
}

/// Reads a list of sequences: a 2-D integer array or tensor (rows cut at `lengths`, or with
/// every `pad` id dropped) or a Python sequence of sequences. Returns how many were read.
pub(crate) fn push_seqs<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Display,
    read: Read,
    lengths: Option<&[i64]>,
    kind: &mut Kind,
    col: &mut Collector<'py>,
    buf: &mut Vec<i64>,
) -> PyResult<usize> {
    let py = obj.py();
    let pad = read.pad;
    // Lists and tuples (the common case) skip the torch and NumPy checks.
    let listlike = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    let obj = if !listlike && is_torch_tensor(obj) {
        torch_to_numpy(obj, what)?
    } else {
        obj.clone()
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
        if arr.ndim() == 2 && arr.dtype().kind() != b'O' {
            let arr = as_i64_array(arr, what)?;
            let arr: PyReadonlyArray2<'_, i64> = arr.cast::<PyArray2<i64>>()?.readonly();
            let view = arr.as_array();
            let (rows, width) = (view.nrows(), view.ncols());
            let end = row_end(py, lengths, pad, rows, width, what)?;
            if rows > 0 && width > 0 {
                set_kind(py, kind, Kind::Ids, what)?;
            }
            let drop = match end {
                RowEnd::Pad(p) => Some(p),
                _ => None,
            };
            // As for 1-D arrays: room for the copy is made fallibly.
            col.ids
                .try_reserve(rows.saturating_mul(width))
                .or_raise(py)?;
            reserve(buf, width).or_raise(py)?;
            for (i, row) in view.outer_iter().enumerate() {
                let n = match end {
                    RowEnd::Lengths(l) => l[i] as usize,
                    _ => width,
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
                    "{what} is a {}-D array; expected a 2-D array (one row per sequence) or a \
                     list of sequences",
                    arr.ndim()
                ),
            ));
        }
    }
    if lengths.is_some() {
        return Err(ErrorKind::InvalidOption.err(
            py,
            format!(
                "lengths apply to a 2-D array, but {what} is {}",
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
    let iter = obj.try_iter().map_err(|_| {
        ErrorKind::InputType.err(
            py,
            format!(
                "{what} must be a list of sequences, not {}",
                type_name(&obj)
            ),
        )
    })?;
    let mut n = 0;
    for (i, seq) in iter.enumerate() {
        push_seq(&seq?, &Indexed(what, i), read, kind, col, buf)?;
        n += 1;
    }
    Ok(n)
}

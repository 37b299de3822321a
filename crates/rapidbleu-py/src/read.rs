//! Reading pre-tokenised input from Python: token IDs (lists of int, NumPy integer arrays of
//! any byte order, masked arrays without their masked entries, torch CPU tensors, 2-D arrays
//! with lengths or a padding id) and tokens (lists of str) into [`Collector`]s, with the
//! messages of every input error.
//!
//! NumPy arrays are read through their buffers (no Python object per token), lists item by
//! item. IDs become one flat `i64` buffer, tokens borrow the UTF-8 of the Python strings. The
//! rules are the text path's: a lone surrogate is not text (`InvalidTextError`), and only
//! sequences are read (see [`crate::sequence`]).

use crate::errors::type_name;
use crate::errors::{ErrorKind, OrRaise};
use crate::sequence::{is_masked, is_sequence, not_a_sequence};
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

/// A torch tensor as a NumPy array (`.detach().numpy()`, zero-copy for CPU tensors), and its
/// dtype as torch names it (for messages).
fn torch_to_numpy<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Display,
) -> PyResult<(Bound<'py, PyAny>, String)> {
    let dtype = obj
        .getattr("dtype")
        .and_then(|d| d.str().map(|s| s.to_string()))
        .unwrap_or_default();
    let arr = obj
        .call_method0("detach")
        .and_then(|t| t.call_method0("numpy"))
        .map_err(|e| {
            ErrorKind::InputType.err(
                obj.py(),
                format!(
                    "{what} is a torch tensor that cannot be viewed as a NumPy array ({e}); \
                     move it to the CPU first with .cpu()"
                ),
            )
        })?;
    Ok((arr, dtype))
}

/// A NumPy integer array as a native-endian `int64` array (converted by NumPy when its dtype
/// differs). `torch_dtype` is the dtype of the torch tensor it came from, if it did.
fn as_i64_array<'py>(
    arr: &Bound<'py, PyUntypedArray>,
    what: &dyn Display,
    torch_dtype: Option<&str>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = arr.py();
    let dt = arr.dtype();
    let (kind, size) = (dt.kind(), dt.itemsize());
    // A big-endian array (`>i8`) has the right kind and size but not the byte order the core
    // reads: NumPy converts it.
    let native = dt.is_native_byteorder() != Some(false);
    let converted = match kind {
        b'i' if size == 8 && native => return Ok(arr.clone()),
        b'i' | b'b' => arr.call_method1("astype", ("=i8",))?,
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
            arr.call_method1("astype", ("=i8",))?
        }
        _ => {
            let described = match torch_dtype {
                Some(t) => format!("a torch tensor of dtype {t}"),
                None => format!(
                    "a NumPy array of dtype {}",
                    dt.str().map(|s| s.to_string()).unwrap_or_default()
                ),
            };
            return Err(ErrorKind::InputType.err(
                py,
                format!("{what} is {described}; token IDs must be integers"),
            ));
        }
    };
    Ok(converted.cast_into::<PyUntypedArray>()?)
}

/// `arr` (an int64 array that [`as_i64_array`] returned) as a typed array of dimension `D`.
fn typed<'a, 'py, T: pyo3::type_object::PyTypeCheck>(
    arr: &'a Bound<'py, PyUntypedArray>,
    what: &dyn Display,
) -> PyResult<&'a Bound<'py, T>> {
    arr.cast::<T>().map_err(|_| {
        ErrorKind::InputType.err(
            arr.py(),
            format!("{what} is a NumPy array that cannot be read as int64 token IDs"),
        )
    })
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
    let (obj, torch_dtype) = if is_torch_tensor(obj) {
        let (arr, dtype) = torch_to_numpy(obj, what)?;
        (arr, Some(dtype))
    } else {
        (obj.clone(), None)
    };
    buf.clear();
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        if arr.ndim() == 1 && is_masked(arr)? {
            // A masked array's masked entries are not part of the sequence.
            let kept = obj.call_method0("compressed")?;
            return push_seq(&kept, what, read, kind, col, buf);
        }
        if arr.ndim() != 1 || arr.dtype().kind() == b'O' {
            if arr.ndim() == 1 {
                // An object array (e.g. of str): read item by item below.
                return push_list(&obj, what, pad, kind, col, buf);
            }
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "{what} is a {}-D array; a sequence must be 1-D (give a batch as a 2-D \
                     integer array of hypotheses, with lengths or a padding id)",
                    arr.ndim()
                ),
            ));
        }
        let arr = as_i64_array(arr, what, torch_dtype.as_deref())?;
        let arr = typed::<PyArray1<i64>>(&arr, what)?.readonly();
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
        let items = "int token IDs or str tokens";
        if !is_sequence(obj) {
            return Err(not_a_sequence(obj, what, items));
        }
        let iter = obj
            .try_iter()
            .map_err(|_| not_a_sequence(obj, what, items))?;
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
        // One rule for text and tokens: a lone surrogate is not text (it has no UTF-8).
        if s.to_str().is_err() {
            return Err(ErrorKind::InvalidText.err(
                py,
                format!(
                    "{what} is not valid Unicode text (it contains a lone surrogate code point \
                     U+D800..U+DFFF); decode your input with errors='replace' or 'ignore'"
                ),
            ));
        }
        col.toks.push(item);
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

//! NumPy arrays and torch tensors of token IDs as native-endian int64 NumPy arrays: torch
//! tensors viewed through `.numpy()` (CPU only, zero-copy), other integer dtypes converted by
//! NumPy, and the messages for what cannot be read as IDs.

use crate::errors::ErrorKind;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use std::fmt::Display;

/// Whether `obj` is a torch tensor.
pub(super) fn is_torch_tensor(obj: &Bound<'_, PyAny>) -> bool {
    // Detected by the class's module, so torch is never imported here.
    obj.get_type()
        .module()
        .map(|m| m.to_string().split('.').next() == Some("torch"))
        .unwrap_or(false)
        && obj.hasattr("numpy").unwrap_or(false)
}

/// A torch tensor as a NumPy array (`.detach().numpy()`, zero-copy for CPU tensors), and its
/// dtype as torch names it (for messages).
pub(super) fn torch_to_numpy<'py>(
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
pub(super) fn as_i64_array<'py>(
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
pub(super) fn typed<'a, 'py, T: pyo3::type_object::PyTypeCheck>(
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

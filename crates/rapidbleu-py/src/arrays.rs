//! NumPy in and out: 2-D arrays viewed as flat row-major slices, and flat results handed to
//! NumPy as 2-D arrays that own the Rust buffer (no copy).

use crate::errors::OrRaise;
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::error::reserve;
use std::borrow::Cow;

/// A C-contiguous view of a 2-d array (copied only if it is not contiguous) and its number of
/// columns. The copy is allocated fallibly: a broadcast view can be far larger than memory.
pub fn flat<'a, T: numpy::Element + Copy>(
    a: &'a PyReadonlyArray2<'_, T>,
) -> PyResult<(Cow<'a, [T]>, usize)> {
    let view = a.as_array();
    let cols = view.ncols();
    Ok(match view.to_slice() {
        Some(s) => (Cow::Borrowed(s), cols),
        None => {
            let mut v = Vec::new();
            reserve(&mut v, view.len()).or_raise(a.py())?;
            v.extend(view.iter().copied());
            (Cow::Owned(v), cols)
        }
    })
}

/// `data` as an array of `cols` columns (no rows when `cols` is 0).
pub fn to_2d<T: numpy::Element>(
    py: Python<'_>,
    data: Vec<T>,
    cols: usize,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    let rows = data.len().checked_div(cols).unwrap_or(0);
    data.into_pyarray(py).reshape([rows, cols])
}

//! ROUGE's float totals across the boundary, for ROUGE and for the `rouge` package's dialect
//! alike: `(count, sums)`, the items' scores added one after the other (an in-order mean).

use crate::errors::{type_name, ErrorKind};
use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;

/// Float totals: items counted, and each score's sum.
pub type FloatTotals = (i64, Vec<f64>);

/// `(count, sums)` as Python sees them: an `int` and a float64 array.
pub fn into_py(py: Python<'_>, t: FloatTotals) -> PyResult<Bound<'_, PyAny>> {
    Ok((t.0, t.1.into_pyarray(py)).into_pyobject(py)?.into_any())
}

/// Totals read from `(count, sums or None)`, starting from `zero` (the metric's zero totals,
/// whose sums have the width wanted). `metric` names the class and `noun` (with `units` of
/// them) what the sums are of, in messages: `"sums hold 2 values but 3 rouge types need 9"`.
pub fn from_py(
    totals: &Bound<'_, PyAny>,
    zero: FloatTotals,
    metric: &str,
    units: usize,
    noun: &str,
) -> PyResult<FloatTotals> {
    let py = totals.py();
    let (count, sums): (i64, Option<PyReadonlyArray1<'_, f64>>) =
        totals.extract().map_err(|_| {
            ErrorKind::Input.err(
                py,
                format!(
                    "{metric} totals must be (count: int, sums: float64 array or None), not {}",
                    type_name(totals)
                ),
            )
        })?;
    let mut t = zero;
    t.0 = count;
    if let Some(s) = sums {
        let s = s.as_slice()?;
        if s.len() != t.1.len() {
            return Err(ErrorKind::Input.err(
                py,
                format!(
                    "sums hold {} values but {units} {noun} need {}",
                    s.len(),
                    t.1.len()
                ),
            ));
        }
        t.1.copy_from_slice(s);
    }
    Ok(t)
}

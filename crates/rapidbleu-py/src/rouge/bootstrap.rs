//! Glue of `rapidbleu_core::rouge::bootstrap`: resample means from NumPy's MT19937 state.

use crate::arrays::{flat, to_2d};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, OrRaise};
use crate::rouge::options::PyRougeOptions;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::rouge::bootstrap::{resample_means, Mt19937};

/// The means, and the generator's key and position after the draws.
type Means<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<u32>>, i64);

#[pymethods]
impl PyRougeOptions {
    #[staticmethod]
    /// rouge-score's `_bootstrap_resample` means: `n_samples` rows, each the column means of
    /// `matrix` rows drawn as `np.random.choice(np.arange(n), size=n)` draws them from the legacy
    /// MT19937 state `(key, pos)` (NumPy's `get_state()[1:3]`). Returns the means and the state
    /// after the draws, for `set_state()`.
    #[pyo3(signature = (matrix, key, pos, n_samples, num_threads = 0))]
    fn resample_means<'py>(
        py: Python<'py>,
        matrix: PyReadonlyArray2<'py, f64>,
        key: PyReadonlyArray1<'py, u32>,
        pos: i64,
        n_samples: usize,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Means<'py>> {
        guard(|| {
            let threads = threads(py, num_threads)?;
            let (m, cols) = flat(&matrix)?;
            let mut gen = Mt19937::new(key.as_slice()?, pos).or_raise(py)?;
            let means = run_detached(py, || {
                resample_means(&mut gen, &m, cols, n_samples, threads)
            })?;
            let Mt19937 { key, pos } = gen;
            Ok((to_2d(py, means, cols)?, key.into_pyarray(py), pos as i64))
        })
    }
}

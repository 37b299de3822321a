//! `_core.CocoRougeOptions`: COCO ROUGE-L (pycocoevalcap's `Rouge()`) through the generic glue
//! (rows `[lcs_p, hyp_len, lcs_r, ref_len]` per image, counted in parallel; totals are the
//! image scores in order, whose `np.mean` is the corpus value), and the scores of rows.

use super::images::Images;
use crate::arrays::flat;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, type_name, ErrorKind, OrRaise};
use crate::metric::{metric_methods, PyMetric};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};
use rapidbleu_core::caption::rouge_l::{CocoRougeL, ROW_LEN};
use rapidbleu_core::metric::Metric;

/// See the module documentation.
#[pyclass(frozen, eq, name = "CocoRougeOptions", module = "rapidbleu._core")]
#[derive(Clone, Debug, PartialEq)]
pub struct PyCocoRougeOptions {
    pub(crate) inner: CocoRougeL,
}

#[pymethods]
impl PyCocoRougeOptions {
    /// ROUGE-L with `beta` (pycocoevalcap's `Rouge().beta`, 1.2).
    #[new]
    #[pyo3(signature = (beta = None))]
    fn new(py: Python<'_>, beta: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let inner = match beta {
            None => CocoRougeL::default(),
            Some(b) => {
                let number = !b.is_instance_of::<PyBool>()
                    && (b.is_instance_of::<PyInt>() || b.is_instance_of::<PyFloat>());
                match b.extract::<f64>() {
                    Ok(v) if number && v.is_finite() => CocoRougeL::with_beta(v),
                    _ => {
                        return Err(ErrorKind::InvalidOption.err(
                            py,
                            format!(
                                "ROUGE-L's beta must be a finite number, not {}",
                                crate::args::repr(b)
                            ),
                        ))
                    }
                }
            }
        };
        Ok(PyCocoRougeOptions { inner })
    }

    /// The `beta`.
    #[getter]
    fn beta(&self) -> f64 {
        self.inner.beta()
    }

    /// Values per statistics row.
    #[getter]
    fn row_len(&self) -> usize {
        ROW_LEN
    }

    /// `Rouge().compute_score(gts, res)`'s every image's ROUGE-L (in `gts`'s order), read and
    /// checked as pycocoevalcap does ([`Images`]).
    #[pyo3(signature = (gts, res, num_threads = 0))]
    fn compute_score<'py>(
        &self,
        py: Python<'py>,
        gts: &Bound<'py, PyAny>,
        res: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        guard(|| {
            let t = threads(py, num_threads)?;
            let images = Images::read(gts, res, t)?;
            let corpus = images.corpus(py)?;
            let rouge = self.inner;
            let scores = run_detached(py, || rouge.image_scores(&rouge.corpus_stats(&corpus, t)?))?;
            Ok(scores.into_pyarray(py))
        })
    }

    /// The ROUGE-L of every row (`Rouge.calc_score` per image).
    fn image_scores<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        guard(|| {
            let (data, cols) = flat(&rows)?;
            if cols != ROW_LEN {
                return Err(ErrorKind::Input.err(py, self.inner.width_error(cols)));
            }
            Ok(self
                .inner
                .image_scores(&data)
                .or_raise(py)?
                .into_pyarray(py))
        })
    }

    fn __repr__(&self) -> String {
        format!("CocoRougeOptions(beta={:?})", self.inner.beta())
    }

    /// The arguments that rebuild these options (pickling, `copy`).
    fn __getnewargs__(&self) -> (f64,) {
        (self.inner.beta(),)
    }
}

impl PyMetric for CocoRougeL {
    type Options = PyCocoRougeOptions;
    const CLASS: &'static str = "CocoRougeOptions";

    fn of(options: &PyCocoRougeOptions) -> Self {
        options.inner
    }

    /// Captions are already tokenized; pycocoevalcap never lowercases.
    fn lowercase(&self) -> bool {
        false
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but COCO ROUGE-L's [lcs_p, hyp_len, lcs_r, \
             ref_len] has {ROW_LEN}"
        )
    }

    /// The image scores, a list of floats.
    fn totals_into_py<'py>(&self, py: Python<'py>, t: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        Ok(t.into_pyobject(py)?.into_any())
    }

    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        totals.extract().map_err(|_| {
            ErrorKind::Input.err(
                totals.py(),
                format!(
                    "COCO ROUGE-L totals must be a list of floats (the image scores), not {}",
                    type_name(totals)
                ),
            )
        })
    }
}

metric_methods!(PyCocoRougeOptions => CocoRougeL);

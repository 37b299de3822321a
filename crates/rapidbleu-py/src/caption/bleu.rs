//! `_core.CocoBleuOptions`: COCO BLEU-1..n (pycocoevalcap's `Bleu(n)`) through the generic glue
//! (rows `[testlen, reflen, guess_1..n, correct_1..n]` per image, counted in parallel; totals
//! are their column sums), and its scores of rows and totals.

use super::images::Images;
use crate::arrays::{flat, to_2d};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind, OrRaise};
use crate::metric::{metric_methods, sums_from_py, sums_into_py, PyMetric};
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use rapidbleu_core::caption::bleu::CocoBleu;
use rapidbleu_core::metric::Metric;

/// See the module documentation.
#[pyclass(frozen, eq, name = "CocoBleuOptions", module = "rapidbleu._core")]
#[derive(Clone, Debug, PartialEq)]
pub struct PyCocoBleuOptions {
    pub(crate) inner: CocoBleu,
}

#[pymethods]
impl PyCocoBleuOptions {
    /// BLEU-1..`n` (`n` in 1..4, pycocoevalcap's `Bleu(n)`).
    #[new]
    #[pyo3(signature = (n = None))]
    fn new(py: Python<'_>, n: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        guard(|| {
            let Some(n) = n else {
                return Ok(PyCocoBleuOptions {
                    inner: CocoBleu::new(4).or_raise(py)?,
                });
            };
            let n = crate::args::as_i64(n)
                .filter(|&v| (1..=4).contains(&v))
                .ok_or_else(|| {
                    ErrorKind::InvalidOption.err(
                        py,
                        format!(
                            "COCO BLEU's n must be 1, 2, 3 or 4 (pycocoevalcap counts n-grams \
                             up to 4), not {}",
                            crate::args::repr(n)
                        ),
                    )
                })?;
            Ok(PyCocoBleuOptions {
                inner: CocoBleu::new(n as usize).or_raise(py)?,
            })
        })
    }

    /// The highest order.
    #[getter]
    fn n(&self) -> usize {
        self.inner.n()
    }

    /// Values per statistics row.
    #[getter]
    fn row_len(&self) -> usize {
        self.inner.row_len()
    }

    /// BLEU-1..n of every row `(images, n)` (`compute_score`'s per-image lists, transposed).
    fn image_scores<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        guard(|| {
            let (data, cols) = flat(&rows)?;
            if cols != self.inner.row_len() {
                return Err(ErrorKind::Input.err(py, self.inner.width_error(cols)));
            }
            let out = self.inner.image_scores(&data).or_raise(py)?;
            to_2d(py, out, self.inner.n())
        })
    }

    /// `Bleu(n).compute_score(gts, res)`'s numbers: the corpus statistics `[testlen, reflen,
    /// guess_1..n, correct_1..n]` summed over the images, and per order every image's BLEU
    /// (in `gts`'s order), read and checked as pycocoevalcap does ([`Images`]).
    #[pyo3(signature = (gts, res, num_threads = 0))]
    fn compute_score(
        &self,
        py: Python<'_>,
        gts: &Bound<'_, PyAny>,
        res: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<(Vec<i64>, Vec<Vec<f64>>)> {
        guard(|| {
            let t = threads(py, num_threads)?;
            let images = Images::read(gts, res, t)?;
            let corpus = images.corpus(py)?;
            let bleu = self.inner;
            run_detached(py, || {
                let rows = bleu.corpus_stats(&corpus, t)?;
                let per_image = bleu.image_scores(&rows)?;
                let n = bleu.n();
                let orders = (0..n)
                    .map(|k| per_image.iter().skip(k).step_by(n).copied().collect())
                    .collect();
                Ok((bleu.totals(&rows)?, orders))
            })
        })
    }

    /// BLEU-1..n of summed rows (`compute_score`'s corpus list).
    fn scores(&self, totals: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        let t = self.inner.totals_from_py(totals)?;
        Ok(self.inner.scores(&t))
    }

    fn __repr__(&self) -> String {
        format!("CocoBleuOptions(n={})", self.inner.n())
    }

    /// The arguments that rebuild these options (pickling, `copy`).
    fn __getnewargs__(&self) -> (usize,) {
        (self.inner.n(),)
    }
}

impl PyMetric for CocoBleu {
    type Options = PyCocoBleuOptions;
    const CLASS: &'static str = "CocoBleuOptions";

    fn of(options: &PyCocoBleuOptions) -> Self {
        options.inner
    }

    /// Captions are already tokenized; pycocoevalcap never lowercases.
    fn lowercase(&self) -> bool {
        false
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but COCO BLEU-{}'s [testlen, reflen, guess, \
             correct] has {}",
            self.n(),
            self.row_len()
        )
    }

    fn totals_into_py<'py>(&self, py: Python<'py>, t: Vec<i64>) -> PyResult<Bound<'py, PyAny>> {
        sums_into_py(py, t)
    }

    fn totals_from_py(&self, totals: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        sums_from_py(totals, self.row_len())
    }
}

metric_methods!(PyCocoBleuOptions => CocoBleu);

//! `_core.PltrdyOptions`: the `rouge` package 1.0.1 and `rouge-chinese` 1.0.3
//! (`rapidbleu_core::rouge::dialects::pltrdy`) as a frozen options class with the shared
//! metric methods, and its own: rows of `(hyp, ref)` items, every item's scores, and the
//! package's `avg=True` means, with the GIL released.
//!
//! Its totals, as ROUGE's, are floats added in order: `(count, sums)`, the items' `(f, p, r)`
//! per metric. Texts with lone surrogates are refused (`InvalidTextError`): the package
//! compares words as Python strings, and the Python side falls back to it.

use super::text::strings;
use crate::args::flag_arg;
use crate::arrays::to_2d;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind, OrRaise};
use crate::metric::{metric_methods, PyMetric};
use crate::rouge::totals;
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::metric::Metric;
use rapidbleu_core::rouge::dialects::metric::PltrdyTotals;
use rapidbleu_core::rouge::dialects::pltrdy::{self, f_p_r, PltrdyOptions};
use rapidbleu_core::rouge::dialects::sentences::Splitter;

/// `average`'s result: the means `(metrics, 3)` and the mean lengths.
type Means<'py> = (Bound<'py, PyArray2<f64>>, (f64, f64));

/// See the module documentation.
#[pyclass(frozen, eq, name = "PltrdyOptions", module = "rapidbleu._core")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyPltrdyOptions {
    pub(crate) inner: PltrdyOptions,
    names: Vec<String>,
}

fn texts<'py>(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyString>>> {
    strings(seq, what)
}

#[pymethods]
impl PyPltrdyOptions {
    /// Options of `Rouge(metrics, exclusive=exclusive)` of the `rouge` package, or of
    /// `rouge-chinese` with `chinese`. `metrics` are the package's lowercased names.
    #[new]
    #[pyo3(signature = (metrics = None, exclusive = true, chinese = false))]
    fn new(
        py: Python<'_>,
        metrics: Option<Vec<String>>,
        #[pyo3(from_py_with = flag_arg)] exclusive: bool,
        #[pyo3(from_py_with = flag_arg)] chinese: bool,
    ) -> PyResult<Self> {
        let splitter = if chinese {
            Splitter::Chinese
        } else {
            Splitter::Period
        };
        let refs: Option<Vec<&str>> = metrics
            .as_ref()
            .map(|m| m.iter().map(String::as_str).collect());
        let inner = PltrdyOptions::new(refs.as_deref(), exclusive, splitter).or_raise(py)?;
        let names = match metrics {
            Some(m) => m,
            None => vec!["rouge-1".into(), "rouge-2".into(), "rouge-l".into()],
        };
        Ok(PyPltrdyOptions { inner, names })
    }

    /// The metric names, as given.
    #[getter]
    fn metrics(&self) -> Vec<String> {
        self.names.clone()
    }

    /// Whether n-grams (and `rouge`'s ROUGE-L words) are sets.
    #[getter]
    fn exclusive(&self) -> bool {
        self.inner.exclusive
    }

    /// Whether these are `rouge-chinese`'s options.
    #[getter]
    fn chinese(&self) -> bool {
        self.inner.splitter == Splitter::Chinese
    }

    /// Values per row: `[hyp, ref, overlap]` per distinct metric, then `hyp_words, ref_words,
    /// empty, depth`.
    #[getter]
    fn row_len(&self) -> usize {
        self.inner.row_len()
    }

    /// Rows `(n, row_len)` of `hyps[i]` against `refs[i]` (one reference each).
    #[pyo3(signature = (hyps, refs, num_threads = 0))]
    fn item_rows<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let opts = self.inner;
        guard(|| {
            let threads = threads(py, num_threads)?;
            let h = texts(hyps, "hyps")?;
            let r = texts(refs, "refs")?;
            if h.len() != r.len() {
                return Err(ErrorKind::LengthMismatch.err(
                    py,
                    format!("{} hyps but {} refs; they must be equal", h.len(), r.len()),
                ));
            }
            let mut items = Vec::with_capacity(h.len());
            for (i, (a, b)) in h.iter().zip(&r).enumerate() {
                items.push((read(a, i, "hyps")?, read(b, i, "refs")?));
            }
            let rows = run_detached(py, || pltrdy::rows(&opts, &items, threads))?;
            to_2d(py, rows, opts.row_len())
        })
    }

    /// Every item's scores `(n, metrics, 3)` as `(f, p, r)`, flattened to `(n, 3 x metrics)`.
    fn item_scores<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let width = self.inner.row_len();
        let n = self.inner.metrics().len();
        let rows = rows.as_slice()?;
        crate_check(py, rows.len(), width)?;
        let mut out = Vec::with_capacity(rows.len() / width * 3 * n);
        for row in rows.chunks_exact(width) {
            for t in row[..3 * n].chunks_exact(3) {
                let (f, p, r) = f_p_r(t);
                out.extend([f, p, r]);
            }
        }
        to_2d(py, out, 3 * n)
    }

    /// The package's `avg=True` scores of `rows`: `(means (metrics, 3) as (f, p, r), (hyp,
    /// ref) mean lengths)`. `repeats[k]`: how often the `k`-th distinct metric is named (the
    /// package adds it that many times). An error on no rows or on an item the package
    /// raises on.
    #[pyo3(signature = (rows, repeats = None))]
    fn average<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, i64>,
        repeats: Option<Vec<usize>>,
    ) -> PyResult<Means<'py>> {
        let repeats = repeats.unwrap_or_default();
        let avg = pltrdy::average_repeated(&self.inner, rows.as_slice()?, &repeats).or_raise(py)?;
        let flat: Vec<f64> = avg.scores.iter().flat_map(|s| [s.0, s.1, s.2]).collect();
        Ok((to_2d(py, flat, 3)?, avg.lengths))
    }

    /// The first item (index, `ValueError` message) the package raises on, if any.
    fn first_error(&self, rows: PyReadonlyArray2<'_, i64>) -> PyResult<Option<(usize, String)>> {
        Ok(self
            .inner
            .first_error(rows.as_slice()?)
            .map(|(i, m)| (i, m.to_string())))
    }

    /// Pickling: the arguments that rebuild these options.
    fn __getnewargs__(&self) -> (Vec<String>, bool, bool) {
        (self.names.clone(), self.inner.exclusive, self.chinese())
    }

    fn __repr__(&self) -> String {
        let b = |v: bool| if v { "True" } else { "False" };
        format!(
            "PltrdyOptions(metrics={:?}, exclusive={}, chinese={})",
            self.names,
            b(self.inner.exclusive),
            b(self.chinese())
        )
    }
}

/// The UTF-8 text of `s`; an `InvalidTextError` for a lone surrogate.
fn read<'a>(s: &'a Bound<'_, PyString>, i: usize, what: &str) -> PyResult<&'a str> {
    s.to_str().map_err(|_| {
        ErrorKind::InvalidText.err(
            s.py(),
            format!("{what}[{i}] holds a lone surrogate (no UTF-8 form)"),
        )
    })
}

fn crate_check(py: Python<'_>, values: usize, width: usize) -> PyResult<()> {
    rapidbleu_core::metric::check_whole(values, width).or_raise(py)
}

impl PyMetric for PltrdyOptions {
    type Options = PyPltrdyOptions;
    const CLASS: &'static str = "PltrdyOptions";
    const SEGMENTS: &'static str = "items";

    fn of(options: &PyPltrdyOptions) -> Self {
        options.inner
    }

    /// The package compares words as they are.
    fn lowercase(&self) -> bool {
        false
    }

    fn width_error(&self, cols: usize) -> String {
        format!(
            "statistics rows have {cols} columns but {} metrics need {}",
            self.metrics().len(),
            self.row_len()
        )
    }

    /// `(count, sums)`: a float64 array of `3 x metrics` sums of `(f, p, r)`.
    fn totals_into_py<'py>(&self, py: Python<'py>, t: PltrdyTotals) -> PyResult<Bound<'py, PyAny>> {
        totals::into_py(py, t)
    }

    fn totals_from_py(&self, t: &Bound<'_, PyAny>) -> PyResult<PltrdyTotals> {
        let zero = self.zero_totals();
        totals::from_py(t, zero, "PltrdyOptions", self.metrics().len(), "metrics")
    }
}

metric_methods!(PyPltrdyOptions => PltrdyOptions);

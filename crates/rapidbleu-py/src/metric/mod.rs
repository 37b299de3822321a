//! The glue, generic over the core's [`Metric`] trait: a metric's options class, how its text
//! is lowercased and what two of its results carry ([`PyMetric`]); the `_core` functions
//! every metric shares, written once ([`stats`]: statistics, sentence scores, chunks;
//! [`score`]: scores of rows, pairwise matrices); and [`metric_functions!`], which declares a
//! metric's set of them under its Python names.
//!
//! Adding a metric to `_core` is one `impl PyMetric` and one `metric_functions!` invocation
//! in its folder, plus its options class.

pub mod score;
pub mod stats;

use crate::errors::{type_name, ErrorKind};
use pyo3::prelude::*;
use pyo3::PyClass;
use rapidbleu_core::metric::Metric;

/// A core metric as `_core` exposes it.
pub trait PyMetric: Metric + Copy + Send + Sync + 'static {
    /// The `_core` options class that carries the metric's options.
    type Options: PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync;

    /// The class's name, for messages.
    const CLASS: &'static str;

    /// Whether the float32 scores come with whether every one is a `np.float32` (a pair), or
    /// alone (an array).
    const F32_FLAG: bool = true;

    /// The metric of an options object.
    fn of(options: &Self::Options) -> Self;

    /// Whether text is lowercased (non-ASCII text by Python's `str.lower()`, in the glue).
    fn lowercase(&self) -> bool;

    /// The message for statistics rows of `cols` columns, not [`Metric::row_len`].
    fn width_error(&self, cols: usize) -> String;

    /// What the statistics of a corpus of `hyps` carry after the rows and sacreBLEU's
    /// `num_refs`, if anything: what else the metric's Python side needs of the hypotheses.
    fn statistics_extra(_hyps: &[&str]) -> Option<usize> {
        None
    }
}

/// The metric of an options argument (another object is an `InputTypeError`, not PyO3's bare
/// `TypeError`: read with `from_py_with`).
pub fn metric_arg<M: PyMetric>(obj: &Bound<'_, PyAny>) -> PyResult<M> {
    match obj.cast::<M::Options>() {
        Ok(o) => Ok(M::of(o.get())),
        Err(_) => Err(ErrorKind::InputType.err(
            obj.py(),
            format!(
                "options must be a rapidbleu._core.{}, not {}",
                M::CLASS,
                type_name(obj)
            ),
        )),
    }
}

/// Declares a metric's shared `_core` functions under their Python names, and
/// `register_functions`, which adds them to the module. Each entry is `kind: name`, the kinds
/// being the helpers of [`stats`] and [`score`]:
///
/// ```ignore
/// metric_functions!(ChrfOptions {
///     statistics: chrf_statistics,
///     score_rows: chrf_score_rows,
/// });
/// ```
macro_rules! metric_functions {
    ($m:ty { $($kind:ident: $name:ident),* $(,)? }) => {
        $( $crate::metric::metric_function!($kind, $name, $m); )*

        /// Adds the metric's shared functions to `_core`.
        pub fn register_functions(
            m: &pyo3::Bound<'_, pyo3::types::PyModule>,
        ) -> pyo3::PyResult<()> {
            use pyo3::types::PyModuleMethods;
            $( m.add_function(pyo3::wrap_pyfunction!($name, m)?)?; )*
            Ok(())
        }
    };
}

/// One function of [`metric_functions!`].
macro_rules! metric_function {
    (statistics, $name:ident, $m:ty) => {
        $crate::metric::metric_function!(@text $name, $m, statistics,
            pyo3::Bound<'py, pyo3::types::PyTuple>,
            "Per-segment statistics rows `(n, row_len)` of `hyps` against `refs`, and \
             sacreBLEU's `num_refs`. `refs` is a list of reference streams (sacreBLEU's \
             layout) or, with `per_segment`, one list of references per hypothesis.");
    };
    (totals, $name:ident, $m:ty) => {
        $crate::metric::metric_function!(@text $name, $m, totals,
            pyo3::Bound<'py, pyo3::types::PyTuple>,
            "The statistics of `hyps` against `refs` summed over the segments (a list of ints; \
             no NumPy array), and sacreBLEU's `num_refs`; layouts as in the statistics.");
    };
    (sentence_scores, $name:ident, $m:ty) => {
        $crate::metric::metric_function!(@text $name, $m, sentence_scores,
            (pyo3::Bound<'py, numpy::PyArray1<f64>>, i64),
            "The sentence score of every hypothesis against its references, scored in the \
             parallel pass (no statistics array), and sacreBLEU's `num_refs`.");
    };
    (@text $name:ident, $m:ty, $helper:ident, $ret:ty, $doc:literal) => {
        #[doc = $doc]
        #[pyo3::pyfunction]
        #[pyo3(signature = (hyps, refs, options, num_threads = 0, per_segment = false))]
        fn $name<'py>(
            py: pyo3::Python<'py>,
            hyps: &pyo3::Bound<'py, pyo3::PyAny>,
            refs: &pyo3::Bound<'py, pyo3::PyAny>,
            #[pyo3(from_py_with = $crate::metric::metric_arg::<$m>)] options: $m,
            #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
            #[pyo3(from_py_with = $crate::args::flag_arg)] per_segment: bool,
        ) -> pyo3::PyResult<$ret> {
            let text = (hyps, refs, per_segment);
            $crate::metric::stats::$helper(py, text, &options, num_threads)
        }
    };
    (chunk_statistics, $name:ident, $m:ty) => {
        $crate::metric::metric_function!(@chunk $name, $m, chunk_statistics,
            Vec<pyo3::Bound<'py, numpy::PyArray2<i64>>>,
            "Statistics rows of every system of a chunk read by `_core.ChunkReader`, counted \
             where the lines lie, and sacreBLEU's `num_refs`.");
    };
    (chunk_totals, $name:ident, $m:ty) => {
        $crate::metric::metric_function!(@chunk $name, $m, chunk_totals, Vec<Vec<i64>>,
            "Every system's statistics of a chunk summed over its segments (one list of ints \
             per system), and sacreBLEU's `num_refs`: a corpus score of a stream with no NumPy \
             array made (the command's corpus path never imports NumPy).");
    };
    (@chunk $name:ident, $m:ty, $helper:ident, $ret:ty, $doc:literal) => {
        #[doc = $doc]
        #[pyo3::pyfunction]
        #[pyo3(signature = (chunk, options, num_threads = 0))]
        fn $name<'py>(
            py: pyo3::Python<'py>,
            #[pyo3(from_py_with = $crate::io::chunks::chunk_arg)] chunk: pyo3::Bound<
                'py,
                $crate::io::chunks::TextChunk,
            >,
            #[pyo3(from_py_with = $crate::metric::metric_arg::<$m>)] options: $m,
            #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
        ) -> pyo3::PyResult<($ret, i64)> {
            $crate::metric::stats::$helper(py, chunk.get(), &options, num_threads)
        }
    };
    (score_rows, $name:ident, $m:ty) => {
        /// The sentence score of every row of a statistics array, as float64.
        #[pyo3::pyfunction]
        #[pyo3(signature = (rows, options))]
        fn $name<'py>(
            py: pyo3::Python<'py>,
            rows: numpy::PyReadonlyArray2<'py, i64>,
            #[pyo3(from_py_with = $crate::metric::metric_arg::<$m>)] options: $m,
        ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<f64>>> {
            $crate::metric::score::score_rows(py, rows, &options)
        }
    };
    (score_rows_f32, $name:ident, $m:ty) => {
        /// Scores of float32 statistics rows as sacreBLEU's significance tests compute them
        /// under NumPy 2.
        #[pyo3::pyfunction]
        #[pyo3(signature = (rows_f32, options))]
        fn $name<'py>(
            py: pyo3::Python<'py>,
            rows_f32: numpy::PyReadonlyArray2<'py, f32>,
            #[pyo3(from_py_with = $crate::metric::metric_arg::<$m>)] options: $m,
        ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
            $crate::metric::score::score_rows_f32(py, rows_f32, &options)
        }
    };
    (pairwise_matrices, $name:ident, $m:ty) => {
        /// Sentence-score matrices, one `N_g x M_g` float64 array per `(hypotheses,
        /// references)` group.
        #[pyo3::pyfunction]
        #[pyo3(signature = (groups, options, num_threads = 0))]
        fn $name<'py>(
            py: pyo3::Python<'py>,
            groups: &pyo3::Bound<'py, pyo3::types::PyList>,
            #[pyo3(from_py_with = $crate::metric::metric_arg::<$m>)] options: $m,
            #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
        ) -> pyo3::PyResult<Vec<pyo3::Bound<'py, numpy::PyArray2<f64>>>> {
            $crate::metric::score::pairwise_matrices(py, groups, &options, num_threads)
        }
    };
}

pub(crate) use metric_function;
pub(crate) use metric_functions;

//! [`metric_methods!`]: the methods every metric's options class carries, generated once.
//!
//! `impl PyMetric for X` plus `metric_methods!(PyX => X)` in a metric's folder gives its
//! `_core` options class the whole shared surface, declared once in `_core.pyi` (the
//! `MetricOptions` protocol): statistics, totals and sentence scores of text, the same for a
//! chunk read by `_core.ChunkReader`, running totals, scores of rows in float64 and float32,
//! pairwise matrices, and resampled sums and scores. Each method reads the metric of `self`
//! and calls the generic helper of [`super::stats`] or [`super::score`].

/// Generates the shared methods of a metric's options class (see the module documentation):
/// `metric_methods!(PyChrfOptions => ChrfOptions)`.
macro_rules! metric_methods {
    ($py:ty => $m:ty) => {
        #[pyo3::pymethods]
        impl $py {
            /// Per-segment statistics rows `(n, row_len)` of `hyps` against `refs`, and
            /// sacreBLEU's `num_refs` (and what else the metric's Python side needs of the
            /// hypotheses). `refs` is a list of reference streams (sacreBLEU's layout) or, with
            /// `per_segment`, one list of references per hypothesis.
            #[pyo3(signature = (hyps, refs, num_threads = 0, per_segment = false))]
            fn statistics<'py>(
                &self,
                py: pyo3::Python<'py>,
                hyps: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: &pyo3::Bound<'py, pyo3::PyAny>,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
                #[pyo3(from_py_with = $crate::args::flag_arg)] per_segment: bool,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::types::PyTuple>> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::stats::statistics(py, (hyps, refs, per_segment), &m, num_threads)
            }

            /// The corpus totals of `hyps` against `refs` (the metric's totals: column sums
            /// as a list of ints for additive rows; no NumPy array made), and sacreBLEU's
            /// `num_refs`; layouts as in `statistics`.
            #[pyo3(signature = (hyps, refs, num_threads = 0, per_segment = false))]
            fn totals<'py>(
                &self,
                py: pyo3::Python<'py>,
                hyps: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: &pyo3::Bound<'py, pyo3::PyAny>,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
                #[pyo3(from_py_with = $crate::args::flag_arg)] per_segment: bool,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::types::PyTuple>> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::stats::totals(py, (hyps, refs, per_segment), &m, num_threads)
            }

            /// The sentence score of every hypothesis against its references, scored in the
            /// parallel pass (no statistics array), and sacreBLEU's `num_refs`.
            #[pyo3(signature = (hyps, refs, num_threads = 0, per_segment = false))]
            fn sentence_scores<'py>(
                &self,
                py: pyo3::Python<'py>,
                hyps: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: &pyo3::Bound<'py, pyo3::PyAny>,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
                #[pyo3(from_py_with = $crate::args::flag_arg)] per_segment: bool,
            ) -> pyo3::PyResult<(pyo3::Bound<'py, numpy::PyArray1<f64>>, i64)> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                let text = (hyps, refs, per_segment);
                $crate::metric::stats::sentence_scores(py, text, &m, num_threads)
            }

            /// Statistics rows of every system of a chunk read by `_core.ChunkReader`, counted
            /// where the lines lie, and sacreBLEU's `num_refs`.
            #[pyo3(signature = (chunk, num_threads = 0))]
            fn chunk_statistics<'py>(
                &self,
                py: pyo3::Python<'py>,
                #[pyo3(from_py_with = $crate::io::chunks::chunk_arg)] chunk: pyo3::Bound<
                    'py,
                    $crate::io::chunks::TextChunk,
                >,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
            ) -> pyo3::PyResult<(Vec<pyo3::Bound<'py, numpy::PyArray2<i64>>>, i64)> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::stats::chunk_statistics(py, chunk.get(), &m, num_threads)
            }

            /// Every system's corpus totals of a chunk (as `totals` gives them), and
            /// sacreBLEU's `num_refs`: a corpus score of a stream with no NumPy array made
            /// (the command's corpus path never imports NumPy).
            #[pyo3(signature = (chunk, num_threads = 0))]
            fn chunk_totals<'py>(
                &self,
                py: pyo3::Python<'py>,
                #[pyo3(from_py_with = $crate::io::chunks::chunk_arg)] chunk: pyo3::Bound<
                    'py,
                    $crate::io::chunks::TextChunk,
                >,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
            ) -> pyo3::PyResult<(Vec<pyo3::Bound<'py, pyo3::PyAny>>, i64)> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::stats::chunk_totals(py, chunk.get(), &m, num_threads)
            }

            /// `totals` (`None`: none yet) after adding `rows` (the next segments, in order).
            #[pyo3(signature = (rows, totals = None))]
            fn accumulate<'py>(
                &self,
                py: pyo3::Python<'py>,
                rows: numpy::PyReadonlyArray2<'py, i64>,
                totals: Option<&pyo3::Bound<'py, pyo3::PyAny>>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::score::accumulate(py, rows, totals, &m)
            }

            /// The sentence score of every row of a statistics array, as float64.
            #[pyo3(signature = (rows,))]
            fn score_rows<'py>(
                &self,
                py: pyo3::Python<'py>,
                rows: numpy::PyReadonlyArray2<'py, i64>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<f64>>> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::score::score_rows(py, rows, &m)
            }

            /// Scores of float32 statistics rows as sacreBLEU's significance tests compute
            /// them under NumPy 2 (with whether every one is a `np.float32`, where the
            /// metric's Python side needs it).
            #[pyo3(signature = (rows_f32,))]
            fn score_rows_f32<'py>(
                &self,
                py: pyo3::Python<'py>,
                rows_f32: numpy::PyReadonlyArray2<'py, f32>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::score::score_rows_f32(py, rows_f32, &m)
            }

            /// Sentence-score matrices, one `N_g x M_g` float64 array per `(hypotheses,
            /// references)` group.
            #[pyo3(signature = (groups, num_threads = 0))]
            fn pairwise_matrices<'py>(
                &self,
                py: pyo3::Python<'py>,
                groups: &pyo3::Bound<'py, pyo3::types::PyList>,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
            ) -> pyo3::PyResult<Vec<pyo3::Bound<'py, numpy::PyArray2<f64>>>> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::score::pairwise_matrices(py, groups, &m, num_threads)
            }

            /// `rows[idxs].sum(1)`: bootstrap sums of int64 statistics rows, exact
            /// (vectorised for the metric's usual row widths).
            #[pyo3(signature = (rows, idxs, num_threads = 0))]
            fn bootstrap_sums<'py>(
                &self,
                py: pyo3::Python<'py>,
                rows: numpy::PyReadonlyArray2<'py, i64>,
                idxs: numpy::PyReadonlyArray2<'py, i64>,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
            ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray2<i64>>> {
                $crate::engine::rows::bootstrap_sums_of(
                    py,
                    rows,
                    idxs,
                    num_threads,
                    &[<$m as rapidbleu_core::metric::Metric>::WIDTHS],
                )
            }

            /// Approximate-randomisation sums `(mask @ baseline + ~mask @ system, ~mask @
            /// baseline + mask @ system)` (vectorised for the metric's usual row widths).
            #[pyo3(signature = (baseline, system, mask, num_threads = 0))]
            fn ar_sums<'py>(
                &self,
                py: pyo3::Python<'py>,
                baseline: numpy::PyReadonlyArray2<'py, i64>,
                system: numpy::PyReadonlyArray2<'py, i64>,
                mask: numpy::PyReadonlyArray2<'py, bool>,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
            ) -> pyo3::PyResult<(
                pyo3::Bound<'py, numpy::PyArray2<i64>>,
                pyo3::Bound<'py, numpy::PyArray2<i64>>,
            )> {
                $crate::engine::rows::ar_sums_of(
                    py,
                    (baseline, system, mask),
                    num_threads,
                    &[<$m as rapidbleu_core::metric::Metric>::WIDTHS],
                )
            }

            /// The corpus score of each bootstrap resample: row `k` of `idxs` (`n_samples x
            /// n`) picks the segments whose rows are added, in index order (the order matters
            /// to a metric with float totals).
            #[pyo3(signature = (rows, idxs, num_threads = 0))]
            fn bootstrap_scores<'py>(
                &self,
                py: pyo3::Python<'py>,
                rows: numpy::PyReadonlyArray2<'py, i64>,
                idxs: numpy::PyReadonlyArray2<'py, i64>,
                #[pyo3(from_py_with = $crate::engine::parallel::int_arg)] num_threads: i64,
            ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<f64>>> {
                let m = <$m as $crate::metric::PyMetric>::of(self);
                $crate::metric::score::bootstrap_scores(py, rows, idxs, &m, num_threads)
            }
        }
    };
}

pub(crate) use metric_methods;

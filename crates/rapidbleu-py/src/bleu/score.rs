//! Glue of `rapidbleu_core::bleu::score`: `BleuOptions.compute`, sacreBLEU's `compute_bleu` of
//! separate counts (scores of statistics rows are the generic glue's, `crate::metric`).

use crate::bleu::options::PyBleuOptions;
use crate::errors::{guard, OrRaise};
use crate::metric::PyMetric;
use pyo3::prelude::*;
use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::score;

#[pymethods]
impl PyBleuOptions {
    /// `BLEU.compute_bleu` -> `(score, precisions, bp, addk_orders)`.
    #[pyo3(signature = (correct, total, sys_len, ref_len))]
    fn compute(
        &self,
        py: Python<'_>,
        correct: Vec<i64>,
        total: Vec<i64>,
        sys_len: i64,
        ref_len: i64,
    ) -> PyResult<(f64, Vec<f64>, f64, usize)> {
        let options = <BleuOptions as PyMetric>::of(self);
        guard(|| {
            let row = score::checked_row(&correct, &total, sys_len, ref_len, options.layout());
            let o = score::compute_bleu(row.or_raise(py)?, &options);
            Ok((o.score, o.precisions, o.bp, o.addk_orders))
        })
    }
}

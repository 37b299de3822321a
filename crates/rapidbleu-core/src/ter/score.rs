//! TER statistics rows to scores, in sacreBLEU's float order (`TER._aggregate_and_compute`,
//! `TER._compute_score_from_stats`, `utils.sum_of_lists`), plus the float32 arithmetic of
//! sacreBLEU's bootstrap resampling under NumPy 2 (`significance._bootstrap_resample`,
//! `_paired_bs_test`).
//!
//! The per-segment float term is `ref_len_sum / num_refs` (Python's int / int true division,
//! correctly rounded; both are below 2^53, so it is exactly the `f64` division). The corpus
//! `ref_length` is the **sequential** `f64` sum of those terms in segment order: with three
//! references the terms are not dyadic and another order changes the last digits
//! (9929.999999999996 against 9930.0 on 600 WMT22 segments), so nothing here sums in parallel.
//!
//! NumPy's order, measured with the installed NumPy 2.4.6: `stats_np[idxs]` gives each
//! resample as an `(n_segments, 2)` C-contiguous float32 array, and `_s.sum(0)` adds its rows
//! **sequentially, row after row** (the reduced axis is the outer one, so NumPy's pairwise
//! summation, which applies along the contiguous inner axis, is not used). On 900 resamples of
//! 2 to 3,000 segments the sequential float32 sum matched NumPy every time and a pairwise sum
//! only 107 times (`tests/ter_golden.rs` checks NumPy's sums and scores with `==`).

use crate::engine::parallel::{self, Threads};
use crate::engine::rows;
use crate::error::{zeroed, CoreError};

/// Python's `ref_len_sum / num_refs` (int / int: correctly rounded, which `f64` division of
/// two integers below 2^53 is).
pub fn avg_ref_len(ref_len_sum: i64, num_refs: i64) -> f64 {
    ref_len_sum as f64 / num_refs as f64
}

fn check_rows(rows: &[i64]) -> Result<usize, CoreError> {
    if !rows.len().is_multiple_of(3) {
        return Err(CoreError::InvalidInput(format!(
            "TER statistics hold {} values, not a whole number of rows of 3",
            rows.len()
        )));
    }
    if let Some(k) = rows.chunks_exact(3).position(|r| r[2] <= 0) {
        return Err(CoreError::InvalidInput(format!(
            "TER statistics row {k} has {} references; every row needs at least one",
            rows[k * 3 + 2]
        )));
    }
    if let Some(k) = rows.chunks_exact(3).position(|r| r[0] < 0 || r[1] < 0) {
        return Err(CoreError::InvalidInput(format!(
            "TER statistics row {k} holds a negative count ({}, {}); rows are \
             [num_edits, ref_len_sum, num_refs] as TER.statistics() gives them",
            rows[k * 3],
            rows[k * 3 + 1]
        )));
    }
    Ok(rows.len() / 3)
}

/// `sum_of_lists(stats)` of sacreBLEU's rows `[edits, ref_len_sum / num_refs]`: the total edits
/// (an exact integer, as Python's) and the sequential `f64` sum of the per-segment average
/// reference lengths, in row order. Rows are `[num_edits, ref_len_sum, num_refs]`. No rows give
/// `(0, 0.0)` (sacreBLEU itself fails on an empty corpus: the caller decides).
pub fn corpus_totals(rows: &[i64]) -> Result<(i64, f64), CoreError> {
    // sum_of_lists starts from int 0, and 0 + x == x for the first float.
    accumulate(rows, 0, 0.0)
}

/// Running totals `(edits, ref_length)` with `rows` (the next segments, in order) added:
/// continuing the sequential sum gives the same floats as one sum over the whole corpus, so a
/// stream or a split corpus folded chunk by chunk in segment order equals [`corpus_totals`].
pub fn accumulate(rows: &[i64], edits: i64, ref_length: f64) -> Result<(i64, f64), CoreError> {
    check_rows(rows)?;
    let (mut edits, mut ref_length) = (edits, ref_length);
    for r in rows.chunks_exact(3) {
        edits = edits.checked_add(r[0]).ok_or_else(|| {
            CoreError::InvalidInput(format!(
                "TER edit counts add up to more than {}; score fewer segments at a time",
                i64::MAX
            ))
        })?;
        ref_length += avg_ref_len(r[1], r[2]);
    }
    Ok((edits, ref_length))
}

/// `TER._compute_score_from_stats([total_edits, sum_ref_lengths]).score`:
/// `100 * (total_edits / sum_ref_lengths)` (the division first; `int / float` converts the
/// int to `f64`), 100 when the references are empty and there are edits, else 0.
pub fn ter_score(total_edits: i64, ref_length: f64) -> f64 {
    let score = if ref_length > 0.0 {
        total_edits as f64 / ref_length
    } else if total_edits > 0 {
        1.0
    } else {
        0.0
    };
    100.0 * score
}

/// The corpus score of statistics rows: [`corpus_totals`] then [`ter_score`].
pub fn corpus_score(rows: &[i64]) -> Result<f64, CoreError> {
    let (edits, ref_length) = corpus_totals(rows)?;
    Ok(ter_score(edits, ref_length))
}

/// `np.array(stats, dtype='float32')` of sacreBLEU's rows: `[edits, ref_len_sum / num_refs]`,
/// each rounded to nearest float32 (the float term from its `f64` value, as NumPy does).
pub fn rows_f32(rows: &[i64]) -> Result<Vec<[f32; 2]>, CoreError> {
    check_rows(rows)?;
    Ok(rows
        .chunks_exact(3)
        .map(|r| [r[0] as f64 as f32, avg_ref_len(r[1], r[2]) as f32])
        .collect())
}

/// `TER._compute_score_from_stats(_s.sum(0)).score` on float32 sums under NumPy 2 (NEP 50:
/// `100 * np.float32` and `np.float32 / np.float32` stay float32). The zero cases give
/// Python's `100 * 1.0` and `100 * 0.0`, which float32 holds exactly.
pub fn ter_score_f32(total_edits: f32, ref_length: f32) -> f32 {
    let score = if ref_length > 0.0 {
        total_edits / ref_length
    } else if total_edits > 0.0 {
        1.0
    } else {
        0.0
    };
    100.0 * score
}

/// Bootstrap sums as NumPy computes them: for each resample `k` (row `k` of the
/// `n_samples x n_segments` index matrix `idxs`, row-major), `stats_np[idxs[k]].sum(0)`, i.e.
/// the float32 rows of [`rows_f32`] added one after the other in index order. Returns
/// `n_samples` pairs `[edits, ref_length]`.
pub fn bootstrap_sums_f32(
    rows: &[i64],
    idxs: &[i64],
    threads: Threads,
) -> Result<Vec<[f32; 2]>, CoreError> {
    let stats = rows_f32(rows)?;
    let n_seg = stats.len();
    let n_samples = rows::check_indices(idxs, n_seg)?;
    let mut out = zeroed::<f32>(n_samples, 2)?;
    // Order matters in float32, so each resample is one sequential sum (no histogram trick
    // as for BLEU's exact integers); resamples are independent and run in parallel.
    parallel::for_each_row(
        &mut out,
        2,
        threads,
        || (),
        |_, k, acc| {
            let (mut e, mut r) = (0f32, 0f32);
            for &i in &idxs[k * n_seg..(k + 1) * n_seg] {
                let s = stats[i as usize];
                e += s[0];
                r += s[1];
            }
            acc[0] = e;
            acc[1] = r;
        },
    );
    Ok(out.chunks_exact(2).map(|p| [p[0], p[1]]).collect())
}

/// The bootstrap scores: [`bootstrap_sums_f32`] scored with [`ter_score_f32`].
pub fn bootstrap_scores_f32(
    rows: &[i64],
    idxs: &[i64],
    threads: Threads,
) -> Result<Vec<f32>, CoreError> {
    Ok(bootstrap_sums_f32(rows, idxs, threads)?
        .into_iter()
        .map(|[e, r]| ter_score_f32(e, r))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_cases_and_order() {
        // sacreBLEU: ('', ['']) -> 0.0, ('a b', ['']) -> 100.0.
        assert_eq!(corpus_score(&[0, 0, 1]).unwrap(), 0.0);
        assert_eq!(corpus_score(&[2, 0, 1]).unwrap(), 100.0);
        // 100 * (1 / 3), not (100 * 1) / 3.
        assert_eq!(ter_score(1, 3.0), 100.0 * (1.0 / 3.0));
        assert_ne!(100.0 * (1.0f64 / 3.0), 100.0 / 3.0);
        // Three references: terms k/3 summed in order.
        let rows: Vec<i64> = (0..10).flat_map(|k| [1, 10 + k, 3]).collect();
        let mut expected = 0.0;
        for k in 0..10 {
            expected += (10 + k) as f64 / 3.0;
        }
        assert_eq!(corpus_totals(&rows).unwrap(), (10, expected));
        assert!(corpus_totals(&[1, 2, 0]).is_err());
        assert!(corpus_totals(&[-1, 2, 1]).is_err());
        assert!(corpus_totals(&[i64::MAX, 2, 1, 1, 2, 1]).is_err());
        // Folding in chunks equals one sum.
        let (e, r) = accumulate(&rows[..12], 0, 0.0).unwrap();
        assert_eq!(accumulate(&rows[12..], e, r).unwrap(), (10, expected));
        assert!(corpus_totals(&[1, 2]).is_err());
    }

    #[test]
    fn bootstrap_sums_are_sequential_float32() {
        let rows: Vec<i64> = (0..50)
            .flat_map(|k| [k % 7, 3 * k + 1, 1 + k % 3])
            .collect();
        let idxs: Vec<i64> = (0..150).map(|k| (k * 17 + 3) % 50).collect();
        for threads in [Threads::ONE, Threads::new(2).unwrap()] {
            let sums = bootstrap_sums_f32(&rows, &idxs, threads).unwrap();
            assert_eq!(sums.len(), 3);
            let f = rows_f32(&rows).unwrap();
            for (k, s) in sums.iter().enumerate() {
                let (mut e, mut r) = (0f32, 0f32);
                for &i in &idxs[k * 50..(k + 1) * 50] {
                    e += f[i as usize][0];
                    r += f[i as usize][1];
                }
                assert_eq!(*s, [e, r]);
            }
        }
        assert!(bootstrap_sums_f32(&rows, &idxs[..149], Threads::ONE).is_err());
        assert!(bootstrap_sums_f32(&rows, &[50; 50], Threads::ONE).is_err());
    }
}

//! Resampled sums of statistics rows for sacreBLEU's significance tests
//! (`sacrebleu/significance.py`), for rows of any width.
//!
//! Python draws the random numbers (NumPy's PCG64 streams, exactly as sacreBLEU draws them)
//! and hands over the index matrix (bootstrap) or the mask matrix (approximate randomisation);
//! this module sums the per-segment statistics rows they select (scoring the sums is the
//! metric's business, e.g. `bleu::score_f32`).
//!
//! Which row widths get a vectorised kernel is the metrics' to say ([`Width`], listed by
//! `Metric::WIDTHS`); other widths take a general loop with the same sums.
//!
//! Sums are exact integers (`i64`). sacreBLEU sums bootstrap resamples in **float32**
//! (`np.array(stats, 'float32')[idxs].sum(0)`): as long as every sum is at most 2**24 each
//! partial sum is an exactly representable float32 integer, so the order of additions does not
//! matter and the exact integer sum equals NumPy's float32 sum. The Python side checks that
//! bound and falls back to NumPy for resamples that exceed it.

use crate::engine::parallel::{self, Threads};
use crate::error::{zeroed, CoreError};
use rayon::prelude::*;

/// A row width with kernels compiled for it: `R` known at compile time lets the sums
/// vectorise. A metric lists the widths its usual options give (`Metric::WIDTHS`).
#[derive(Clone, Copy, Debug)]
pub struct Width {
    len: usize,
    weighted: fn(&mut [i64], &[f64], &[i64]),
    table: fn(&mut [i64], &[i64], &[bool]),
}

impl Width {
    /// The kernels for rows of `R` values.
    pub const fn of<const R: usize>() -> Width {
        Width {
            len: R,
            weighted: weighted_sum::<R>,
            table: table_sum::<R>,
        }
    }

    /// Values per row.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether rows of this width are empty (never for a metric's width).
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The kernels for `row_len` among `widths` (lists of widths, one per metric), if any.
fn find(widths: &[&[Width]], row_len: usize) -> Option<Width> {
    widths
        .iter()
        .flat_map(|w| w.iter())
        .find(|w| w.len == row_len)
        .copied()
}

fn check_shape(stats: &[i64], row_len: usize) -> Result<usize, CoreError> {
    if row_len == 0 || !stats.len().is_multiple_of(row_len) {
        return Err(CoreError::InvalidInput(format!(
            "statistics hold {} values, not a whole number of rows of {row_len}",
            stats.len()
        )));
    }
    Ok(stats.len() / row_len)
}

/// The column sums of `stats` (rows of `row_len`): a corpus's statistics from its segments'.
/// Streams that need only the corpus score add these per chunk, so that no per-segment rows
/// leave the core.
pub fn column_sums(stats: &[i64], row_len: usize) -> Result<Vec<i64>, CoreError> {
    check_shape(stats, row_len)?;
    let mut sums = vec![0i64; row_len];
    for row in stats.chunks_exact(row_len) {
        for (acc, &v) in sums.iter_mut().zip(row) {
            *acc += v;
        }
    }
    Ok(sums)
}

/// [`column_sums`] on `threads` threads: each task sums a run of rows and the runs' sums are
/// added (integers, so the order of the additions does not change them).
///
/// Performance decision: summing a corpus's rows ran on the calling thread after the parallel
/// count, a serial part (about 5% of the caller's work for 100k segments of BLEU).
pub fn column_sums_on(
    stats: &[i64],
    row_len: usize,
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    check_shape(stats, row_len)?;
    let n = stats.len() / row_len.max(1);
    if n < parallel::MIN_PARALLEL || threads == Threads::ONE {
        return column_sums(stats, row_len);
    }
    let run = parallel::chunk_len(n, threads) * row_len;
    let add = |mut a: Vec<i64>, b: Vec<i64>| {
        a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
        a
    };
    parallel::install(threads, || {
        stats
            .par_chunks(run)
            .map(|rows| column_sums(rows, row_len))
            .try_reduce(|| vec![0; row_len], |a, b| Ok(add(a, b)))
    })
}

/// Checks a bootstrap index matrix (`n_samples x n_seg`, row-major) against `n_seg` segments:
/// a whole number of rows, every index in range. Returns `n_samples`.
pub fn check_indices(idxs: &[i64], n_seg: usize) -> Result<usize, CoreError> {
    if n_seg == 0 || !idxs.len().is_multiple_of(n_seg) {
        return Err(CoreError::InvalidInput(format!(
            "the index matrix holds {} values, not a whole number of rows of {n_seg} segments",
            idxs.len()
        )));
    }
    if let Some(bad) = idxs.iter().find(|&&i| i < 0 || i as usize >= n_seg) {
        return Err(CoreError::InvalidInput(format!(
            "bootstrap index {bad} is out of range for {n_seg} segments"
        )));
    }
    Ok(idxs.len() / n_seg)
}

/// Bootstrap sums: row `k` of the result is the sum of the statistics rows `idxs[k, :]`
/// (`n_samples x n_segments` indices, row-major), i.e. `stats[idxs].sum(1)`. `widths` are
/// the metrics' row widths with vectorised kernels.
pub fn bootstrap_sums(
    stats: &[i64],
    row_len: usize,
    idxs: &[i64],
    threads: Threads,
    widths: &[&[Width]],
) -> Result<Vec<i64>, CoreError> {
    let n_seg = check_shape(stats, row_len)?;
    let n_samples = check_indices(idxs, n_seg)?;
    let mut out = zeroed(n_samples, row_len)?;
    // A resample's counts add up to n_seg, so every product and partial sum is at most
    // n_seg * (largest |value|): below 2**53 the f64 path is exact; otherwise exact i64 sums.
    let max_abs = stats.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
    let exact_f64 = u128::from(max_abs) * (n_seg as u128) < (1u128 << 53);
    let kernel = find(widths, row_len).filter(|_| exact_f64);
    let stats_f64: Vec<f64> = if kernel.is_some() {
        stats.iter().map(|&v| v as f64).collect()
    } else {
        Vec::new()
    };
    // A histogram of each resample's indices first (a small, cache-resident array), then one
    // sequential pass over the statistics: `sum_i count_i * row_i`. About three times faster
    // than adding the randomly chosen rows one by one.
    parallel::for_each_row(
        &mut out,
        row_len,
        threads,
        || vec![0i64; n_seg],
        |counts, k, acc| {
            counts.fill(0);
            for &i in &idxs[k * n_seg..(k + 1) * n_seg] {
                counts[i as usize] += 1;
            }
            match kernel {
                Some(w) => (w.weighted)(acc, &stats_f64, counts),
                None => {
                    for (&c, row) in counts.iter().zip(stats.chunks_exact(row_len)) {
                        for (a, &v) in acc.iter_mut().zip(row) {
                            *a = a.wrapping_add(c.wrapping_mul(v));
                        }
                    }
                }
            }
        },
    );
    Ok(out)
}

/// `acc = sum_i counts_i * rows_i` for rows of `R` values (`R` known: vectorised). In f64,
/// which vectorises where i64 multiplication does not: exact, because the caller checks that
/// every product and sum stays below 2**53.
fn weighted_sum<const R: usize>(acc: &mut [i64], rows: &[f64], counts: &[i64]) {
    let mut sum = [0f64; R];
    for (row, &c) in rows.chunks_exact(R).zip(counts) {
        let c = c as f64;
        for j in 0..R {
            sum[j] += c * row[j];
        }
    }
    for (a, s) in acc.iter_mut().zip(sum) {
        *a = s as i64;
    }
}

/// Approximate-randomisation sums (`_paired_ar_test`): for each trial `k`, the pseudo-system
/// `a` takes segment `i` from `baseline` where `mask[k, i]` is true and from `system` where it
/// is false (`pos_sel @ bl_stats + neg_sel @ sys_stats`); `b` takes the other one. Returns
/// `(a, b)`, each `n_trials x row_len`. `widths` as in [`bootstrap_sums`].
pub fn ar_sums(
    baseline: &[i64],
    system: &[i64],
    row_len: usize,
    mask: &[bool],
    threads: Threads,
    widths: &[&[Width]],
) -> Result<(Vec<i64>, Vec<i64>), CoreError> {
    let n_seg = check_shape(baseline, row_len)?;
    if system.len() != baseline.len() {
        return Err(CoreError::InvalidInput(format!(
            "baseline and system statistics differ in shape ({} and {} values)",
            baseline.len(),
            system.len()
        )));
    }
    if n_seg == 0 || !mask.len().is_multiple_of(n_seg) {
        return Err(CoreError::InvalidInput(format!(
            "the mask matrix holds {} values, not a whole number of rows of {n_seg} segments",
            mask.len()
        )));
    }
    let n_trials = mask.len() / n_seg;
    // a = sum(system) + sum_i mask_i * (baseline_i - system_i). The segments are taken in
    // blocks of 4 and the 16 subset sums of each block's difference rows are tabulated once
    // ("four Russians"): a trial then adds one table row per block, selected by its 4 mask
    // bits, instead of 4 masked rows (about a quarter of the additions, no branches: the mask
    // is a coin flip). Exact: the same integers are added, only grouped differently.
    let mut sys_sum = vec![0i64; row_len];
    let mut both = vec![0i64; row_len];
    let mut diff = vec![0i64; baseline.len()];
    for ((d, &b), &s) in diff.iter_mut().zip(baseline).zip(system) {
        *d = b.wrapping_sub(s);
    }
    for (k, (&b, &s)) in baseline.iter().zip(system).enumerate() {
        let j = k % row_len;
        sys_sum[j] = sys_sum[j].wrapping_add(s);
        both[j] = both[j].wrapping_add(b).wrapping_add(s);
    }
    let tables = subset_tables(&diff, row_len)?;
    let kernel = find(widths, row_len);
    let mut a = zeroed(n_trials, row_len)?;
    parallel::for_each_row(
        &mut a,
        row_len,
        threads,
        || (),
        |_, k, acc| {
            acc.copy_from_slice(&sys_sum);
            let m = &mask[k * n_seg..(k + 1) * n_seg];
            match kernel {
                Some(w) => (w.table)(acc, &tables, m),
                None => table_sum_dyn(acc, &tables, m, row_len),
            }
            // The segments after the last whole block, one by one.
            let tail = n_seg - n_seg % BLOCK;
            for (row, &mk) in diff[tail * row_len..].chunks_exact(row_len).zip(&m[tail..]) {
                let keep = -i64::from(mk); // all ones or zero
                for (x, &v) in acc.iter_mut().zip(row) {
                    *x = x.wrapping_add(v & keep);
                }
            }
        },
    );
    let mut b = zeroed(n_trials, row_len)?;
    for (rb, ra) in b.chunks_exact_mut(row_len).zip(a.chunks_exact(row_len)) {
        for ((y, &x), &t) in rb.iter_mut().zip(ra).zip(&both) {
            *y = t.wrapping_sub(x);
        }
    }
    Ok((a, b))
}

/// Segments per block of the randomisation tables (16 subsets per block).
const BLOCK: usize = 4;

/// For each whole block of [`BLOCK`] segments, the sums of its difference rows over all 16
/// subsets: row `16 * block + s` is the sum of the rows whose bit is set in `s`.
fn subset_tables(diff: &[i64], row_len: usize) -> Result<Vec<i64>, CoreError> {
    let n_blocks = diff.len() / row_len / BLOCK;
    // Four times the statistics: allocated fallibly, like every buffer sized by the input.
    let mut t: Vec<i64> = zeroed(n_blocks * 16, row_len)?;
    for (b, tb) in t.chunks_exact_mut(16 * row_len).enumerate() {
        for s in 1..16usize {
            // subset s = subset (s without its lowest bit) + the lowest bit's segment.
            let (prev, low) = (s & (s - 1), s.trailing_zeros() as usize);
            let seg = &diff[(b * BLOCK + low) * row_len..][..row_len];
            for (j, &v) in seg.iter().enumerate() {
                tb[s * row_len + j] = tb[prev * row_len + j].wrapping_add(v);
            }
        }
    }
    Ok(t)
}

/// Index of a block's subset: its 4 mask bits.
#[inline]
fn subset_of(m: &[bool]) -> usize {
    usize::from(m[0]) | usize::from(m[1]) << 1 | usize::from(m[2]) << 2 | usize::from(m[3]) << 3
}

/// `acc += sum over whole blocks of the table row its mask selects` (`R` known: vectorised).
fn table_sum<const R: usize>(acc: &mut [i64], tables: &[i64], mask: &[bool]) {
    let mut sum = [0i64; R];
    for (tb, m) in tables.chunks_exact(16 * R).zip(mask.chunks_exact(BLOCK)) {
        let row = &tb[subset_of(m) * R..][..R];
        for j in 0..R {
            sum[j] = sum[j].wrapping_add(row[j]);
        }
    }
    for (a, s) in acc.iter_mut().zip(sum) {
        *a = a.wrapping_add(s);
    }
}

fn table_sum_dyn(acc: &mut [i64], tables: &[i64], mask: &[bool], row_len: usize) {
    for (tb, m) in tables
        .chunks_exact(16 * row_len)
        .zip(mask.chunks_exact(BLOCK))
    {
        let row = &tb[subset_of(m) * row_len..][..row_len];
        for (a, &v) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_sums_on_threads_equal_one_pass() {
        let stats: Vec<i64> = (0..100_003i64 * 7).map(|i| i * 7919 % 1013 - 500).collect();
        let one = column_sums(&stats, 7).expect("whole rows");
        for threads in [1, 2, 5].map(|t| Threads::new(t).expect("a thread count")) {
            assert_eq!(column_sums_on(&stats, 7, threads).expect("whole rows"), one);
            assert_eq!(
                column_sums_on(&stats[..70], 7, threads),
                column_sums(&stats[..70], 7)
            );
        }
        assert!(column_sums_on(&stats[..8], 7, Threads::ONE).is_err());
    }

    /// Kernels for every width the tests use, and none (the general loops).
    const KERNELS: &[Width] = &[
        Width::of::<6>(),
        Width::of::<10>(),
        Width::of::<14>(),
        Width::of::<18>(),
        Width::of::<24>(),
    ];
    const W: &[&[Width]] = &[KERNELS];

    #[test]
    fn column_sums_add_rows() {
        assert_eq!(column_sums(&[1, 2, 10, 20], 2).unwrap(), vec![11, 22]);
        assert_eq!(column_sums(&[], 3).unwrap(), vec![0, 0, 0]);
        assert!(column_sums(&[1, 2, 3], 2).is_err());
    }

    #[test]
    fn bootstrap_sums_select_rows() {
        let stats = [1, 2, 10, 20, 100, 200];
        let out = bootstrap_sums(&stats, 2, &[0, 0, 2, 1, 2, 2], Threads::ONE, W).unwrap();
        assert_eq!(out, vec![102, 204, 210, 420]);
        assert!(bootstrap_sums(&stats, 2, &[0, 3, 1], Threads::ONE, W).is_err());
        assert!(bootstrap_sums(&stats, 2, &[0, 1], Threads::ONE, W).is_err());
    }

    #[test]
    fn ar_sums_swap_segments() {
        let bl = [1, 1, 2, 2];
        let sys = [10, 10, 20, 20];
        let (a, b) = ar_sums(&bl, &sys, 2, &[true, false, false, true], Threads::ONE, W).unwrap();
        assert_eq!(a, vec![21, 21, 12, 12]);
        assert_eq!(b, vec![12, 12, 21, 21]);
    }

    #[test]
    fn every_row_length_equals_naive_sums() {
        // Segment counts below, at and between whole blocks of the randomisation tables.
        for (row_len, n_seg) in [2usize, 6, 8, 10, 14, 18, 24]
            .into_iter()
            .flat_map(|r| [1usize, 3, 4, 8, 37].map(|n| (r, n)))
        {
            let stats: Vec<i64> = (0..n_seg * row_len).map(|v| (v * 7 % 23) as i64).collect();
            let other: Vec<i64> = (0..n_seg * row_len).map(|v| (v * 5 % 19) as i64).collect();
            let idxs: Vec<i64> = (0..3 * n_seg).map(|v| (v * 11 % n_seg) as i64).collect();
            let mask: Vec<bool> = (0..3 * n_seg).map(|v| v * 13 % 5 < 2).collect();
            let got = bootstrap_sums(&stats, row_len, &idxs, Threads::ONE, W).unwrap();
            let (a, b) = ar_sums(&stats, &other, row_len, &mask, Threads::ONE, W).unwrap();
            // Without kernels: the general loops give the same sums.
            assert_eq!(
                bootstrap_sums(&stats, row_len, &idxs, Threads::ONE, &[]).unwrap(),
                got
            );
            let plain = ar_sums(&stats, &other, row_len, &mask, Threads::ONE, &[]).unwrap();
            assert_eq!(plain, (a.clone(), b.clone()));
            for k in 0..3 {
                for j in 0..row_len {
                    let seg = |i: usize| i * row_len + j;
                    let want: i64 = idxs[k * n_seg..(k + 1) * n_seg]
                        .iter()
                        .map(|&i| stats[seg(i as usize)])
                        .sum();
                    assert_eq!(got[k * row_len + j], want);
                    let pick = |m: bool, i: usize| if m { stats[seg(i)] } else { other[seg(i)] };
                    let wa: i64 = (0..n_seg).map(|i| pick(mask[k * n_seg + i], i)).sum();
                    let wb: i64 = (0..n_seg).map(|i| pick(!mask[k * n_seg + i], i)).sum();
                    assert_eq!((a[k * row_len + j], b[k * row_len + j]), (wa, wb));
                }
            }
        }
    }

    #[test]
    fn huge_values_take_the_exact_integer_path() {
        // One segment stays on the (exact) f64 path; three segments of ~2**52 exceed 2**53
        // and must take the i64 loop, where f64 would round.
        let big = 1i64 << 52;
        let stats = [big + 1, 3, 1, big + 7, 5, 2];
        for row_len in [6usize, 2] {
            let n_seg = stats.len() / row_len;
            let idxs: Vec<i64> = (0..n_seg).map(|_| 0).collect();
            let got = bootstrap_sums(&stats, row_len, &idxs, Threads::ONE, W).unwrap();
            let want: Vec<i64> = stats[..row_len].iter().map(|&v| v * n_seg as i64).collect();
            assert_eq!(got, want);
        }
        // chrF's widths (18, 24): one huge value takes the whole matrix to the i64 loop.
        for row_len in [18usize, 24] {
            let mut stats: Vec<i64> = (0..3 * row_len as i64).collect();
            stats[row_len + 1] = big + 3;
            let got =
                bootstrap_sums(&stats, row_len, &[1, 1, 2, 0, 0, 0], Threads::ONE, W).unwrap();
            for j in 0..row_len {
                let v = |i: usize| stats[i * row_len + j];
                assert_eq!(got[j], 2 * v(1) + v(2));
                assert_eq!(got[row_len + j], 3 * v(0));
            }
        }
    }
}

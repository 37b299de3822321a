//! Many-to-many sentence BLEU: N x M matrices (MBR), self-BLEU, and reference aggregation.
//!
//! Every sentence of a group is tokenized once and turned into a [`Bag`] (its n-grams as
//! sorted `(code, count)` pairs per order, codes shared by the group). The statistics of a
//! pair are then a gather (matrices: the row's hypothesis spread into dense arrays indexed by
//! code) or a merge of two sorted lists per order, with no hashing; they equal
//! `BLEU._compute_segment_statistics` of the pair (clipped counts `min(count_h, count_r)`,
//! totals `max(0, len - n + 1)`), and the score is [`bleu_score`], the function behind every
//! sentence score of the engine.

use crate::bleu::bags::{bags, Bag};
use crate::bleu::layout::{RowLayout, RowMut};
use crate::bleu::options::BleuOptions;
use crate::bleu::ref_len::RefLenRule;
use crate::bleu::score::bleu_score;
use crate::corpus::{check_lengths, Groups};
use crate::engine::parallel::{self, Threads};
use crate::error::{zeroed, CoreError};

/// `sum(min(count_h, count_r))` over the n-grams of `h` (both sorted by code); `scale`
/// multiplies `h`'s counts (1 for a plain pair).
fn clipped(h: &[(u32, u32)], r: &[(u32, u32)], scale: i64) -> i64 {
    let (mut i, mut j, mut s) = (0, 0, 0i64);
    while i < h.len() && j < r.len() {
        let (a, b) = (h[i], r[j]);
        if a.0 < b.0 {
            i += 1;
        } else if a.0 > b.0 {
            j += 1;
        } else {
            s += (scale * i64::from(a.1)).min(i64::from(b.1));
            i += 1;
            j += 1;
        }
    }
    s
}

/// sacreBLEU's statistics row of hypothesis `h` against the single reference `r`.
pub fn pair_row(h: &Bag, r: &Bag, mut row: RowMut<'_, i64>) {
    *row.hyp_len = h.len;
    *row.ref_len = r.len;
    for (n, c) in (1..).zip(row.correct.iter_mut()) {
        *c = clipped(h.grams(n), r.grams(n), 1);
    }
    row.set_totals(h.len);
}

/// Number of distinct n-gram codes per order in `bags` (codes are dense within a group).
fn code_counts(bags: &[Bag], max_order: usize) -> Vec<usize> {
    (1..=max_order)
        .map(|n| {
            bags.iter()
                .filter_map(|b| b.grams(n).last().map(|g| g.0 as usize + 1))
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Sentence BLEU of every hypothesis against every reference (row-major `N x M`), each equal
/// to the sentence score of that pair; rows run in parallel.
///
/// Per row, the hypothesis' counts are spread into dense per-order arrays indexed by n-gram
/// code, so each reference costs one branch-free gather per n-gram (about three times faster
/// than merging the two sorted lists); the row's entries are cleared again afterwards.
pub fn matrix(
    hyps: &[Bag],
    refs: &[Bag],
    opts: &BleuOptions,
    threads: Threads,
) -> Result<Vec<f64>, CoreError> {
    let m = refs.len();
    let mut out = zeroed(hyps.len(), m)?;
    if m == 0 {
        return Ok(out);
    }
    let layout = opts.layout();
    let n_ord = layout.max_order();
    let sizes: Vec<usize> = code_counts(hyps, n_ord)
        .into_iter()
        .zip(code_counts(refs, n_ord))
        .map(|(a, b)| a.max(b))
        .collect();
    parallel::for_each_row(
        &mut out,
        m,
        threads,
        || {
            let dense: Vec<Vec<u32>> = sizes.iter().map(|&s| vec![0u32; s]).collect();
            (dense, vec![0i64; layout.row_len()])
        },
        |(dense, row), i, scores| {
            let h = &hyps[i];
            for (n, d) in (1..).zip(dense.iter_mut()) {
                for &(code, c) in h.grams(n) {
                    d[code as usize] = c;
                }
            }
            let mut h_row = layout.row_mut(row);
            *h_row.hyp_len = h.len;
            h_row.set_totals(h.len);
            for (s, r) in scores.iter_mut().zip(refs) {
                let r_row = layout.row_mut(row);
                *r_row.ref_len = r.len;
                for (n, (d, c)) in (1..).zip(dense.iter().zip(r_row.correct.iter_mut())) {
                    *c = r
                        .grams(n)
                        .iter()
                        .map(|&(code, c)| i64::from(d[code as usize].min(c)))
                        .sum();
                }
                *s = bleu_score(layout.row(row), opts);
            }
            for (n, d) in (1..).zip(dense.iter_mut()) {
                for &(code, _) in h.grams(n) {
                    d[code as usize] = 0;
                }
            }
        },
    );
    Ok(out)
}

/// sacreBLEU's `_get_closest_ref_len` over the sorted lengths `lens`, without one occurrence
/// of `own` (the sample itself).
fn closest_excluding(lens: &[i64], own: i64, hyp_len: i64) -> i64 {
    let pos = lens.partition_point(|&l| l < hyp_len);
    let own_pos = lens.partition_point(|&l| l < own);
    // The nearest candidates below and at or above `pos`, skipping index `own_pos`: the
    // closest length is one of them.
    let below = (0..pos).rev().find(|&k| k != own_pos);
    let above = (pos..lens.len()).find(|&k| k != own_pos);
    let candidates = below.into_iter().chain(above).map(|k| lens[k]);
    RefLenRule::ClosestShorter.pick(candidates, hyp_len)
}

/// Self-BLEU statistics: row `i` is sample `i` against all other samples as its references
/// (clipping by the maximum count over the others, closest other length), i.e. the statistics
/// of `corpus_bleu([s_i], [[s_j] for j != i])`. Linear in the total number of n-grams: for
/// each n-gram the two largest counts over the samples are kept, so "the maximum over the
/// others" is the largest unless sample `i` holds it alone.
pub fn self_stats(samples: &[&str], opts: &BleuOptions) -> Result<Vec<i64>, CoreError> {
    if samples.len() < 2 {
        return Err(CoreError::InvalidInput(format!(
            "self-BLEU needs at least 2 samples (each is scored against the others), got {}",
            samples.len()
        )));
    }
    let bags = bags(samples, opts)?;
    let layout = opts.layout();
    let max_order = layout.max_order();
    let mut out = zeroed(bags.len(), layout.row_len())?;
    let mut lens: Vec<i64> = bags.iter().map(|b| b.len).collect();
    lens.sort_unstable();
    for (row, b) in out.chunks_exact_mut(layout.row_len()).zip(&bags) {
        let mut row = layout.row_mut(row);
        *row.hyp_len = b.len;
        *row.ref_len = closest_excluding(&lens, b.len, b.len);
        row.set_totals(b.len);
    }
    let n_codes = code_counts(&bags, max_order);
    for n in 1..=max_order {
        let n_codes = n_codes[n - 1];
        if n_codes == 0 {
            // No sample has an n-gram of this order (nor of any longer one): nothing matches.
            break;
        }
        // (largest count, sample holding it first, second largest over the other samples)
        let mut top = vec![(0u32, usize::MAX, 0u32); n_codes];
        for (s, b) in bags.iter().enumerate() {
            for &(code, c) in b.grams(n) {
                let t = &mut top[code as usize];
                if c > t.0 {
                    *t = (c, s, t.0);
                } else if c > t.2 {
                    t.2 = c;
                }
            }
        }
        for ((row, b), s) in out.chunks_exact_mut(layout.row_len()).zip(&bags).zip(0..) {
            let mut correct = 0i64;
            for &(code, c) in b.grams(n) {
                let t = top[code as usize];
                let other = if t.1 == s { t.2 } else { t.0 };
                correct += i64::from(c.min(other));
            }
            layout.row_mut(row).correct[n - 1] = correct;
        }
    }
    Ok(out)
}

/// Statistics for linear-time MBR: each hypothesis against the *expected* n-gram counts of the
/// `refs` (pseudo-references), `E[g] = sum_r count_r(g) / M`. To stay exact they are scaled by
/// `M`: `correct_n = sum_g min(M * count_h(g), sum_r count_r(g))`, `total_n = M * total_h`,
/// `hyp_len = M * len_h`, `ref_len = sum_r len_r`; every ratio BLEU takes equals that of the
/// fractional expected statistics. One pass over the references, then one merge per
/// hypothesis and order. Row-major `N x (2 + 2N)`.
pub fn aggregate_stats(
    hyps: &[Bag],
    refs: &[Bag],
    layout: RowLayout,
) -> Result<Vec<i64>, CoreError> {
    if refs.is_empty() {
        return Err(CoreError::InvalidInput(
            "reference aggregation needs at least one pseudo-reference".to_string(),
        ));
    }
    let m = refs.len() as i64;
    let ref_len: i64 = refs.iter().map(|r| r.len).sum();
    let mut sums: Vec<Vec<(u32, u32)>> = Vec::new();
    for n in 1..=layout.max_order() {
        let mut all: Vec<(u32, u32)> = refs
            .iter()
            .flat_map(|r| r.grams(n).iter().copied())
            .collect();
        if all.is_empty() {
            break;
        }
        all.sort_unstable_by_key(|g| g.0);
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (code, c) in all {
            match merged.last_mut() {
                Some((last, s)) if *last == code => *s += c,
                _ => merged.push((code, c)),
            }
        }
        sums.push(merged);
    }
    let mut out = zeroed(hyps.len(), layout.row_len())?;
    for (row, h) in out.chunks_exact_mut(layout.row_len()).zip(hyps) {
        let mut row = layout.row_mut(row);
        *row.hyp_len = m * h.len;
        *row.ref_len = ref_len;
        for ((n, c), sum) in (1..).zip(row.correct.iter_mut()).zip(&sums) {
            *c = clipped(h.grams(n), sum, m);
        }
        row.set_totals(h.len);
        for t in row.total.iter_mut() {
            *t *= m;
        }
    }
    Ok(out)
}

/// The bags of one group's hypotheses and of its references.
type GroupBags = (Vec<Bag>, Vec<Bag>);

/// The bags of every group (`hyps.get(g)` and `refs.get(g)`, tokenized with one code table
/// per group), built in parallel over groups.
fn group_bags(
    hyps: &Groups<&str>,
    refs: &Groups<&str>,
    opts: &BleuOptions,
    threads: Threads,
) -> Result<Vec<GroupBags>, CoreError> {
    check_lengths(hyps.len(), refs.len())?;
    parallel::map_collect(
        hyps.len(),
        threads,
        || (),
        |_, g| {
            let (h, r) = (hyps.get(g), refs.get(g));
            let all: Vec<&str> = h.iter().chain(r).copied().collect();
            let mut bags = bags(&all, opts)?;
            let refs = bags.split_off(h.len());
            Ok((bags, refs))
        },
    )
    .into_iter()
    .collect()
}

/// Sentence-BLEU matrices of many groups (sources): one `N_g x M_g` matrix (row-major) per
/// group, of `hyps.get(g)` against `refs.get(g)`.
pub fn matrices(
    hyps: &Groups<&str>,
    refs: &Groups<&str>,
    opts: &BleuOptions,
    threads: Threads,
) -> Result<Vec<Vec<f64>>, CoreError> {
    let bags = group_bags(hyps, refs, opts, threads)?;
    // A single group parallelises over its rows; many groups over the groups.
    let inner = if bags.len() == 1 {
        threads
    } else {
        Threads::ONE
    };
    parallel::map_collect(
        bags.len(),
        threads,
        || (),
        |_, g| matrix(&bags[g].0, &bags[g].1, opts, inner),
    )
    .into_iter()
    .collect()
}

/// Linear-time MBR statistics ([`aggregate_stats`]) of many groups: one `N_g x (2 + 2N)`
/// array per group, of `hyps.get(g)` against the pseudo-references `refs.get(g)`.
pub fn aggregate_groups(
    hyps: &Groups<&str>,
    refs: &Groups<&str>,
    opts: &BleuOptions,
    threads: Threads,
) -> Result<Vec<Vec<i64>>, CoreError> {
    let bags = group_bags(hyps, refs, opts, threads)?;
    parallel::map_collect(
        bags.len(),
        threads,
        || (),
        |_, g| aggregate_stats(&bags[g].0, &bags[g].1, opts.layout()),
    )
    .into_iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::options::{Smooth, Summation};
    use crate::bleu::score::compute_bleu;
    use crate::bleu::stats::Worker;
    use crate::text::tokenize::Tokenizer;

    fn opts(max_order: i64) -> BleuOptions {
        BleuOptions::new(
            Tokenizer::T13a,
            false,
            max_order,
            Smooth::Exp,
            true,
            Summation::Plain,
        )
        .expect("valid options")
    }

    /// The engine's statistics of `hyp` against `refs` (order 4).
    fn engine_row(hyp: &str, refs: &[&str]) -> Vec<i64> {
        let o = opts(4);
        let mut row = vec![0i64; 10];
        let rule = RefLenRule::ClosestShorter;
        Worker::default().segment(hyp, refs, o.text(), rule, o.layout().row_mut(&mut row));
        row
    }

    const TEXTS: [&str; 4] = [
        "the cat sat on the mat .",
        "the the the cat",
        "",
        "a cat, on a mat!",
    ];

    #[test]
    fn pair_rows_equal_the_engine() {
        let b = bags(&TEXTS, &opts(4)).unwrap();
        for (i, h) in TEXTS.iter().enumerate() {
            for (j, r) in TEXTS.iter().enumerate() {
                let mut got = vec![0i64; 10];
                pair_row(&b[i], &b[j], opts(4).layout().row_mut(&mut got));
                assert_eq!(got, engine_row(h, &[r]), "{h:?} vs {r:?}");
            }
        }
    }

    #[test]
    fn self_stats_equal_the_engine() {
        let texts = ["a b c", "a b c", "a b", "c c c d", "b a", ""];
        let got = self_stats(&texts, &opts(4)).unwrap();
        for (i, h) in texts.iter().enumerate() {
            let others: Vec<&str> = (0..texts.len())
                .filter(|&j| j != i)
                .map(|j| texts[j])
                .collect();
            assert_eq!(
                &got[i * 10..(i + 1) * 10],
                engine_row(h, &others),
                "sample {i}"
            );
        }
        assert!(self_stats(&texts[..1], &opts(4)).is_err());
    }

    #[test]
    fn matrix_scores() {
        let o = opts(4);
        let b = bags(&["a b c d", "a b c e"], &o).unwrap();
        let m = matrix(&b, &b, &o, Threads::ONE).unwrap();
        assert_eq!(m[0], 100.00000000000004);
        assert!(m[1] < 100.0);
        // The dense gather equals the sorted-list merge of `pair_row` on every pair.
        let b = bags(&TEXTS, &o).unwrap();
        let m = matrix(&b[..3], &b, &o, Threads::ONE).unwrap();
        let mut row = vec![0i64; 10];
        for i in 0..3 {
            for j in 0..4 {
                pair_row(&b[i], &b[j], o.layout().row_mut(&mut row));
                assert_eq!(m[i * 4 + j], compute_bleu(o.layout().row(&row), &o).score);
            }
        }
        let hyps: Groups<&str> = [TEXTS[..3].to_vec(), vec!["x"]].into_iter().collect();
        let refs: Groups<&str> = [TEXTS.to_vec(), vec![]].into_iter().collect();
        let all = matrices(&hyps, &refs, &o, Threads::ONE).unwrap();
        assert_eq!((all[0].as_slice(), all[1].len()), (m.as_slice(), 0));
    }

    #[test]
    fn aggregate_scales_expected_counts() {
        let o = opts(2);
        let b = bags(&["a b", "a b", "a c"], &o).unwrap();
        let s = aggregate_stats(&b[..1], &b[1..], o.layout()).unwrap();
        // M = 2: unigrams a (2 vs sum 2), b (2 vs 1); bigram "a b" (2 vs 1).
        assert_eq!(s, vec![4, 4, 3, 1, 4, 2]);
        assert!(aggregate_stats(&b[..1], &[], o.layout()).is_err());
    }

    #[test]
    fn huge_orders_cost_nothing_per_sentence() {
        let o = opts(1000);
        let texts = ["a b c", "a b c", "a b"];
        let b = bags(&texts, &o).unwrap();
        assert_eq!((b[0].grams(3).len(), b[0].grams(4).len()), (1, 0));
        let s = self_stats(&texts, &o).unwrap();
        assert_eq!(s.len(), 3 * 2002);
        assert_eq!(&s[..8], [3, 3, 3, 2, 1, 0, 0, 0]);
    }
}

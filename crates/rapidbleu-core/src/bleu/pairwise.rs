//! Many-to-many sentence BLEU: N x M matrices (MBR), self-BLEU, and reference aggregation.
//!
//! Every sentence of a group is tokenized once and turned into a [`Bag`]: for each order, its
//! n-grams as sorted `(id, count)` pairs, with ids from one table shared by the whole group (an
//! n-gram's id is that of the pair (id of its prefix, id of its last token), as in `ngram.rs`).
//! The statistics of a pair are then a gather (matrices: the row's hypothesis spread into dense
//! arrays indexed by id) or a merge of two sorted lists per order, with no hashing; they equal `BLEU._compute_segment_statistics` of the pair (clipped counts
//! `min(count_h, count_r)`, totals `max(0, len - n + 1)`), and the score is
//! [`crate::bleu::score::compute_bleu`], the function behind every sentence score of the engine.

use crate::bleu::score::{compute_bleu, BleuParams};
use crate::bleu::stats::{StatsOptions, TokState};
use crate::engine::parallel;
use crate::error::CoreError;
use rustc_hash::FxHashMap;

/// The n-grams of one tokenized sentence.
#[derive(Clone, Debug, Default)]
pub struct Bag {
    /// Length in tokens.
    pub len: i64,
    /// Per order (index `n - 1`): `(n-gram id, count)`, sorted by id.
    pub grams: Vec<Vec<(u32, u32)>>,
}

/// Ids of tokens and n-grams shared by the sentences of one group.
#[derive(Default)]
struct Interner {
    tokens: FxHashMap<Vec<u8>, u32>,
    /// Per order >= 2: (prefix id, last token id) -> id.
    ngrams: Vec<FxHashMap<u64, u32>>,
    tok: TokState,
    ids: Vec<u32>,
    next: Vec<u32>,
}

impl Interner {
    /// Tokenizes `text` (`BLEU._preprocess_segment` then `str.split()`) and counts its n-grams.
    fn bag(&mut self, text: &str, opts: &StatsOptions) -> Bag {
        let (bytes, ranges) = self.tok.tokenize(text, opts);
        self.ids.clear();
        for &(a, b) in ranges {
            let tok = &bytes[a as usize..b as usize];
            let n = self.tokens.len() as u32;
            let id = match self.tokens.get(tok) {
                Some(&id) => id,
                None => {
                    self.tokens.insert(tok.to_vec(), n);
                    n
                }
            };
            self.ids.push(id);
        }
        let len = self.ids.len();
        self.ngrams
            .resize_with(opts.max_order.saturating_sub(1), FxHashMap::default);
        let mut grams = Vec::with_capacity(opts.max_order);
        grams.push(run_lengths(&mut self.ids.clone()));
        // `ids[i]` is the id of the n-gram starting at token i, for the order just done.
        let toks = std::mem::take(&mut self.ids);
        let mut cur = toks.clone();
        for n in 2..=opts.max_order {
            if len < n {
                grams.push(Vec::new());
                continue;
            }
            let map = &mut self.ngrams[n - 2];
            self.next.clear();
            for i in 0..=len - n {
                let key = (u64::from(cur[i]) << 32) | u64::from(toks[i + n - 1]);
                let fresh = map.len() as u32;
                let id = *map.entry(key).or_insert(fresh);
                self.next.push(id);
            }
            cur.clear();
            cur.extend_from_slice(&self.next);
            grams.push(run_lengths(&mut self.next.clone()));
        }
        self.ids = toks;
        Bag {
            len: len as i64,
            grams,
        }
    }
}

/// Sorted `(id, count)` pairs of a list of ids.
fn run_lengths(ids: &mut [u32]) -> Vec<(u32, u32)> {
    ids.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &id in ids.iter() {
        match out.last_mut() {
            Some((last, c)) if *last == id => *c += 1,
            _ => out.push((id, 1)),
        }
    }
    out
}

/// The bags of `texts`, tokenized once, with ids shared by all of them.
pub fn bags(texts: &[&str], opts: &StatsOptions) -> Vec<Bag> {
    let mut interner = Interner::default();
    texts.iter().map(|t| interner.bag(t, opts)).collect()
}

/// `sum(min(count_h, count_r))` over the n-grams of `h` (both sorted by id).
fn clipped(h: &[(u32, u32)], r: &[(u32, u32)]) -> i64 {
    let (mut i, mut j, mut s) = (0, 0, 0i64);
    while i < h.len() && j < r.len() {
        let (a, b) = (h[i], r[j]);
        if a.0 < b.0 {
            i += 1;
        } else if a.0 > b.0 {
            j += 1;
        } else {
            s += i64::from(a.1.min(b.1));
            i += 1;
            j += 1;
        }
    }
    s
}

/// sacreBLEU's statistics row of hypothesis `h` against the single reference `r`.
pub fn pair_row(h: &Bag, r: &Bag, max_order: usize, row: &mut [i64]) {
    row[0] = h.len;
    row[1] = r.len;
    for n in 1..=max_order {
        row[1 + n] = clipped(&h.grams[n - 1], &r.grams[n - 1]);
        row[1 + max_order + n] = (h.len - n as i64 + 1).max(0);
    }
}

/// Number of distinct n-gram ids per order in `bags` (ids are dense within a group).
fn id_counts(bags: &[Bag], max_order: usize) -> Vec<usize> {
    (0..max_order)
        .map(|n| {
            bags.iter()
                .filter_map(|b| b.grams[n].last().map(|g| g.0 as usize + 1))
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Sentence BLEU of every hypothesis against every reference (row-major `N x M`), each equal
/// to the sentence score of that pair; rows run in parallel.
///
/// Per row, the hypothesis' counts are spread into dense per-order arrays indexed by n-gram id,
/// so each reference costs one branch-free gather per n-gram (about three times faster than
/// merging the two sorted lists); the row's entries are cleared again afterwards.
pub fn matrix(
    hyps: &[Bag],
    refs: &[Bag],
    p: &BleuParams,
    threads: usize,
) -> Result<Vec<f64>, CoreError> {
    let m = refs.len();
    let mut out = vec![0f64; hyps.len() * m];
    if m == 0 {
        return Ok(out);
    }
    let n_ord = p.max_order;
    let sizes: Vec<usize> = id_counts(hyps, n_ord)
        .into_iter()
        .zip(id_counts(refs, n_ord))
        .map(|(a, b)| a.max(b))
        .collect();
    let row_len = 2 + 2 * n_ord;
    parallel::for_each_row(
        &mut out,
        m,
        threads,
        || {
            let dense: Vec<Vec<u32>> = sizes.iter().map(|&s| vec![0u32; s]).collect();
            (dense, vec![0i64; row_len])
        },
        |(dense, row), i, scores| {
            let h = &hyps[i];
            for (d, g) in dense.iter_mut().zip(&h.grams) {
                for &(id, c) in g {
                    d[id as usize] = c;
                }
            }
            row[0] = h.len;
            for n in 1..=n_ord {
                row[1 + n_ord + n] = (h.len - n as i64 + 1).max(0);
            }
            for (s, r) in scores.iter_mut().zip(refs) {
                row[1] = r.len;
                for (n, (d, g)) in dense.iter().zip(&r.grams).enumerate() {
                    row[2 + n] = g
                        .iter()
                        .map(|&(id, c)| i64::from(d[id as usize].min(c)))
                        .sum();
                }
                let (c, t) = row[2..].split_at(n_ord);
                *s = compute_bleu(c, t, row[0], row[1], p).score;
            }
            for (d, g) in dense.iter_mut().zip(&h.grams) {
                for &(id, _) in g {
                    d[id as usize] = 0;
                }
            }
        },
    );
    Ok(out)
}

/// sacreBLEU's `_get_closest_ref_len` over the sorted lengths `lens`, without one occurrence
/// of `own` (the sample itself): the closest length, ties going to the shorter.
fn closest_excluding(lens: &[i64], own: i64, hyp_len: i64) -> i64 {
    let pos = lens.partition_point(|&l| l < hyp_len);
    let own_pos = lens.partition_point(|&l| l < own);
    // Nearest candidate at or below / at or above `pos`, skipping index `own_pos`.
    let below = (0..pos).rev().find(|&k| k != own_pos);
    let above = (pos..lens.len()).find(|&k| k != own_pos);
    match (below, above) {
        (Some(b), Some(a)) => {
            let (lb, la) = (lens[b], lens[a]);
            if la - hyp_len < hyp_len - lb {
                la
            } else {
                lb
            }
        }
        (Some(b), None) => lens[b],
        (None, Some(a)) => lens[a],
        (None, None) => 0,
    }
}

/// Self-BLEU statistics: row `i` is sample `i` against all other samples as its references
/// (clipping by the maximum count over the others, closest other length), i.e. the statistics
/// of `corpus_bleu([s_i], [[s_j] for j != i])`. Linear in the total number of n-grams: for
/// each n-gram the two largest counts over the samples are kept, so "the maximum over the
/// others" is the largest unless sample `i` holds it alone.
pub fn self_stats(bags: &[Bag], max_order: usize) -> Result<Vec<i64>, CoreError> {
    if bags.len() < 2 {
        return Err(CoreError::InvalidInput(format!(
            "self-BLEU needs at least 2 samples (each is scored against the others), got {}",
            bags.len()
        )));
    }
    let row_len = 2 + 2 * max_order;
    let mut out = vec![0i64; bags.len() * row_len];
    let mut lens: Vec<i64> = bags.iter().map(|b| b.len).collect();
    lens.sort_unstable();
    for (row, b) in out.chunks_exact_mut(row_len).zip(bags) {
        row[0] = b.len;
        row[1] = closest_excluding(&lens, b.len, b.len);
    }
    let n_ids = id_counts(bags, max_order);
    for n in 1..=max_order {
        let n_ids = n_ids[n - 1];
        // (largest count, sample holding it first, second largest over the other samples)
        let mut top = vec![(0u32, usize::MAX, 0u32); n_ids];
        for (s, b) in bags.iter().enumerate() {
            for &(id, c) in &b.grams[n - 1] {
                let t = &mut top[id as usize];
                if c > t.0 {
                    *t = (c, s, t.0);
                } else if c > t.2 {
                    t.2 = c;
                }
            }
        }
        for ((row, b), s) in out.chunks_exact_mut(row_len).zip(bags).zip(0..) {
            let mut correct = 0i64;
            for &(id, c) in &b.grams[n - 1] {
                let t = top[id as usize];
                let other = if t.1 == s { t.2 } else { t.0 };
                correct += i64::from(c.min(other));
            }
            row[1 + n] = correct;
            row[1 + max_order + n] = (b.len - n as i64 + 1).max(0);
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
    max_order: usize,
) -> Result<Vec<i64>, CoreError> {
    if refs.is_empty() {
        return Err(CoreError::InvalidInput(
            "reference aggregation needs at least one pseudo-reference".to_string(),
        ));
    }
    let m = refs.len() as i64;
    let ref_len: i64 = refs.iter().map(|r| r.len).sum();
    let mut sums: Vec<Vec<(u32, u32)>> = Vec::with_capacity(max_order);
    for n in 1..=max_order {
        let mut all: Vec<(u32, u32)> = refs
            .iter()
            .flat_map(|r| r.grams[n - 1].iter().copied())
            .collect();
        all.sort_unstable_by_key(|g| g.0);
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (id, c) in all {
            match merged.last_mut() {
                Some((last, s)) if *last == id => *s += c,
                _ => merged.push((id, c)),
            }
        }
        sums.push(merged);
    }
    let row_len = 2 + 2 * max_order;
    let mut out = vec![0i64; hyps.len() * row_len];
    for (row, h) in out.chunks_exact_mut(row_len).zip(hyps) {
        row[0] = m * h.len;
        row[1] = ref_len;
        for n in 1..=max_order {
            let (hg, rg) = (&h.grams[n - 1], &sums[n - 1]);
            let (mut i, mut j, mut s) = (0, 0, 0i64);
            while i < hg.len() && j < rg.len() {
                if hg[i].0 < rg[j].0 {
                    i += 1;
                } else if hg[i].0 > rg[j].0 {
                    j += 1;
                } else {
                    s += (m * i64::from(hg[i].1)).min(i64::from(rg[j].1));
                    i += 1;
                    j += 1;
                }
            }
            row[1 + n] = s;
            row[1 + max_order + n] = m * (h.len - n as i64 + 1).max(0);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::score::{compute_bleu, Smooth, Summation};
    use crate::bleu::stats::Worker;
    use crate::text::tokenize::Tokenizer;

    fn opts() -> StatsOptions {
        StatsOptions::new(Tokenizer::T13a, false, 4).unwrap()
    }

    #[test]
    fn pair_rows_equal_the_engine() {
        let texts = [
            "the cat sat on the mat .",
            "the the the cat",
            "",
            "a cat, on a mat!",
        ];
        let b = bags(&texts, &opts());
        let mut w = Worker::default();
        for (i, h) in texts.iter().enumerate() {
            for (j, r) in texts.iter().enumerate() {
                let mut want = vec![0i64; 10];
                w.segment(h, &[r], &opts(), &mut want);
                let mut got = vec![0i64; 10];
                pair_row(&b[i], &b[j], 4, &mut got);
                assert_eq!(got, want, "{h:?} vs {r:?}");
            }
        }
    }

    #[test]
    fn self_stats_equal_the_engine() {
        let texts = ["a b c", "a b c", "a b", "c c c d", "b a", ""];
        let b = bags(&texts, &opts());
        let got = self_stats(&b, 4).unwrap();
        let mut w = Worker::default();
        for (i, h) in texts.iter().enumerate() {
            let others: Vec<&str> = (0..texts.len())
                .filter(|&j| j != i)
                .map(|j| texts[j])
                .collect();
            let mut want = vec![0i64; 10];
            w.segment(h, &others, &opts(), &mut want);
            assert_eq!(&got[i * 10..(i + 1) * 10], &want[..], "sample {i}");
        }
        assert!(self_stats(&b[..1], 4).is_err());
    }

    #[test]
    fn matrix_scores() {
        let b = bags(&["a b c d", "a b c e"], &opts());
        let p = BleuParams {
            smooth: Smooth::Exp,
            effective_order: true,
            max_order: 4,
            summation: Summation::Plain,
        };
        let m = matrix(&b, &b, &p, 1).unwrap();
        assert_eq!(m[0], 100.00000000000004);
        assert!(m[1] < 100.0);
        // The dense gather equals the sorted-list merge of `pair_row` on every pair.
        let texts = [
            "the cat sat on the mat .",
            "the the the cat",
            "",
            "a cat, on a mat!",
        ];
        let b = bags(&texts, &opts());
        let m = matrix(&b[..3], &b, &p, 1).unwrap();
        let mut row = vec![0i64; 10];
        for i in 0..3 {
            for j in 0..4 {
                pair_row(&b[i], &b[j], 4, &mut row);
                let (c, t) = row[2..].split_at(4);
                assert_eq!(m[i * 4 + j], compute_bleu(c, t, row[0], row[1], &p).score);
            }
        }
    }

    #[test]
    fn aggregate_scales_expected_counts() {
        let b = bags(&["a b", "a b", "a c"], &opts());
        let s = aggregate_stats(&b[..1], &b[1..], 2).unwrap();
        // M = 2: unigrams a (2 vs sum 2), b (2 vs 1); bigram "a b" (2 vs 1).
        assert_eq!(s, vec![4, 4, 3, 1, 4, 2]);
    }
}

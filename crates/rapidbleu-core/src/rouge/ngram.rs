//! rouge-score's `_create_ngrams` + `_score_ngrams`: the clipped n-gram overlap
//! `sum(min(target[g], prediction[g]))` of two token sequences.

use rustc_hash::FxHashMap;

/// Scratch space for n-gram overlaps, kept by a worker across segments.
#[derive(Default)]
pub struct NgramCounter {
    /// Counts per id (token ids for unigrams, pair-local n-gram ids otherwise).
    pred: Vec<u32>,
    target: Vec<u32>,
    /// (previous level's id, next token) -> id, for one pair of sequences.
    level: FxHashMap<u64, u32>,
    ids_pred: Vec<u32>,
    ids_target: Vec<u32>,
    next_pred: Vec<u32>,
    next_target: Vec<u32>,
}

impl NgramCounter {
    /// The clipped overlap of the `n`-grams of `target` and `prediction`.
    ///
    /// Performance decision: an n-gram is interned level by level (its `n-1`-gram prefix's id
    /// and its last token make a `u64` key), so counting is exact and allocation-free, and the
    /// counts are dense arrays over pair-local ids instead of a hash map of token slices.
    pub fn overlap(&mut self, target: &[u32], prediction: &[u32], n: usize) -> u64 {
        if target.len() < n || prediction.len() < n {
            return 0;
        }
        if n == 1 {
            return clipped(&mut self.target, &mut self.pred, target, prediction);
        }
        self.ids_pred.clear();
        self.ids_pred.extend_from_slice(prediction);
        self.ids_target.clear();
        self.ids_target.extend_from_slice(target);
        for k in 1..n {
            self.level.clear();
            extend(
                &mut self.level,
                &self.ids_pred,
                prediction,
                k,
                &mut self.next_pred,
            );
            extend(
                &mut self.level,
                &self.ids_target,
                target,
                k,
                &mut self.next_target,
            );
            std::mem::swap(&mut self.ids_pred, &mut self.next_pred);
            std::mem::swap(&mut self.ids_target, &mut self.next_target);
        }
        clipped(
            &mut self.target,
            &mut self.pred,
            &self.ids_target,
            &self.ids_pred,
        )
    }
}

/// The ids of the `k+1`-grams of `tokens`, from the ids `prev` of its `k`-grams.
fn extend(
    level: &mut FxHashMap<u64, u32>,
    prev: &[u32],
    tokens: &[u32],
    k: usize,
    out: &mut Vec<u32>,
) {
    out.clear();
    for (i, &p) in prev[..tokens.len() - k].iter().enumerate() {
        let key = (u64::from(p) << 32) | u64::from(tokens[i + k]);
        let next = level.len() as u32;
        out.push(*level.entry(key).or_insert(next));
    }
}

/// `sum over distinct g of min(count_target[g], count_pred[g])`, leaving the counts zeroed.
fn clipped(ct: &mut Vec<u32>, cp: &mut Vec<u32>, target: &[u32], pred: &[u32]) -> u64 {
    let need = target
        .iter()
        .chain(pred)
        .max()
        .map_or(0, |&m| m as usize + 1);
    if ct.len() < need {
        ct.resize(need, 0);
        cp.resize(need, 0);
    }
    for &g in target {
        ct[g as usize] += 1;
    }
    for &g in pred {
        cp[g as usize] += 1;
    }
    let mut hits = 0u64;
    for &g in target {
        let g = g as usize;
        if ct[g] > 0 {
            hits += u64::from(ct[g].min(cp[g]));
            ct[g] = 0;
        }
    }
    for &g in pred {
        cp[g as usize] = 0;
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_counts() {
        let mut c = NgramCounter::default();
        assert_eq!(c.overlap(&[1, 1, 2], &[1, 2, 2], 1), 2);
        assert_eq!(c.overlap(&[1, 2, 1, 2], &[1, 2, 3, 1, 2], 2), 2);
        assert_eq!(c.overlap(&[1, 2, 3], &[1, 2, 4], 3), 0);
        assert_eq!(c.overlap(&[1, 2], &[1, 2, 4], 3), 0);
    }
}

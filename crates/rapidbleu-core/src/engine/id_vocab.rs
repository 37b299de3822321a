//! [`IdVocab`]: integer token IDs -> dense segment-local token codes (0, 1, ...).
//!
//! Performance decision: the IDs of real tokenizers are small (vocabularies of 32k to 256k),
//! so an ID below [`DIRECT`] is its own index into a table, with no hashing and no probing;
//! the slot holds the code and the stamp of the segment that wrote it, which empties the
//! table in O(1) as in [`NgramMap`]. Larger or negative IDs go to an [`NgramMap`]. Which of
//! the two holds an ID depends on its value only, so every ID has one code.

use crate::engine::ngram_map::NgramMap;

/// IDs in `0..DIRECT` are looked up by index (a table of at most 2 MiB per worker).
const DIRECT: u64 = 1 << 18;

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct IdVocab {
    /// `direct[t]` for a token ID `t`: `stamp << 32 | code`, current when its stamp is `stamp`.
    direct: Vec<u64>,
    stamp: u32,
    /// IDs outside `0..DIRECT`.
    large: NgramMap,
    len: u32,
}

impl Default for IdVocab {
    fn default() -> Self {
        IdVocab {
            direct: Vec::new(),
            stamp: 1,
            large: NgramMap::default(),
            len: 0,
        }
    }
}

impl IdVocab {
    /// Number of distinct IDs (the next code).
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Empties the vocabulary in O(1).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.large.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 generations, old stamps could look current again: wipe them once.
            self.direct.fill(0);
            self.stamp = 1;
        }
    }

    /// Appends the code of every ID of `ids` to `out`, giving new IDs the next codes.
    ///
    /// Performance decision: kept out of line (one call per reference). Inlined into the
    /// counting worker, its loop compiled to one more instruction per ID (callgrind,
    /// `profile_ids`: 0.25% of the whole count).
    #[inline(never)]
    pub(crate) fn intern(&mut self, ids: &[i64], out: &mut Vec<u32>) {
        let top = ids
            .iter()
            .map(|&t| t as u64)
            .filter(|&t| t < DIRECT)
            .max()
            .map_or(0, |t| t as usize + 1);
        if self.direct.len() < top {
            self.direct.resize(top, 0);
        }
        self.large.reserve(ids.len());
        let stamp = u64::from(self.stamp) << 32;
        out.extend(ids.iter().map(|&t| {
            let next = self.len;
            let code = if (t as u64) < DIRECT {
                // The table was grown above to hold every small ID of `ids`.
                let slot = &mut self.direct[t as usize];
                let known = *slot >> 32 == stamp >> 32;
                let code = std::hint::select_unpredictable(known, *slot as u32, next);
                *slot = stamp | u64::from(code);
                code
            } else {
                self.large.insert_reserved(t as u64, next)
            };
            self.len += u32::from(code == next);
            code
        }));
    }

    /// The code of ID `t`, or `missing` if it was not interned.
    #[inline]
    pub(crate) fn get_or(&self, t: i64, missing: u32) -> u32 {
        if (t as u64) < DIRECT {
            let slot = self.direct.get(t as usize).copied().unwrap_or(0);
            let known = slot >> 32 == u64::from(self.stamp);
            std::hint::select_unpredictable(known, slot as u32, missing)
        } else {
            self.large.get_or(t as u64, missing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_large_and_negative_ids_share_one_numbering() {
        let mut v = IdVocab::default();
        let ids = [5, -1, 5, 1 << 40, 3, -1, (1 << 18) - 1, 1 << 18, 3];
        let mut out = Vec::new();
        v.intern(&ids, &mut out);
        assert_eq!(out, vec![0, 1, 0, 2, 3, 1, 4, 5, 3]);
        assert_eq!(v.len(), 6);
        for (&t, &code) in ids.iter().zip(&out) {
            assert_eq!(v.get_or(t, 99), code);
        }
        assert_eq!(v.get_or(4, 99), 99);
        assert_eq!(v.get_or(1 << 30, 99), 99);
        v.clear();
        assert_eq!(v.get_or(5, 99), 99);
        out.clear();
        v.intern(&[3, 5], &mut out);
        assert_eq!(out, vec![0, 1]);
    }

    #[test]
    fn stamp_wraparound_empties_the_table() {
        let mut v = IdVocab::default();
        v.intern(&[7], &mut Vec::new());
        v.stamp = u32::MAX;
        v.direct
            .iter_mut()
            .for_each(|s| *s = u64::from(u32::MAX) << 32);
        v.clear();
        assert_eq!(v.get_or(7, 99), 99);
    }
}

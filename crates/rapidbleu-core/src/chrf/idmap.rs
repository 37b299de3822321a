//! `(prefix id, symbol)` keys to n-gram ids, for one segment at a time.
//!
//! Performance decision: this is the innermost operation of chrF (one per surviving n-gram
//! position per side and order, about 650 per WMT sentence pair at chrF's six orders), so it
//! is smaller than the crate's general `NgramMap`: keys and ids in two arrays, linear probing
//! at most half full, and key 0 for an empty slot (real keys have a prefix id >= 1), so that a
//! probe is one load and one branch, "equal or empty", with no generation stamp to compare.
//! Emptying is a `memset` of the slots the previous segment used (a few KiB), which cost less
//! in instruction counts than the stamp comparisons it removes.

/// The empty slot's key.
const EMPTY: u64 = 0;

/// The smallest table.
const MIN_SLOTS: usize = 64;

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub(crate) struct IdMap {
    keys: Vec<u64>,
    ids: Vec<u32>,
    /// Slots in use: `keys[..used]`, a power of two (0 before the first `reset`).
    used: usize,
    /// `64 - log2(used)`: the hash's high bits index the table.
    shift: u32,
    len: usize,
}

/// The key of the n-gram made of the n-gram with id `prefix` and the symbol `symbol`.
#[inline(always)]
fn key(prefix: u32, symbol: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(symbol)
}

/// One occurrence on one side of an n-gram whose remaining count on the other side is
/// `*left`: it matches while some count is left and uses one up. Counting this way over one
/// side's occurrences sums `min(hyp count, ref count)` without a branch.
#[inline(always)]
pub(crate) fn take_one(left: &mut u32) -> u32 {
    let hit = u32::from(*left > 0);
    *left -= hit;
    hit
}

#[inline(always)]
fn hash(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize
}

impl IdMap {
    /// Empties the map and sizes it for `keys` keys (it grows later if needed).
    pub(crate) fn reset(&mut self, keys: usize) {
        self.keys[..self.used].fill(EMPTY);
        self.len = 0;
        self.set_size(slots_for(keys));
    }

    fn set_size(&mut self, size: usize) {
        if self.keys.len() < size {
            self.keys.resize(size, EMPTY);
            self.ids.resize(size, 0);
        }
        self.used = size;
        self.shift = 64 - size.trailing_zeros();
    }

    /// Makes room for `additional` more keys, so that that many [`IdMap::insert`] calls find
    /// an empty slot (the table stays at most half full).
    pub(crate) fn reserve(&mut self, additional: usize) {
        let size = slots_for(self.len + additional);
        if size <= self.used {
            return;
        }
        let old: Vec<(u64, u32)> = self.keys[..self.used]
            .iter()
            .zip(&self.ids)
            .filter(|(&k, _)| k != EMPTY)
            .map(|(&k, &id)| (k, id))
            .collect();
        self.keys[..self.used].fill(EMPTY);
        self.len = 0;
        self.set_size(size);
        for (k, id) in old {
            self.insert(k, id);
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline(always)]
    fn probe(&self, key: u64) -> usize {
        let keys = &self.keys[..self.used];
        let mask = keys.len() - 1;
        let mut i = hash(key, self.shift);
        loop {
            let k = keys[i];
            if k == key || k == EMPTY {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `key` (not [`EMPTY`]), inserting it with id `next` if absent, after room was
    /// made by [`IdMap::reserve`].
    #[inline(always)]
    pub(crate) fn insert(&mut self, key: u64, next: u32) -> u32 {
        debug_assert!(key != EMPTY && 2 * (self.len + 1) <= self.used);
        let i = self.probe(key);
        let new = self.keys[i] == EMPTY;
        // Both outcomes write the slot, so new and known n-grams take one path.
        let id = std::hint::select_unpredictable(new, next, self.ids[i]);
        self.keys[i] = key;
        self.ids[i] = id;
        self.len += usize::from(new);
        id
    }

    /// The id of `key`, or `absent`.
    #[cfg(test)]
    fn get_or(&self, key: u64, absent: u32) -> u32 {
        let i = self.probe(key);
        std::hint::select_unpredictable(self.keys[i] == key, self.ids[i], absent)
    }
}

impl IdMap {
    /// The hypothesis side of one order: for each `(start, prefix)` in `live` (n-grams whose
    /// next symbol is `tail[start]`), the id of (prefix, symbol), inserting new ones from
    /// `next` on and counting occurrences in `counts` (indexed by id, long enough for
    /// `live.len()` new ids). `live` keeps the n-grams that fit in `tail` (starts increase),
    /// with their new ids; returns the next free id.
    ///
    /// Performance decision: the probe loop only probes (counting is a second loop), reads
    /// the table through locals, and room is made once, so that its state stays in registers
    /// (a fused loop spilled to the stack) with no capacity check and no branch on whether the
    /// n-gram is new.
    #[inline(never)]
    pub(crate) fn extend(
        &mut self,
        tail: &[u32],
        live: &mut Vec<(u32, u32)>,
        counts: &mut [u32],
        next: u32,
    ) -> u32 {
        live.truncate(live.partition_point(|&(start, _)| (start as usize) < tail.len()));
        self.reserve(live.len());
        let shift = self.shift;
        let keys = &mut self.keys[..self.used];
        let ids = &mut self.ids[..keys.len()];
        let mask = keys.len() - 1;
        let mut cursor = next;
        for entry in live.iter_mut() {
            let key = key(entry.1, tail[entry.0 as usize]);
            let mut i = hash(key, shift) & mask;
            while keys[i] != key && keys[i] != EMPTY {
                i = (i + 1) & mask;
            }
            let new = keys[i] == EMPTY;
            let id = std::hint::select_unpredictable(new, cursor, ids[i]);
            keys[i] = key;
            ids[i] = id;
            cursor += u32::from(new);
            entry.1 = id;
        }
        for &(_, id) in live.iter() {
            counts[id as usize] += 1;
        }
        self.len += (cursor - next) as usize;
        cursor
    }

    /// The reference side of one order: for each `(start, prefix)` in `live`, the id of
    /// (prefix, `tail[start]`) or `absent` (0); each occurrence takes one from `budget[id]`
    /// (`budget[0]` is 0) and marks `found[id]`. `live` keeps the n-grams found, compacted;
    /// returns the number of matches and of n-grams kept.
    #[inline(never)]
    pub(crate) fn lookup(
        &self,
        tail: &[u32],
        live: &mut [(u32, u32)],
        budget: &mut [u32],
        found: &mut [bool],
    ) -> (u32, usize) {
        let fit = live.partition_point(|&(start, _)| (start as usize) < tail.len());
        let live = &mut live[..fit];
        let shift = self.shift;
        let keys = &self.keys[..self.used];
        let ids = &self.ids[..keys.len()];
        let mask = keys.len() - 1;
        for entry in live.iter_mut() {
            let key = key(entry.1, tail[entry.0 as usize]);
            let mut i = hash(key, shift) & mask;
            while keys[i] != key && keys[i] != EMPTY {
                i = (i + 1) & mask;
            }
            // A missing n-gram gets id 0, whose budget is 0: it matches nothing and is
            // dropped below without a branch on whether it was found.
            entry.1 = std::hint::select_unpredictable(keys[i] == key, ids[i], 0);
        }
        let (mut matches, mut kept) = (0u32, 0usize);
        for k in 0..live.len() {
            let id = live[k].1;
            matches += take_one(&mut budget[id as usize]);
            found[id as usize] = true;
            live[kept] = live[k];
            kept += usize::from(id != 0);
        }
        (matches, kept)
    }
}

/// Slots for `keys` keys: a power of two at least twice as many.
fn slots_for(keys: usize) -> usize {
    keys.saturating_mul(2).max(MIN_SLOTS).next_power_of_two()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_reset_grow() {
        let mut m = IdMap::default();
        m.reset(4);
        for k in 1..=1000u64 {
            m.reserve(1);
            assert_eq!(m.insert(k << 32 | 7, k as u32), k as u32);
        }
        for k in 1..=1000u64 {
            assert_eq!(m.get_or(k << 32 | 7, 0), k as u32);
            assert_eq!(m.insert(k << 32 | 7, 5), k as u32);
        }
        assert_eq!(m.get_or(3, 0), 0);
        m.reset(1);
        assert_eq!(m.get_or(1 << 32 | 7, 0), 0);
        m.reserve(1);
        assert_eq!(m.insert(9, 1), 1);
        assert_eq!(m.get_or(9, 0), 1);
    }
}

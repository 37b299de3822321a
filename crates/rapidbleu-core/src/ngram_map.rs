//! A hash map from n-gram keys (`u64`) to n-gram ids (`u32`), built for one segment at a time.
//!
//! Performance decision: the n-gram map is the innermost loop of every statistic (about 200
//! operations per segment). A general map (hashbrown with FxHash) spends most of its time in
//! group probing and entry bookkeeping; this one is linear probing over a power-of-two table,
//! indexed by the high bits of a multiplicative (Fibonacci) hash, at most half full. Emptying it
//! for the next segment is O(1): every slot carries the stamp of the segment that wrote it, and
//! a slot with an older stamp is empty.

/// One slot: key, id, and the stamp of the generation that wrote it.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    id: u32,
    stamp: u32,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct NgramMap {
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: the hash's high bits index the table.
    shift: u32,
    stamp: u32,
    len: usize,
}

impl Default for NgramMap {
    fn default() -> Self {
        NgramMap { slots: vec![Slot::default(); 16], shift: 60, stamp: 1, len: 0 }
    }
}

const MIN_SLOTS: usize = 16;

impl NgramMap {
    #[inline]
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// Empties the map in O(1).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 generations, old stamps could look current again: wipe them once.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    /// The id of `key`, if present.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.index(key);
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp {
                return None;
            }
            if s.key == key {
                return Some(s.id);
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `key`, inserting it with id `next` if absent.
    #[inline]
    pub(crate) fn get_or_insert(&mut self, key: u64, next: u32) -> u32 {
        if 2 * (self.len + 1) > self.slots.len() {
            self.resize(2 * self.slots.len());
        }
        let mask = self.slots.len() - 1;
        let mut i = self.index(key);
        loop {
            let s = &mut self.slots[i];
            if s.stamp != self.stamp {
                *s = Slot { key, id: next, stamp: self.stamp };
                self.len += 1;
                return next;
            }
            if s.key == key {
                return s.id;
            }
            i = (i + 1) & mask;
        }
    }

    /// Rebuilds the table with `n` slots (a power of two holding every key at most half full).
    fn resize(&mut self, n: usize) {
        let n = n.max(MIN_SLOTS).next_power_of_two();
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); n]);
        let stamp = self.stamp;
        self.shift = 64 - n.trailing_zeros();
        self.stamp = 1;
        self.len = 0;
        for s in old.into_iter().filter(|s| s.stamp == stamp) {
            self.get_or_insert(s.key, s.id);
        }
    }

    /// Shrinks the table to the smallest size that holds its keys (for cached tables).
    pub(crate) fn shrink_to_fit(&mut self) {
        let want = (2 * self.len).max(MIN_SLOTS).next_power_of_two();
        if want < self.slots.len() {
            self.resize(want);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_clear_grow() {
        let mut m = NgramMap::default();
        for k in 0..1000u64 {
            assert_eq!(m.get_or_insert((k * 7919) << 20, k as u32), k as u32);
        }
        for k in 0..1000u64 {
            assert_eq!(m.get((k * 7919) << 20), Some(k as u32));
            assert_eq!(m.get_or_insert((k * 7919) << 20, 5), k as u32);
        }
        assert_eq!(m.len, 1000);
        m.clear();
        assert_eq!(m.get(7919_u64 << 20), None);
        assert_eq!(m.get_or_insert(3, 9), 9);
        m.shrink_to_fit();
        assert_eq!(m.get(3), Some(9));
        assert_eq!(m.slots.len(), MIN_SLOTS);
    }

    #[test]
    fn stamp_wraparound_empties_the_table() {
        let mut m = NgramMap::default();
        m.get_or_insert(42, 1);
        m.stamp = u32::MAX;
        m.slots.iter_mut().for_each(|s| s.stamp = u32::MAX);
        m.clear();
        assert_eq!(m.get(42), None);
    }
}

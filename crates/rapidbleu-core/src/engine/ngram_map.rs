//! [`NgramMap`]: n-gram keys ([`ngram_key`]) -> dense n-gram codes (0, 1, ...), next to
//! [`super::token_map::TokenMap`] (token bytes -> token codes). Built for one segment at a time
//! by the BLEU counter (emptied in O(1) between segments), or for a whole group of sentences by
//! pairwise BLEU; any metric that counts n-grams can use them.
//!
//! Performance decision: the n-gram map is the innermost loop of every statistic (about 200
//! operations per segment). A general map (hashbrown with FxHash) spends most of its time in
//! group probing and entry bookkeeping; this one is linear probing over a power-of-two table,
//! indexed by the high bits of a multiplicative (Fibonacci) hash, at most a quarter full (at
//! half full, a second probe was frequent enough to mispredict; tables beyond 1 MiB, built for
//! very long segments, are at most half full: see `slots_for`). Emptying it for the next
//! segment is O(1): every slot carries the stamp of the segment that wrote it, and a slot with
//! an older stamp is empty. Each segment uses only as many slots as it can need (a prefix of
//! the table): after a long segment, short ones stay within a few cache lines.

/// The key of an n-gram of order n > 1: the pair (code of its (n-1)-gram prefix, code of its
/// last token). A unigram's code is its token's code, so n-grams of every order are keyed
/// exactly, by two `u32` codes, with no per-n-gram allocation and no limit on the order.
#[inline(always)]
pub(crate) fn ngram_key(prefix: u32, last: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(last)
}

/// One slot: key, code, and the stamp of the generation that wrote it.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    code: u32,
    stamp: u32,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct NgramMap {
    slots: Vec<Slot>,
    /// Slots in use: `slots[..size]`, a power of two.
    size: usize,
    /// `64 - log2(size)`: the hash's high bits index the table.
    shift: u32,
    stamp: u32,
    len: usize,
}

impl Default for NgramMap {
    fn default() -> Self {
        NgramMap {
            slots: vec![Slot::default(); MIN_SLOTS],
            size: MIN_SLOTS,
            shift: 64 - MIN_SLOTS.trailing_zeros(),
            stamp: 1,
            len: 0,
        }
    }
}

/// The smallest table (also [`super::token_map::TokenMap`]'s).
pub(super) const MIN_SLOTS: usize = 16;

/// Tables up to this many slots (1 MiB) are at most a quarter full; larger ones at most half.
const QUARTER_FULL_SLOTS: usize = 1 << 16;

/// Slots for `keys` keys: a power of two at least four times as many, or twice as many for a
/// large table.
///
/// Memory decision: a small table is probed in cache, where a second probe (frequent at half
/// full) costs a misprediction; a large one (a very long segment) misses the cache on its first
/// probe anyway, and its neighbour slot shares the cache line, so half full costs little time
/// and halves the memory of the largest tables.
fn slots_for(keys: usize) -> usize {
    let quarter = keys.saturating_mul(4).max(MIN_SLOTS).next_power_of_two();
    if quarter <= QUARTER_FULL_SLOTS {
        quarter
    } else {
        keys.saturating_mul(2)
            .next_power_of_two()
            .max(QUARTER_FULL_SLOTS)
    }
}

impl NgramMap {
    #[inline]
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// Number of keys (the next code, when codes are given in order).
    pub(crate) fn len(&self) -> usize {
        self.len
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

    /// Empties the map in O(1) and sizes it for at most `keys` keys.
    pub(crate) fn clear_for(&mut self, keys: usize) {
        self.clear();
        let size = slots_for(keys);
        if size > self.slots.len() {
            self.slots = vec![Slot::default(); size];
            self.stamp = 1;
        }
        self.set_size(size);
    }

    fn set_size(&mut self, size: usize) {
        self.size = size;
        self.shift = 64 - size.trailing_zeros();
    }

    /// The slot holding `key`, or else the empty slot where it would go.
    ///
    /// Performance decision: the probe stops on "empty or equal" in one test, and callers
    /// pick the outcome without branching where they can, because whether an n-gram is
    /// present is data the branch predictor cannot learn.
    #[inline(always)]
    fn probe(&self, key: u64) -> usize {
        let slots = &self.slots[..self.size];
        let mask = slots.len() - 1;
        let mut i = self.index(key) & mask;
        loop {
            let s = &slots[i];
            // One branch for "empty or equal" (the common case, either way): taking them as
            // two branches would mispredict on every new-versus-known n-gram.
            let code = (usize::from(s.stamp == self.stamp) << 1) | usize::from(s.key == key);
            if (0b1011 >> code) & 1 != 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The code of `key`, or `absent` if it is not present (without a branch on which).
    #[inline(always)]
    pub(crate) fn get_or(&self, key: u64, absent: u32) -> u32 {
        let s = &self.slots[self.probe(key)];
        std::hint::select_unpredictable(s.stamp == self.stamp, s.code, absent)
    }

    /// Asks for the memory of `key`'s first slot (a hint; nothing is read), so that a batch of
    /// look-ups in a table of several MiB overlaps its cache misses: CIDEr-D's count asks for
    /// the slot of the key a few places ahead before it inserts the current one.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self.slots.get(self.index(key) & (self.size - 1)) {
            let p = (slot as *const Slot).cast::<i8>();
            // SAFETY: a prefetch is a hint that reads nothing and cannot fault; SSE is part
            // of x86_64's baseline.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The heap bytes of its slots.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
    }

    /// Makes room for `additional` more keys, so that that many
    /// [`NgramMap::insert_reserved`] calls neither check capacity nor grow the table.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let size = slots_for(self.len + additional);
        if size > self.size {
            self.resize(size);
        }
    }

    /// The code of `key`, inserting it with code `next` if absent, after room was made by
    /// [`NgramMap::reserve`] (without it, the table could fill up and the probe would not end).
    #[inline(always)]
    pub(crate) fn insert_reserved(&mut self, key: u64, next: u32) -> u32 {
        debug_assert!(slots_for(self.len + 1) <= self.size);
        let i = self.probe(key);
        let stamp = self.stamp;
        let s = &mut self.slots[i];
        let new = s.stamp != stamp;
        // The slot is written either way, so new and existing keys take the same path.
        let code = std::hint::select_unpredictable(new, next, s.code);
        *s = Slot { key, code, stamp };
        self.len += usize::from(new);
        code
    }

    /// Rebuilds the table with `size` slots in use, keeping its keys.
    fn resize(&mut self, size: usize) {
        let (stamp, used) = (self.stamp, self.size);
        if size > self.slots.len() {
            // Re-inserted straight from the old table: at the peak, the old and the new table
            // (1.5 times the new one), without a third copy of the keys.
            let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
            self.stamp = 1;
            self.len = 0;
            self.set_size(size);
            for s in old[..used].iter().filter(|s| s.stamp == stamp) {
                self.insert_reserved(s.key, s.code);
            }
            return;
        }
        // Within the allocation (a table left large by a longer segment): the keys move.
        let keys: Vec<Slot> = self.slots[..used]
            .iter()
            .filter(|s| s.stamp == stamp)
            .copied()
            .collect();
        self.clear();
        self.set_size(size);
        for s in keys {
            self.insert_reserved(s.key, s.code);
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
            m.reserve(1);
            assert_eq!(m.insert_reserved((k * 7919) << 20, k as u32), k as u32);
        }
        m.reserve(1000);
        for k in 0..1000u64 {
            assert_eq!(m.get_or((k * 7919) << 20, 7), k as u32);
            assert_eq!(m.insert_reserved((k * 7919) << 20, 5), k as u32);
        }
        assert_eq!(m.len, 1000);
        assert_eq!(m.get_or(1, 7), 7);
        m.clear();
        assert_eq!(m.get_or(7919_u64 << 20, 7), 7);
        m.reserve(1);
        assert_eq!(m.insert_reserved(3, 9), 9);
        assert_eq!(m.get_or(3, 7), 9);
    }

    #[test]
    fn stamp_wraparound_empties_the_table() {
        let mut m = NgramMap::default();
        m.reserve(1);
        m.insert_reserved(42, 1);
        m.stamp = u32::MAX;
        m.slots.iter_mut().for_each(|s| s.stamp = u32::MAX);
        m.clear();
        assert_eq!(m.get_or(42, 7), 7);
    }
}

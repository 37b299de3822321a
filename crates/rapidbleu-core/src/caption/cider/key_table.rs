//! [`KeyTable`]: n-gram keys (`key(prefix code, last token code)`) -> codes, for counting a
//! corpus's document frequencies, with a prefetch so that a batch of look-ups overlaps its
//! cache misses.
//!
//! Performance decision: the corpus's table of candidate n-grams holds hundreds of thousands
//! of keys (several MiB), and nearly every look-up of a rare n-gram misses the cache; one after
//! the other, those misses were most of the count's time. [`super::corpus`] asks for the slot
//! of the key a few places ahead ([`KeyTable::prefetch`]) before it inserts the current one.
//! A slot is empty unless it carries the table's current stamp, so the table empties in O(1)
//! for the next count (it is kept between calls: several MiB that a `memset` took a
//! millisecond to clear).

/// One slot: key, code, and the stamp of the count that wrote it.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    code: u32,
    stamp: u32,
}

/// See the module documentation.
pub(super) struct KeyTable {
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`.
    shift: u32,
    stamp: u32,
    len: usize,
}

impl Default for KeyTable {
    fn default() -> Self {
        KeyTable::with_slots(1 << 10)
    }
}

impl KeyTable {
    fn with_slots(n: usize) -> Self {
        KeyTable {
            slots: vec![Slot::default(); n],
            shift: 64 - n.trailing_zeros(),
            stamp: 1,
            len: 0,
        }
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The heap bytes of its slots.
    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
    }

    /// Empties the table in O(1) (its slots stay allocated).
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 counts, old stamps could look current again: wipe them once.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    /// Asks for the memory of `key`'s slot (a hint; nothing is read).
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self.slots.get(self.index(key)) {
            let p = (slot as *const Slot).cast::<i8>();
            // SAFETY: a prefetch is a hint that reads nothing and cannot fault; SSE is part
            // of x86_64's baseline.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline(always)]
    fn probe(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.index(key);
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp || s.key == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The code of `key`, or `absent`.
    #[inline]
    pub(super) fn get_or(&self, key: u64, absent: u32) -> u32 {
        let s = self.slots[self.probe(key)];
        if s.stamp == self.stamp {
            s.code
        } else {
            absent
        }
    }

    /// The code of `key`, inserting it with code `next` if absent; whether it was inserted.
    #[inline]
    pub(super) fn get_or_insert(&mut self, key: u64, next: u32) -> (u32, bool) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let i = self.probe(key);
        let s = &mut self.slots[i];
        // Without a branch on whether the key is new (random): the slot is written either way.
        let stamp = self.stamp;
        let new = s.stamp != stamp;
        let code = std::hint::select_unpredictable(new, next, s.code);
        *s = Slot { key, code, stamp };
        self.len += usize::from(new);
        (code, new)
    }

    /// Doubles the table (at most half full).
    #[cold]
    fn grow(&mut self) {
        let old = std::mem::replace(self, KeyTable::with_slots(2 * self.slots.len()));
        self.len = old.len;
        for s in old.slots.into_iter().filter(|s| s.stamp == old.stamp) {
            let i = self.probe(s.key);
            self.slots[i] = Slot {
                stamp: self.stamp,
                ..s
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_finds_and_grows() {
        let mut t = KeyTable::default();
        for k in 0..5000u64 {
            let key = (k * 7919) << 20;
            t.prefetch(key);
            assert_eq!(t.get_or_insert(key, k as u32), (k as u32, true));
        }
        for k in 0..5000u64 {
            assert_eq!(t.get_or_insert((k * 7919) << 20, 0), (k as u32, false));
            assert_eq!(t.get_or((k * 7919) << 20, u32::MAX), k as u32);
        }
        assert_eq!(t.get_or(3, u32::MAX), u32::MAX);
        t.clear();
        assert_eq!(t.get_or(0, u32::MAX), u32::MAX);
        assert_eq!(t.get_or_insert(7919 << 20, 5), (5, true));
    }
}

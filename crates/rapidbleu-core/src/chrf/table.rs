//! A small open-addressing map from `(prefix class, symbol)` to an n-gram class, for one order
//! of one segment at a time (see `ngrams.rs` for what a class is).
//!
//! Performance decision: a probe is one load and one branch ("equal or empty"): keys and
//! values sit in one 16-byte slot, the empty key is all ones (a compare with an immediate), the
//! table is at most a quarter full (a few KiB, in L1), and it is emptied slot by slot through a
//! list of the slots filled, so a segment pays for its own n-grams only.

/// An empty slot's key: real keys are below 2**63 (classes are below 2**31).
const EMPTY: u64 = u64::MAX;

/// The smallest table.
const MIN_SLOTS: usize = 32;

#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    value: u32,
}

const EMPTY_SLOT: Slot = Slot {
    key: EMPTY,
    value: 0,
};

/// See the module documentation. Between orders every slot is empty.
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    slots: Vec<Slot>,
    /// Slots in use for the current order: `slots[..used]`, a power of two.
    used: usize,
    /// The slots filled in this order, in `filled[..n_filled]`.
    filled: Vec<u32>,
    n_filled: usize,
}

/// The key of the n-gram made of the n-gram of class `prefix` and the symbol `symbol`.
#[inline(always)]
pub(crate) fn key(prefix: u32, symbol: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(symbol)
}

impl Table {
    /// Sizes the (empty) table for one order: at most `keys` insertions.
    pub(crate) fn start(&mut self, keys: usize) {
        let size = keys.saturating_mul(4).max(MIN_SLOTS).next_power_of_two();
        if self.slots.len() < size {
            self.slots.resize(size, EMPTY_SLOT);
        }
        self.used = size;
        // One more: `insert` writes the next entry whether or not the key is new.
        super::room(&mut self.filled, keys + 1);
        self.n_filled = 0;
    }

    /// The slot of `key`, or the empty slot where it would go.
    #[inline(always)]
    fn probe(&self, key: u64) -> usize {
        let slots = &self.slots[..self.used];
        let mask = slots.len() - 1;
        // Multiplicative hashing: bits 32.. of the product mix the prefix and the symbol.
        let mut i = ((key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize) & mask;
        // One exit test for "equal or empty" (`k ^ key` or `!k` is zero, so their minimum
        // is): a lookup that misses stops at an empty slot as predictably as one that hits,
        // where two tests would leave a branch on which it was.
        loop {
            let k = slots[i].key;
            if (k ^ key).min(!k) == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `key`, inserting `value` if it is absent (at most `keys` calls per order,
    /// as given to [`Table::start`]). Without a branch on which.
    #[inline(always)]
    pub(crate) fn insert(&mut self, key: u64, value: u32) -> u32 {
        let i = self.probe(key);
        let s = &mut self.slots[i];
        let new = s.key == EMPTY;
        let v = std::hint::select_unpredictable(new, value, s.value);
        *s = Slot { key, value: v };
        self.filled[self.n_filled] = i as u32;
        self.n_filled += usize::from(new);
        v
    }

    /// The value of `key`, or `absent`.
    #[inline(always)]
    pub(crate) fn get_or(&self, key: u64, absent: u32) -> u32 {
        let s = &self.slots[self.probe(key)];
        std::hint::select_unpredictable(s.key == key, s.value, absent)
    }

    /// Ends the order: empties the slots filled.
    pub(crate) fn clear(&mut self) {
        for &i in &self.filled[..self.n_filled] {
            self.slots[i as usize] = EMPTY_SLOT;
        }
        self.n_filled = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_clear() {
        let mut t = Table::default();
        t.start(200);
        for k in 0..100u32 {
            assert_eq!(t.insert(key(k, 7), k), k);
            assert_eq!(t.insert(key(k, 7), 999), k);
        }
        assert_eq!(t.get_or(key(5, 7), 999), 5);
        assert_eq!(t.get_or(key(5, 8), 999), 999);
        t.clear();
        assert!(t.slots.iter().all(|s| s.key == EMPTY));
        t.start(1);
        assert_eq!(t.get_or(key(5, 7), 999), 999);
        assert_ne!(key(u32::MAX >> 1, u32::MAX), EMPTY);
    }
}

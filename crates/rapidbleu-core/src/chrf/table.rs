//! A small open-addressing map from `(prefix class, symbol)` to an n-gram class, for one order
//! of one segment at a time (see `ngrams.rs` for what a class is).
//!
//! Performance decision: a probe is one load and one branch ("equal or empty"): keys and
//! values sit in one 16-byte slot, the empty key is all ones (a compare with an immediate), the
//! table is at most a quarter full (a few KiB, in L1), and it is emptied slot by slot through a
//! list of the slots filled, so a segment pays for its own n-grams only.
//!
//! Memory decision: the table is sized for the *distinct* n-grams it holds, not for the
//! insertions of an order (one per surviving position): it starts small and doubles when it
//! fills. A sentence's few n-grams never see a growth; a 10 MB line, whose millions of
//! positions hold a few thousand distinct character bigrams, no longer allocates a gigabyte of
//! slots for them (issue 25). Tables beyond 1 MiB are at most half full, as BLEU's n-gram map
//! (`engine::ngram_map`): a long line misses the cache on its first probe anyway.

use super::tally::{count_one, Tally};

/// An empty slot's key: real keys are below 2**63 (classes are below 2**31).
const EMPTY: u64 = u64::MAX;

/// The smallest table.
const MIN_SLOTS: usize = 32;

/// Tables up to this many slots (1 MiB) are at most a quarter full; larger ones at most half.
const QUARTER_FULL_SLOTS: usize = 1 << 16;

/// The keys a table of `size` slots holds before it grows.
fn capacity(size: usize) -> usize {
    if size <= QUARTER_FULL_SLOTS {
        size / 4
    } else {
        size / 2
    }
}

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
    /// The table grows when `n_filled` passes this ([`capacity`] of `used`).
    limit: usize,
}

/// The key of the n-gram made of the n-gram of class `prefix` and the symbol `symbol`.
#[inline(always)]
pub(crate) fn key(prefix: u32, symbol: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(symbol)
}

/// What the matcher needs of a map from `(prefix class, symbol)` to an n-gram class, for one
/// order: the hash [`Table`] (any text) or the direct-indexed
/// [`DenseTable`](super::dense_table::DenseTable) (a sentence).
pub(crate) trait Classes {
    /// Gives each entry `(position, prefix class)` of `live` the class of its n-gram (its
    /// prefix and the symbol `tail[position]`): the first position given for that n-gram.
    /// Counts the classes in `tally` (a class's count starts at its own entry).
    fn classify(&mut self, tally: &mut [Tally], live: &mut [(u32, u32)], tail: &[u32]);

    /// The lookup of this order's classes: `(prefix, symbol)` to its class, or `absent`
    /// (below 2**31) if no entry had it. A closure over copies of the table's fields, so that
    /// a loop keeps them in registers.
    fn finder(&self, absent: u32) -> impl Fn(u32, u32) -> u32 + '_;

    /// Ends the order: forgets every class.
    fn clear(&mut self);
}

impl Classes for Table {
    fn classify(&mut self, tally: &mut [Tally], live: &mut [(u32, u32)], tail: &[u32]) {
        self.start(live.len());
        // Two copies of one loop: a sentence's insertions always fit the table, so its loop
        // has no growth check (see `Table::holds`); a very long line's table grows.
        if self.holds(live.len()) {
            classify_with(tally, live, tail, |p, s, j| self.insert(key(p, s), j));
        } else {
            classify_with(tally, live, tail, |p, s, j| {
                self.insert_growing(key(p, s), j)
            });
        }
    }

    fn finder(&self, absent: u32) -> impl Fn(u32, u32) -> u32 + '_ {
        move |prefix, symbol| self.value_or(key(prefix, symbol), absent)
    }

    fn clear(&mut self) {
        self.empty();
    }
}

/// [`Classes::classify`], for any map: `class_of(prefix, symbol, position)` is the class of
/// the n-gram, the position itself if it is new (so it is new exactly when the two are
/// equal: an older class is an earlier position). Shared by both maps.
#[inline(always)]
pub(crate) fn classify_with(
    tally: &mut [Tally],
    live: &mut [(u32, u32)],
    tail: &[u32],
    mut class_of: impl FnMut(u32, u32, u32) -> u32,
) {
    for e in live.iter_mut() {
        let (j, prefix) = *e;
        let c = class_of(prefix, tail[j as usize], j);
        count_one(&mut tally[c as usize], c == j);
        e.1 = c;
    }
}

impl Table {
    /// Sizes the (empty) table for one order of at most `keys` insertions: for all of them
    /// when they are few (a sentence: then [`Table::holds`] them and [`Table::insert`] needs no
    /// check), else for the first [`QUARTER_FULL_SLOTS`] / 4 distinct keys, and
    /// [`Table::insert_growing`] grows it as more come.
    fn start(&mut self, keys: usize) {
        let first = keys.min(QUARTER_FULL_SLOTS / 4);
        let size = first.saturating_mul(4).max(MIN_SLOTS).next_power_of_two();
        self.use_slots(size);
        self.n_filled = 0;
    }

    /// Whether `keys` insertions fit without growing (every sentence's do).
    fn holds(&self, keys: usize) -> bool {
        keys <= self.limit
    }

    /// Uses the first `size` slots (all empty), allocating them if needed.
    #[inline]
    fn use_slots(&mut self, size: usize) {
        if self.slots.len() < size {
            self.slots.resize(size, EMPTY_SLOT);
        }
        self.used = size;
        self.limit = capacity(size);
        // Two more: `insert` writes the next entry whether or not the key is new, and
        // `insert_growing` grows once the count has passed the limit.
        super::room(&mut self.filled, self.limit + 2);
    }

    /// Twice the slots, with the same keys and values (the cold path of [`Table::insert`]).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let entries: Vec<Slot> = self.filled[..self.n_filled]
            .iter()
            .map(|&i| self.slots[i as usize])
            .collect();
        self.empty();
        self.use_slots(self.used * 2);
        for s in entries {
            let i = self.probe(s.key);
            self.slots[i] = s;
            self.filled[self.n_filled] = i as u32;
            self.n_filled += 1;
        }
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

    /// The value of `key`, inserting `value` if it is absent (the table [`Table::holds`] the
    /// order's insertions). Without a branch on which.
    #[inline(always)]
    fn insert(&mut self, key: u64, value: u32) -> u32 {
        let i = self.probe(key);
        let s = &mut self.slots[i];
        let new = s.key == EMPTY;
        let v = std::hint::select_unpredictable(new, value, s.value);
        *s = Slot { key, value: v };
        self.filled[self.n_filled] = i as u32;
        self.n_filled += usize::from(new);
        v
    }

    /// [`Table::insert`] for an order with more insertions than the table holds: the table
    /// doubles when its distinct keys pass the limit (a branch taken once per doubling).
    #[inline(always)]
    fn insert_growing(&mut self, key: u64, value: u32) -> u32 {
        let v = self.insert(key, value);
        if self.n_filled > self.limit {
            self.grow();
        }
        v
    }

    /// The value of `key`, or `absent`.
    #[inline(always)]
    fn value_or(&self, key: u64, absent: u32) -> u32 {
        let s = &self.slots[self.probe(key)];
        std::hint::select_unpredictable(s.key == key, s.value, absent)
    }

    /// Ends the order: empties the slots filled.
    fn empty(&mut self) {
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
        assert_eq!(t.value_or(key(5, 7), 999), 5);
        assert_eq!(t.value_or(key(5, 8), 999), 999);
        t.empty();
        assert!(t.slots.iter().all(|s| s.key == EMPTY));
        t.start(1);
        assert_eq!(t.value_or(key(5, 7), 999), 999);
        assert_ne!(key(u32::MAX >> 1, u32::MAX), EMPTY);
    }

    #[test]
    fn grows_with_distinct_keys_not_insertions() {
        let mut t = Table::default();
        // A million insertions of 100 distinct keys: the table stays small.
        t.start(1_000_000);
        assert!(!t.holds(1_000_000) && t.holds(100));
        for k in 0..1_000_000u32 {
            assert_eq!(t.insert_growing(key(k % 100, 3), k % 100), k % 100);
        }
        assert_eq!(t.used, QUARTER_FULL_SLOTS);
        t.empty();
        // 300,000 distinct keys: it grows, keeps every value, and ends at most half full.
        t.start(300_000);
        for k in 0..300_000u32 {
            assert_eq!(t.insert_growing(key(k, k ^ 5), k), k);
        }
        for k in 0..300_000u32 {
            assert_eq!(t.value_or(key(k, k ^ 5), u32::MAX), k);
            assert_eq!(t.insert_growing(key(k, k ^ 5), 7), k);
        }
        assert!(t.n_filled == 300_000 && t.used <= 1 << 20 && 2 * t.n_filled <= t.used);
        t.empty();
        assert!(t.slots.iter().all(|s| s.key == EMPTY));
    }
}

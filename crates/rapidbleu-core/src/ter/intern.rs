//! Words to small integer ids, per segment, so that the edit distance compares integers.
//!
//! Performance decision: an open-addressing table of `u64` slots (`stamp << 32 | id + 1`)
//! whose keys are byte ranges of an arena owned by the table. A `HashMap<&[u8], u32>` cannot
//! outlive the tokenizer buffers it borrows from, so it would be rebuilt (allocated) for every
//! segment; this table is emptied in O(1) by bumping its stamp and allocates nothing in the
//! steady state.

use rustc_hash::FxHasher;
use std::hash::Hasher;

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct Interner {
    slots: Vec<u64>,
    stamp: u32,
    /// Byte range in `arena` of each id's word.
    words: Vec<(u32, u32)>,
    arena: Vec<u8>,
}

impl Default for Interner {
    fn default() -> Self {
        Interner {
            slots: vec![0; 64],
            stamp: 1,
            words: Vec::new(),
            arena: Vec::new(),
        }
    }
}

fn hash(w: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(w);
    h.finish()
}

impl Interner {
    /// Forgets every word in O(1).
    pub(crate) fn clear(&mut self) {
        self.words.clear();
        self.arena.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 generations old stamps could look current again: wipe them once.
            self.slots.fill(0);
            self.stamp = 1;
        }
    }

    /// Number of distinct words so far (the next id).
    pub(crate) fn len(&self) -> usize {
        self.words.len()
    }

    /// The id of `w`, a new one (the next integer) if `w` was not seen since [`Self::clear`].
    pub(crate) fn intern(&mut self, w: &[u8]) -> u32 {
        if (self.words.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = hash(w) as usize & mask;
        loop {
            let slot = self.slots[i];
            if (slot >> 32) as u32 != self.stamp {
                let id = self.words.len() as u32;
                let start = self.arena.len() as u32;
                self.arena.extend_from_slice(w);
                self.words.push((start, self.arena.len() as u32));
                self.slots[i] = (u64::from(self.stamp) << 32) | u64::from(id + 1);
                return id;
            }
            let id = (slot as u32).wrapping_sub(1);
            let (a, b) = self.words[id as usize];
            if &self.arena[a as usize..b as usize] == w {
                return id;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let cap = self.slots.len() * 2;
        self.slots.clear();
        self.slots.resize(cap, 0);
        let stamp = u64::from(self.stamp) << 32;
        for (id, &(a, b)) in self.words.iter().enumerate() {
            let mut i = hash(&self.arena[a as usize..b as usize]) as usize & (cap - 1);
            while (self.slots[i] >> 32) as u32 == self.stamp {
                i = (i + 1) & (cap - 1);
            }
            self.slots[i] = stamp | (id as u64 + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_and_stable_across_growth_and_clear() {
        let mut t = Interner::default();
        for round in 0..3 {
            t.clear();
            let words: Vec<String> = (0..500).map(|i| format!("w{}", i % 300)).collect();
            let ids: Vec<u32> = words.iter().map(|w| t.intern(w.as_bytes())).collect();
            for (i, &id) in ids.iter().enumerate() {
                assert_eq!(id as usize, i % 300, "round {round}");
            }
            assert_eq!(t.len(), 300);
            assert_eq!(t.intern(b""), 300);
        }
    }
}

//! Hash maps built for one segment at a time: [`NgramMap`] from n-gram keys (`u64`) to n-gram
//! ids, and [`TokenMap`] from token bytes to token ids.
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
        NgramMap {
            slots: vec![Slot::default(); 16],
            shift: 60,
            stamp: 1,
            len: 0,
        }
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
                *s = Slot {
                    key,
                    id: next,
                    stamp: self.stamp,
                };
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

/// One token slot: hash, the token's bytes in the arena, its id, and the writer's stamp.
#[derive(Clone, Copy, Debug, Default)]
struct TokSlot {
    hash: u64,
    start: u32,
    len: u32,
    id: u32,
    stamp: u32,
}

/// Token bytes -> dense token ids (0, 1, ...), with the same design as [`NgramMap`]: linear
/// probing, at most half full, O(1) clear by stamps. The full 64-bit hash is compared before
/// the bytes, so bytes are compared (almost) only for the token being looked for.
#[derive(Clone, Debug)]
pub(crate) struct TokenMap {
    slots: Vec<TokSlot>,
    shift: u32,
    stamp: u32,
    len: usize,
    /// The distinct tokens' bytes.
    arena: Vec<u8>,
}

impl Default for TokenMap {
    fn default() -> Self {
        TokenMap {
            slots: vec![TokSlot::default(); MIN_SLOTS],
            shift: 64 - MIN_SLOTS.trailing_zeros(),
            stamp: 1,
            len: 0,
            arena: Vec::new(),
        }
    }
}

impl TokenMap {
    /// Number of distinct tokens (the next id).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Empties the map in O(1).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.arena.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(TokSlot::default());
            self.stamp = 1;
        }
    }

    #[inline]
    fn bytes(&self, s: &TokSlot) -> &[u8] {
        &self.arena[s.start as usize..(s.start + s.len) as usize]
    }

    /// The id of `tok`, if present.
    #[inline]
    pub(crate) fn get(&self, tok: &[u8]) -> Option<u32> {
        let h = hash_bytes(tok);
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp {
                return None;
            }
            if s.hash == h && s.len as usize == tok.len() && same_bytes(self.bytes(s), tok) {
                return Some(s.id);
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `tok`, giving it the next id if absent.
    #[inline]
    pub(crate) fn get_or_insert(&mut self, tok: &[u8]) -> u32 {
        if 2 * (self.len + 1) > self.slots.len() {
            self.resize(2 * self.slots.len());
        }
        let h = hash_bytes(tok);
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let s = self.slots[i];
            if s.stamp != self.stamp {
                let id = self.len as u32;
                let start = self.arena.len() as u32;
                self.arena.extend_from_slice(tok);
                self.slots[i] = TokSlot {
                    hash: h,
                    start,
                    len: tok.len() as u32,
                    id,
                    stamp: self.stamp,
                };
                self.len += 1;
                return id;
            }
            if s.hash == h && s.len as usize == tok.len() && same_bytes(self.bytes(&s), tok) {
                return s.id;
            }
            i = (i + 1) & mask;
        }
    }

    fn resize(&mut self, n: usize) {
        let n = n.max(MIN_SLOTS).next_power_of_two();
        let old = std::mem::replace(&mut self.slots, vec![TokSlot::default(); n]);
        let stamp = self.stamp;
        self.shift = 64 - n.trailing_zeros();
        self.stamp = 1;
        let mask = n - 1;
        for s in old.into_iter().filter(|s| s.stamp == stamp) {
            let mut i = (s.hash >> self.shift) as usize;
            while self.slots[i].stamp == self.stamp {
                i = (i + 1) & mask;
            }
            self.slots[i] = TokSlot {
                stamp: self.stamp,
                ..s
            };
        }
    }

    /// Shrinks the table and arena to what they hold (for cached tables).
    pub(crate) fn shrink_to_fit(&mut self) {
        let want = (2 * self.len).max(MIN_SLOTS).next_power_of_two();
        if want < self.slots.len() {
            self.resize(want);
        }
        self.arena.shrink_to_fit();
    }
}

/// `a == b` for slices of equal length, without a libc call for short tokens (the common case:
/// equal hashes almost always mean equal tokens, so this runs once per lookup).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = b.len();
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => read_u32(a, 0) == read_u32(b, 0) && read_u32(a, n - 4) == read_u32(b, n - 4),
        9..=16 => read_u64(a, 0) == read_u64(b, 0) && read_u64(a, n - 8) == read_u64(b, n - 8),
        _ => a == b,
    }
}

/// Hash of a token. Performance decision: tokens are short, so up to 16 bytes are read as two
/// (overlapping) little-endian words and mixed with multiplications; longer tokens use FxHash.
/// [`TokenMap`] compares bytes after hashes, so this only has to spread keys well.
#[inline]
fn hash_bytes(b: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let n = b.len();
    let (lo, hi) = match n {
        0 => (0, 0),
        1..=3 => {
            let v = u64::from(b[0]) | (u64::from(b[n / 2]) << 8) | (u64::from(b[n - 1]) << 16);
            (v, 0)
        }
        4..=8 => (
            u64::from(read_u32(b, 0)) | (u64::from(read_u32(b, n - 4)) << 32),
            0,
        ),
        9..=16 => (read_u64(b, 0), read_u64(b, n - 8)),
        _ => {
            use std::hash::BuildHasher;
            return rustc_hash::FxBuildHasher.hash_one(b).wrapping_mul(K);
        }
    };
    let h = (lo ^ (n as u64).rotate_left(56)).wrapping_mul(K) ^ hi;
    h.wrapping_mul(K) ^ (h >> 29)
}

#[inline]
fn read_u32(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

#[inline]
fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
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
    fn token_map() {
        let mut m = TokenMap::default();
        let toks: Vec<String> = (0..500)
            .map(|i| format!("tok{i}{}", "x".repeat(i % 20)))
            .collect();
        for (i, t) in toks.iter().enumerate() {
            assert_eq!(m.get_or_insert(t.as_bytes()), i as u32);
        }
        for (i, t) in toks.iter().enumerate() {
            assert_eq!(m.get(t.as_bytes()), Some(i as u32));
            assert_eq!(m.get_or_insert(t.as_bytes()), i as u32);
        }
        assert_eq!(m.get(b"missing"), None);
        assert_eq!(m.get(b""), None);
        assert_eq!(m.get_or_insert(b""), 500);
        m.clear();
        assert_eq!(m.len(), 0);
        assert_eq!(m.get(b"tok1x"), None);
        assert_eq!(m.get_or_insert(b"a"), 0);
        m.shrink_to_fit();
        assert_eq!(m.get(b"a"), Some(0));
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

//! [`Interner`]: distinct strings numbered in order of first sight, for METEOR's aligner.
//!
//! Performance decision: every token of every segment is looked up here once, so this is
//! the aligner's hottest path. A general map (`FxHashMap<Box<str>, u32>`) keeps each key in
//! its own allocation, so a look-up reads the control bytes, the bucket and then the key
//! somewhere else in memory (a cache miss on large vocabularies). Here an open-addressed table
//! of 24-byte slots holds the full hash, the id and the key's place in one shared text buffer:
//! a look-up reads one slot and (on a full-hash match) the key's bytes, which lie next to
//! those of words first seen nearby.

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// A table slot (`id == EMPTY`: free).
#[derive(Clone, Copy, Debug)]
struct Slot {
    hash: u64,
    start: usize,
    len: u32,
    id: u32,
}

const EMPTY: u32 = u32::MAX;
const LONG: u32 = u32::MAX;
const FREE: Slot = Slot {
    hash: 0,
    start: 0,
    len: 0,
    id: EMPTY,
};

/// Interned strings with their texts (see the module documentation).
#[derive(Debug, Default)]
pub struct Interner {
    /// Open addressing, linear probing, at most half full; a power of two long (or empty).
    slots: Vec<Slot>,
    text: String,
    /// String `id` is `text[starts[id]..starts[id + 1]]`, the last ending at `text.len()`.
    starts: Vec<usize>,
}

fn hash(s: &str) -> u64 {
    FxBuildHasher.hash_one(s)
}

impl Interner {
    /// The hash of `s` for [`Interner::id_hashed`], the memory of its slot asked for.
    ///
    /// Performance decision: a segment's words are hashed and their slots prefetched in one
    /// pass before they are looked up in a second, so the cache misses of a segment's rare
    /// words overlap instead of following one another.
    #[inline]
    pub fn prefetch(&self, s: &str) -> u64 {
        let h = hash(s);
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self
            .slots
            .get(h as usize & self.slots.len().wrapping_sub(1))
        {
            let p = (slot as *const Slot).cast::<i8>();
            // SAFETY: a prefetch is a hint that reads nothing and cannot fault; SSE is part
            // of x86_64's baseline.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        h
    }

    /// The id of `s`, numbering it if it is new.
    #[inline]
    pub fn id(&mut self, s: &str) -> u32 {
        self.id_hashed(s, hash(s))
    }

    /// [`Interner::id`] of `s`, whose hash `h` is [`Interner::prefetch`]'s.
    #[inline]
    pub fn id_hashed(&mut self, s: &str, h: u64) -> u32 {
        if self.slots.is_empty() {
            self.slots = vec![FREE; 1024];
        }
        let mask = self.slots.len() - 1;
        let mut k = h as usize & mask;
        loop {
            let slot = self.slots[k];
            if slot.id == EMPTY {
                break;
            }
            if slot.hash == h {
                let same = if slot.len == LONG {
                    self.get(slot.id) == s
                } else {
                    slot.len as usize == s.len()
                        && self.text.as_bytes()[slot.start..slot.start + s.len()] == *s.as_bytes()
                };
                if same {
                    return slot.id;
                }
            }
            k = (k + 1) & mask;
        }
        let id = self.starts.len() as u32;
        let start = self.text.len();
        self.starts.push(start);
        self.text.push_str(s);
        self.slots[k] = Slot {
            hash: h,
            start,
            // `LONG`: the length is read from `starts` (a string of 4 GiB or more).
            len: u32::try_from(s.len()).unwrap_or(LONG),
            id,
        };
        if 2 * self.starts.len() > self.slots.len() {
            self.grow();
        }
        id
    }

    /// Doubles the table, re-placing every slot by its stored hash.
    fn grow(&mut self) {
        let doubled = vec![FREE; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.id != EMPTY) {
            let mut k = slot.hash as usize & mask;
            while self.slots[k].id != EMPTY {
                k = (k + 1) & mask;
            }
            self.slots[k] = slot;
        }
    }

    /// The text of `id`.
    pub fn get(&self, id: u32) -> &str {
        let k = id as usize;
        let end = self.starts.get(k + 1).copied().unwrap_or(self.text.len());
        &self.text[self.starts[k]..end]
    }

    /// Number of distinct strings.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Bytes of text kept.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Forgets every string.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.text.clear();
        self.starts.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_order() {
        let mut s = Interner::default();
        let words: Vec<String> = (0..5000).map(|i| format!("w{}", i % 1700)).collect();
        for (i, w) in words.iter().enumerate() {
            let id = s.id(w);
            assert_eq!(id as usize, i % 1700);
            assert_eq!(s.get(id), w);
        }
        assert_eq!(s.len(), 1700);
        assert_eq!(s.id(""), 1700);
        assert_eq!(s.get(1700), "");
        assert_eq!(s.id(""), 1700);
        s.clear();
        assert_eq!(s.len(), 0);
        assert_eq!(s.id("x"), 0);
    }
}

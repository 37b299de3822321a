//! [`TokenMap`]: token bytes -> dense token codes (0, 1, ...), for one segment at a time (the
//! BLEU counter) or a whole group of sentences (pairwise BLEU).

use super::ngram_map::MIN_SLOTS;

/// One token slot: the token's first 16 bytes as masked words, its bytes in the arena, its
/// code, and the writer's stamp.
#[derive(Clone, Copy, Debug, Default)]
struct TokSlot {
    lo: u64,
    hi: u64,
    start: u32,
    len: u32,
    code: u32,
    stamp: u32,
}

/// Token bytes -> dense token codes (0, 1, ...), with the same design as
/// [`super::ngram_map::NgramMap`]: linear probing, at most half full, O(1) clear by stamps.
///
/// Performance decision: tokens are short, and branching on their length mispredicts about
/// once a token. A token of at most [`SHORT`] bytes is read as two little-endian words masked
/// to its length, with no branch on the length, from a buffer that has [`SLACK`] readable
/// bytes after it (the arena keeps that slack at its end; see [`padded`]); such a token is
/// equal to another of the same length exactly when their masked words are equal, so the
/// words, kept in the slot, serve as both hash input and comparison (no arena access). Longer
/// tokens hash with FxHash and also compare bytes.
#[derive(Clone, Debug)]
pub(crate) struct TokenMap {
    slots: Vec<TokSlot>,
    shift: u32,
    stamp: u32,
    len: usize,
    /// The distinct tokens' bytes, followed by [`SLACK`] bytes.
    arena: Vec<u8>,
}

/// Tokens up to this many bytes take the branch-free path.
const SHORT: usize = 16;

/// Readable bytes a buffer needs after a token's end for the branch-free path.
pub(crate) const SLACK: usize = SHORT;

/// `buf` with [`SLACK`] bytes appended, for tokens that end at its end: how callers give
/// [`TokenMap`] buffers on the branch-free path.
pub(crate) fn padded(buf: &mut Vec<u8>) {
    buf.extend_from_slice(&[0; SLACK]);
}

impl Default for TokenMap {
    fn default() -> Self {
        TokenMap {
            slots: vec![TokSlot::default(); MIN_SLOTS],
            shift: 64 - MIN_SLOTS.trailing_zeros(),
            stamp: 1,
            len: 0,
            arena: vec![0; SLACK],
        }
    }
}

/// A token's bytes `buf[start..start + len]` and its first [`SHORT`] bytes as two masked
/// little-endian words.
#[derive(Clone, Copy)]
struct Tok<'b> {
    buf: &'b [u8],
    start: usize,
    len: usize,
    lo: u64,
    hi: u64,
}

/// `MASKS[k]` keeps the low `k` bytes of a word.
const MASKS: [u64; 9] = {
    let mut m = [0u64; 9];
    let mut k = 1;
    while k < 9 {
        m[k] = u64::MAX >> (64 - 8 * k);
        k += 1;
    }
    m
};

impl<'b> Tok<'b> {
    #[inline(always)]
    fn new(buf: &'b [u8], start: usize, len: usize) -> Self {
        let (lo, hi) = match buf.get(start..start + SLACK) {
            // The branch-free path: one length-independent read of 16 bytes, masked.
            Some(w) => (read_u64(w, 0), read_u64(w, 8)),
            None => {
                let mut w = [0u8; SLACK];
                let n = len.min(SHORT);
                w[..n].copy_from_slice(&buf[start..start + n]);
                (read_u64(&w, 0), read_u64(&w, 8))
            }
        };
        Tok {
            buf,
            start,
            len,
            lo: lo & MASKS[len.min(8)],
            hi: hi & MASKS[len.saturating_sub(8).min(8)],
        }
    }

    fn bytes(&self) -> &'b [u8] {
        &self.buf[self.start..self.start + self.len]
    }

    /// Hash of the token: the words mixed with multiplications, or FxHash for long tokens.
    #[inline(always)]
    fn hash(&self) -> u64 {
        hash_words(self.lo, self.hi, self.len, || self.bytes())
    }

    /// Whether `s` holds this token (`arena` holds the bytes of long tokens).
    #[inline(always)]
    fn is_in(&self, s: &TokSlot, arena: &[u8]) -> bool {
        ((s.lo ^ self.lo) | (s.hi ^ self.hi)) == 0
            && s.len as usize == self.len
            && (self.len <= SHORT || &arena[s.start as usize..][..self.len] == self.bytes())
    }
}

/// The hash of a token from its masked words and length; `bytes` gives all of a long one.
#[inline(always)]
fn hash_words<'a>(lo: u64, hi: u64, len: usize, bytes: impl FnOnce() -> &'a [u8]) -> u64 {
    if len > SHORT {
        return hash_long(bytes());
    }
    hash_short(lo, hi)
}

/// The hash of a token of at most [`SHORT`] bytes from its masked words.
///
/// Performance decision: one multiplication; the table is indexed by the product's high
/// bits, which depend on every bit of the words. The length is left out: tokens of different
/// lengths differ in their words (or only in trailing zero bytes, which no text has), and
/// equality still compares it.
#[inline(always)]
fn hash_short(lo: u64, hi: u64) -> u64 {
    (lo ^ hi.rotate_left(29)).wrapping_mul(K)
}

/// `SHORT_MASKS[k]` keeps the first `k` bytes of a token read as two little-endian words.
const SHORT_MASKS: [(u64, u64); SHORT + 1] = {
    let mut m = [(0u64, 0u64); SHORT + 1];
    let mut k = 1;
    while k <= SHORT {
        m[k] = if k <= 8 {
            (MASKS[k], 0)
        } else {
            (u64::MAX, MASKS[k - 8])
        };
        k += 1;
    }
    m
};

/// The masked words of the token `buf[start..start + len]` if it is short (at most [`SHORT`]
/// bytes) and `buf` has [`SLACK`] bytes from its start: the hot path of both lookups.
///
/// Performance decision: one table load gives both masks, and the long or unpadded tokens
/// (rare) go to out-of-line functions, so the loops that look tokens up keep their state in
/// registers (with the general `Tok` inlined they spilled it to the stack every token).
#[inline(always)]
fn short_words(buf: &[u8], start: usize, len: usize) -> Option<(u64, u64)> {
    let (mask_lo, mask_hi) = *SHORT_MASKS.get(len)?;
    let w = buf.get(start..start.checked_add(SLACK)?)?;
    Some((read_u64(w, 0) & mask_lo, read_u64(w, 8) & mask_hi))
}

const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// The hash of a token longer than [`SHORT`] bytes (rare: kept out of the inlined path).
#[cold]
#[inline(never)]
fn hash_long(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(bytes).wrapping_mul(K)
}

impl TokenMap {
    /// Number of distinct tokens (the next code).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Empties the map in O(1).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.arena.clear();
        padded(&mut self.arena);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(TokSlot::default());
            self.stamp = 1;
        }
    }

    /// The code of the token `buf[start..start + len]`, if present. `buf` should have
    /// [`SLACK`] bytes after the token (e.g. through [`padded`]); it is only slower without.
    #[inline(always)]
    pub(crate) fn get_at(&self, buf: &[u8], start: usize, len: usize) -> Option<u32> {
        match short_words(buf, start, len) {
            Some((lo, hi)) => {
                let mask = self.slots.len() - 1;
                let mut i = (hash_short(lo, hi) >> self.shift) as usize;
                loop {
                    let s = &self.slots[i];
                    if s.stamp != self.stamp {
                        return None;
                    }
                    if s.lo == lo && s.hi == hi && s.len as usize == len {
                        return Some(s.code);
                    }
                    i = (i + 1) & mask;
                }
            }
            None => self.get_any(buf, start, len),
        }
    }

    /// [`TokenMap::get_at`] for any token: long, or without slack after it.
    #[inline(never)]
    fn get_any(&self, buf: &[u8], start: usize, len: usize) -> Option<u32> {
        let tok = Tok::new(buf, start, len);
        let h = tok.hash();
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp {
                return None;
            }
            if tok.is_in(s, &self.arena) {
                return Some(s.code);
            }
            i = (i + 1) & mask;
        }
    }

    /// The code of `tok`, if present.
    pub(crate) fn get(&self, tok: &[u8]) -> Option<u32> {
        self.get_at(tok, 0, tok.len())
    }

    /// The code of `tok`, giving it the next code if absent.
    pub(crate) fn get_or_insert(&mut self, tok: &[u8]) -> u32 {
        let start = self.append_arena(tok, 1);
        let (code, inserted) = self.get_or_insert_arena(start, tok.len());
        if !inserted {
            self.arena.truncate(start);
            padded(&mut self.arena);
        }
        code
    }

    /// Appends `bytes` to the arena (a whole tokenized text at once) and returns the offset
    /// its tokens will be found at by [`TokenMap::get_or_insert_arena`]; makes room for
    /// `tokens` more tokens (at most that many `get_or_insert_arena` calls may follow).
    ///
    /// Performance decision: one copy per text instead of one per new token. Small copies of
    /// varying length are a `memcpy` call each, with branches that mispredict. Room is made
    /// once per text too, not checked per token.
    pub(crate) fn append_arena(&mut self, bytes: &[u8], tokens: usize) -> usize {
        let want = 2 * (self.len + tokens);
        if want > self.slots.len() {
            self.resize(want);
        }
        let start = self.arena.len() - SLACK;
        self.arena.truncate(start);
        self.arena.extend_from_slice(bytes);
        padded(&mut self.arena);
        start
    }

    /// The code of the token at `arena[start..start + len]`, giving it the next code if absent
    /// (the arena bytes then stay its bytes); whether it was inserted. The room was made by
    /// [`TokenMap::append_arena`].
    #[inline(always)]
    pub(crate) fn get_or_insert_arena(&mut self, start: usize, len: usize) -> (u32, bool) {
        debug_assert!(2 * (self.len + 1) <= self.slots.len());
        // The arena always has its slack: only long tokens miss the short path.
        let Some((lo, hi)) = short_words(&self.arena, start, len) else {
            return self.get_or_insert_any(start, len);
        };
        let mask = self.slots.len() - 1;
        let mut i = (hash_short(lo, hi) >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp {
                return (self.insert_at(i, (lo, hi), start, len), true);
            }
            if s.lo == lo && s.hi == hi && s.len as usize == len {
                return (s.code, false);
            }
            i = (i + 1) & mask;
        }
    }

    /// [`TokenMap::get_or_insert_arena`] for any token (the long ones).
    #[inline(never)]
    fn get_or_insert_any(&mut self, start: usize, len: usize) -> (u32, bool) {
        let tok = Tok::new(&self.arena, start, len);
        let h = tok.hash();
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp {
                return (self.insert_at(i, (tok.lo, tok.hi), start, len), true);
            }
            if tok.is_in(s, &self.arena) {
                return (s.code, false);
            }
            i = (i + 1) & mask;
        }
    }

    /// Gives the token (its masked words and arena bytes) the next code in the empty slot `i`.
    #[inline(always)]
    fn insert_at(&mut self, i: usize, (lo, hi): (u64, u64), start: usize, len: usize) -> u32 {
        let code = self.len as u32;
        self.slots[i] = TokSlot {
            lo,
            hi,
            start: start as u32,
            len: len as u32,
            code,
            stamp: self.stamp,
        };
        self.len += 1;
        code
    }

    fn resize(&mut self, n: usize) {
        let n = n.max(MIN_SLOTS).next_power_of_two();
        let old = std::mem::replace(&mut self.slots, vec![TokSlot::default(); n]);
        let stamp = self.stamp;
        self.shift = 64 - n.trailing_zeros();
        self.stamp = 1;
        let mask = n - 1;
        for s in old.into_iter().filter(|s| s.stamp == stamp) {
            let (start, len) = (s.start as usize, s.len as usize);
            let h = hash_words(s.lo, s.hi, len, || &self.arena[start..start + len]);
            let mut i = (h >> self.shift) as usize;
            while self.slots[i].stamp == self.stamp {
                i = (i + 1) & mask;
            }
            self.slots[i] = TokSlot {
                stamp: self.stamp,
                ..s
            };
        }
    }
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
        assert_eq!(m.get(b"a"), Some(0));
    }

    #[test]
    fn tokens_equal_exactly_when_bytes_equal() {
        // Prefixes, shared first 16 bytes, zero bytes and lengths around the word sizes.
        let mut toks: Vec<Vec<u8>> = vec![vec![], vec![0], vec![0, 0], b"a\0".to_vec()];
        for len in 1..40 {
            toks.push(vec![b'x'; len]);
            let mut t = vec![b'x'; len];
            t[len - 1] = b'y';
            toks.push(t);
        }
        let mut m = TokenMap::default();
        for (i, t) in toks.iter().enumerate() {
            assert_eq!(m.get_or_insert(t), i as u32, "{t:?}");
        }
        // The same tokens found from inside a padded buffer (the branch-free path).
        let mut buf = b"junk".to_vec();
        for (i, t) in toks.iter().enumerate() {
            let start = buf.len();
            buf.extend_from_slice(t);
            buf.extend_from_slice(b"zzzzzzzzzzzzzzzzzz");
            assert_eq!(m.get_at(&buf, start, t.len()), Some(i as u32), "{t:?}");
        }
        let start = m.append_arena(b"qqqqxxx", 2);
        assert_eq!(m.get_or_insert_arena(start, 4), (toks.len() as u32, true));
        assert_eq!(m.get_or_insert_arena(start + 4, 3), (4 + 2 * 2, false));
    }
}

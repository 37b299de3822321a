//! The tokens of text whose only whitespace is ASCII (`\t\n\v\f\r`, `\x1c`..`\x1f`, space),
//! as byte ranges: the fast path of [`super::whitespace::py_split_ranges`].
//!
//! Performance decision: on x86_64 the text is read 16 bytes at a time (SSE2, which every
//! x86_64 processor has): one mask of its whitespace bytes gives every token start and end in
//! the block, and the first four of each are written without a branch (a block of English
//! holds two or three). The byte loop it replaces mispredicted a branch at the end of almost
//! every token: 4.4 ms for the 30,000 captions of `bench_caption.py`, now 1.9 ms, a tenth of
//! COCO BLEU's counting. Other architectures keep the loop ([`scalar`]).

/// Appends the byte ranges `(start, end)` of the tokens of `bytes` (split at ASCII whitespace
/// only) to `out`; whether `bytes` may hold a non-ASCII whitespace character (a byte `C2`, `E1`
/// or `E2`, or U+3000 itself), whose tokens must then be split again.
pub(crate) fn ranges(bytes: &[u8], out: &mut Vec<(u32, u32)>) -> bool {
    #[cfg(target_arch = "x86_64")]
    return sse2::ranges(bytes, out);
    #[cfg(not(target_arch = "x86_64"))]
    {
        scalar::ranges(bytes, out);
        scalar::may_hold_multibyte_space(bytes)
    }
}

/// Whether `b` is ASCII whitespace for Python's `str.split()`.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, 0x09..=0x0d | 0x1c..=0x20)
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_sub_epi8,
    };

    /// Per byte of `block` (bit `i` for byte `i`): whether it is whitespace; whether it is `C2`,
    /// `E1` or `E2`; whether it is `E3`; whether it is `80`.
    #[inline(always)]
    fn masks(block: &[u8; 16]) -> (u32, u32, u32, u32) {
        // SAFETY: SSE2 is part of x86_64; the load reads the 16 bytes of `block` (unaligned).
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let bits = |m: __m128i| _mm_movemask_epi8(m) as u32;
            // `b - lo <= width` (unsigned) is `min(b - lo, width) == b - lo`.
            let within = |lo: i8, width: i8| {
                let d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
                _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(width)), d)
            };
            let space = _mm_or_si128(eq(0x20), _mm_or_si128(within(0x09, 4), within(0x1c, 3)));
            let lead = _mm_or_si128(eq(0xc2), _mm_or_si128(eq(0xe1), eq(0xe2)));
            (bits(space), bits(lead), bits(eq(0xe3)), bits(eq(0x80)))
        }
    }

    /// See [`super::ranges`].
    pub(super) fn ranges(bytes: &[u8], out: &mut Vec<(u32, u32)>) -> bool {
        let n = bytes.len();
        // At most one token per two bytes, and up to four slots written ahead of the last.
        out.reserve(n.div_ceil(2) + 8);
        let first = out.len();
        let dst = out.spare_capacity_mut().as_mut_ptr().cast::<(u32, u32)>();
        // Tokens started and ended so far; `ends <= starts <= ends + 1`.
        let (mut starts, mut ends) = (0usize, 0usize);
        // Whether the byte before the block is whitespace (the text starts after "space").
        let mut space_before = 1u32;
        let mut last = [b' '; 16];
        let mut at = 0usize;
        // Bytes `C2`, `E1` or `E2`, or `E3 80 80` (U+3000), seen; the last two bytes' `E3` and
        // `80` bits (bits 0 and 1), for a U+3000 across blocks.
        let mut multibyte = 0u32;
        let (mut e3_before, mut x80_before) = (0u32, 0u32);
        while at < n {
            let block: &[u8; 16] = match bytes[at..].first_chunk() {
                Some(b) => b,
                None => {
                    // The last, short block, padded with spaces (which end no token).
                    last[..n - at].copy_from_slice(&bytes[at..]);
                    &last
                }
            };
            let (space, lead, e3, x80) = masks(block);
            // Bit `j` of the 18 bytes from two before the block: `E3` there, `80 80` after.
            let (e3, x80) = (e3_before | e3 << 2, x80_before | x80 << 2);
            multibyte |= lead | (e3 & x80 >> 1 & x80 >> 2);
            (e3_before, x80_before) = (e3 >> 16, x80 >> 16);
            let shifted = (space << 1) | space_before;
            let mut begin = !space & shifted & 0xffff;
            let mut end = space & !shifted & 0xffff;
            let (n_begin, n_end) = (begin.count_ones() as usize, end.count_ones() as usize);
            let base = at as u32;
            // SAFETY: every slot written is below `starts + 8 <= n / 2 + 8` past `first` (a
            // block's starts are counted in `starts` before the next block), inside the
            // capacity reserved; `.0` and `.1` are written separately through raw pointers and
            // nothing is read before `set_len`, by which every slot below it has both.
            unsafe {
                for k in 0..4 {
                    (*dst.add(starts + k)).0 = base.wrapping_add(begin.trailing_zeros());
                    begin &= begin.wrapping_sub(1);
                    (*dst.add(ends + k)).1 = base.wrapping_add(end.trailing_zeros());
                    end &= end.wrapping_sub(1);
                }
                let mut k = 4;
                while begin != 0 {
                    (*dst.add(starts + k)).0 = base + begin.trailing_zeros();
                    begin &= begin - 1;
                    k += 1;
                }
                let mut k = 4;
                while end != 0 {
                    (*dst.add(ends + k)).1 = base + end.trailing_zeros();
                    end &= end - 1;
                    k += 1;
                }
            }
            starts += n_begin;
            ends += n_end;
            space_before = space >> 15;
            at += 16;
        }
        // SAFETY: as above; a token still open at the end ends with the text.
        unsafe {
            if starts > ends {
                (*dst.add(ends)).1 = n as u32;
            }
            out.set_len(first + starts);
        }
        multibyte != 0
    }
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod scalar {
    use super::is_space;
    use memchr::memmem;
    use std::sync::LazyLock;

    /// Whether `bytes` (UTF-8) may hold a non-ASCII whitespace character: a byte `C2`, `E1` or
    /// `E2` (rare outside Latin-1 and punctuation), or U+3000 itself (`E3` alone would not do:
    /// it begins every kana and most Japanese punctuation).
    pub(super) fn may_hold_multibyte_space(bytes: &[u8]) -> bool {
        // Built once: `memmem::find` would build its searcher on every call.
        static IDEOGRAPHIC_SPACE: LazyLock<memmem::Finder<'static>> =
            LazyLock::new(|| memmem::Finder::new("\u{3000}".as_bytes()));
        !bytes.is_ascii()
            && (memchr::memchr3(0xc2, 0xe1, 0xe2, bytes).is_some()
                || IDEOGRAPHIC_SPACE.find(bytes).is_some())
    }

    /// The index of the first whitespace byte of `bytes[i..]`, or `bytes.len()`.
    ///
    /// Performance decision: eight bytes at a time. Tokens of CJK text are a few three-byte
    /// characters, and their bytes (all at or above 0x80) were a table lookup each: a tenth
    /// of a ja-mecab BLEU's counting.
    #[inline]
    fn next_space(bytes: &[u8], mut i: usize) -> usize {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let n = bytes.len();
        while let Some(word) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            // The high bit of each byte below 0x21 (all ASCII whitespace is) is set; bytes at
            // or above 0x80 never are. Only the lowest set byte is certain (a borrow carries
            // upward), and it is the first candidate: a control character below 0x21 that is
            // not whitespace (0x00..0x08, 0x0e..0x1b) moves the scan on past it.
            let low = word.wrapping_sub(ONES * 0x21) & !word & HIGHS;
            if low == 0 {
                i += 8;
                continue;
            }
            let j = i + (low.trailing_zeros() / 8) as usize;
            if is_space(bytes[j]) {
                return j;
            }
            i = j + 1;
        }
        while i < n && !is_space(bytes[i]) {
            i += 1;
        }
        i
    }

    /// See [`super::ranges`].
    pub(super) fn ranges(bytes: &[u8], out: &mut Vec<(u32, u32)>) {
        let n = bytes.len();
        let mut i = 0;
        while i < n {
            while i < n && is_space(bytes[i]) {
                i += 1;
            }
            let start = i;
            i = next_space(bytes, i);
            if i > start {
                out.push((start as u32, i as u32));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges of Python's `split()` on text whose whitespace is ASCII.
    fn expected(s: &[u8]) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, &b) in s.iter().chain(std::iter::once(&b' ')).enumerate() {
            match (is_space(b), start) {
                (true, Some(a)) => {
                    out.push((a as u32, i as u32));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn every_length_and_gap() {
        // Tokens and gaps of every length around the block size, every whitespace byte, the
        // control bytes that are not whitespace, and non-ASCII bytes: U+3000 (across blocks
        // too), U+3001, and first bytes of other non-ASCII whitespace.
        let pieces: [&[u8]; 12] = [
            b"a",
            b"\xc3\xa4",
            b"\x00",
            b"\x08\x0e\x1b",
            b"\x7f",
            b"xyz",
            b"\xe4\xb8\x80",
            b"0123456789abcdefg",
            b"\xe3\x80\x80",
            b"\xe3\x80\x81",
            b"\xe2\x80\x9e",
            b"\xc2\xa0",
        ];
        let spaces: [&[u8]; 5] = [b" ", b"\t\n\x0b\x0c\r", b"\x1c\x1d\x1e\x1f", b"  ", b""];
        for seed in 0..20_000u32 {
            let mut s = Vec::new();
            let mut x = seed.wrapping_mul(2_654_435_761);
            for _ in 0..(seed % 29) {
                x = x.rotate_left(7) ^ 0x9e37_79b9;
                // Mostly ASCII, so that a text of many blocks may have none of the others.
                let piece = if x % 3 == 0 { (x / 3 % 12) as usize } else { 0 };
                s.extend_from_slice(pieces[piece]);
                s.extend_from_slice(spaces[(x / 8 % 5) as usize]);
            }
            let mut out = vec![(7, 7)];
            let multibyte = ranges(&s, &mut out);
            assert_eq!(multibyte, scalar::may_hold_multibyte_space(&s), "{s:?}");
            assert_eq!(out[0], (7, 7), "appended, not replaced");
            assert_eq!(out[1..], expected(&s)[..], "{s:?}");
            let mut out = Vec::new();
            scalar::ranges(&s, &mut out);
            assert_eq!(out, expected(&s), "{s:?}");
        }
    }
}

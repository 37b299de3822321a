//! Python's notion of whitespace, as used by `str.split()`, `str.strip()` and `str.rstrip()`.
//!
//! sacreBLEU splits every tokenized segment with `line.split()` and strips it with `rstrip()`
//! (`BLEU._preprocess_segment`), so the whitespace set here must be CPython's
//! `Py_UNICODE_ISSPACE`: bidirectional class WS, B or S, or general category Zs. It has been stable
//! across the Unicode versions of every supported CPython. U+200B and U+FEFF are *not* whitespace.

use super::ascii_split;

/// Is `c` whitespace for Python's `str.split()`?
#[inline]
pub fn is_py_space(c: char) -> bool {
    match c {
        '\t'..='\r' | '\x1c'..='\x20' => true,
        _ if (c as u32) < 0x85 => false,
        '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' => true,
        '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => true,
        _ => false,
    }
}

/// Python's `s.rstrip()`.
#[inline]
pub fn py_rstrip(s: &str) -> &str {
    // Most lines end in an ASCII non-space byte: nothing to decode then.
    match s.as_bytes().last() {
        Some(&b) if b < 0x80 && BYTE_CLASS[b as usize] != 1 => s,
        _ => s.trim_end_matches(is_py_space),
    }
}

/// Python's `s.strip()`.
#[inline]
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Python's `s.split()` (no argument): runs of whitespace separate tokens, no empty tokens.
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|t| !t.is_empty())
}

/// Byte classes for [`py_split_ranges`]: 0 = ASCII non-space, 1 = ASCII space, 2 = first byte
/// of a multi-byte character that may be whitespace (see [`multibyte_space_len`]), 3 = any
/// other non-ASCII byte (a continuation byte, or the first byte of a character that is never
/// whitespace: most of CJK text, for instance, begins with `E4..E9`).
static BYTE_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b {
            0x09..=0x0d | 0x1c..=0x20 => 1,
            0xc2 | 0xe1 | 0xe2 | 0xe3 => 2,
            0x80..=0xff => 3,
            _ => 0,
        };
        b += 1;
    }
    t
};

/// The length of the UTF-8 character whose first byte is `b` (1 for a continuation byte,
/// which a scan that moves by characters never lands on).
#[inline]
fn utf8_len(b: u8) -> usize {
    match b {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

/// The length of the non-ASCII whitespace character `rest` starts with, or 0.
///
/// Performance decision: the UTF-8 bytes are matched directly, not decoded: in Japanese text
/// every kana starts with `E3`, the first byte of U+3000, so a decode there ran for most
/// characters. The patterns are the encodings of [`is_py_space`]'s non-ASCII characters
/// (`rest` is valid UTF-8, so a matching prefix is the whole character).
#[inline]
fn multibyte_space_len(rest: &[u8]) -> usize {
    match rest {
        [0xc2, 0x85 | 0xa0, ..] => 2,
        [0xe1, 0x9a, 0x80, ..]
        | [0xe2, 0x80, 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf, ..]
        | [0xe2, 0x81, 0x9f, ..]
        | [0xe3, 0x80, 0x80, ..] => 3,
        _ => 0,
    }
}

/// Byte ranges `(start, end)` of the tokens of `s.split()`, appended to `out`.
///
/// The text is split at ASCII whitespace 16 bytes at a time ([`ascii_split`]); where it may
/// hold a non-ASCII whitespace character (U+0085, U+00A0, U+1680, U+2000.., U+3000), the tokens
/// that may are split again a character at a time.
pub fn py_split_ranges(s: &str, out: &mut Vec<(u32, u32)>) {
    let bytes = s.as_bytes();
    let first = out.len();
    // Tokens at ASCII whitespace first: they are the tokens unless one holds a non-ASCII
    // whitespace character (then it is split again, below).
    if !ascii_split::ranges(bytes, out) {
        // All of English, and CJK text without U+3000.
        return;
    }
    // Performance decision: only the tokens with a first byte of a possible non-ASCII space
    // (`C2`, `E1`, `E2`, `E3`: `„` and `“` in German) are scanned a character at a time, not
    // the whole text; a twentieth of `bench_caption.py`'s captions took the slow path.
    let may_split = |&(a, b): &(u32, u32)| {
        bytes[a as usize..b as usize]
            .iter()
            .any(|&c| BYTE_CLASS[c as usize] == 2)
    };
    let Some(at) = out[first..].iter().position(may_split) else {
        return;
    };
    let tokens: Vec<(u32, u32)> = out.drain(first + at..).collect();
    for token in tokens {
        if may_split(&token) {
            split_chars(bytes, token.0 as usize, token.1 as usize, out);
        } else {
            out.push(token);
        }
    }
}

/// Appends the tokens of `bytes[start..end]` (whole characters, no ASCII whitespace) split at
/// non-ASCII whitespace, a character at a time.
fn split_chars(bytes: &[u8], start: usize, end: usize, out: &mut Vec<(u32, u32)>) {
    // Width of the whitespace character at `i`, or 0 if there is none there.
    let space_at = |i: usize| -> usize {
        match BYTE_CLASS[bytes[i] as usize] {
            2 => multibyte_space_len(&bytes[i..]),
            _ => 0,
        }
    };
    let mut i = start;
    loop {
        // Skip whitespace.
        while i < end {
            let w = space_at(i);
            if w == 0 {
                break;
            }
            i += w;
        }
        if i >= end {
            return;
        }
        let token = i;
        // A character at a time (a lead byte gives the character's length); only a few first
        // bytes need a closer look.
        while i < end {
            let b = bytes[i];
            match BYTE_CLASS[b as usize] {
                0 => i += 1,
                2 if space_at(i) != 0 => break,
                _ => i += utf8_len(b),
            }
        }
        out.push((token as u32, i as u32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_set_matches_python() {
        // The full list printed by `[c for c in map(chr, range(0x110000)) if c.isspace()]`.
        let expected: Vec<u32> = vec![
            0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
            0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
            0x2029, 0x202f, 0x205f, 0x3000,
        ];
        let got: Vec<u32> = (0..=0x10ffffu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_py_space(c))
            .map(|c| c as u32)
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn multibyte_space_len_matches_is_py_space() {
        for c in (0x80..=0x10ffffu32).filter_map(char::from_u32) {
            let text = format!("{c}x");
            let want = if is_py_space(c) { c.len_utf8() } else { 0 };
            let class = BYTE_CLASS[text.as_bytes()[0] as usize];
            let got = if class == 2 {
                multibyte_space_len(text.as_bytes())
            } else {
                0
            };
            assert_eq!(got, want, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn split_and_ranges_agree() {
        let s = " a\u{a0}bb\u{200b}c\t\u{3000}d  ";
        let tokens: Vec<&str> = py_split(s).collect();
        assert_eq!(tokens, vec!["a", "bb\u{200b}c", "d"]);
        let mut r = Vec::new();
        py_split_ranges(s, &mut r);
        let via: Vec<&str> = r.iter().map(|&(a, b)| &s[a as usize..b as usize]).collect();
        assert_eq!(via, tokens);
    }

    /// `py_split_ranges(text)` gives exactly the tokens of `py_split(text)`.
    fn assert_ranges_are_split(text: &str, ranges: &mut Vec<(u32, u32)>) {
        // Appended after what `ranges` holds.
        ranges.clear();
        ranges.push((9, 9));
        py_split_ranges(text, ranges);
        assert_eq!(ranges[0], (9, 9));
        let via: Vec<&str> = ranges[1..]
            .iter()
            .map(|&(a, b)| &text[a as usize..b as usize])
            .collect();
        assert_eq!(via, py_split(text).collect::<Vec<_>>(), "{text:?}");
    }

    #[test]
    fn ranges_equal_split_on_every_kind_of_character() {
        // Every whitespace character, characters that share their first bytes (U+3001, U+2010,
        // U+00A1, U+1681), CJK, kana, a 4-byte character and ASCII, in generated strings.
        let alphabet: Vec<char> =
            "a \t\u{1c}\u{85}\u{a0}\u{a1}\u{1680}\u{1681}\u{2000}\u{200a}\u{200b}\
            \u{2010}\u{2028}\u{202f}\u{205f}\u{3000}\u{3001}\u{3042}\u{4e00}\u{1f600}"
                .chars()
                .collect();
        let mut state = 0x9e37_79b9_u64;
        let mut ranges = Vec::new();
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let len = (state >> 60) as usize;
            let text: String = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    alphabet[(state >> 33) as usize % alphabet.len()]
                })
                .collect();
            assert_ranges_are_split(&text, &mut ranges);
        }
    }

    #[test]
    fn fast_path_equals_split() {
        // The fast path's block scan (`ascii_split`): ASCII whitespace, control characters
        // just below and around it (0x00, 0x08, 0x0e, 0x1b, 0x21, 0x7f), kana, CJK and a
        // 4-byte character, in strings long enough to cross several 16-byte blocks.
        let alphabet: Vec<char> =
            "a \t\n\u{0}\u{8}\u{e}\u{1b}\u{1c}\u{1f}!\u{7f}\u{3042}\u{4e00}\u{1f600}"
                .chars()
                .collect();
        let mut state = 0x2545_f491_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as usize
        };
        let mut ranges = Vec::new();
        for _ in 0..20_000 {
            let len = next() % 64;
            // Runs of one character, so that long tokens and long gaps both occur.
            let text: String = (0..len)
                .map(|_| {
                    alphabet[next() % alphabet.len()]
                        .to_string()
                        .repeat(1 + next() % 9)
                })
                .collect();
            assert_ranges_are_split(&text, &mut ranges);
        }
    }

    #[test]
    fn strip() {
        assert_eq!(py_rstrip("  a b \u{85}\u{2029}"), "  a b");
        assert_eq!(py_strip("\u{3000} a b \n"), "a b");
    }
}

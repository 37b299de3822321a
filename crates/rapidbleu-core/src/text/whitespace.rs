//! Python's notion of whitespace, as used by `str.split()`, `str.strip()` and `str.rstrip()`.
//!
//! sacreBLEU splits every tokenized segment with `line.split()` and strips it with `rstrip()`
//! (`BLEU._preprocess_segment`), so the whitespace set here must be CPython's
//! `Py_UNICODE_ISSPACE`: bidirectional class WS, B or S, or general category Zs. It has been stable
//! across the Unicode versions of every supported CPython. U+200B and U+FEFF are *not* whitespace.

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
/// of a multi-byte character (decoded to decide), 3 = continuation byte.
static BYTE_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b {
            0x09..=0x0d | 0x1c..=0x20 => 1,
            0x80..=0xbf => 3,
            0xc0..=0xff => 2,
            _ => 0,
        };
        b += 1;
    }
    t
};

/// Byte ranges `(start, end)` of the tokens of `s.split()`, appended to `out`.
///
/// A table lookup per byte; UTF-8 is only decoded at the first byte of a non-ASCII character,
/// since only a few non-ASCII characters (U+0085, U+00A0, U+1680, U+2000..) are whitespace.
pub fn py_split_ranges(s: &str, out: &mut Vec<(u32, u32)>) {
    let bytes = s.as_bytes();
    let n = bytes.len();
    if s.is_ascii() {
        // Fast path: one table lookup per byte, nothing to decode.
        let mut i = 0;
        while i < n {
            while i < n && BYTE_CLASS[bytes[i] as usize] == 1 {
                i += 1;
            }
            let start = i;
            while i < n && BYTE_CLASS[bytes[i] as usize] != 1 {
                i += 1;
            }
            if i > start {
                out.push((start as u32, i as u32));
            }
        }
        return;
    }
    // Width of the whitespace character at `i`, or 0 if there is none there.
    let space_at = |i: usize| -> usize {
        match BYTE_CLASS[bytes[i] as usize] {
            1 => 1,
            2 => match s[i..].chars().next() {
                Some(c) if is_py_space(c) => c.len_utf8(),
                _ => 0,
            },
            _ => 0,
        }
    };
    let mut i = 0usize;
    loop {
        // Skip whitespace.
        while i < n {
            let w = space_at(i);
            if w == 0 {
                break;
            }
            i += w;
        }
        if i >= n {
            return;
        }
        let start = i;
        // Scan the token: ASCII non-space bytes and continuation bytes are never whitespace.
        while i < n {
            let class = BYTE_CLASS[bytes[i] as usize];
            if class == 0 || class == 3 || (class == 2 && space_at(i) == 0) {
                i += 1;
            } else {
                break;
            }
        }
        out.push((start as u32, i as u32));
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
    fn split_and_ranges_agree() {
        let s = " a\u{a0}bb\u{200b}c\t\u{3000}d  ";
        let tokens: Vec<&str> = py_split(s).collect();
        assert_eq!(tokens, vec!["a", "bb\u{200b}c", "d"]);
        let mut r = Vec::new();
        py_split_ranges(s, &mut r);
        let via: Vec<&str> = r.iter().map(|&(a, b)| &s[a as usize..b as usize]).collect();
        assert_eq!(via, tokens);
    }

    #[test]
    fn strip() {
        assert_eq!(py_rstrip("  a b \u{85}\u{2029}"), "  a b");
        assert_eq!(py_strip("\u{3000} a b \n"), "a b");
    }
}

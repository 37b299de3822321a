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
    s.trim_end_matches(is_py_space)
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

/// Byte ranges `(start, end)` of the tokens of `s.split()`, appended to `out`.
///
/// Faster than [`py_split`] on ASCII text, which is the common case: it only decodes UTF-8
/// when it meets a non-ASCII byte.
pub fn py_split_ranges(s: &str, out: &mut Vec<(u32, u32)>) {
    let bytes = s.as_bytes();
    let mut i = 0usize;
    let mut start: Option<usize> = None;
    while i < bytes.len() {
        let b = bytes[i];
        let (space, width) = if b < 0x80 {
            (matches!(b, b'\t'..=b'\r' | 0x1c..=0x20), 1)
        } else {
            // A non-ASCII char: decode it. `s` is valid UTF-8, so this cannot fail.
            let c = s[i..].chars().next().unwrap_or('\0');
            (is_py_space(c), c.len_utf8())
        };
        if space {
            if let Some(st) = start.take() {
                out.push((st as u32, i as u32));
            }
        } else if start.is_none() {
            start = Some(i);
        }
        i += width;
    }
    if let Some(st) = start {
        out.push((st as u32, bytes.len() as u32));
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
            0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
            0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
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

//! Python 3.11's `str.lower()` (Unicode 14.0), which NLTK's `meteor_score` applies to every
//! token (`preprocess=str.lower`), `PorterStemmer.stem` applies again, and
//! `WordNetCorpusReader.synsets` applies to the word it looks up.
//!
//! Rust's `str::to_lowercase` implements the same mappings and the same final-sigma rule, from
//! a newer Unicode version: the letters given lowercase forms after Unicode 14.0 (listed in
//! [`NEWER`], from a comparison of every code point) are kept as they are, as Python 3.11
//! keeps them. What remains different: a capital sigma whose final-sigma context is decided
//! by a letter assigned after Unicode 14.0.

/// Code point ranges that Rust lowercases and Python 3.11 does not (assigned, or given a
/// case mapping, after Unicode 14.0): found by comparing both over every code point.
const NEWER: &[(u32, u32)] = &[
    (0x1C89, 0x1C89),
    (0xA7CB, 0xA7CC),
    (0xA7CE, 0xA7CE),
    (0xA7D2, 0xA7D2),
    (0xA7D4, 0xA7D4),
    (0xA7DA, 0xA7DA),
    (0xA7DC, 0xA7DC),
    (0x10D50, 0x10D65),
    (0x16EA0, 0x16EB8),
];

fn is_newer(c: char) -> bool {
    let c = c as u32;
    NEWER.iter().any(|&(lo, hi)| lo <= c && c <= hi)
}

/// `s.lower()` as Python 3.11 computes it, into `out` (cleared first).
///
/// Example: `"ÉTÉ"` gives `"été"`, `"ΟΔΟΣ"` gives `"οδος"` (final sigma).
pub fn py_lower_into(s: &str, out: &mut String) {
    out.clear();
    if s.is_ascii() {
        out.push_str(s);
        out.make_ascii_lowercase();
        return;
    }
    // Pieces between "newer" letters are lowercased as whole strings (the final-sigma rule
    // needs the context); a newer letter is neither cased nor case-ignorable in Python 3.11,
    // so it ends a context exactly as the end of a string does.
    let mut rest = s;
    while let Some((i, c)) = rest.char_indices().find(|&(_, c)| is_newer(c)) {
        out.push_str(&rest[..i].to_lowercase());
        out.push(c);
        rest = &rest[i + c.len_utf8()..];
    }
    out.push_str(&rest.to_lowercase());
}

/// `s.lower()` as Python 3.11 computes it.
pub fn py_lower(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    py_lower_into(s, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_python() {
        // Values of Python 3.11's str.lower().
        for (s, want) in [
            ("ABC", "abc"),
            ("ÉTÉ", "été"),
            ("ΟΔΟΣ", "οδος"),
            ("ΟΔΟΣ ΟΔΟΣ", "οδος οδος"),
            ("İ", "i\u{307}"),
            ("\u{212A}", "k"),
            ("\u{A7CB}x", "\u{A7CB}x"),
            ("Σ", "σ"),
        ] {
            assert_eq!(py_lower(s), want, "{s}");
        }
    }
}

//! sacreBLEU's `TercomTokenizer` (`sacrebleu/tokenizers/tokenizer_ter.py`), byte-identical.
//!
//! Every regular expression of `tokenizer_ter.py` is a one- or two-character pattern or a
//! literal, applied by `re.sub` left to right without overlaps; each becomes one hand-written
//! pass over the bytes that copies that scan exactly (no `regex` crate: the passes are exact by
//! construction and cost one table lookup per byte). Byte-level scanning equals Python's
//! code-point scanning here because every pattern character is ASCII or a whole code point
//! matched after decoding, and no ASCII byte occurs inside a multi-byte UTF-8 sequence.
//!
//! Lowercasing (step 2 of `TercomTokenizer.__call__`) is the caller's for non-ASCII text; see
//! the [`crate::ter`] module documentation.

use super::TerOptions;
use crate::text::whitespace::{py_rstrip, py_split};

/// sacreBLEU's `TercomTokenizer(normalized, no_punct, asian_support, case_sensitive)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TercomTokenizer {
    params: TerOptions,
}

/// Two buffers the passes write into alternately, kept to make tokenizing allocation-free,
/// and the lowercased copy of the options-free path.
#[derive(Clone, Debug, Default)]
pub(crate) struct TokScratch {
    a: Vec<u8>,
    b: Vec<u8>,
    lower: String,
}

impl TercomTokenizer {
    /// The tokenizer for these options.
    pub fn new(params: TerOptions) -> Self {
        TercomTokenizer { params }
    }

    /// The options.
    pub fn params(&self) -> TerOptions {
        self.params
    }

    /// `TercomTokenizer(...)(s)` written into `out` (cleared first): exactly sacreBLEU's string
    /// when `s` has already been lowercased with Python's `str.lower()` (if not
    /// `case_sensitive`; an ASCII-only `s` needs nothing, the core lowercases ASCII letters).
    /// Allocates its scratch buffers (the statistics functions keep theirs).
    pub fn tokenize(&self, s: &str, out: &mut String) {
        let mut scratch = TokScratch::default();
        out.clear();
        let text = self.run(s, &mut scratch);
        for (i, w) in py_split(text).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(w);
        }
    }

    /// `TER._preprocess_segment(s)`: `s.rstrip()` (Python's whitespace), then
    /// [`TercomTokenizer::tokenize`].
    pub fn preprocess(&self, s: &str, out: &mut String) {
        self.tokenize(py_rstrip(s), out);
    }

    /// The text whose `str.split()` words are the tokenizer's output words (the final
    /// `' '.join(sent.split())` is left to the caller). Returns `""` when the passes leave
    /// invalid UTF-8, which they never do: each inserts ASCII bytes at character boundaries
    /// only, or deletes whole characters.
    pub(crate) fn run<'b>(&self, s: &'b str, sc: &'b mut TokScratch) -> &'b str {
        let p = self.params;
        if !p.normalized && !p.no_punct {
            // sacreBLEU's default: only the lowercasing. No copy when nothing changes.
            if p.case_sensitive || !s.bytes().any(|c| c.is_ascii_uppercase()) {
                return s;
            }
            sc.lower.clear();
            sc.lower.push_str(s);
            sc.lower.make_ascii_lowercase();
            return &sc.lower;
        }
        let TokScratch { a, b, .. } = sc;
        a.clear();
        a.extend_from_slice(s.as_bytes());
        if !p.case_sensitive {
            a.make_ascii_lowercase();
        }
        if p.normalized {
            normalize_general_and_western(a, b);
            if p.asian_support {
                pass(a, b, normalize_asian);
            }
        }
        if p.no_punct {
            a.retain(|&c| {
                !matches!(
                    c,
                    b'.' | b',' | b'?' | b':' | b';' | b'!' | b'"' | b'(' | b')'
                )
            });
            if p.asian_support {
                pass(a, b, remove_asian_punct);
            }
        }
        debug_assert!(std::str::from_utf8(a).is_ok());
        std::str::from_utf8(a).unwrap_or("")
    }
}

/// The byte ranges of `text.split()`'s words, appended to `out`.
///
/// Performance decision: one pass over the bytes with a class table; only the four lead
/// bytes that can start a non-ASCII whitespace character (U+0085, U+00A0: `C2`; U+1680:
/// `E1`; U+2000..U+205F: `E2`; U+3000: `E3`) look at the bytes after them, where
/// `whitespace::py_split_ranges` decodes every non-ASCII character.
pub(crate) fn split_words(text: &str, out: &mut Vec<(u32, u32)>) {
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    loop {
        // Skip whitespace.
        while i < n {
            match BYTE_CLASS[b[i] as usize] {
                SPACE => i += 1,
                MAYBE => match wide_space(b, i) {
                    0 => break,
                    w => i += w,
                },
                _ => break,
            }
        }
        if i >= n {
            return;
        }
        let start = i;
        i += 1;
        while i < n {
            match BYTE_CLASS[b[i] as usize] {
                WORD => i += 1,
                MAYBE if wide_space(b, i) == 0 => i += 1,
                _ => break,
            }
        }
        out.push((start as u32, i as u32));
    }
}

const WORD: u8 = 0;
const SPACE: u8 = 1;
const MAYBE: u8 = 2;

/// [`WORD`]: never starts whitespace; [`SPACE`]: ASCII whitespace (`\t`..`\r`,
/// `\x1c`..` `); [`MAYBE`]: a lead byte of a possible non-ASCII whitespace character.
static BYTE_CLASS: [u8; 256] = {
    let mut t = [WORD; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c {
            0x09..=0x0d | 0x1c..=0x20 => SPACE,
            0xc2 | 0xe1 | 0xe2 | 0xe3 => MAYBE,
            _ => WORD,
        };
        c += 1;
    }
    t
};

/// The length of the non-ASCII Python whitespace character at `b[i]` (a [`MAYBE`] byte),
/// 0 if there is none.
#[cold]
fn wide_space(b: &[u8], i: usize) -> usize {
    match (b[i], b.get(i + 1), b.get(i + 2)) {
        (0xc2, Some(0x85 | 0xa0), _) => 2,
        (0xe1, Some(0x9a), Some(0x80)) => 3,
        (0xe2, Some(0x80), Some(0x80..=0x8a | 0xa8 | 0xa9 | 0xaf)) => 3,
        (0xe2, Some(0x81), Some(0x9f)) => 3,
        (0xe3, Some(0x80), Some(0x80)) => 3,
        _ => 0,
    }
}

/// Runs `f(src, dst)` (dst cleared first) and leaves the result in `src`.
fn pass(src: &mut Vec<u8>, dst: &mut Vec<u8>, f: impl FnOnce(&[u8], &mut Vec<u8>)) {
    dst.clear();
    dst.reserve(src.len() + src.len() / 2 + 2);
    f(src, dst);
    std::mem::swap(src, dst);
}

/// `_normalize_general_and_western`: each `re.sub` of it, in order.
fn normalize_general_and_western(a: &mut Vec<u8>, b: &mut Vec<u8>) {
    // re.sub(r"\n-", "", s) then re.sub(r"\n", " ", s), fused: a "\n" that starts a "\n-"
    // goes with its "-", every other "\n" becomes a space (removals create no new matches,
    // since re.sub does not rescan its output).
    if a.contains(&b'\n') {
        pass(a, b, |s, out| {
            let mut i = 0;
            while i < s.len() {
                if s[i] == b'\n' {
                    if s.get(i + 1) == Some(&b'-') {
                        i += 2;
                        continue;
                    }
                    out.push(b' ');
                } else {
                    out.push(s[i]);
                }
                i += 1;
            }
        });
    }
    // The four entity replacements, sequentially: "&amp;lt;" becomes "<" (the &lt; pass sees
    // the &amp; pass's output) but "&amp;quot;" stays "&quot;". `&apos;` is not replaced.
    if a.contains(&b'&') {
        for (pat, rep) in [
            (&b"&quot;"[..], &b"\""[..]),
            (b"&amp;", b"&"),
            (b"&lt;", b"<"),
            (b"&gt;", b">"),
        ] {
            pass(a, b, |s, out| replace_all(s, pat, rep, out));
        }
    }
    // f" {sent} " and re.sub(r"([{-~[-` -&(-+:-@/])", r" \1 ", sent).
    pass(a, b, |s, out| {
        out.push(b' ');
        for &c in s {
            if SPACED[c as usize] {
                out.extend_from_slice(&[b' ', c, b' ']);
            } else {
                out.push(c);
            }
        }
        out.push(b' ');
    });
    // re.sub(r"'s ", r" 's ", sent). The next rule, re.sub(r"'s$", r" 's", sent), never
    // matches: the string ends with the padding space (and `$` without MULTILINE only matches
    // at the end or before a final "\n").
    if a.windows(2).any(|w| w == b"'s") {
        pass(a, b, |s, out| replace_all(s, b"'s ", b" 's ", out));
    }
    // re.sub(r"([^0-9])([\.,])", r"\1 \2 ", sent)
    if a.iter().any(|&c| c == b'.' || c == b',') {
        pass(a, b, |s, out| {
            two_char_rule(
                s,
                out,
                |x, y| !x.is_ascii_digit() && is_dot_comma(y),
                |x, y, o| o.extend_from_slice(&[x, b' ', y, b' ']),
            )
        });
        // re.sub(r"([\.,])([^0-9])", r" \1 \2", sent)
        pass(a, b, |s, out| {
            two_char_rule(
                s,
                out,
                |x, y| is_dot_comma(x) && !y.is_ascii_digit(),
                |x, y, o| o.extend_from_slice(&[b' ', x, b' ', y]),
            )
        });
    }
    // re.sub(r"([0-9])(-)", r"\1 \2 ", sent)
    if a.contains(&b'-') {
        pass(a, b, |s, out| {
            two_char_rule(
                s,
                out,
                |x, y| x.is_ascii_digit() && y == b'-',
                |x, y, o| o.extend_from_slice(&[x, b' ', y, b' ']),
            )
        });
    }
}

fn is_dot_comma(c: u8) -> bool {
    c == b'.' || c == b','
}

/// `re.sub` of a two-character pattern `(X)(Y)`: scanning left to right, a match consumes both
/// characters and scanning resumes after them. On bytes: `Y` is ASCII, so `X` is the last byte
/// of the character before it; a non-ASCII `Y` (`[^0-9]`) is matched by its first byte, and
/// its continuation bytes, which match no rule, are copied after.
fn two_char_rule(
    s: &[u8],
    out: &mut Vec<u8>,
    matches: impl Fn(u8, u8) -> bool,
    replace: impl Fn(u8, u8, &mut Vec<u8>),
) {
    let mut i = 0;
    while i < s.len() {
        match s.get(i + 1) {
            Some(&y) if matches(s[i], y) => {
                replace(s[i], y, out);
                i += 2;
            }
            _ => {
                out.push(s[i]);
                i += 1;
            }
        }
    }
}

/// `re.sub(re.escape(pat), rep, s)` for an ASCII literal `pat` (non-overlapping, left to right).
fn replace_all(s: &[u8], pat: &[u8], rep: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < s.len() {
        if s[i..].starts_with(pat) {
            out.extend_from_slice(rep);
            i += pat.len();
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
}

/// The class `[{-~[-` -&(-+:-@/]`: `{|}~ [\]^_` and backquote, space to `&`, `(` to `+`,
/// `:` to `@`, `/`. Not `'`, `,`, `-`, `.`, digits or letters.
static SPACED: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] =
            matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/');
        c += 1;
    }
    t
};

/// `_normalize_asian`: every character of these classes is surrounded by spaces:
/// - `[\u4e00-\u9fff\u3400-\u4dbf]`, `[\u31c0-\u31ef\u2e80-\u2eff]`,
///   `[\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f]`, and `[\u3200-\u3f22]` (the "Enclosed CJK"
///   rule, whose range runs past U+32FF into Extension A);
/// - `ASIAN_PUNCT` and `FULL_WIDTH_PUNCT`.
///
/// The passes are single-character substitutions, so one pass over their union gives the same
/// words (a character in two classes gets two spaces on each side, which `split()` ignores).
/// The three Hiragana/Katakana rules `(^|^[…])([…]+)(?=$|^[…])` can only match at position 0,
/// and `_normalize_general_and_western` always runs first and makes position 0 a space: they
/// never match here (and on a whole-kana string they would only pad it with spaces).
fn normalize_asian(s: &[u8], out: &mut Vec<u8>) {
    if s.is_ascii() {
        out.extend_from_slice(s);
        return;
    }
    let text = std::str::from_utf8(s).unwrap_or("");
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if is_cjk_spaced(c as u32) {
            out.push(b' ');
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            out.push(b' ');
        } else {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
}

fn is_cjk_spaced(c: u32) -> bool {
    matches!(c,
        0x4e00..=0x9fff
        | 0x31c0..=0x31ef | 0x2e80..=0x2eff
        | 0x3300..=0x33ff | 0xf900..=0xfaff | 0xfe30..=0xfe4f
        | 0x3200..=0x3f22
        | 0x3400..=0x4dbf)
        || is_asian_punct(c)
}

/// `TercomTokenizer.ASIAN_PUNCT` or `TercomTokenizer.FULL_WIDTH_PUNCT`.
fn is_asian_punct(c: u32) -> bool {
    matches!(c,
        0x3001 | 0x3002 | 0x3008..=0x3011 | 0x3014..=0x301f | 0xff61..=0xff65 | 0x30fb
        | 0xff0e | 0xff0c | 0xff1f | 0xff1a | 0xff1b | 0xff01 | 0xff02 | 0xff08 | 0xff09)
}

/// `_remove_asian_punct`: both classes deleted.
fn remove_asian_punct(s: &[u8], out: &mut Vec<u8>) {
    if s.is_ascii() {
        out.extend_from_slice(s);
        return;
    }
    let text = std::str::from_utf8(s).unwrap_or("");
    let mut buf = [0u8; 4];
    for c in text.chars().filter(|&c| !is_asian_punct(c as u32)) {
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str, normalized: bool, no_punct: bool, asian_support: bool) -> String {
        let t = TercomTokenizer::new(TerOptions {
            normalized,
            no_punct,
            asian_support,
            case_sensitive: false,
        });
        let mut out = String::new();
        t.tokenize(s, &mut out);
        out
    }

    /// Outputs measured with sacreBLEU 2.6.0 (more in tests/data/ter_tokenizer.jsonl).
    #[test]
    fn measured_quirks() {
        assert_eq!(
            tok("U.S.A. e-mail 3.5 1,000", true, false, false),
            "u . s . a . e-mail 3.5 1,000"
        );
        assert_eq!(
            tok("&amp;lt; &amp;quot; &amp;amp;lt;", true, false, true),
            "< & quot ; & amp ; lt ;"
        );
        assert_eq!(
            tok("a.,b 1..5 1-2 x's 's", true, false, false),
            "a . , b 1 . . 5 1 - 2 x 's 's"
        );
        assert_eq!(
            tok("東京は、ひらがなカタカナ。", true, false, true),
            "東 京 は 、 ひらがなカタカナ 。"
        );
        assert_eq!(tok("&amp; a.b", false, true, false), "&amp ab");
        assert_eq!(tok("", true, true, true), "");
    }

    #[test]
    fn split_words_is_python_split() {
        // Every code point, as a separator and inside words.
        let mut text = String::new();
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            text.push('a');
            text.push(c);
        }
        text.push_str("\u{85}\u{3000}");
        let mut ranges = Vec::new();
        split_words(&text, &mut ranges);
        let got: Vec<&str> = ranges
            .iter()
            .map(|&(a, b)| &text[a as usize..b as usize])
            .collect();
        let expected: Vec<&str> = py_split(&text).collect();
        assert_eq!(got, expected);
    }
}

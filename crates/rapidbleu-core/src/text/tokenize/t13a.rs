//! `13a`: sacreBLEU's `Tokenizer13a` and its post-tokenizer `TokenizerRegexp`.
//!
//! `TokenizerRegexp` runs four `re.sub` calls one after the other. Each pattern matches at most
//! two characters, all its literal characters are ASCII and its only class that can match a
//! non-ASCII character is `[^0-9]`. A byte-level scan therefore reproduces `re.sub`'s
//! left-to-right, non-overlapping matching exactly: UTF-8 continuation bytes never equal an
//! ASCII byte, so a multi-byte character behaves like a run of bytes none of which can start or
//! end a match except where the whole character would. Only ASCII `0-9` are digits (`re` with
//! an explicit `[0-9]` class), so no Unicode table is involved.

use super::regexp::{
    is_13a_punct, regex_stage, sub_digit_dash, sub_dotcomma_nondigit, sub_nondigit_dotcomma,
};
use super::TokBuf;
use crate::text::whitespace::is_py_space;

/// The language-independent replacements of `Tokenizer13a.__call__`, in sacreBLEU's order; each
/// is a Python `str.replace`, which [`replace_all`] matches (left to right, non-overlapping).
/// Returns `line` itself when no pattern can occur, else the replaced text, built in `repl`
/// (with `tmp` as scratch; both reused across lines, so a line with entities allocates
/// nothing in the steady state).
fn replacements<'a>(line: &'a str, repl: &'a mut String, tmp: &mut String) -> &'a str {
    // Every pattern starts with one of these bytes; most lines have none (SIMD scan).
    if memchr::memchr3(b'<', b'\n', b'&', line.as_bytes()).is_none() {
        return line;
    }
    repl.clear();
    repl.push_str(line);
    const PATTERNS: [(&str, &str); 7] = [
        ("<skipped>", ""),
        ("-\n", ""),
        ("\n", " "),
        ("&quot;", "\""),
        ("&amp;", "&"),
        ("&lt;", "<"),
        ("&gt;", ">"),
    ];
    for (from, to) in PATTERNS {
        replace_all(repl, from, to, tmp);
    }
    repl
}

/// `*s = s.replace(from, to)` (Python's and Rust's semantics), through `tmp`; no copy when
/// `from` does not occur.
fn replace_all(s: &mut String, from: &str, to: &str, tmp: &mut String) {
    let mut last = 0;
    tmp.clear();
    for (i, _) in s.match_indices(from) {
        tmp.push_str(&s[last..i]);
        tmp.push_str(to);
        last = i + from.len();
    }
    // `from` is never empty, so `last > 0` exactly when it occurred.
    if last > 0 {
        tmp.push_str(&s[last..]);
        std::mem::swap(s, tmp);
    }
}

/// `Tokenizer13a.__call__` without the final whitespace normalisation.
pub(crate) fn tokenize_13a(line: &str, buf: &mut TokBuf) {
    let (mut repl, mut tmp) = (
        std::mem::take(&mut buf.repl),
        std::mem::take(&mut buf.repl_tmp),
    );
    pad_and_regex(replacements(line, &mut repl, &mut tmp), buf);
    (buf.repl, buf.repl_tmp) = (repl, tmp);
}

/// Byte classes of the token scanner [`tokens_13a`].
const WORD: u8 = 0;
const SPACE: u8 = 1;
const PUNCT: u8 = 2;
const SPECIAL: u8 = 3;
const LEAD: u8 = 4;

static CLASS_13A: [u8; 256] = {
    let mut t = [WORD; 256];
    let mut b = 0;
    while b < 256 {
        let u = b as u8;
        t[b] = if matches!(u, b'\t'..=b'\r' | 0x1c..=0x20) {
            SPACE
        } else if is_13a_punct(u) {
            PUNCT
        } else if matches!(u, b'.' | b',' | b'-') {
            SPECIAL
        } else if matches!(u, 0xc2 | 0xe1..=0xe3) {
            // Only these lead bytes start Python whitespace (U+0085, U+00A0, U+1680,
            // U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000: `is_py_space`); every
            // other multi-byte character is a word character, and stays unmarked (German or
            // French text has one every few words).
            LEAD
        } else {
            WORD
        };
        b += 1;
    }
    t
};

/// The tokens of `Tokenizer13a` (the `str.split()` of its output) as byte ranges into
/// `buf.out`, without building the tokenized string: the hot path of corpus statistics.
///
/// Why this is exact. Call a *word* a maximal run of characters that are neither Python
/// whitespace nor in the 13a punctuation class. After the padding and regex 1, every word is
/// surrounded by whitespace and every punctuation character is a token of its own. Regexes 2-4
/// only match inside a word or with the whitespace just around it, and that whitespace is a
/// non-digit that is neither `.`, `,` nor `-` however it is consumed, so each word is tokenized
/// independently, exactly as `" " + word + " "` would be. A word without `.`, `,` or `-` matches
/// none of regexes 2-4 and is one token; only the others go through the regexes.
pub(crate) fn tokens_13a(line: &str, buf: &mut TokBuf, ranges: &mut Vec<(u32, u32)>) {
    // Performance decision: most lines hold no `<`, `&` or `\n`, the bytes every pattern of
    // `replacements` starts with. The scan meets them anyway (they are marked bytes) and says
    // whether it did; only then is the line replaced and scanned again. Searching every line
    // for them first cost about a tenth of the tokenizer's instructions.
    if !scan_13a(line, buf, ranges) {
        return;
    }
    // Taken out of `buf` (leaving empty, unallocated strings) so `buf` stays free for the scan.
    let (mut repl, mut tmp) = (
        std::mem::take(&mut buf.repl),
        std::mem::take(&mut buf.repl_tmp),
    );
    ranges.clear();
    scan_13a(replacements(line, &mut repl, &mut tmp), buf, ranges);
    (buf.repl, buf.repl_tmp) = (repl, tmp);
}

/// The tokens of `text` as [`tokens_13a`] gives them if no replacement applies (into
/// `buf.out` and `ranges`); whether `text` has a byte that may start a replacement (`<`, `&`,
/// `\n`), in which case the tokens are not those of the line.
fn scan_13a(text: &str, buf: &mut TokBuf, ranges: &mut Vec<(u32, u32)>) -> bool {
    let bytes = text.as_bytes();
    buf.out.clear();
    buf.out.extend_from_slice(bytes);
    let mut word = Word::default();
    let mut replaced = false;
    // Performance decision: word bytes (class 0) are most bytes, and testing them one by one
    // mispredicts a branch at nearly every word end. Instead a branch-free pass marks the other
    // bytes of each 64-byte block in a bit mask, and only the marked bytes are visited.
    for (k, block) in bytes.chunks(64).enumerate() {
        let mut marks = marks_of(block);
        while marks != 0 {
            let i = 64 * k + marks.trailing_zeros() as usize;
            marks &= marks - 1;
            let b = bytes[i];
            match CLASS_13A[b as usize] {
                // A control byte that `marks16` marks (not a word end).
                WORD => {}
                SPACE => {
                    replaced |= b == b'\n';
                    word.end(bytes, i, i + 1, buf, ranges);
                }
                PUNCT => {
                    replaced |= b == b'<' || b == b'&';
                    word.end(bytes, i, i + 1, buf, ranges);
                    ranges.push((i as u32, i as u32 + 1));
                }
                SPECIAL if b == b'-' => {
                    word.regexes |= i > word.start && bytes[i - 1].is_ascii_digit();
                }
                SPECIAL => {
                    // A second `.`/`,`: the first is not the word's last byte.
                    word.regexes |= word.last_dot_comma != NO_DOT;
                    word.last_dot_comma = i;
                }
                // A lead byte of a multi-byte character: a word byte unless it is whitespace.
                _ => {
                    if let Some(w) = space_width(text, i) {
                        word.end(bytes, i, i + w, buf, ranges);
                    }
                }
            }
        }
    }
    word.end(bytes, bytes.len(), bytes.len(), buf, ranges);
    replaced
}

/// Bit `j` set if `block[j]` (at most 64 bytes) is not a word byte (class 0 of `CLASS_13A`),
/// and for some class-0 control bytes (see [`marks16`]); clear for every other byte.
#[inline]
fn marks_of(block: &[u8]) -> u64 {
    let mut marks = 0u64;
    let mut chunks = block.chunks_exact(16);
    for (j, chunk) in chunks.by_ref().enumerate() {
        marks |= u64::from(marks16(chunk)) << (16 * j);
    }
    let done = block.len() - chunks.remainder().len();
    for (j, &b) in chunks.remainder().iter().enumerate() {
        marks |= u64::from(CLASS_13A[b as usize] != WORD) << (done + j);
    }
    marks
}

/// [`marks_of`] for 16 bytes with SSE2 (every x86-64 CPU has it): a byte is left unmarked iff
/// it lies in one of the ranges below, which are class-0 bytes of `CLASS_13A` (an exhaustive
/// test checks it). Letters are one range after `| 0x20`.
///
/// Performance decision: the ASCII control bytes of class 0 (`0x00`-`0x08`, `0x0e`-`0x1b`,
/// `0x7f`) are marked too, which [`tokens_13a`] skips as it finds them: they do not occur in
/// text, and leaving them out of the test makes bytes `0x80` and up one signed comparison
/// (about a third fewer vector operations per block).
#[cfg(target_arch = "x86_64")]
#[inline]
fn marks16(chunk: &[u8]) -> u16 {
    use std::arch::x86_64::*;
    assert_eq!(chunk.len(), 16);
    // SAFETY: SSE2 is part of the x86-64 baseline; the unaligned load reads exactly the 16
    // bytes of `chunk` (checked above).
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr().cast());
        let zero = _mm_setzero_si128();
        // v in [lo, hi] (unsigned) iff (v - lo) saturating-minus (hi - lo) is 0.
        let in_range = |v: __m128i, lo: u8, hi: u8| {
            let d = _mm_sub_epi8(v, _mm_set1_epi8(lo as i8));
            _mm_cmpeq_epi8(_mm_subs_epu8(d, _mm_set1_epi8((hi - lo) as i8)), zero)
        };
        let letters = in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'a', b'z');
        // 0x80 and up (negative as signed bytes), less the lead bytes of Python whitespace
        // (0xc2, 0xe1-0xe3).
        let space_lead = _mm_or_si128(
            _mm_cmpeq_epi8(v, _mm_set1_epi8(0xc2_u8 as i8)),
            in_range(v, 0xe1, 0xe3),
        );
        let high = _mm_andnot_si128(space_lead, _mm_cmplt_epi8(v, zero));
        let word = _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm_set1_epi8(0x27)),
                in_range(v, b'0', b'9'),
            ),
            _mm_or_si128(letters, high),
        );
        !(_mm_movemask_epi8(word) as u16)
    }
}

/// [`marks_of`] for 16 bytes, portably.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn marks16(chunk: &[u8]) -> u16 {
    chunk.iter().enumerate().fold(0, |m, (j, &b)| {
        m | (u16::from(CLASS_13A[b as usize] != WORD) << j)
    })
}

/// The word being scanned by [`tokens_13a`]: where it starts, its last `.`/`,` (if any), and
/// whether regexes 2-4 may match inside it (some `-` follows a digit, or it has two `.`/`,`):
/// only these decide how a word splits.
struct Word {
    start: usize,
    last_dot_comma: usize,
    regexes: bool,
}

/// [`Word::last_dot_comma`] of a word without `.`/`,`.
const NO_DOT: usize = usize::MAX;

impl Default for Word {
    fn default() -> Self {
        Word {
            start: 0,
            last_dot_comma: NO_DOT,
            regexes: false,
        }
    }
}

impl Word {
    /// Emits the word `bytes[self.start..end]` (if not empty) and starts the next one at `next`.
    ///
    /// Performance decision: called at every word end (about 18 times per sentence), so the
    /// usual word (no `.`/`,`, no digit before a `-`) is one test and one push, inlined; the
    /// others take [`Word::end_special`].
    #[inline(always)]
    fn end(
        &mut self,
        bytes: &[u8],
        end: usize,
        next: usize,
        buf: &mut TokBuf,
        ranges: &mut Vec<(u32, u32)>,
    ) {
        let start = self.start;
        if end > start {
            if self.regexes || self.last_dot_comma != NO_DOT {
                self.end_special(bytes, end, buf, ranges);
            } else {
                // No `.`/`,` and no digit before a `-`: no regex matches, the word is one token.
                ranges.push((start as u32, end as u32));
            }
        }
        *self = Word {
            start: next,
            ..Word::default()
        };
    }

    /// [`Word::end`] of a non-empty word with a `.`/`,` or a digit before a `-`.
    #[inline(never)]
    fn end_special(
        &self,
        bytes: &[u8],
        end: usize,
        buf: &mut TokBuf,
        ranges: &mut Vec<(u32, u32)>,
    ) {
        let start = self.start;
        if self.regexes || self.last_dot_comma != end - 1 {
            split_word(&bytes[start..end], buf, ranges);
        } else {
            // The usual sentence end, `word.` or `word,`: whatever precedes it, regex 2 or 3
            // separates a final `.`/`,` (the word is followed by whitespace, a non-digit).
            if end - 1 > start {
                ranges.push((start as u32, end as u32 - 1));
            }
            ranges.push((end as u32 - 1, end as u32));
        }
    }
}

/// Width of the Python whitespace character starting at byte `i`, if there is one.
#[inline]
fn space_width(text: &str, i: usize) -> Option<usize> {
    match text.get(i..).and_then(|s| s.chars().next()) {
        Some(c) if is_py_space(c) => Some(c.len_utf8()),
        _ => None,
    }
}

/// Runs regexes 2-4 on `" " + word + " "` and appends its tokens to `buf.out`.
fn split_word(word: &[u8], buf: &mut TokBuf, ranges: &mut Vec<(u32, u32)>) {
    buf.tmp.clear();
    buf.tmp.push(b' ');
    buf.tmp.extend_from_slice(word);
    buf.tmp.push(b' ');
    if memchr::memchr2(b'.', b',', word).is_some() {
        sub_nondigit_dotcomma(&buf.tmp, &mut buf.tmp2);
        sub_dotcomma_nondigit(&buf.tmp2, &mut buf.tmp);
    }
    if memchr::memchr(b'-', word).is_some() {
        sub_digit_dash(&buf.tmp, &mut buf.tmp2);
        std::mem::swap(&mut buf.tmp, &mut buf.tmp2);
    }
    // The word holds no whitespace, and the regexes only insert ASCII spaces.
    for tok in buf.tmp.split(|&b| b == b' ').filter(|t| !t.is_empty()) {
        let start = buf.out.len() as u32;
        buf.out.extend_from_slice(tok);
        ranges.push((start, buf.out.len() as u32));
    }
}

/// `self._post_tokenizer(f' {line} ')`.
fn pad_and_regex(line: &str, buf: &mut TokBuf) {
    buf.tmp.clear();
    buf.tmp.reserve(line.len() + 2);
    buf.tmp.push(b' ');
    buf.tmp.extend_from_slice(line.as_bytes());
    buf.tmp.push(b' ');
    regex_stage(buf);
}

#[cfg(test)]
mod tests {
    use super::super::Tokenizer;
    use super::*;

    fn tok(s: &str) -> String {
        let mut buf = TokBuf::default();
        Tokenizer::T13a.tokenize(s, &mut buf, true).to_string()
    }

    #[test]
    fn sacrebleu_examples() {
        // Outputs of sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()(s), sacreBLEU 2.6.0.
        assert_eq!(tok("Hello, world!"), "Hello , world !");
        assert_eq!(
            tok("It's 1,000.5 dollars - in 2023."),
            "It's 1,000.5 dollars - in 2023 ."
        );
        assert_eq!(tok("a..b"), "a . . b");
        assert_eq!(tok("&amp;lt; &quot;x&quot;"), "< \" x \"");
        assert_eq!(tok("1-2 a-b"), "1 - 2 a-b");
        assert_eq!(tok("x<skipped>y-\nz\nw"), "xyz w");
        assert_eq!(tok("é.ü,3"), "é . ü , 3");
    }

    #[test]
    fn marks_are_the_non_word_bytes_and_controls() {
        for b in 0..=255u8 {
            for pos in 0..16 {
                let mut chunk = [b'a'; 16];
                chunk[pos] = b;
                // Class-0 control bytes may be marked (`marks16` marks them on x86-64).
                let loose =
                    cfg!(target_arch = "x86_64") && matches!(b, 0x00..=0x08 | 0x0e..=0x1b | 0x7f);
                let want = if CLASS_13A[b as usize] == WORD && !loose {
                    0
                } else {
                    1 << pos
                };
                assert_eq!(marks16(&chunk), want, "byte {b:#x} at {pos}");
            }
        }
        let block: Vec<u8> = (0..64)
            .map(|j| if j % 3 == 0 { b' ' } else { b'x' })
            .collect();
        for len in 0..=64 {
            let want = (0..len)
                .filter(|j| j % 3 == 0)
                .fold(0u64, |m, j| m | 1 << j);
            assert_eq!(marks_of(&block[..len]), want);
        }
    }
}

//! `13a`: sacreBLEU's `Tokenizer13a` and its post-tokenizer `TokenizerRegexp`.
//!
//! `TokenizerRegexp` runs four `re.sub` calls one after the other. Each pattern matches at most
//! two characters, all its literal characters are ASCII and its only class that can match a
//! non-ASCII character is `[^0-9]`. A byte-level scan therefore reproduces `re.sub`'s
//! left-to-right, non-overlapping matching exactly: UTF-8 continuation bytes never equal an
//! ASCII byte, so a multi-byte character behaves like a run of bytes none of which can start or
//! end a match except where the whole character would. Only ASCII `0-9` are digits (`re` with
//! an explicit `[0-9]` class), so no Unicode table is involved.

use super::TokBuf;

/// `Tokenizer13a.__call__` without the final whitespace normalisation.
pub(crate) fn tokenize_13a(line: &str, buf: &mut TokBuf) {
    // The language-independent replacements, in sacreBLEU's order; each is a Python
    // `str.replace`, which Rust's `str::replace` matches (left to right, non-overlapping).
    let needs_replace = line.bytes().any(|b| matches!(b, b'<' | b'\n' | b'&'));
    if needs_replace {
        let mut s = line.replace("<skipped>", "").replace("-\n", "").replace('\n', " ");
        if s.contains('&') {
            s = s
                .replace("&quot;", "\"")
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">");
        }
        pad_and_regex(&s, buf);
    } else {
        pad_and_regex(line, buf);
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

/// `TokenizerRegexp.__call__` minus the final join: reads `buf.tmp`, leaves the result in
/// `buf.out`. Shared with the `zh` tokenizer, which runs the same regexes.
pub(crate) fn regex_stage(buf: &mut TokBuf) {
    // 1. ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> ' \1 '
    buf.out.clear();
    for &b in &buf.tmp {
        if is_13a_punct(b) {
            buf.out.extend_from_slice(&[b' ', b, b' ']);
        } else {
            buf.out.push(b);
        }
    }
    // 2. ([^0-9])([\.,]) -> '\1 \2 '
    std::mem::swap(&mut buf.out, &mut buf.tmp);
    buf.out.clear();
    let src = &buf.tmp;
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if i + 1 < src.len() && !b.is_ascii_digit() && is_dot_comma(src[i + 1]) {
            buf.out.extend_from_slice(&[b, b' ', src[i + 1], b' ']);
            i += 2;
        } else {
            buf.out.push(b);
            i += 1;
        }
    }
    // 3. ([\.,])([^0-9]) -> ' \1 \2'
    std::mem::swap(&mut buf.out, &mut buf.tmp);
    buf.out.clear();
    let src = &buf.tmp;
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if is_dot_comma(b) && i + 1 < src.len() && !src[i + 1].is_ascii_digit() {
            buf.out.extend_from_slice(&[b' ', b, b' ', src[i + 1]]);
            i += 2;
        } else {
            buf.out.push(b);
            i += 1;
        }
    }
    // 4. ([0-9])(-) -> '\1 \2 '
    std::mem::swap(&mut buf.out, &mut buf.tmp);
    buf.out.clear();
    let src = &buf.tmp;
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if b.is_ascii_digit() && i + 1 < src.len() && src[i + 1] == b'-' {
            buf.out.extend_from_slice(&[b, b' ', b'-', b' ']);
            i += 2;
        } else {
            buf.out.push(b);
            i += 1;
        }
    }
}

#[inline]
fn is_dot_comma(b: u8) -> bool {
    b == b'.' || b == b','
}

/// The class `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: `{|}~`, ``[\]^_` ``, space to `&`, `(` to `+`,
/// `:` to `@`, and `/`. Not `'`, `,`, `-` or `.`.
#[inline]
fn is_13a_punct(b: u8) -> bool {
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
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
        assert_eq!(tok("It's 1,000.5 dollars - in 2023."), "It's 1,000.5 dollars - in 2023 .");
        assert_eq!(tok("a..b"), "a . . b");
        assert_eq!(tok("&amp;lt; &quot;x&quot;"), "< \" x \"");
        assert_eq!(tok("1-2 a-b"), "1 - 2 a-b");
        assert_eq!(tok("x<skipped>y-\nz\nw"), "xyz w");
        assert_eq!(tok("é.ü,3"), "é . ü , 3");
    }

    #[test]
    fn punct_class() {
        let got: String = (0u8..128).filter(|&b| is_13a_punct(b)).map(char::from).collect();
        assert_eq!(got, " !\"#$%&()*+/:;<=>?@[\\]^_`{|}~");
    }
}

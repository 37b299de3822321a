//! `TokenizerRegexp`, the post-tokenizer of `13a` (and of `zh`): its four `re.sub` calls, as
//! byte scans. Why a byte scan is exact: see [`super::t13a`]'s module documentation.

use super::TokBuf;

/// `TokenizerRegexp.__call__` minus the final join: reads `buf.tmp`, leaves the result in
/// `buf.out`. Shared with the `zh` tokenizer, which runs the same regexes.
///
/// Performance: each pass copies the runs between the bytes that can start a match (found with
/// a table or SIMD `memchr`) instead of pushing byte by byte, and passes 2-4 are skipped when
/// their trigger bytes (`.`, `,`, `-`) do not occur at all.
pub(super) fn regex_stage(buf: &mut TokBuf) {
    // 1. ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> ' \1 '
    buf.out.clear();
    let src = &buf.tmp;
    let mut run = 0;
    for (i, &b) in src.iter().enumerate() {
        // The class contains the space itself, which sacreBLEU turns into three spaces. A run
        // of spaces matches the later patterns exactly as one space does and splits the same
        // tokens, so spaces are copied as they are (an exact `normalize` output is unaffected).
        if PUNCT_13A[b as usize] && b != b' ' {
            buf.out.extend_from_slice(&src[run..i]);
            buf.out.extend_from_slice(&[b' ', b, b' ']);
            run = i + 1;
        }
    }
    buf.out.extend_from_slice(&src[run..]);
    if memchr::memchr2(b'.', b',', &buf.out).is_some() {
        std::mem::swap(&mut buf.out, &mut buf.tmp);
        sub_nondigit_dotcomma(&buf.tmp, &mut buf.out);
        std::mem::swap(&mut buf.out, &mut buf.tmp);
        sub_dotcomma_nondigit(&buf.tmp, &mut buf.out);
    }
    if memchr::memchr(b'-', &buf.out).is_some() {
        std::mem::swap(&mut buf.out, &mut buf.tmp);
        sub_digit_dash(&buf.tmp, &mut buf.out);
    }
}

/// Regex 2, `([^0-9])([\.,])` -> `'\1 \2 '`. A match consumes both characters, so a
/// `.`/`,` that was the second character of a match cannot be the first of the next one.
pub(super) fn sub_nondigit_dotcomma(src: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0; // first byte not yet consumed
    while let Some(off) = memchr::memchr2(b'.', b',', src.get(i + 1..).unwrap_or(&[])) {
        let p = i + 1 + off; // a `.`/`,` with an unconsumed byte before it
        let x = src[p - 1];
        out.extend_from_slice(&src[i..p - 1]);
        if x.is_ascii_digit() {
            out.push(x);
            i = p;
        } else {
            out.extend_from_slice(&[x, b' ', src[p], b' ']);
            i = p + 1;
        }
    }
    out.extend_from_slice(&src[i.min(src.len())..]);
}

/// Regex 3, `([\.,])([^0-9])` -> `' \1 \2'`.
pub(super) fn sub_dotcomma_nondigit(src: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0;
    while let Some(off) = memchr::memchr2(b'.', b',', &src[i..]) {
        let p = i + off;
        out.extend_from_slice(&src[i..p]);
        match src.get(p + 1) {
            Some(&y) if !y.is_ascii_digit() => {
                out.extend_from_slice(&[b' ', src[p], b' ', y]);
                i = p + 2;
            }
            _ => {
                out.push(src[p]);
                i = p + 1;
            }
        }
    }
    out.extend_from_slice(&src[i..]);
}

/// Regex 4, `([0-9])(-)` -> `'\1 \2 '`.
pub(super) fn sub_digit_dash(src: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'-', &src[i..]) {
        let p = i + off;
        if p > 0 && src[p - 1].is_ascii_digit() {
            out.extend_from_slice(&src[i..p]);
            out.extend_from_slice(b" - ");
        } else {
            out.extend_from_slice(&src[i..=p]);
        }
        i = p + 1;
    }
    out.extend_from_slice(&src[i..]);
}

/// [`is_13a_punct`] as a table.
static PUNCT_13A: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = is_13a_punct(b as u8);
        b += 1;
    }
    t
};

/// The class `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: `{|}~`, ``[\]^_` ``, space to `&`, `(` to `+`,
/// `:` to `@`, and `/`. Not `'`, `,`, `-` or `.`.
pub(super) const fn is_13a_punct(b: u8) -> bool {
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punct_class() {
        let got: String = (0u8..128)
            .filter(|&b| is_13a_punct(b))
            .map(char::from)
            .collect();
        assert_eq!(got, " !\"#$%&()*+/:;<=>?@[\\]^_`{|}~");
    }
}

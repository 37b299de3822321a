//! The line reader's work on a block of bytes, spread over threads: counting line breaks
//! ([`count_breaks`], [`nth_break_end`]) and turning complete lines into checked, stripped
//! [`Part`]s ([`split_lines`]).
//!
//! Performance decision: the command's corpus scoring spreads over every thread, so a reader
//! that splits and checks lines on one thread bounds the command's speed-up (about a sixth of
//! the work of corpus BLEU on one thread is reading). A block is cut into pieces at line
//! starts, and each piece is checked as UTF-8 (SIMD, `simdutf8`), split and copied, stripped,
//! into a part of its own on the pool; the parts are handed out as they are (see
//! `line_list`). Line breaks are ASCII, so a block is valid UTF-8 exactly when each of its
//! pieces is, and the first invalid bytes of the block are the first of the first invalid
//! piece, with the same `valid_up_to` and `error_len` as one check of the whole block.

use crate::engine::parallel::{install, Threads};
use crate::io::line_list::Part;
use crate::io::lines::Newlines;
use crate::text::whitespace::py_rstrip;
use rayon::prelude::*;

/// Bytes of one piece: a block smaller than this is handled on the calling thread, and a
/// larger one in pieces of about this size (the hand-off to the pool costs a few
/// microseconds; a piece takes tens).
pub const PIECE: usize = 128 << 10;

/// The ends (just past the break) of the line breaks in `s[from..to]`.
///
/// A `\r` followed by `\n` is one break, counted at its `\n`; the caller has left out of `s` a
/// final `\r` whose next byte is not read yet, so a `\r` that ends `s` is a break of its own.
fn break_ends(
    s: &[u8],
    from: usize,
    to: usize,
    newlines: Newlines,
) -> impl Iterator<Item = usize> + '_ {
    let piece = &s[from..to];
    let (lf, universal) = match newlines {
        Newlines::Lf => (Some(memchr::memchr_iter(b'\n', piece)), None),
        Newlines::Universal => (None, Some(memchr::memchr2_iter(b'\n', b'\r', piece))),
    };
    let universal = universal
        .into_iter()
        .flatten()
        .filter(move |&i| !(s[from + i] == b'\r' && s.get(from + i + 1) == Some(&b'\n')));
    lf.into_iter()
        .flatten()
        .chain(universal)
        .map(move |i| from + i + 1)
}

/// Number of line breaks in `s[from..to]` (the rules of [`break_ends`]).
fn count_in(s: &[u8], from: usize, to: usize, newlines: Newlines) -> usize {
    match newlines {
        // memchr's own count: SIMD, no call per line.
        Newlines::Lf => memchr::memchr_iter(b'\n', &s[from..to]).count(),
        Newlines::Universal => break_ends(s, from, to, newlines).count(),
    }
}

/// Runs `f` over `items` on `threads` threads (in order), or on this thread for one item or
/// one thread.
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    threads: Threads,
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    if items.len() < 2 || threads == Threads::ONE {
        items.iter().map(f).collect()
    } else {
        install(threads, || items.par_iter().map(f).collect())
    }
}

/// The breaks of `s[from..]`, counted in pieces of [`PIECE`] bytes: `(end of the piece,
/// breaks in it)` for each.
pub fn count_breaks(
    s: &[u8],
    from: usize,
    newlines: Newlines,
    threads: Threads,
) -> Vec<(usize, usize)> {
    let bounds: Vec<(usize, usize)> = (from..s.len())
        .step_by(PIECE)
        .map(|a| (a, (a + PIECE).min(s.len())))
        .collect();
    map(&bounds, threads, |&(a, b)| (b, count_in(s, a, b, newlines)))
}

/// The end of the `k`-th break (1-based) of `s`, given `marks`, each `(end of a piece,
/// breaks up to that end)` in order from the start of `s` (as [`count_breaks`] counts them,
/// summed), with at least `k` breaks in all; `None` if they do not hold `k` breaks.
pub fn nth_break_end(
    s: &[u8],
    marks: &[(usize, usize)],
    k: usize,
    newlines: Newlines,
) -> Option<usize> {
    let j = marks.partition_point(|&(_, total)| total < k);
    let &(end, _) = marks.get(j)?;
    let (start, before) = if j == 0 { (0, 0) } else { marks[j - 1] };
    break_ends(s, start, end, newlines).nth(k - before - 1)
}

/// The first bytes of a block that are not UTF-8.
#[derive(Debug, PartialEq, Eq)]
pub struct BadText {
    /// Offset of the first invalid byte in the block.
    pub at: usize,
    /// End of the invalid bytes (`UnicodeDecodeError`'s `end`).
    pub end: usize,
    /// The 0-based line of the block they are on.
    pub line: usize,
}

/// Where the pieces of `block` start and end: at line starts, about [`PIECE`] bytes apart.
fn cuts(block: &[u8], newlines: Newlines) -> Vec<usize> {
    let mut cuts = vec![0];
    let mut target = PIECE;
    while target < block.len() {
        let next = match newlines {
            Newlines::Lf => memchr::memchr(b'\n', &block[target..]).map(|i| target + i + 1),
            Newlines::Universal => memchr::memchr2(b'\n', b'\r', &block[target..]).map(|i| {
                let i = target + i;
                i + 1 + usize::from(block[i] == b'\r' && block.get(i + 1) == Some(&b'\n'))
            }),
        };
        match next {
            Some(c) if c < block.len() => {
                cuts.push(c);
                target = c + PIECE;
            }
            _ => break,
        }
    }
    cuts.push(block.len());
    cuts
}

/// One piece's lines, checked and stripped.
fn split_piece(piece: &[u8], newlines: Newlines) -> Result<Part, BadText> {
    let text = match simdutf8::compat::from_utf8(piece) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            return Err(BadText {
                at,
                // Without an error length the bytes run to the end of the input (pieces
                // end at line starts, and line breaks are not continuation bytes).
                end: e.error_len().map_or(piece.len(), |len| at + len),
                line: break_ends(piece, 0, at, newlines).count(),
            });
        }
    };
    let mut part = Part::with_capacity(text.len());
    let mut start = 0;
    for end in break_ends(piece, 0, piece.len(), newlines) {
        // The break is one byte, or two for a universal "\r\n" (whose "\n" is at end - 1).
        let crlf = newlines == Newlines::Universal && end >= 2 && piece[end - 2] == b'\r';
        let brk = if crlf && piece[end - 1] == b'\n' {
            2
        } else {
            1
        };
        part.push(py_rstrip(&text[start..end - brk]));
        start = end;
    }
    if start < text.len() {
        // The input's last line, without a break.
        part.push(py_rstrip(&text[start..]));
    }
    Ok(part)
}

/// The lines of `block` (complete lines, or the input's last line without a break), each
/// `rstrip()`-ed, in parts, split on `threads` threads.
///
/// # Errors
/// [`BadText`] for the first bytes of `block` that are not UTF-8.
pub fn split_lines(
    block: &[u8],
    newlines: Newlines,
    threads: Threads,
) -> Result<Vec<Part>, BadText> {
    let cuts = cuts(block, newlines);
    let pieces: Vec<&[u8]> = cuts.windows(2).map(|w| &block[w[0]..w[1]]).collect();
    let results = map(&pieces, threads, |piece| split_piece(piece, newlines));
    let mut parts = Vec::with_capacity(results.len());
    let mut lines = 0;
    for (result, &start) in results.into_iter().zip(&cuts) {
        match result {
            Ok(part) => {
                lines += part.len();
                parts.push(part);
            }
            Err(bad) => {
                return Err(BadText {
                    at: start + bad.at,
                    end: start + bad.end,
                    line: lines + bad.line,
                })
            }
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(parts: &[Part]) -> Vec<String> {
        let mut all = crate::io::line_list::Lines::new();
        for p in parts {
            all.append_part(p.clone());
        }
        all.iter().map(String::from).collect()
    }

    /// Lines of many pieces split as the one-piece, one-thread reading splits them.
    #[test]
    fn pieces_split_as_one() {
        let mut text = String::new();
        for i in 0..40_000 {
            text.push_str(&format!("line {i} é \u{2028}"));
            text.push_str(["\n", "\r\n", "\r", " \n"][i % 4]);
        }
        text.push_str("last\r");
        let block = text.as_bytes();
        for newlines in [Newlines::Lf, Newlines::Universal] {
            assert!(cuts(block, newlines).len() > 4);
            let many = split_lines(block, newlines, Threads::ALL).unwrap();
            let one = split_piece(block, newlines).unwrap();
            assert_eq!(lines(&many), lines(&[one]), "{newlines:?}");
            let total = count_breaks(block, 0, newlines, Threads::new(2).unwrap());
            let mut marks = Vec::new();
            let mut sum = 0;
            for (end, c) in total {
                sum += c;
                marks.push((end, sum));
            }
            let expected: Vec<usize> = break_ends(block, 0, block.len(), newlines).collect();
            assert_eq!(sum, expected.len());
            for k in [1, 2, 777, 20_001, sum] {
                assert_eq!(
                    nth_break_end(block, &marks, k, newlines),
                    Some(expected[k - 1])
                );
            }
            assert_eq!(nth_break_end(block, &marks, sum + 1, newlines), None);
        }
        let lf = lines(&split_lines(block, Newlines::Lf, Threads::ALL).unwrap());
        assert_eq!((lf[0].as_str(), lf.len()), ("line 0 é", 30_001));
    }

    #[test]
    fn the_first_bad_bytes_are_found_in_any_piece() {
        let mut text = "ok line\n".repeat(50_000).into_bytes();
        let at = text.len() - 3 * PIECE / 2 + 3;
        text[at] = 0xff;
        text[at + 100] = 0xfe;
        let e = split_lines(&text, Newlines::Lf, Threads::ALL).unwrap_err();
        assert_eq!(
            e,
            BadText {
                at,
                end: at + 1,
                line: at / 8
            }
        );
        let e = split_lines(b"a\r\rb\xe2\x82", Newlines::Universal, Threads::ALL).unwrap_err();
        assert_eq!(
            e,
            BadText {
                at: 4,
                end: 6,
                line: 2
            }
        );
    }
}

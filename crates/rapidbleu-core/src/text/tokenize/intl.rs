//! `intl`: sacreBLEU's `TokenizerV14International` (mteval-v14's international tokenization).
//!
//! sacreBLEU runs three `regex.sub` calls, each over the output of the previous one:
//!
//! 1. `(\P{N})(\p{P})` -> `'\1 \2 '`: punctuation preceded by a non-number;
//! 2. `(\p{P})(\P{N})` -> `' \1 \2'`: punctuation followed by a non-number;
//! 3. `(\p{S})` -> `' \1 '`: every symbol.
//!
//! Each `sub` scans left to right and, after a two-character match, resumes *after the second
//! character*, so e.g. in `"a.,"` rule 1 matches `a.` and the `,` is left alone (it is not
//! preceded by an unconsumed character). Every pattern looks at whole characters with a fixed
//! width of one or two, so each rule is a one-character-lookahead state machine.
//!
//! Performance: instead of three passes over three buffers, the rules are chained as streaming
//! stages in one pass over the input (rule 1 feeds rule 2, which feeds rule 3, which writes to
//! `buf.out`). This is equivalent because each stage only ever inspects the stream produced by
//! the previous one, exactly as `re.sub` on the previous result would. The only characters the
//! rules insert are ASCII spaces, whose category is `Other`. Categories come from
//! [`intl_category`]: a 256-entry table for Latin-1, a two-level table for the rest of the BMP,
//! a binary search for the astral planes. Characters are carried as byte slices of the input,
//! so nothing is re-encoded or allocated per character. Most text is runs of `Other`
//! characters (letters, spaces, ideographs), which no rule changes: once both stages are idle,
//! such a run is copied with one `extend_from_slice`.

use super::unicode_tables::{intl_category, IntlCat, LATIN1_CAT};
use super::TokBuf;

/// An inserted space: the only text the rules add. Its category is `Other` (it is `Zs`).
const SPACE: &[u8] = b" ";

/// `TokenizerV14International.__call__` without the final `' '.join(line.split())`.
pub(crate) fn tokenize_intl(line: &str, buf: &mut TokBuf) {
    // Rules 1 and 2 add at most two spaces per punctuation mark, rule 3 two per symbol; a
    // quarter more than the input is enough for ordinary text and avoids most regrowth.
    buf.out.reserve(line.len() + line.len() / 4 + 8);
    let mut rule2 = Rule2 {
        out: &mut buf.out,
        pending: None,
    };
    // Rule 1 state: a non-`N` character that may start a match `(\P{N})(\p{P})`.
    let mut pending: Option<(&[u8], IntlCat)> = None;
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some((c, w)) = char_at(line, i) {
        let cat = intl_category(c);
        if cat == IntlCat::Other
            && rule2.pending.is_none()
            && matches!(pending, None | Some((_, IntlCat::Other)))
        {
            // Fast path. With rule 2 idle and rule 1 holding at most an `Other` character, an
            // `Other` character only flushes rule 1's pending character through rules 2 and 3
            // unchanged and becomes the new pending one; so a whole run of them is copied
            // verbatim and its last character is left pending, as the slow path would.
            let (last, end) = other_run(line, i, w);
            if let Some((p, _)) = pending {
                rule2.out.extend_from_slice(p);
            }
            rule2.out.extend_from_slice(&bytes[i..last]);
            pending = Some((&bytes[last..end], IntlCat::Other));
            i = end;
            continue;
        }
        let ch = &bytes[i..i + w];
        i += w;
        if let Some((prev, prev_cat)) = pending.take() {
            if cat == IntlCat::P {
                // Match: `\1 \2 `, and scanning resumes after `ch`.
                rule2.feed(prev, prev_cat);
                rule2.feed(SPACE, IntlCat::Other);
                rule2.feed(ch, cat);
                rule2.feed(SPACE, IntlCat::Other);
                continue;
            }
            rule2.feed(prev, prev_cat);
        }
        // `ch` is where the next match attempt starts.
        if cat == IntlCat::N {
            rule2.feed(ch, cat);
        } else {
            pending = Some((ch, cat));
        }
    }
    if let Some((prev, prev_cat)) = pending {
        rule2.feed(prev, prev_cat);
    }
    rule2.finish();
}

/// The character starting at byte `i` of `line` and its UTF-8 length, or `None` at the end.
#[inline]
fn char_at(line: &str, i: usize) -> Option<(char, usize)> {
    let b = *line.as_bytes().get(i)?;
    if b < 0x80 {
        return Some((char::from(b), 1));
    }
    // `i` is always a character boundary: it only ever advances by whole characters.
    let c = line.get(i..)?.chars().next()?;
    Some((c, c.len_utf8()))
}

/// The run of `Other` characters starting with the one at `i` (of width `w`): returns the byte
/// offsets of its last character and of its end.
#[inline]
fn other_run(line: &str, i: usize, w: usize) -> (usize, usize) {
    let bytes = line.as_bytes();
    let (mut last, mut end) = (i, i + w);
    loop {
        // ASCII letters and spaces, the bulk of most text, without decoding.
        while let Some(&b) = bytes.get(end) {
            if b >= 0x80 || LATIN1_CAT[usize::from(b)] != IntlCat::Other {
                break;
            }
            last = end;
            end += 1;
        }
        match char_at(line, end) {
            Some((c, cw)) if !c.is_ascii() && intl_category(c) == IntlCat::Other => {
                last = end;
                end += cw;
            }
            _ => return (last, end),
        }
    }
}

/// Rule 2, `(\p{P})(\P{N})` -> `' \1 \2'`, consuming rule 1's output one character at a time
/// and passing its own output to rule 3.
struct Rule2<'o, 's> {
    out: &'o mut Vec<u8>,
    /// A punctuation character that may start a match, not yet written.
    pending: Option<&'s [u8]>,
}

impl<'s> Rule2<'_, 's> {
    #[inline]
    fn feed(&mut self, ch: &'s [u8], cat: IntlCat) {
        if let Some(p) = self.pending.take() {
            if cat != IntlCat::N {
                // Match: ` \1 \2`. `p` is punctuation, hence not a symbol, so rule 3 leaves it
                // alone; `ch` may be a symbol (or punctuation, consumed here all the same).
                self.out.push(b' ');
                self.out.extend_from_slice(p);
                self.out.push(b' ');
                rule3(self.out, ch, cat);
                return;
            }
            self.out.extend_from_slice(p);
            // `ch` is a number: it cannot start a match (`N` and `P` are disjoint) and is not
            // a symbol, so it is written as is.
            self.out.extend_from_slice(ch);
            return;
        }
        if cat == IntlCat::P {
            self.pending = Some(ch);
        } else {
            rule3(self.out, ch, cat);
        }
    }

    /// End of the line: a pending punctuation character has no follower, so no match.
    #[inline]
    fn finish(&mut self) {
        if let Some(p) = self.pending.take() {
            self.out.extend_from_slice(p);
        }
    }
}

/// Rule 3, `(\p{S})` -> `' \1 '`: a per-character map, so it needs no state.
#[inline]
fn rule3(out: &mut Vec<u8>, ch: &[u8], cat: IntlCat) {
    if cat == IntlCat::S {
        out.push(b' ');
        out.extend_from_slice(ch);
        out.push(b' ');
    } else {
        out.extend_from_slice(ch);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Tokenizer;
    use super::*;

    /// The raw output, before the whitespace join.
    fn raw(s: &str) -> String {
        let mut buf = TokBuf::default();
        tokenize_intl(s, &mut buf);
        String::from_utf8(buf.out).unwrap()
    }

    fn tok(s: &str) -> String {
        let mut buf = TokBuf::default();
        Tokenizer::Intl.tokenize(s, &mut buf, true).to_string()
    }

    #[test]
    fn three_regex_subs_raw() {
        // The three `regex.sub` calls of TokenizerV14International, applied in Python to the
        // same input (sacreBLEU 2.6.0, regex 2026.11.15), without the final join.
        assert_eq!(raw("a.b"), "a  .  b");
        assert_eq!(raw("a.,b"), "a  .   , b");
        assert_eq!(raw("1.5"), "1.5");
        assert_eq!(raw("1990."), "1990.");
        assert_eq!(raw(".a"), " . a");
        assert_eq!(raw("a$b"), "a $ b");
        assert_eq!(raw(""), "");
    }

    #[test]
    fn sacrebleu_examples() {
        // Outputs of TokenizerV14International()(s), sacreBLEU 2.6.0 with regex 2026.11.15.
        assert_eq!(
            tok("Hello, world! It's 1,000.5 dollars in 1990."),
            "Hello , world ! It ' s 1,000.5 dollars in 1990."
        );
        assert_eq!(
            tok("\"Quoted\" (paren) [x] {y} a-b a--b"),
            "\" Quoted \" ( paren ) [ x ] { y } a - b a - - b"
        );
        assert_eq!(
            tok("5$ + 3€ = £8 ± 2% ©2020 ½"),
            "5 $ + 3 € = £ 8 ± 2 % © 2020 ½"
        );
        assert_eq!(
            tok("«Bonjour», dit-il… ¿Qué? ¡Sí!"),
            "« Bonjour » , dit - il … ¿ Qué ? ¡ Sí !"
        );
        assert_eq!(
            tok("中文，测试。日本語「かな」123、４５６"),
            "中文 ， 测试 。 日本語 「 かな 」 123、４５６"
        );
        assert_eq!(
            tok("😀 emoji👍🏽 a^b `c` ~d | e_f"),
            "😀 emoji 👍 🏽 a ^ b ` c ` ~ d | e _ f"
        );
        assert_eq!(
            tok("x.1 1.x .. 1..2 a.1.b"),
            "x . 1 1 . x . . 1 . . 2 a . 1 . b"
        );
    }

    #[test]
    fn bmp_table_agrees_with_search() {
        use super::super::unicode_tables::intl_category_by_search;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(
                intl_category(c),
                intl_category_by_search(c),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn fast_path_runs() {
        // Runs of `Other` characters next to every kind of state change (sacreBLEU outputs).
        assert_eq!(tok("abc def, ghi.jkl"), "abc def , ghi . jkl");
        assert_eq!(tok("été.ça,1 x$y ü«ö»"), "été . ça , 1 x $ y ü « ö »");
        assert_eq!(tok("日本語。中文！한국어?"), "日本語 。 中文 ！ 한국어 ?");
    }

    #[test]
    fn categories() {
        use super::super::unicode_tables::intl_category as cat;
        assert_eq!(cat('a'), IntlCat::Other);
        assert_eq!(cat('5'), IntlCat::N);
        assert_eq!(cat('٣'), IntlCat::N);
        assert_eq!(cat('.'), IntlCat::P);
        assert_eq!(cat('、'), IntlCat::P);
        assert_eq!(cat('$'), IntlCat::S);
        assert_eq!(cat('\u{1FAEA}'), IntlCat::S);
        assert_eq!(cat('\u{10FFFF}'), IntlCat::Other);
        assert_eq!(cat('中'), IntlCat::Other);
    }
}

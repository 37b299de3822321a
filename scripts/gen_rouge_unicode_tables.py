"""Generate crates/rapidbleu-core/src/rouge/dialects/unicode_tables.rs from Python's unicodedata.

rapidbleu's Unicode tokenizer for ROUGE (rouge/dialects/unicode.rs) is defined on the tables of
Python 3.11's `unicodedata` (Unicode 14.0.0): general categories L*, M*, N* and `c.lower()` of
each character on its own. Run with Python 3.11 and format the result:

    python3 scripts/gen_rouge_unicode_tables.py
    rustfmt --edition 2021 crates/rapidbleu-core/src/rouge/dialects/unicode_tables.rs
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

OUT = (
    Path(__file__).resolve().parent.parent
    / "crates/rapidbleu-core/src/rouge/dialects/unicode_tables.rs"
)


def word_class(c: str) -> str:
    cat = unicodedata.category(c)
    if cat[0] in "LN":
        return "W"
    if cat[0] == "M":
        return "M"
    return ""


def main() -> None:
    assert unicodedata.unidata_version == "14.0.0", unicodedata.unidata_version
    ranges: list[tuple[int, int, str]] = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        k = word_class(chr(cp))
        if not k:
            continue
        if ranges and ranges[-1][1] == cp - 1 and ranges[-1][2] == k:
            ranges[-1] = (ranges[-1][0], cp, k)
        else:
            ranges.append((cp, cp, k))
    single: list[tuple[int, int]] = []
    double: list[tuple[int, str]] = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        lo = chr(cp).lower()
        if lo == chr(cp):
            continue
        if len(lo) == 1:
            single.append((cp, ord(lo)))
        else:
            double.append((cp, lo))
    assert [c for c, _ in double] == [0x130] and double[0][1] == "i\u0307", double
    lines = [
        "//! Unicode tables of rapidbleu's ROUGE tokenizer (`unicode.rs`): word classes (general",
        "//! categories `L*`/`N*` and `M*`) and single-character lowercase mappings.",
        "//!",
        "//! GENERATED FILE, do not edit. Produced by `scripts/gen_rouge_unicode_tables.py` from",
        f"//! Python {sys.version_info.major}.{sys.version_info.minor}'s `unicodedata` "
        f"(Unicode {unicodedata.unidata_version}) and `str.lower`.",
        f"//! Word ranges: {len(ranges)}; lowercase mappings: {len(single)} single, "
        "1 double (U+0130).",
        "",
        "/// The class of a character for the tokenizer.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]",
        "pub(crate) enum WordClass {",
        "    /// Not a word character: it separates tokens.",
        "    Other,",
        "    /// A letter (`L*`) or number (`N*`).",
        "    Word,",
        "    /// A mark (`M*`).",
        "    Mark,",
        "}",
        "",
        "const W: WordClass = WordClass::Word;",
        "const M: WordClass = WordClass::Mark;",
        "",
        "/// Maximal runs `(first, last, class)` of word characters, sorted; others are `Other`.",
        "#[rustfmt::skip]",
        f"static RANGES: [(u32, u32, WordClass); {len(ranges)}] = [",
    ]
    for i in range(0, len(ranges), 4):
        lines.append(
            "    " + " ".join(f"(0x{a:04X}, 0x{b:04X}, {k})," for a, b, k in ranges[i : i + 4])
        )
    lines += [
        "];",
        "",
        "/// `(c, c.lower())` for every character whose lowercase is one other character, sorted.",
        "#[rustfmt::skip]",
        f"static LOWER: [(u32, u32); {len(single)}] = [",
    ]
    for i in range(0, len(single), 6):
        lines.append("    " + " ".join(f"(0x{a:04X}, 0x{b:04X})," for a, b in single[i : i + 6]))
    lines += [
        "];",
        "",
        "/// The class of `c`.",
        "pub(crate) fn word_class(c: char) -> WordClass {",
        "    let cp = c as u32;",
        "    if cp < 0x80 {",
        "        return if c.is_ascii_alphanumeric() { W } else { WordClass::Other };",
        "    }",
        "    match RANGES.binary_search_by(|&(a, b, _)| {",
        "        if b < cp {",
        "            std::cmp::Ordering::Less",
        "        } else if a > cp {",
        "            std::cmp::Ordering::Greater",
        "        } else {",
        "            std::cmp::Ordering::Equal",
        "        }",
        "    }) {",
        "        Ok(i) => RANGES[i].2,",
        "        Err(_) => WordClass::Other,",
        "    }",
        "}",
        "",
        "/// Python's `c.lower()` of one character: one character, or two (U+0130 only).",
        "pub(crate) fn lower(c: char) -> (char, Option<char>) {",
        "    if c.is_ascii() {",
        "        return (c.to_ascii_lowercase(), None);",
        "    }",
        "    if c == '\\u{130}' {",
        "        return ('i', Some('\\u{307}'));",
        "    }",
        "    match LOWER.binary_search_by_key(&(c as u32), |&(a, _)| a) {",
        "        Ok(i) => (char::from_u32(LOWER[i].1).unwrap_or(c), None),",
        "        Err(_) => (c, None),",
        "    }",
        "}",
        "",
    ]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT}: {len(ranges)} ranges, {len(single)} lowercase mappings")


if __name__ == "__main__":
    main()

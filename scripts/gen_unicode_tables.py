#!/usr/bin/env python3
"""Generate crates/rapidbleu-core/src/tokenize/unicode_tables.rs.

sacreBLEU's ``intl`` tokenizer (``TokenizerV14International``) uses the third-party ``regex``
module's ``\\p{N}``, ``\\p{P}`` and ``\\p{S}``. Their extent depends on the Unicode database
bundled with ``regex`` (not Python's ``unicodedata``), so this script asks ``regex`` itself,
code point by code point, and writes the answer as sorted range tables for the Rust core.

Usage (from the repository root, with the pinned ``regex`` installed)::

    .venv/bin/python scripts/gen_unicode_tables.py
    rustfmt --edition 2021 crates/rapidbleu-core/src/tokenize/unicode_tables.rs

Surrogates (U+D800..U+DFFF) are skipped: a Rust ``char`` cannot hold them, and a Python ``str``
that contains one cannot be passed to the Rust core anyway.
"""

from __future__ import annotations

import importlib.metadata
import re as stdlib_re
import sys
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/rapidbleu-core/src/tokenize/unicode_tables.rs"

# Order matters only for the enum's discriminants; the categories are disjoint (checked below).
CATEGORIES = ["N", "P", "S"]


def unicode_version() -> str:
    """The Unicode version the installed ``regex`` says it supports (from its package metadata)."""
    meta = importlib.metadata.metadata("regex").get_payload()  # type: ignore[attr-defined]
    m = stdlib_re.search(r"supports Unicode (\d+\.\d+\.\d+)", str(meta))
    return m.group(1) if m else "unknown (not stated in the regex package metadata)"


def classify() -> list[str]:
    """The category letter ('N', 'P', 'S' or '' for none of them) of every code point."""
    pats = {cat: regex.compile(rf"\p{{{cat}}}") for cat in CATEGORIES}
    cats = [""] * 0x110000
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        hits = [cat for cat, pat in pats.items() if pat.match(ch)]
        if len(hits) > 1:
            sys.exit(f"U+{cp:04X} is in several categories {hits}: the merged table cannot hold it")
        if hits:
            cats[cp] = hits[0]
    # \P{N} must be exactly the complement of \p{N}, or `intl`'s first rule needs its own table.
    not_n = regex.compile(r"\P{N}")
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        if bool(not_n.match(chr(cp))) == (cats[cp] == "N"):
            sys.exit(f"U+{cp:04X}: \\P{{N}} is not the complement of \\p{{N}}")
    return cats


def ranges(cats: list[str]) -> list[tuple[int, int, str]]:
    """Maximal runs of one category (surrogates never break or join a run: they are '')."""
    out: list[tuple[int, int, str]] = []
    for cp, cat in enumerate(cats):
        if not cat:
            continue
        if out and out[-1][2] == cat and out[-1][1] == cp - 1:
            out[-1] = (out[-1][0], cp, cat)
        else:
            out.append((cp, cp, cat))
    return out


def variant(cat: str) -> str:
    return {"N": "N", "P": "P", "S": "S", "": "Other"}[cat]


CODE = {"": 0, "N": 1, "P": 2, "S": 3}  # the discriminants of the Rust enum


def bmp_trie(cats: list[str]) -> tuple[list[int], list[tuple[int, int]]]:
    """A two-level table for U+0000..U+FFFF: one leaf index per 64 code points, and the distinct
    leaves, each two u64 words of 32 two-bit category codes."""
    index: list[int] = []
    leaves: list[tuple[int, int]] = []
    seen: dict[tuple[int, int], int] = {}
    for block in range(0x10000 // 64):
        words = [0, 0]
        for k in range(64):
            words[k >> 5] |= CODE[cats[block * 64 + k]] << ((k & 31) * 2)
        leaf = (words[0], words[1])
        if leaf not in seen:
            seen[leaf] = len(leaves)
            leaves.append(leaf)
        index.append(seen[leaf])
    if len(leaves) > 256:
        sys.exit(f"{len(leaves)} distinct BMP leaves: the u8 index cannot address them")
    return index, leaves


def render(cats: list[str]) -> str:
    index, leaves = bmp_trie(cats)
    rs = [r for r in ranges(cats) if r[1] >= 0x100]  # below U+0100 the Latin-1 table answers
    counts = {c: sum(1 for x in cats if x == c) for c in CATEGORIES}
    lines = [
        "//! Unicode general categories used by the `intl` tokenizer: `\\p{N}`, `\\p{P}`, "
        "`\\p{S}`.",
        "//!",
        "//! GENERATED FILE, do not edit. Produced by `scripts/gen_unicode_tables.py` from the",
        f"//! Python `regex` module {regex.__version__} (Unicode {unicode_version()}), the module",
        "//! and version sacreBLEU's `TokenizerV14International` uses; the categories are taken",
        "//! from `regex` itself (not from Python's `unicodedata`, which is older).",
        "//! Regenerate with:",
        "//!",
        "//! ```text",
        "//! .venv/bin/python scripts/gen_unicode_tables.py",
        "//! rustfmt --edition 2021 crates/rapidbleu-core/src/tokenize/unicode_tables.rs",
        "//! ```",
        "//!",
        f"//! Code points: N = {counts['N']}, P = {counts['P']}, S = {counts['S']} "
        "(surrogates excluded).",
        "//! The three categories are disjoint and `\\P{N}` is the complement of `\\p{N}` (the",
        "//! script checks both), so one merged table answers every question `intl` asks.",
        "",
        "/// Which of the categories `intl`'s regexes test a character belongs to.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]",
        "#[repr(u8)]",
        "pub(crate) enum IntlCat {",
        "    /// None of `N`, `P`, `S` (letters, marks, separators, controls, unassigned, ...).",
        "    Other = 0,",
        "    /// `\\p{N}`: number (`Nd`, `Nl`, `No`).",
        "    N = 1,",
        "    /// `\\p{P}`: punctuation (`Pc`, `Pd`, `Ps`, `Pe`, `Pi`, `Pf`, `Po`).",
        "    P = 2,",
        "    /// `\\p{S}`: symbol (`Sm`, `Sc`, `Sk`, `So`).",
        "    S = 3,",
        "}",
        "",
        "use IntlCat::{Other, N, P, S};",
        "",
        "/// Categories of U+0000..U+00FF, indexed by code point: the fast path for ASCII and",
        "/// Latin-1 text (one load).",
        "#[rustfmt::skip]",
        "pub(crate) static LATIN1_CAT: [IntlCat; 256] = [",
    ]
    for row in range(0, 256, 16):
        cells = ", ".join(variant(cats[cp]) for cp in range(row, row + 16))
        lines.append(f"    /* U+{row:04X} */ {cells},")
    lines += [
        "];",
        "",
        "/// Maximal runs `(first, last, category)` of code points >= U+0100 in `N`, `P` or `S`,",
        "/// sorted and non-overlapping; every code point not listed is `Other`.",
        "#[rustfmt::skip]",
        f"static RANGES: [(u32, u32, IntlCat); {len(rs)}] = [",
    ]
    cells = [f"(0x{max(lo, 0x100):04X}, 0x{hi:04X}, {variant(cat)})," for lo, hi, cat in rs]
    for i in range(0, len(cells), 4):
        lines.append("    " + " ".join(cells[i : i + 4]))
    lines += [
        "];",
        "",
        "/// The BMP (U+0000..U+FFFF) as a two-level table: `BMP_INDEX[cp >> 6]` picks the leaf",
        "/// for the 64 code points of `cp`'s block; a leaf holds their categories as 2-bit codes",
        "/// (the `IntlCat` discriminants), 32 per word. Lookups of BMP text (CJK, kana, Cyrillic)",
        f"/// are O(1) and branch-free; the tables take {len(index) + 16 * len(leaves)} bytes.",
        "#[rustfmt::skip]",
        f"static BMP_INDEX: [u8; {len(index)}] = [",
    ]
    for i in range(0, len(index), 32):
        lines.append("    " + " ".join(f"{x}," for x in index[i : i + 32]))
    lines += [
        "];",
        "",
        "/// The distinct leaves of [`BMP_INDEX`].",
        "#[rustfmt::skip]",
        f"static BMP_LEAVES: [[u64; 2]; {len(leaves)}] = [",
    ]
    for i in range(0, len(leaves), 2):
        lines.append(
            "    " + " ".join(f"[0x{w0:016X}, 0x{w1:016X}]," for w0, w1 in leaves[i : i + 2])
        )
    lines += [
        "];",
        "",
        "/// Decodes a 2-bit code of [`BMP_LEAVES`].",
        "const FROM_CODE: [IntlCat; 4] = [Other, N, P, S];",
        "",
        "/// The `intl` category of `c`, as the `regex` module sees it.",
        "#[inline]",
        "pub(crate) fn intl_category(c: char) -> IntlCat {",
        "    let cp = c as u32;",
        "    if let Some(&cat) = LATIN1_CAT.get(cp as usize) {",
        "        return cat;",
        "    }",
        "    if cp < 0x10000 {",
        "        let leaf = BMP_INDEX.get((cp >> 6) as usize).copied().unwrap_or(0);",
        "        let half = ((cp >> 5) & 1) as usize;",
        "        let word = BMP_LEAVES.get(usize::from(leaf)).map_or(0, |w| w[half]);",
        "        return FROM_CODE[((word >> ((cp & 31) * 2)) & 3) as usize];",
        "    }",
        "    // Astral planes: mostly symbols (emoji) and unassigned code points, rare in text.",
        "    search(cp)",
        "}",
        "",
        "/// The category of `cp` >= U+0100 by binary search in [`RANGES`].",
        "#[inline]",
        "fn search(cp: u32) -> IntlCat {",
        "    // The first range that starts after `cp`; the one before it is the only candidate.",
        "    let i = RANGES.partition_point(|&(lo, _, _)| lo <= cp);",
        "    match i.checked_sub(1).and_then(|j| RANGES.get(j)) {",
        "        Some(&(_, hi, cat)) if cp <= hi => cat,",
        "        _ => Other,",
        "    }",
        "}",
        "",
        "/// [`intl_category`] by binary search only, for the test that checks the BMP table.",
        "#[cfg(test)]",
        "pub(crate) fn intl_category_by_search(c: char) -> IntlCat {",
        "    match LATIN1_CAT.get(c as usize) {",
        "        Some(&cat) => cat,",
        "        None => search(c as u32),",
        "    }",
        "}",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    cats = classify()
    OUT.write_text(render(cats), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

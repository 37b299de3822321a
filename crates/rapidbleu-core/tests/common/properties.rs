//! Properties of the core that hold for *any* input, checked two ways with the same code:
//!
//! - on stable Rust by `tests/properties.rs` (proptest, a fixed seed and a fixed budget: what CI
//!   runs, `RAPIDBLEU_PROPTEST_CASES` scales it);
//! - on nightly Rust by the `cargo fuzz` targets of `fuzz/` (open-ended, coverage-guided), which
//!   include this file.
//!
//! Each function panics (an `assert!`) when a property fails; apart from that, no input may make
//! the core panic. The oracles are naive re-implementations (a `HashMap` counter of n-grams,
//! sacreBLEU's rules written out plainly), so the fast engine is checked against something
//! simple enough to read.
//!
//! TER's shift search (`crates/rapidbleu-core/src/ter/`, being written) gets its property here
//! when it lands: for any hypothesis and reference, the shifted edit distance is at most the
//! plain edit distance, at least |len(hyp) - len(ref)|, and equals tercom's on small inputs
//! (a `ter_shifts(hyp, ref)` function next to the others, and a fuzz target calling it).

#![allow(dead_code)] // each includer uses some of the properties

use rapidbleu_core::bleu::layout::RowLayout;
use rapidbleu_core::bleu::nltk::{sentence_bleu_rows, NltkParams};
use rapidbleu_core::bleu::options::{BleuOptions, Smooth, Summation};
use rapidbleu_core::bleu::ref_len::RefLenRule;
use rapidbleu_core::bleu::score::score_rows;
use rapidbleu_core::bleu::stats::{corpus_stats, sentence_scores};
use rapidbleu_core::bleu::tokens::token_stats;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::text::tokenize::Tokenizer;
use rapidbleu_core::text::whitespace::{py_rstrip, py_split};
use std::collections::HashMap;
use std::hash::Hash;

/// Every tokenizer of the core, by index (fuzz inputs pick one with a byte).
pub const TOKENIZERS: [Tokenizer; 5] = [
    Tokenizer::None,
    Tokenizer::T13a,
    Tokenizer::Intl,
    Tokenizer::Zh,
    Tokenizer::Char,
];

/// A tokenizer on any line: no panic; the token ranges lie inside the output and are the
/// `str.split()` of the normalized output (what sacreBLEU counts); normalized 13a/intl/zh
/// output is single-spaced and stripped.
pub fn tokenizer(tok: Tokenizer, line: &str) {
    let mut buf = Default::default();
    let normalized = tok.tokenize(line, &mut buf, true).to_string();
    let expected: Vec<&str> = py_split(&normalized).collect();
    if matches!(tok, Tokenizer::T13a | Tokenizer::Intl | Tokenizer::Zh) {
        assert_eq!(normalized, expected.join(" "), "{tok:?} output of {line:?}");
    }
    let mut ranges = Vec::new();
    let out = tok.tokens(line, &mut buf, &mut ranges).to_vec();
    let got: Vec<&str> = ranges
        .iter()
        .map(|&(a, b)| {
            assert!(a <= b && (b as usize) <= out.len(), "range out of bounds");
            std::str::from_utf8(&out[a as usize..b as usize]).expect("tokens are UTF-8")
        })
        .collect();
    assert_eq!(got, expected, "{tok:?} tokens of {line:?}");
}

/// sacreBLEU's statistics row of one segment, counted naively: `Counter`s of n-gram tuples,
/// the maximum over references, clipped matches, `len - n + 1` totals, the reference length
/// by `rule`.
pub fn naive_row<T: Eq + Hash + Clone>(
    hyp: &[T],
    refs: &[Vec<T>],
    order: usize,
    rule: RefLenRule,
) -> Vec<i64> {
    fn counts<T: Eq + Hash + Clone>(seq: &[T], n: usize) -> HashMap<Vec<T>, i64> {
        let mut m = HashMap::new();
        if seq.len() >= n {
            for w in seq.windows(n) {
                *m.entry(w.to_vec()).or_insert(0) += 1;
            }
        }
        m
    }
    let h = hyp.len() as i64;
    let lens: Vec<i64> = refs.iter().map(|r| r.len() as i64).collect();
    let ref_len = match rule {
        RefLenRule::ClosestShorter => *lens
            .iter()
            .min_by_key(|&&r| ((r - h).abs(), r))
            .expect("a reference"),
        RefLenRule::ClosestFirst => *lens
            .iter()
            .min_by_key(|&&r| (r - h).abs())
            .expect("a reference"),
        RefLenRule::Shortest => *lens.iter().min().expect("a reference"),
    };
    let mut row = vec![h, ref_len];
    let mut totals = Vec::new();
    for n in 1..=order {
        let mut max_ref: HashMap<Vec<T>, i64> = HashMap::new();
        for r in refs {
            for (g, c) in counts(r, n) {
                let e = max_ref.entry(g).or_insert(0);
                *e = (*e).max(c);
            }
        }
        let correct: i64 = counts(hyp, n)
            .iter()
            .map(|(g, &c)| c.min(*max_ref.get(g).unwrap_or(&0)))
            .sum();
        row.push(correct);
        totals.push((h - n as i64 + 1).max(0));
    }
    row.extend(totals);
    row
}

/// The tokens sacreBLEU counts for `line`: ASCII-lowercased if asked (the glue lowercases
/// other text with Python's `str.lower()`), right-stripped, tokenized, split.
fn naive_tokens(tok: Tokenizer, lowercase: bool, line: &str) -> Vec<String> {
    let line = if lowercase {
        line.to_ascii_lowercase()
    } else {
        line.to_string()
    };
    let mut buf = Default::default();
    let out = tok.tokenize(py_rstrip(&line), &mut buf, true);
    py_split(out).map(str::to_string).collect()
}

/// The largest score a perfect match can get: 100, give or take the rounding of
/// `exp(sum(w * ln(p)))` over many orders (sacreBLEU's float order, kept bit for bit).
const MAX_SCORE: f64 = 100.0 * (1.0 + 1e-12);

/// Statistics of a text corpus: rows equal the naive counter's; one thread and two agree;
/// the fused sentence scores equal the scores of the rows; every score is finite and within
/// 0..=100 (plus sacreBLEU's rounding of a perfect match).
pub fn text_stats(
    tok: Tokenizer,
    lowercase: bool,
    order: usize,
    hyps: &[String],
    refs: &[Vec<String>],
) {
    if hyps.is_empty() || hyps.len() != refs.len() || refs.iter().any(Vec::is_empty) {
        return;
    }
    let opts = BleuOptions::new(
        tok,
        lowercase,
        order as i64,
        Smooth::Exp,
        true,
        Summation::Plain,
    )
    .expect("valid options");
    let groups: Groups<&str> = refs
        .iter()
        .map(|rs| rs.iter().map(String::as_str).collect::<Vec<_>>())
        .collect();
    let corpus =
        Corpus::new(hyps.iter().map(String::as_str).collect(), groups).expect("valid corpus");
    let rows = corpus_stats(&corpus, &opts, Threads::ONE).expect("statistics");
    let two = Threads::new(2).expect("two threads");
    assert_eq!(corpus_stats(&corpus, &opts, two).expect("statistics"), rows);
    let width = 2 + 2 * order;
    for (i, row) in rows.chunks(width).enumerate() {
        let h = naive_tokens(tok, lowercase, &hyps[i]);
        let r: Vec<Vec<String>> = refs[i]
            .iter()
            .map(|x| naive_tokens(tok, lowercase, x))
            .collect();
        let expected = naive_row(&h, &r, order, RefLenRule::ClosestShorter);
        assert_eq!(
            row,
            expected.as_slice(),
            "segment {i}: {:?} vs {:?}",
            hyps[i],
            refs[i]
        );
    }
    let scores = score_rows(&rows, &opts).expect("scores of valid rows");
    assert_eq!(
        sentence_scores(&corpus, &opts, two).expect("scores"),
        scores
    );
    for s in scores {
        assert!(s.is_finite() && (0.0..=MAX_SCORE).contains(&s), "score {s}");
    }
}

/// Statistics of token IDs under every reference-length rule equal the naive counter's.
pub fn id_stats(order: usize, hyps: &[Vec<i64>], refs: &[Vec<Vec<i64>>]) {
    if hyps.is_empty() || hyps.len() != refs.len() || refs.iter().any(Vec::is_empty) {
        return;
    }
    let layout = RowLayout::new(order as i64).expect("valid order");
    let groups: Groups<&[i64]> = refs
        .iter()
        .map(|rs| rs.iter().map(Vec::as_slice).collect::<Vec<_>>())
        .collect();
    let corpus = Corpus::new(hyps.iter().map(Vec::as_slice).collect(), groups).expect("corpus");
    for rule in [
        RefLenRule::ClosestShorter,
        RefLenRule::ClosestFirst,
        RefLenRule::Shortest,
    ] {
        let rows = token_stats(&corpus, layout, rule, Threads::ONE).expect("statistics");
        let expected: Vec<i64> = hyps
            .iter()
            .zip(refs)
            .flat_map(|(h, r)| naive_row(h, r, order, rule))
            .collect();
        assert_eq!(rows, expected, "{rule:?}");
    }
}

/// Scoring any rows (negative, huge, inconsistent counts) under any smoothing: an error or
/// one score per row, never a panic; scores of consistent rows are finite and in 0..=100.
pub fn score_any_rows(values: &[i64], order: usize, smooth: u8, value: f64, effective: bool) {
    let method = match smooth % 4 {
        0 => Smooth::from_name("exp", None),
        1 => Smooth::from_name("floor", Some(value)),
        2 => Smooth::from_name("add-k", Some(value)),
        _ => Smooth::from_name("none", None),
    };
    let Ok(method) = method else { return };
    let opts = BleuOptions::new(
        Tokenizer::T13a,
        false,
        order as i64,
        method,
        effective,
        Summation::Plain,
    )
    .expect("valid options");
    let width = 2 + 2 * order;
    let rows = &values[..values.len() / width * width];
    let Ok(scores) = score_rows(rows, &opts) else {
        return;
    };
    assert_eq!(scores.len(), rows.len() / width);
    for (row, s) in rows.chunks(width).zip(scores) {
        let (h, r) = (row[0], row[1]);
        let (correct, totals) = row[2..].split_at(order);
        let consistent = h >= 0
            && r >= 0
            && correct.iter().zip(totals).all(|(&c, &t)| 0 <= c && c <= t)
            && totals.iter().all(|&t| t <= h);
        // A floor above 1 or a smoothing value beyond reason can push a precision above 1.
        let bounded = !matches!(smooth % 4, 1) || (0.0..=1.0).contains(&value);
        if consistent && bounded {
            assert!(
                s.is_finite() && (0.0..=MAX_SCORE).contains(&s),
                "{row:?}: {s}"
            );
        }
    }
}

/// NLTK's batched scorer on any rows, weights and constants: no panic; every row is scored
/// with a finite value, or left to Python (NaN) when a value is not finite.
pub fn nltk_any_rows(values: &[i64], order: usize, weights: &[f64], method: u8, eps: f64, k: f64) {
    let width = 2 + 2 * order;
    let rows: Vec<i64> = values[..values.len() / width * width]
        .iter()
        .map(|v| v.rem_euclid(1 << 20)) // NLTK's rows are counts
        .collect();
    let Ok(p) = NltkParams::new(method % 5, eps, k, method >= 5) else {
        return;
    };
    let weights = vec![weights.to_vec()];
    let Ok((scores, python)) = sentence_bleu_rows(
        &rows,
        RowLayout::new(order as i64).expect("order"),
        &weights,
        &[false],
        &p,
        Threads::ONE,
    ) else {
        return;
    };
    for (i, s) in scores.iter().enumerate() {
        assert!(
            s.is_finite() || (s.is_nan() && python.contains(&(i as u64))),
            "row {i}: {s}"
        );
    }
}

//! Golden vectors from sacreBLEU 2.6.0 and NumPy 2 (`scripts/gen_ter_golden.py`), compared
//! with `==`: Tercom tokenizer outputs for all 16 option combinations, segment statistics
//! (shuffles, repeats, unequal lengths, empty sides, 1-3 references, segments that reach the
//! 1,000-candidate cap), corpus scores, and float32 bootstrap sums and scores.

use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::ter::score::{
    avg_ref_len, bootstrap_scores_f32, bootstrap_sums_f32, corpus_totals, ter_score,
};
use rapidbleu_core::ter::{corpus_stats, TerOptions, TerWorker, TercomTokenizer, ROW_LEN};
use std::collections::BTreeMap;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The generator's escapes: `\\` and `\u{hex}`.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('u') => {
                assert_eq!(chars.next(), Some('{'));
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let code = u32::from_str_radix(&hex, 16).unwrap();
                out.push(char::from_u32(code).unwrap());
            }
            other => panic!("bad escape {other:?} in {s:?}"),
        }
    }
    out
}

fn tokenizer(flags: &str) -> TercomTokenizer {
    let f: Vec<bool> = flags.bytes().map(|b| b == b'1').collect();
    TercomTokenizer::new(TerOptions {
        normalized: f[0],
        no_punct: f[1],
        asian_support: f[2],
        case_sensitive: f[3],
    })
}

#[test]
fn tokenizer_outputs() {
    let text = data("ter_tokenizer.tsv");
    let mut out = String::new();
    let mut combos = std::collections::BTreeSet::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let tok = tokenizer(f[0]);
        combos.insert(f[0]);
        let input = unescape(f[1]);
        tok.tokenize(&input, &mut out);
        assert_eq!(
            out,
            unescape(f[2]),
            "TercomTokenizer({}) of {input:?}",
            f[0]
        );
        let pre = if f[3] == "=" { f[2] } else { f[3] };
        tok.preprocess(&input, &mut out);
        assert_eq!(
            out,
            unescape(pre),
            "_preprocess_segment({}) of {input:?}",
            f[0]
        );
    }
    assert_eq!(combos.len(), 16);
}

/// One segment of `ter_stats.tsv`.
struct Segment {
    group: String,
    flags: String,
    edits: i64,
    avg: f64,
    capped: bool,
    hyp: String,
    refs: Vec<String>,
}

fn segments() -> Vec<Segment> {
    data("ter_stats.tsv")
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Segment {
                group: f[0].to_string(),
                flags: f[1].to_string(),
                edits: f[2].parse().unwrap(),
                avg: f[3].parse().unwrap(),
                capped: f[4] == "1",
                hyp: unescape(f[5]),
                refs: f[6..].iter().map(|r| unescape(r)).collect(),
            }
        })
        .collect()
}

#[test]
fn segment_statistics() {
    let segs = segments();
    let mut w = TerWorker::default();
    for s in &segs {
        let refs: Vec<&str> = s.refs.iter().map(String::as_str).collect();
        let row = w.segment(&tokenizer(&s.flags), &s.hyp, &refs).unwrap();
        assert_eq!(
            row[0], s.edits,
            "{} {} {:?} {:?}",
            s.group, s.flags, s.hyp, s.refs
        );
        assert_eq!(row[2], refs.len() as i64);
        assert_eq!(
            avg_ref_len(row[1], row[2]),
            s.avg,
            "{:?} {:?}",
            s.hyp,
            s.refs
        );
    }
    // The data must exercise the candidate cap (the shift that crossed it is thrown away).
    assert!(segs.iter().filter(|s| s.capped).count() >= 5);
}

#[test]
fn corpus_scores() {
    let segs = segments();
    let mut groups: BTreeMap<(String, String), Vec<&Segment>> = BTreeMap::new();
    for s in &segs {
        groups
            .entry((s.group.clone(), s.flags.clone()))
            .or_default()
            .push(s);
    }
    let text = data("ter_corpus.tsv");
    assert!(text.lines().count() >= 20);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (score, ref_length): (f64, f64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        let num_edits: i64 = f[4].parse().unwrap();
        let group = &groups[&(f[0].to_string(), f[1].to_string())];
        let hyps: Vec<&str> = group.iter().map(|s| s.hyp.as_str()).collect();
        let refs: Groups<&str> = group
            .iter()
            .map(|s| s.refs.iter().map(String::as_str).collect::<Vec<_>>())
            .collect();
        let tok = tokenizer(f[1]);
        let corpus = Corpus::new(hyps, refs).unwrap();
        let mut rows = Vec::new();
        for threads in [1, 2] {
            rows = corpus_stats(&corpus, &tok, Threads::new(threads).unwrap()).unwrap();
            let (edits, length) = corpus_totals(&rows).unwrap();
            assert_eq!((edits, length), (num_edits, ref_length), "group {}", f[0]);
            assert_eq!(ter_score(edits, length), score, "group {}", f[0]);
        }
        if f[0] == "three" {
            // Three references: the sum depends on the order, and only segment order is right.
            let mut reversed = 0.0;
            for r in rows.chunks(ROW_LEN).rev() {
                reversed += avg_ref_len(r[1], r[2]);
            }
            assert_ne!(reversed, ref_length);
        }
    }
}

#[test]
fn bootstrap_float32() {
    let text = data("ter_bootstrap.tsv");
    let mut rows: Vec<i64> = Vec::new();
    let mut samples: Vec<(Vec<i64>, [f32; 2], f32)> = Vec::new();
    let check = |rows: &[i64], samples: &[(Vec<i64>, [f32; 2], f32)]| {
        if samples.is_empty() {
            return;
        }
        let idxs: Vec<i64> = samples.iter().flat_map(|s| s.0.clone()).collect();
        for threads in [Threads::ONE, Threads::new(2).unwrap()] {
            let sums = bootstrap_sums_f32(rows, &idxs, threads).unwrap();
            let scores = bootstrap_scores_f32(rows, &idxs, threads).unwrap();
            for (k, s) in samples.iter().enumerate() {
                assert_eq!(sums[k], s.1, "sample {k}");
                assert_eq!(scores[k], s.2, "sample {k}");
            }
        }
    };
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "rows" {
            check(&rows, &samples);
            samples.clear();
            rows = f[1]
                .split(' ')
                .flat_map(|t| t.split(',').map(|v| v.parse::<i64>().unwrap()))
                .collect();
        } else {
            let idx = f[1].split(' ').map(|v| v.parse().unwrap()).collect();
            let p = |v: &str| v.parse::<f64>().unwrap() as f32;
            samples.push((idx, [p(f[2]), p(f[3])], p(f[4])));
        }
    }
    check(&rows, &samples);
}

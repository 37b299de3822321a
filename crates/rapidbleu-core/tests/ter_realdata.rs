//! Corpus TER on the real WMT data in `../shared/data` (or `$RAPIDBLEU_DATA`) against the
//! sacreBLEU 2.6.0 scores of its `golden.jsonl` (`TER().corpus_score(hyps, refs)`), with `==`
//! on the score, the edits and the reference length. Without that folder the test uses the
//! repository's subset `tests/data` (19 of the 39 TER lines), so it never skips.
//!
//! The text is lowercased with Rust's `str::to_lowercase`, which equals Python's `str.lower()`
//! on these files (the glue uses Python's own).

use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::ter::score::{corpus_totals, ter_score};
use rapidbleu_core::ter::{corpus_stats, TerOptions, TercomTokenizer};
use std::path::PathBuf;

/// The real data and how many TER lines its golden file must hold.
fn data_dir() -> (PathBuf, usize) {
    if let Some(d) = std::env::var_os("RAPIDBLEU_DATA") {
        return (PathBuf::from(d), 39);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = root.join("../shared/data");
    if shared.join("golden.jsonl").is_file() {
        (shared, 39)
    } else {
        (root.join("tests/data"), 19)
    }
}

/// The text of `"key": "..."` in a JSON line (no escapes occur in these fields).
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap();
    rest[..end].trim_matches('"')
}

fn lines(path: &PathBuf) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_lowercase)
        .collect()
}

#[test]
fn golden_corpus_scores() {
    let (dir, expected) = data_dir();
    let golden = std::fs::read_to_string(dir.join("golden.jsonl"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let tok = TercomTokenizer::new(TerOptions::default());
    let mut checked = 0;
    for line in golden.lines().filter(|l| l.contains("\"metric\": \"TER\"")) {
        assert!(line.contains("\"options\": {}"), "{line}");
        let hyps = lines(&dir.join(field(line, "hyp")));
        let refs_start = line.find("\"refs\": [").unwrap() + 9;
        let refs_end = refs_start + line[refs_start..].find(']').unwrap();
        let streams: Vec<Vec<String>> = line[refs_start..refs_end]
            .split(", ")
            .map(|p| lines(&dir.join(p.trim_matches('"'))))
            .collect();
        let sets: Groups<&str> = (0..hyps.len())
            .map(|i| streams.iter().map(|s| s[i].as_str()).collect::<Vec<_>>())
            .collect();
        let hyp_refs: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let corpus = Corpus::new(hyp_refs, sets).unwrap();
        let rows = corpus_stats(&corpus, &tok, Threads::ALL).unwrap();
        let (edits, ref_length) = corpus_totals(&rows).unwrap();
        let what = format!("{} {}", field(line, "hyp"), &line[refs_start..refs_end]);
        assert_eq!(edits.to_string(), field(line, "num_edits"), "{what}");
        assert_eq!(
            ref_length,
            field(line, "ref_length").parse::<f64>().unwrap(),
            "{what}"
        );
        assert_eq!(
            ter_score(edits, ref_length),
            field(line, "score").parse::<f64>().unwrap(),
            "{what}"
        );
        checked += 1;
    }
    assert!(
        checked >= expected,
        "only {checked} TER lines in {}",
        dir.display()
    );
}

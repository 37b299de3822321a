//! Corpus TER on the real WMT data in `../shared/data` (or `$RAPIDBLEU_DATA`) against the
//! sacreBLEU 2.6.0 scores of its `golden.jsonl` (`TER().corpus_score(hyps, refs)`), with `==`
//! on the score, the edits and the reference length. The data is not part of the repository:
//! without it the test says so on stderr and checks nothing.
//!
//! The text is lowercased with Rust's `str::to_lowercase`, which equals Python's `str.lower()`
//! on these files (the glue uses Python's own).

use rapidbleu_core::stats::RefSets;
use rapidbleu_core::ter::score::{corpus_totals, ter_score};
use rapidbleu_core::ter::{corpus_stats, TerParams, TercomTokenizer, ROW_LEN};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    match std::env::var_os("RAPIDBLEU_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
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
    let dir = data_dir();
    let Ok(golden) = std::fs::read_to_string(dir.join("golden.jsonl")) else {
        eprintln!(
            "ter_realdata: no real data at {} — NOT CHECKED",
            dir.display()
        );
        return;
    };
    let tok = TercomTokenizer::new(TerParams::default());
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
        let sets: RefSets = (0..hyps.len())
            .map(|i| streams.iter().map(|s| s[i].as_str()).collect())
            .collect();
        let hyp_refs: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let mut rows = vec![0; hyps.len() * ROW_LEN];
        corpus_stats(&hyp_refs, &sets, &tok, 0, &mut rows).unwrap();
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
    assert!(checked >= 39, "only {checked} TER lines in golden.jsonl");
}

//! TER without Python: a profiling workload, a timer for real files, and a line protocol for
//! differential tests against sacreBLEU.
//!
//! - `profile_ter synth [segments] [words] [vocab] [threads]`: shuffled segments over a small
//!   vocabulary (shift-heavy; 50 words of a 30-word vocabulary is the worst case sacreBLEU
//!   takes ~1.5 s per pair for). Deterministic, so `valgrind --tool=callgrind
//!   --toggle-collect=measured` gives repeatable instruction counts.
//! - `profile_ter files THREADS REPEATS JOIN HYP REF [REF...]`: statistics of real files
//!   (`JOIN` consecutive lines joined into one segment, 1 = sentence level), timed `REPEATS`
//!   times; prints the median. Lowercasing uses Rust's `to_lowercase` (a timing tool only);
//!   the options come from `TER_FLAGS` (four 0/1 digits as below, default `0000`).
//! - `profile_ter stdin`: reads lines `FLAGS<TAB>HEX(hyp)<TAB>HEX(ref)...` (FLAGS four 0/1
//!   digits: normalized, no_punct, asian_support, case_sensitive; text already lowercased)
//!   and prints `edits ref_len_sum num_refs<TAB>HEX(tokenized hyp)`. With `tok` as the
//!   second argument it only prints `HEX(tokenized FIELD)` for each line `FLAGS<TAB>HEX`.

use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::ter::{corpus_stats, score, TerOptions, TerWorker, TercomTokenizer};
use std::io::{BufRead, Write};

#[path = "common/rng.rs"]
#[allow(dead_code)]
mod rng;
use rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("stdin") => stdin_protocol(args.get(2).map(String::as_str) == Some("tok")),
        Some("files") => files(&args[2..]),
        _ => synth(&args[1.min(args.len())..]),
    }
}

fn arg(args: &[String], i: usize, default: usize) -> usize {
    args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn synth(args: &[String]) {
    let n = arg(args, 1, 200);
    let len = arg(args, 2, 50);
    let vocab = arg(args, 3, 30);
    let threads = arg(args, 4, 1);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut hyps = Vec::with_capacity(n);
    let mut refs = Vec::with_capacity(n);
    for _ in 0..n {
        let words: Vec<String> = (0..len)
            .map(|_| format!("w{}", rng.below(vocab as u64)))
            .collect();
        let mut shuffled = words.clone();
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i as u64 + 1) as usize);
        }
        refs.push(words.join(" "));
        hyps.push(shuffled.join(" "));
    }
    let hyp_refs: Vec<&str> = hyps.iter().map(String::as_str).collect();
    let sets: Groups<&str> = refs.iter().map(|r| vec![r.as_str()]).collect();
    let tok = TercomTokenizer::new(TerOptions::default());
    let corpus = Corpus::new(hyp_refs, sets).expect("one reference per segment");
    let mut out = Vec::new();
    let t0 = std::time::Instant::now();
    measured(&corpus, &tok, threads, &mut out);
    let dt = t0.elapsed();
    println!(
        "{n} segments of {len} words (vocabulary {vocab}): {dt:?} ({:.1} us/segment), TER {}",
        dt.as_secs_f64() * 1e6 / n as f64,
        score::corpus_score(&out).expect("rows")
    );
}

/// The measured work, kept out of line so that `valgrind --toggle-collect=measured` finds it.
#[inline(never)]
fn measured(corpus: &Corpus<&str>, tok: &TercomTokenizer, threads: usize, out: &mut Vec<i64>) {
    let threads = Threads::new(threads as i64).expect("thread count");
    *out = corpus_stats(corpus, tok, threads).expect("stats");
}

fn read_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("readable file")
        .lines()
        .map(str::to_lowercase)
        .collect()
}

fn join(lines: Vec<String>, k: usize) -> Vec<String> {
    lines.chunks(k.max(1)).map(|c| c.join(" ")).collect()
}

fn files(args: &[String]) {
    let threads = arg(args, 0, 1);
    let repeats = arg(args, 1, 5).max(1);
    let k = arg(args, 2, 1);
    let hyps = join(read_lines(&args[3]), k);
    let refs: Vec<Vec<String>> = args[4..].iter().map(|p| join(read_lines(p), k)).collect();
    let hyp_refs: Vec<&str> = hyps.iter().map(String::as_str).collect();
    let sets: Groups<&str> = (0..hyps.len())
        .map(|i| refs.iter().map(|r| r[i].as_str()).collect::<Vec<_>>())
        .collect();
    let flags = std::env::var("TER_FLAGS").unwrap_or_else(|_| "0000".into());
    let tok = TercomTokenizer::new(params(&flags));
    let corpus = Corpus::new(hyp_refs, sets).expect("one reference per segment");
    let mut out = Vec::new();
    let mut times = Vec::new();
    for _ in 0..repeats {
        let t0 = std::time::Instant::now();
        measured(&corpus, &tok, threads, &mut out);
        times.push(t0.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} segments, {} refs, {threads} threads: median {:.2} ms (min {:.2}); TER {}",
        hyps.len(),
        refs.len(),
        times[times.len() / 2] * 1e3,
        times[0] * 1e3,
        score::corpus_score(&out).expect("rows")
    );
}

fn hex(s: &[u8]) -> String {
    s.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> String {
    let bytes: Vec<u8> = (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    String::from_utf8(bytes).expect("utf-8")
}

fn params(flags: &str) -> TerOptions {
    let f: Vec<bool> = flags.bytes().map(|b| b == b'1').collect();
    TerOptions {
        normalized: f[0],
        no_punct: f[1],
        asian_support: f[2],
        case_sensitive: f[3],
    }
}

fn stdin_protocol(tok_only: bool) {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut worker = TerWorker::default();
    let mut buf = String::new();
    for line in stdin.lock().lines() {
        let line = line.expect("line");
        let mut fields = line.split('\t');
        let tok = TercomTokenizer::new(params(fields.next().expect("flags")));
        let texts: Vec<String> = fields.map(unhex).collect();
        if tok_only {
            tok.tokenize(&texts[0], &mut buf);
            writeln!(out, "{}", hex(buf.as_bytes())).expect("write");
            continue;
        }
        let refs: Vec<&str> = texts[1..].iter().map(String::as_str).collect();
        let row = worker.segment(&tok, &texts[0], &refs).expect("segment");
        tok.preprocess(&texts[0], &mut buf);
        writeln!(
            out,
            "{} {} {}\t{}",
            row[0],
            row[1],
            row[2],
            hex(buf.as_bytes())
        )
        .expect("write");
    }
}

//! The Rust side of `benchmarks/bench_rouge_dialects_core.py`: times one ROUGE dialect of the
//! core on items read from a file, and writes every item's scores for the script to compare
//! with the package's.
//!
//! `cargo run --release --example time_rouge_dialects -- <dialect> <items> <scores-out>
//! <threads> <repeats>`, where `<dialect>` is `pltrdy`, `chinese` (default metrics, exclusive),
//! `unicode` (rouge1, rouge2, rougeL, rougeLsum; Porter stemmer) or `xlsum` (the same types on
//! given tokens). Items are lines of tab-separated fields: `hyp \t ref` (the first three), or
//! `target tokens \t prediction tokens \t target sentences \t prediction sentences` (xlsum:
//! tokens joined by U+001F, sentences by U+001E). Texts hold `\n` as U+001D.
//!
//! Prints one JSON object: the best and median seconds of `repeats` runs of rows + per-item
//! scores (reading the file excluded). The scores file has one line per item: the `f`, `p`,
//! `r` bits (hex) of each metric, space-separated, or `E` for an item the package raises on.

use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::rouge::dialects::pltrdy::{self, f_p_r, PltrdyOptions};
use rapidbleu_core::rouge::dialects::sentences::Splitter;
use rapidbleu_core::rouge::dialects::tokens::{self, TokenItem, TokenText};
use rapidbleu_core::rouge::dialects::unicode;
use rapidbleu_core::rouge::score::score;
use rapidbleu_core::rouge::RougeOptions;
use std::fmt::Write;
use std::time::Instant;

fn tokens_of(s: &str) -> Vec<&str> {
    if s.is_empty() {
        Vec::new()
    } else {
        s.split('\u{1f}').collect()
    }
}

fn token_text<'a>(tokens: &'a str, sents: &'a str) -> TokenText<'a> {
    TokenText {
        tokens: tokens_of(tokens),
        sentences: Some(if sents.is_empty() {
            Vec::new()
        } else {
            sents.split('\u{1e}').map(tokens_of).collect()
        }),
    }
}

/// Every item's scores (per metric `(f, p, r)` or rouge-score's `(p, r, f)`), or `None`
/// for an item the package raises on.
type Scores = Vec<Option<Vec<(f64, f64, f64)>>>;

fn format(scores: &Scores) -> String {
    let mut out = String::new();
    for item in scores {
        match item {
            None => out.push('E'),
            Some(v) => {
                for s in v {
                    let (a, b, c) = (s.0.to_bits(), s.1.to_bits(), s.2.to_bits());
                    let _ = write!(out, "{a:016x},{b:016x},{c:016x} ");
                }
            }
        }
        out.push('\n');
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dialect, input, output, threads, repeats] = &args[..] else {
        eprintln!("usage: time_rouge_dialects <dialect> <items> <scores-out> <threads> <repeats>");
        std::process::exit(2);
    };
    let threads = Threads::new(threads.parse().expect("threads")).expect("threads");
    let repeats: usize = repeats.parse().expect("repeats");
    let body = std::fs::read_to_string(input).expect("items file");
    let lines: Vec<String> = body
        .split_terminator('\n')
        .map(|l| l.replace('\u{1d}', "\n"))
        .collect();
    let fields: Vec<Vec<&str>> = lines.iter().map(|l| l.split('\t').collect()).collect();
    let lsum = ["rouge1", "rouge2", "rougeL", "rougeLsum"];
    let run = || -> Scores {
        match dialect.as_str() {
            "pltrdy" | "chinese" => {
                let splitter = if dialect == "pltrdy" {
                    Splitter::Period
                } else {
                    Splitter::Chinese
                };
                let opts = PltrdyOptions::new(None, true, splitter).expect("options");
                let items: Vec<(&str, &str)> = fields.iter().map(|f| (f[0], f[1])).collect();
                let rows = pltrdy::rows(&opts, &items, threads).expect("rows");
                let n = opts.metrics().len();
                rows.chunks(opts.row_len())
                    .map(|row| match opts.error(row[3 * n + 2]) {
                        Some(_) => None,
                        None => Some(row[..3 * n].chunks(3).map(f_p_r).collect()),
                    })
                    .collect()
            }
            "unicode" | "xlsum" => {
                let opts = RougeOptions::new(&lsum, dialect == "unicode").expect("options");
                let rows = if dialect == "unicode" {
                    let items: Vec<(&str, Vec<&str>)> =
                        fields.iter().map(|f| (f[0], vec![f[1]])).collect();
                    unicode::rows(&opts, &items, threads).expect("rows")
                } else {
                    let items: Vec<TokenItem<'_>> = fields
                        .iter()
                        .map(|f| TokenItem {
                            target: token_text(f[0], f[2]),
                            prediction: token_text(f[1], f[3]),
                        })
                        .collect();
                    tokens::rows(&opts, &items, threads).expect("rows")
                };
                rows.chunks(opts.row_len())
                    .map(|row| Some(row.chunks(3).map(|t| score(t[0], t[1], t[2])).collect()))
                    .collect()
            }
            other => panic!("unknown dialect {other}"),
        }
    };
    let mut times = Vec::new();
    let mut scores = Scores::new();
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        scores = run();
        times.push(t.elapsed().as_secs_f64());
    }
    std::fs::write(output, format(&scores)).expect("scores file");
    times.sort_by(f64::total_cmp);
    println!(
        "{{\"dialect\": \"{dialect}\", \"items\": {}, \"threads\": {}, \"best_s\": {}, \
         \"median_s\": {}}}",
        fields.len(),
        threads.get(),
        times[0],
        times[times.len() / 2]
    );
}

//! A deterministic workload for profiling the statistics pipeline without Python:
//! `cargo run --release --example profile_stats -- [segments] [tokenizer]`, or under
//! `valgrind --tool=callgrind` for repeatable instruction counts.

use rapidbleu_core::bleu::options::{BleuOptions, Smooth, Summation};
use rapidbleu_core::bleu::stats::corpus_stats;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::text::tokenize::Tokenizer;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let tok = Tokenizer::from_name(args.get(2).map_or("13a", String::as_str)).expect("tokenizer");
    let threads =
        Threads::new(args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1)).expect("threads");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let vocab: Vec<String> = (0..20_000)
        .map(|_| {
            let len = 1 + rng.below(9) as usize;
            (0..len)
                .map(|_| char::from(b'a' + rng.below(26) as u8))
                .collect()
        })
        .collect();
    let word = |rng: &mut Rng| vocab[rng.zipf(vocab.len())].clone();
    let mut refs = Vec::with_capacity(n);
    let mut hyps = Vec::with_capacity(n);
    for _ in 0..n {
        let k = 10 + rng.below(31) as usize;
        let words: Vec<String> = (0..k).map(|_| word(&mut rng)).collect();
        refs.push(format!(
            "{}, \"{}\".",
            words[..k / 2].join(" "),
            words[k / 2..].join(" ")
        ));
        let hw: Vec<String> = words
            .iter()
            .map(|w| {
                if rng.below(5) == 0 {
                    word(&mut rng)
                } else {
                    w.clone()
                }
            })
            .collect();
        hyps.push(format!(
            "{} - {}.",
            hw[..k / 3].join(" "),
            hw[k / 3..].join(" ")
        ));
    }
    let sets: Groups<&str> = refs.iter().map(|r| [r.as_str()]).collect();
    let corpus = Corpus::new(hyps.iter().map(String::as_str).collect(), sets).expect("corpus");
    let opts =
        BleuOptions::new(tok, false, 4, Smooth::Exp, false, Summation::Plain).expect("options");
    let t0 = std::time::Instant::now();
    let out = measured(&corpus, &opts, threads);
    let dt = t0.elapsed();
    let row_len = opts.layout().row_len();
    let sums: Vec<i64> = (0..row_len)
        .map(|j| out.iter().skip(j).step_by(row_len).sum())
        .collect();
    println!(
        "{n} segments, {}: {:?} ({:.2} us/segment); sums {sums:?}",
        tok.name(),
        dt,
        dt.as_secs_f64() * 1e6 / n as f64
    );
}

/// The measured work, kept out of line so that `valgrind --toggle-collect=measured` finds it.
#[inline(never)]
fn measured(corpus: &Corpus<&str>, opts: &BleuOptions, threads: Threads) -> Vec<i64> {
    corpus_stats(corpus, opts, threads).expect("stats")
}

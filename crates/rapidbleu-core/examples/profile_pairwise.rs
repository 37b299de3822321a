//! A deterministic workload for profiling pairwise BLEU without Python, shaped like
//! `benchmarks/bench_significance.py`: self-BLEU of 1,000 samples of 20 Zipf-like words, and
//! sentence-BLEU matrices of 16 groups of 64 of them:
//! `cargo run --release --example profile_pairwise -- [self|matrices|both] [repeats]`, or under
//! `valgrind --tool=callgrind --toggle-collect='*measured*'` for instruction counts.

use rapidbleu_core::bleu::options::BleuOptions;
use rapidbleu_core::bleu::pairwise::{matrices, self_stats};
use rapidbleu_core::corpus::Groups;
use rapidbleu_core::engine::parallel::Threads;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("both", String::as_str).to_string();
    let repeats: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let vocab: Vec<String> = (0..5000)
        .map(|i| format!("w{}", i * 7919 % 100_003))
        .collect();
    let samples: Vec<String> = (0..1000)
        .map(|_| {
            let words: Vec<&str> = (0..20)
                .map(|_| vocab[rng.zipf(vocab.len())].as_str())
                .collect();
            words.join(" ")
        })
        .collect();
    let s: Vec<&str> = samples.iter().map(String::as_str).collect();
    let (mut best, mut sum) = (f64::MAX, 0);
    for _ in 0..repeats {
        let t = std::time::Instant::now();
        sum = measured(&s, &which);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{which}: best of {repeats} {:.3} ms; checksum {sum}",
        best * 1e3
    );
}

/// The measured work, kept out of line so that `valgrind --toggle-collect=measured` finds it.
#[inline(never)]
fn measured(samples: &[&str], which: &str) -> i64 {
    let opts = BleuOptions::default();
    let mut sum = 0;
    if which != "matrices" {
        sum += self_stats(samples, &opts)
            .expect("self-BLEU")
            .iter()
            .sum::<i64>();
    }
    if which != "self" {
        let groups: Groups<&str> = samples.chunks(64).map(<[&str]>::to_vec).collect();
        let mats = matrices(&groups, &groups, &opts, Threads::ONE).expect("matrices");
        sum += mats.iter().flatten().sum::<f64>() as i64;
    }
    sum
}

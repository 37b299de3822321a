//! A deterministic workload for profiling the statistics pipeline without Python:
//! `cargo run --release --example profile_stats -- [segments] [tokenizer]`, or under
//! `valgrind --tool=callgrind` for repeatable instruction counts.

use rapidbleu_core::bleu::stats::{corpus_stats, RefSets, StatsOptions};
use rapidbleu_core::text::tokenize::Tokenizer;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let tok = Tokenizer::from_name(args.get(2).map_or("13a", String::as_str)).expect("tokenizer");
    let threads: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
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
    let hyp_refs: Vec<&str> = hyps.iter().map(String::as_str).collect();
    let sets: RefSets = refs.iter().map(|r| vec![r.as_str()]).collect();
    let opts = StatsOptions::new(tok, false, 4).expect("options");
    let mut out = vec![0i64; n * opts.row_len()];
    let t0 = std::time::Instant::now();
    measured(&hyp_refs, &sets, &opts, threads, &mut out);
    let dt = t0.elapsed();
    let sums: Vec<i64> = (0..opts.row_len())
        .map(|j| out.iter().skip(j).step_by(opts.row_len()).sum())
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
fn measured(
    hyps: &[&str],
    refs: &RefSets<'_>,
    opts: &StatsOptions,
    threads: usize,
    out: &mut [i64],
) {
    corpus_stats(hyps, refs, opts, threads, out).expect("stats");
}

//! A deterministic token-ID workload for profiling the n-gram engine without Python, shaped
//! like `benchmarks/bench_ids.py` (Zipf-like IDs from a vocabulary of 32,000, hypotheses that
//! are noisy copies of their one reference):
//! `cargo run --release --example profile_ids -- [long|short] [repeats] [order] [threads]`,
//! or under `valgrind --tool=callgrind --toggle-collect='*measured*'` for instruction counts.

use rapidbleu_core::bleu::layout::RowLayout;
use rapidbleu_core::bleu::ref_len::RefLenRule;
use rapidbleu_core::bleu::tokens::token_stats;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A Zipf-like token ID from a vocabulary of 32,000.
fn id(rng: &mut Rng) -> i64 {
    rng.zipf(32_000) as i64
}

/// Hypotheses and references (one each), stored flat.
fn sequences(long: bool) -> (Groups<i64>, Groups<i64>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut hyps, mut refs) = (Groups::new(), Groups::new());
    let n = if long { 256 } else { 10_000 };
    for _ in 0..n {
        let len = if long {
            1024
        } else {
            20 + rng.below(41) as usize
        };
        let reference: Vec<i64> = (0..len).map(|_| id(&mut rng)).collect();
        let hypothesis: Vec<i64> = reference
            .iter()
            .map(|&t| if rng.below(4) == 0 { id(&mut rng) } else { t })
            .collect();
        hyps.push_slice(&hypothesis);
        refs.push_slice(&reference);
    }
    (hyps, refs)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("long", String::as_str);
    let arg =
        |i: usize, default: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let (repeats, order, threads) = (arg(2, 5), arg(3, 4), arg(4, 1));
    let layout = RowLayout::new(order as i64).expect("order");
    let threads = Threads::new(threads as i64).expect("threads");
    let (hyps, refs) = sequences(which == "long");
    let refs: Groups<&[i64]> = refs.iter().map(|r| [r]).collect();
    let c = Corpus::new(hyps.iter().collect(), refs).expect("corpus");
    let mut best = f64::MAX;
    let mut sums = Vec::new();
    for _ in 0..repeats {
        let t = std::time::Instant::now();
        let rows = measured(&c, layout, threads);
        best = best.min(t.elapsed().as_secs_f64());
        let w = layout.row_len();
        sums = (0..w)
            .map(|j| rows.iter().skip(j).step_by(w).sum::<i64>())
            .collect();
    }
    println!(
        "{which}, order {order}, {} thread(s): best of {repeats} {:.2} ms; sums {sums:?}",
        threads.get(),
        best * 1e3
    );
}

/// The measured work, kept out of line so that `valgrind --toggle-collect=measured` finds it.
#[inline(never)]
fn measured(c: &Corpus<&[i64]>, layout: RowLayout, threads: Threads) -> Vec<i64> {
    token_stats(c, layout, RefLenRule::ClosestShorter, threads).expect("stats")
}

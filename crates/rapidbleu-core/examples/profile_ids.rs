//! A deterministic token-ID workload for profiling the n-gram engine without Python, shaped
//! like `benchmarks/bench_ids.py` (Zipf-like IDs from a vocabulary of 32,000, hypotheses that
//! are noisy copies of their one reference):
//! `cargo run --release --example profile_ids -- [long|short] [repeats] [order] [threads]`,
//! or under `valgrind --tool=callgrind --toggle-collect='*measured*'` for instruction counts.

use rapidbleu_core::ids::{token_stats, RefLenRule, TokenCorpus};

/// A small xorshift generator: the workload must not depend on a crate's RNG version.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A Zipf-like ID: floor(V^u) for uniform u, so small IDs are frequent.
    fn id(&mut self) -> i64 {
        let u = self.below(1 << 20) as f64 / f64::from(1 << 20);
        (32_000f64.powf(u) as i64).min(31_999)
    }
}

fn corpus(long: bool) -> TokenCorpus<i64> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut c = TokenCorpus::default();
    let n = if long { 256 } else { 10_000 };
    for _ in 0..n {
        let len = if long {
            1024
        } else {
            20 + rng.below(41) as usize
        };
        let reference: Vec<i64> = (0..len).map(|_| rng.id()).collect();
        let hypothesis: Vec<i64> = reference
            .iter()
            .map(|&t| if rng.below(4) == 0 { rng.id() } else { t })
            .collect();
        c.hyps.push_slice(&hypothesis);
        c.refs.push_slice(&reference);
        c.end_segment();
    }
    c
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("long", String::as_str);
    let arg =
        |i: usize, default: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let (repeats, order, threads) = (arg(2, 5), arg(3, 4), arg(4, 1));
    let c = corpus(which == "long");
    let mut best = f64::MAX;
    let mut sums = Vec::new();
    for _ in 0..repeats {
        let t = std::time::Instant::now();
        let rows = measured(&c, order, threads);
        best = best.min(t.elapsed().as_secs_f64());
        let w = 2 + 2 * order;
        sums = (0..w)
            .map(|j| rows.iter().skip(j).step_by(w).sum::<i64>())
            .collect();
    }
    println!(
        "{which}, order {order}, {threads} thread(s): best of {repeats} {:.2} ms; sums {sums:?}",
        best * 1e3
    );
}

/// The measured work, kept out of line so that `valgrind --toggle-collect=measured` finds it.
#[inline(never)]
fn measured(c: &TokenCorpus<i64>, order: usize, threads: usize) -> Vec<i64> {
    token_stats(c, order, RefLenRule::ClosestShorter, threads).expect("stats")
}

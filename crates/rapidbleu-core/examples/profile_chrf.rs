//! A deterministic chrF workload for profiling without Python:
//! `cargo run --release --example profile_chrf -- [hyp-file ref-file...|synthetic N] [word_order]
//! [threads] [repeats]`, or under `valgrind --tool=callgrind --toggle-collect='*measured*'` for
//! repeatable instruction counts. With files, every line is a segment (several reference files:
//! several references per segment). Prints the median (and minimum) wall time of `repeats`
//! runs of corpus statistics and of batched sentence scores, the corpus score, and with one
//! thread the thread's CPU time per call (a busy machine inflates wall time, not CPU time).

use rapidbleu_core::chrf::{corpus_stats, f_score, sentence_scores, ChrfOptions};
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use std::time::{Duration, Instant};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// Synthetic segments: Zipf-like words (a few non-ASCII) in noisy copies of one reference.
fn synthetic(n: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let vocab: Vec<String> = (0..20_000)
        .map(|_| {
            let len = 1 + rng.below(9) as usize;
            (0..len)
                .map(|_| match rng.below(40) {
                    0 => 'ü',
                    1 => 'ß',
                    k => char::from(b'a' + (k % 26) as u8),
                })
                .collect()
        })
        .collect();
    let word = |rng: &mut Rng| vocab[rng.zipf(vocab.len())].clone();
    let (mut hyps, mut refs) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let k = 10 + rng.below(31) as usize;
        let words: Vec<String> = (0..k).map(|_| word(&mut rng)).collect();
        let hyp: Vec<String> = words
            .iter()
            .map(|w| {
                if rng.below(5) == 0 {
                    word(&mut rng)
                } else {
                    w.clone()
                }
            })
            .collect();
        refs.push(vec![format!(
            "{}, \"{}\".",
            words[..k / 2].join(" "),
            words[k / 2..].join(" ")
        )]);
        hyps.push(format!(
            "{} - {}.",
            hyp[..k / 3].join(" "),
            hyp[k / 3..].join(" ")
        ));
    }
    (hyps, refs)
}

fn lines(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable UTF-8 file");
    text.split('\n').map(str::to_string).collect()
}

/// CPU time of the calling thread (Linux `schedstat`), which a busy machine does not inflate
/// as it does wall time; `None` elsewhere.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The median and the minimum (the least disturbed run on a busy machine).
fn stats(mut t: Vec<Duration>) -> (Duration, Duration) {
    t.sort();
    (t[t.len() / 2], t[0])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (hyps, refs, rest) = if args.first().map(String::as_str) == Some("synthetic") {
        let n = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
        let (h, r) = synthetic(n);
        (h, r, &args[2.min(args.len())..])
    } else if args.len() >= 2 && !args[0].chars().all(|c| c.is_ascii_digit()) {
        let files = args
            .iter()
            .take_while(|a| a.parse::<usize>().is_err())
            .count();
        let mut h = lines(&args[0]);
        let rs: Vec<Vec<String>> = args[1..files].iter().map(|f| lines(f)).collect();
        // A file's final newline ends its last line; it does not start another.
        h.pop();
        let refs = (0..h.len())
            .map(|i| rs.iter().map(|r| r[i].clone()).collect())
            .collect();
        (h, refs, &args[files..])
    } else {
        let (h, r) = synthetic(20_000);
        (h, r, &args[..])
    };
    let arg =
        |i: usize, default: usize| rest.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let (word_order, threads, repeats) = (arg(0, 0) as i64, arg(1, 1), arg(2, 5).max(1));
    let p = ChrfOptions::new(6, word_order, 4.0, false, false, false).expect("options");
    let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
    let sets: Groups<&str> = refs
        .iter()
        .map(|r| r.iter().map(String::as_str).collect::<Vec<_>>())
        .collect();
    let corpus = Corpus::new(h, sets).expect("one reference set per hypothesis");
    let n_threads = Threads::new(threads as i64).expect("a thread count up to 1024");
    let mut rows = Vec::new();
    let (mut t_rows, mut t_scores) = (Vec::new(), Vec::new());
    let cpu0 = thread_cpu();
    for _ in 0..repeats {
        let t0 = Instant::now();
        rows = measured_rows(&corpus, &p, n_threads);
        t_rows.push(t0.elapsed());
        let t0 = Instant::now();
        measured_scores(&corpus, &p, n_threads);
        t_scores.push(t0.elapsed());
    }
    // With one thread all the work runs on this thread: its CPU time per call.
    let cpu = match (cpu0, thread_cpu()) {
        (Some(a), Some(b)) if threads == 1 => format!(
            "; CPU time {:.2} ms per call",
            (b - a).as_secs_f64() * 1e3 / (2 * repeats) as f64
        ),
        _ => String::new(),
    };
    let mut total = vec![0i64; p.row_len()];
    for row in rows.chunks_exact(p.row_len()) {
        total.iter_mut().zip(row).for_each(|(t, v)| *t += v);
    }
    let ((r, r_min), (s, s_min)) = (stats(t_rows), stats(t_scores));
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{} segments, chrF word_order={word_order}, {threads} thread(s), median (min) of \
         {repeats}: corpus stats {:.2} ms ({:.2}), sentence scores {:.2} ms ({:.2}); \
         corpus score {}{cpu}",
        corpus.len(),
        ms(r),
        ms(r_min),
        ms(s),
        ms(s_min),
        f_score(&total, &p)
    );
}

/// The measured work, kept out of line so that `valgrind --toggle-collect` finds it.
#[inline(never)]
fn measured_rows(corpus: &Corpus<&str>, p: &ChrfOptions, threads: Threads) -> Vec<i64> {
    corpus_stats(corpus, p, threads).expect("stats")
}

#[inline(never)]
fn measured_scores(corpus: &Corpus<&str>, p: &ChrfOptions, threads: Threads) -> Vec<f64> {
    sentence_scores(corpus, p, threads).expect("scores")
}

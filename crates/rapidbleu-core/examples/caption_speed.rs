//! Times the caption metrics of the core on an input written by
//! `benchmarks/bench_caption_core.py`, and prints one JSON object (timings and scores).
//!
//! Input (UTF-8, one record per line, fields split at `\t`, captions JSON-free: they hold no
//! `\t` or `\n`): `log <np.log(1)> ...`, then `img <hyp> <ref> ...` per image, then
//! `batch <first> <count>` (the reward batch: those images, scored against the document
//! frequencies of all of them).
//!
//! ```text
//! cargo run --release -p rapidbleu-core --example caption_speed -- INPUT [ROUNDS] [THREADS] [CASES]
//! ```
//!
//! `CASES` (all by default): the cases timed, comma-separated among `bleu`, `rouge`, `cider`,
//! `df` and `reward` (one case alone, for a profiler); the others run one round.

use rapidbleu_core::caption::bleu::CocoBleu;
use rapidbleu_core::caption::cider::score::{corpus_scores, RefLen, Scorer};
use rapidbleu_core::caption::cider::{CiderD, DocumentFrequency};
use rapidbleu_core::caption::numeric::LogTable;
use rapidbleu_core::caption::rouge_l::CocoRougeL;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::metric::Metric;
use std::time::Instant;

/// The median of `rounds` timings of `f` (seconds), and its last result.
fn timed<T>(rounds: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut out = None;
    for _ in 0..rounds {
        let t = Instant::now();
        out = Some(f());
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], out.expect("at least one round"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("an input file");
    let rounds: usize = args.get(2).map_or(5, |r| r.parse().expect("rounds"));
    let threads = Threads::new(args.get(3).map_or(0, |t| t.parse().expect("threads")))
        .expect("a thread count");
    let cases = args
        .get(4)
        .map_or("bleu,rouge,cider,df,reward", String::as_str);
    let rounds_of = |case: &str| {
        if cases.split(',').any(|c| c == case) {
            rounds
        } else {
            1
        }
    };
    let (mut log, mut hyps, mut refs, mut batch) = (None, Vec::new(), Vec::new(), (0, 0));
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "log" => {
                let v = f[1..].iter().map(|x| x.parse().expect("a float")).collect();
                log = Some(LogTable::from_values(v));
            }
            "img" => {
                hyps.push(f[1]);
                refs.push(f[2..].to_vec());
            }
            "batch" => batch = (f[1].parse().expect("first"), f[2].parse().expect("count")),
            other => panic!("unknown record {other}"),
        }
    }
    let log = log.expect("a log line");
    let corpus = Corpus::new(hyps.clone(), Groups::from_iter(refs.iter().cloned())).expect("ok");

    let bleu = CocoBleu::new(4).expect("n = 4");
    let (t_bleu, (b, b_img)) = timed(rounds_of("bleu"), || {
        let rows = bleu.corpus_stats(&corpus, threads).expect("rows");
        let totals = bleu.totals(&rows).expect("totals");
        (
            bleu.scores(&totals),
            bleu.image_scores(&rows).expect("scores"),
        )
    });
    let rouge = CocoRougeL::default();
    let (t_rouge, (r, r_img)) = timed(rounds_of("rouge"), || {
        let rows = rouge.corpus_stats(&corpus, threads).expect("rows");
        let t = rouge.totals(&rows).expect("totals");
        (rouge.score(&t), t)
    });
    let opts = CiderD::default();
    let (t_cider, (c, c_img)) = timed(rounds_of("cider"), || {
        corpus_scores(opts, &corpus, &log, threads).expect("CIDEr-D")
    });

    // The reward: document frequencies of every image's references, computed once; the batch
    // scored against them (ref_len: the corpus's image count) many times.
    let (t_df, df) = timed(rounds_of("df"), || {
        DocumentFrequency::from_texts(corpus.references()).expect("frequencies")
    });
    let (first, count) = batch;
    let b_corpus = Corpus::new(
        hyps[first..first + count].to_vec(),
        Groups::from_iter(refs[first..first + count].iter().cloned()),
    )
    .expect("a batch");
    let scorer = Scorer::for_batch(opts, &df, &log, RefLen::Corpus, count).expect("scorer");
    let (t_reward, reward) = timed(rounds_of("reward") * 20, || {
        scorer.scores(&b_corpus, threads).expect("reward")
    });
    let list = |v: &[f64]| {
        let s: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
        format!("[{}]", s.join(", "))
    };
    println!(
        "{{\"images\": {}, \"threads\": {}, \"rounds\": {rounds}, \
         \"bleu_s\": {t_bleu}, \"rouge_s\": {t_rouge}, \"cider_s\": {t_cider}, \
         \"df_s\": {t_df}, \"reward_s\": {t_reward}, \
         \"bleu\": {}, \"bleu_images\": {}, \"rouge\": {r:?}, \"rouge_images\": {}, \
         \"cider\": {c:?}, \"cider_images\": {}, \"reward\": {}}}",
        hyps.len(),
        threads.get(),
        list(&b),
        list(&b_img),
        list(&r_img),
        list(&c_img),
        list(&reward),
    );
}

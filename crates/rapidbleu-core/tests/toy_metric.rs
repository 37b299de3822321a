//! The metric trait's promise, on a toy metric written in a few lines: implementing the
//! required methods is enough to get corpus statistics in parallel, the chunk path, pairwise
//! matrices and resampling from the defaults, and rows add (the corpus score is the score of
//! the summed rows, one thread gives what four give). The real metrics (BLEU, chrF, TER, ROUGE) are
//! checked against their own fast paths the same way.

use rapidbleu_core::bleu::options::{BleuOptions, Smooth, Summation};
use rapidbleu_core::chrf::ChrfOptions;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::error::CoreError;
use rapidbleu_core::metric::{add_columns, Metric};
use rapidbleu_core::rouge::RougeOptions;
use rapidbleu_core::ter::TerOptions;
use rapidbleu_core::text::tokenize::Tokenizer;

/// Word recall against the longest reference: rows `[hyp words found in it, its words]`.
struct Recall;

impl Metric for Recall {
    type Totals = Vec<i64>;

    fn row_len(&self) -> usize {
        2
    }

    fn segment_stats(&self, hyp: &str, refs: &[&str], row: &mut [i64]) -> Result<(), CoreError> {
        let r = refs.iter().max_by_key(|r| r.len()).copied().unwrap_or("");
        let words: Vec<&str> = r.split_whitespace().collect();
        row[0] = hyp.split_whitespace().filter(|w| words.contains(w)).count() as i64;
        row[1] = words.len() as i64;
        Ok(())
    }

    fn zero_totals(&self) -> Vec<i64> {
        vec![0, 0]
    }

    fn add_rows(&self, totals: &mut Vec<i64>, rows: &[i64]) -> Result<(), CoreError> {
        add_columns(totals, rows)
    }

    fn score(&self, t: &Vec<i64>) -> f64 {
        100.0 * t[0] as f64 / t[1].max(1) as f64
    }

    fn score_f32(&self, s: &[f32]) -> (f64, bool) {
        (f64::from(100.0 * s[0] / s[1].max(1.0)), true)
    }
}

/// A deterministic corpus of `n` segments (enough for the parallel paths), 1 to 3 references.
fn texts(n: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let words = [
        "the", "cat", "sat", "on", "a", "mat", ".", "dog", "ran", "Über",
    ];
    // Word k of sentence `seed`: a fixed scramble, enough variety for overlaps and misses.
    let sentence = |seed: usize, len: usize| {
        (0..len)
            .map(|k| words[(seed * 7 + k * k * 3 + k) % words.len()])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut hyps = Vec::new();
    let mut refs = Vec::new();
    for i in 0..n {
        hyps.push(sentence(i, i % 9));
        refs.push(
            (0..1 + i % 3)
                .map(|j| sentence(i + 5 * j + 1, 3 + (i + j) % 7))
                .collect(),
        );
    }
    (hyps, refs)
}

fn corpus<'a>(hyps: &'a [String], refs: &'a [Vec<String>]) -> Corpus<&'a str> {
    let h = hyps.iter().map(String::as_str).collect();
    let r: Groups<&str> = refs
        .iter()
        .map(|g| g.iter().map(String::as_str).collect::<Vec<_>>())
        .collect();
    Corpus::new(h, r).expect("a reference per segment")
}

/// Every promise of the trait, for any metric `m` on `n` segments.
fn check_seam<M: Metric>(m: &M, n: usize)
where
    M::Totals: PartialEq + std::fmt::Debug,
{
    let (hyps, refs) = texts(n);
    let c = corpus(&hyps, &refs);
    let w = m.row_len();
    let rows = m.corpus_stats(&c, Threads::ONE).expect("rows");
    assert_eq!(rows.len(), n * w);
    // One thread gives what four give.
    assert_eq!(m.corpus_stats(&c, Threads::new(4).unwrap()).unwrap(), rows);
    // Each row is the segment's statistics.
    for i in [0, n / 2, n - 1] {
        let mut row = vec![0; w];
        m.segment_stats(c.hyp(i), c.refs(i), &mut row).unwrap();
        assert_eq!(row, rows[i * w..(i + 1) * w]);
    }
    // Rows add: totals added chunk by chunk equal the totals of the whole corpus, and the
    // corpus score is the score of those totals.
    let whole = m.totals(&rows).unwrap();
    let mut folded = m.zero_totals();
    for chunk in rows.chunks(7 * w) {
        m.add_rows(&mut folded, chunk).unwrap();
    }
    assert_eq!(folded, whole);
    assert_eq!(m.corpus_score(&rows).unwrap(), m.score(&whole));
    // Sentence scores are the scores of the rows.
    let sentences = m.sentence_scores(&c, Threads::new(4).unwrap()).unwrap();
    assert_eq!(sentences, m.score_rows(&rows).unwrap());
    // The chunk path: two systems against the same references.
    let other: Vec<&str> = c.hyps().iter().rev().copied().collect();
    let systems = [c.hyps().to_vec(), other.clone()];
    let got = m.systems_stats(&systems, c.references(), Threads::new(4).unwrap());
    let second = Corpus::new(other, c.references().clone()).unwrap();
    assert_eq!(
        got.unwrap(),
        [rows.clone(), m.corpus_stats(&second, Threads::ONE).unwrap()]
    );
    // Pairwise: cell (i, j) is hypothesis i scored against reference j alone.
    let hs: Groups<&str> = [c.hyps()[..5].to_vec(), c.hyps()[5..8].to_vec()]
        .into_iter()
        .collect();
    let rs: Groups<&str> = [c.refs(9).to_vec(), c.refs(10).to_vec()]
        .into_iter()
        .collect();
    let mats = m.pairwise(&hs, &rs, Threads::new(4).unwrap()).unwrap();
    for (g, mat) in mats.iter().enumerate() {
        let (hg, rg) = (hs.get(g), rs.get(g));
        assert_eq!(mat.len(), hg.len() * rg.len());
        for (k, &cell) in mat.iter().enumerate() {
            let mut row = vec![0; w];
            m.segment_stats(hg[k / rg.len()], &rg[k % rg.len()..][..1], &mut row)
                .unwrap();
            assert_eq!(cell, m.corpus_score(&row).unwrap());
        }
    }
    // Resampling: sums and scores of the drawn rows, the same on 1 and 4 threads.
    let idxs: Vec<i64> = (0..3 * n).map(|k| ((k * 31 + 7) % n) as i64).collect();
    let sums = m.bootstrap_sums(&rows, &idxs, Threads::ONE).unwrap();
    assert_eq!(
        m.bootstrap_sums(&rows, &idxs, Threads::new(4).unwrap())
            .unwrap(),
        sums
    );
    let scores = m
        .bootstrap_scores(&rows, &idxs, Threads::new(4).unwrap())
        .unwrap();
    for k in 0..3 {
        let drawn: Vec<i64> = idxs[k * n..(k + 1) * n]
            .iter()
            .flat_map(|&i| rows[i as usize * w..][..w].to_vec())
            .collect();
        let want: Vec<i64> = (0..w)
            .map(|j| drawn.iter().skip(j).step_by(w).sum())
            .collect();
        assert_eq!(sums[k * w..(k + 1) * w], want);
        assert_eq!(scores[k], m.corpus_score(&drawn).unwrap());
    }
}

#[test]
fn a_toy_metric_gets_every_path_from_the_defaults() {
    check_seam(&Recall, 200);
    // The float32 path of the defaults: one score per row of float32 sums.
    let (scores, all_f32) = Recall.score_rows_f32(&[1.0, 4.0, 0.0, 0.0]).unwrap();
    assert_eq!((scores, all_f32), (vec![25.0, 0.0], true));
    assert!(Recall.score_rows(&[1, 2, 3]).is_err());
}

#[test]
fn the_real_metrics_keep_the_promises() {
    let bleu = BleuOptions::new(
        Tokenizer::T13a,
        false,
        4,
        Smooth::Exp,
        false,
        Summation::Plain,
    );
    check_seam(&bleu.unwrap(), 200);
    for word_order in [0, 2] {
        check_seam(
            &ChrfOptions::new(6, word_order, 4.0, false, false, false).unwrap(),
            200,
        );
    }
    // TER's and ROUGE's totals are in-order float sums: chunks folded in order give the same
    // floats.
    check_seam(&TerOptions::default(), 120);
    let rouge = RougeOptions::new(&["rouge1", "rouge2", "rougeL", "rougeLsum"], true);
    check_seam(&rouge.unwrap(), 120);
}

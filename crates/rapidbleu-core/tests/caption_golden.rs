//! COCO BLEU-1..n, ROUGE-L and CIDEr-D against pycocoevalcap 1.2's scores in
//! `crates/rapidbleu-core/tests/data/caption_golden.txt` (written by `tests/caption/make_golden.py`), with `==` on
//! the f64 bits of every corpus and per-image score, on one thread and on all; BLEU's corpus
//! statistics and ratio against what `Bleu.compute_score` printed; the CIDEr-D reward (a
//! batch against another corpus's document frequencies) on text and on token IDs.
//!
//! The real-text cases read tests/data; the `shared_*` cases read `$RAPIDBLEU_DATA` or
//! ../shared/data and are reported (not silently passed) when that folder is absent.

use rapidbleu_core::caption::bleu::{CocoBleu, SMALL, TINY};
use rapidbleu_core::caption::cider::score::{corpus_scores, RefLen, Scorer};
use rapidbleu_core::caption::cider::{CiderD, DocumentFrequency};
use rapidbleu_core::caption::numeric::LogTable;
use rapidbleu_core::caption::rouge_l::CocoRougeL;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::metric::Metric;
use rapidbleu_core::text::whitespace::py_split;
use std::collections::HashMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shared_dir() -> PathBuf {
    std::env::var_os("RAPIDBLEU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/data"))
}

/// A JSON string literal (as Python's `json.dumps(ensure_ascii=False)` writes it).
fn json_str(s: &str) -> String {
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    let hex = |c: &mut std::str::Chars| u32::from_str_radix(&c.take(4).collect::<String>(), 16);
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next().unwrap() {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'u' => {
                let mut u = hex(&mut chars).unwrap();
                if (0xd800..0xdc00).contains(&u) {
                    assert_eq!((chars.next(), chars.next()), (Some('\\'), Some('u')));
                    let lo = hex(&mut chars).unwrap();
                    u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                }
                out.push(char::from_u32(u).unwrap());
            }
            c => out.push(c),
        }
    }
    out
}

fn floats(fields: &[&str]) -> Vec<f64> {
    fields.iter().map(|f| f.parse().unwrap()).collect()
}

/// The lines of a data file: UTF-8 split at `\n` only, the text after the last `\n` dropped.
fn lines(path: &PathBuf) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut v: Vec<String> = text.split('\n').map(str::to_owned).collect();
    v.pop();
    v
}

/// `real_images` of make_golden.py: hypotheses and reference sets of a `real` spec, or `None`
/// when its folder is absent.
fn real_images(spec: &str) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let f: Vec<&str> = spec.split('|').collect();
    let base = if f[0] == "data" {
        root().join("tests/data")
    } else {
        shared_dir()
    };
    let (lo, n): (usize, usize) = (f[3].parse().unwrap(), f[4].parse().unwrap());
    if !base.join(f[1]).is_file() {
        return None;
    }
    if f[2] == "groups" {
        let text = lines(&base.join(f[1]));
        let groups: Vec<&[String]> = (0..text.len().saturating_sub(5))
            .step_by(6)
            .map(|i| &text[i..i + 6])
            .skip(lo)
            .take(n)
            .collect();
        let hyps = groups.iter().map(|g| g[0].clone()).collect();
        return Some((hyps, groups.iter().map(|g| g[1..].to_vec()).collect()));
    }
    let hyps: Vec<String> = lines(&base.join(f[1]))
        .into_iter()
        .skip(lo)
        .take(n)
        .collect();
    let sets: Vec<Vec<String>> = f[2]
        .split(',')
        .map(|r| lines(&base.join(r)).into_iter().skip(lo).take(n).collect())
        .collect();
    let refs = (0..hyps.len())
        .map(|i| sets.iter().map(|s| s[i].clone()).collect())
        .collect();
    Some((hyps, refs))
}

/// `synth_images` of make_golden.py.
fn synth_images(images: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let caption = |i: usize, r: usize, len: usize| {
        let words: Vec<String> = (0..len)
            .map(|t| format!("w{}", (i * 31 + r * 17 + t * t * 7) % 13))
            .collect();
        words.join(" ")
    };
    let hyps = (0..images).map(|i| caption(i, 0, 3 + i % 5)).collect();
    let refs = (0..images)
        .map(|i| {
            (1..2 + i % 3)
                .map(|r| caption(i, r, 2 + (i + r) % 6))
                .collect()
        })
        .collect();
    (hyps, refs)
}

#[derive(Default)]
struct Case {
    name: String,
    bleu_n: usize,
    cider_n: usize,
    sigma: f64,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    missing: bool,
    /// The per-image lines are the first `period` images, which the others repeat.
    period: Option<usize>,
    bleu: Vec<f64>,
    bleu_stats: Vec<i64>,
    ratio: f64,
    rouge: f64,
    cider: Option<f64>,
    images: Vec<Vec<f64>>,
}

struct Reward {
    name: String,
    corpus: String,
    batch: String,
    first: usize,
    count: usize,
    scores: Vec<(f64, f64)>,
}

fn read_golden() -> (LogTable, Vec<Case>, Vec<Reward>) {
    let text =
        std::fs::read_to_string(root().join("crates/rapidbleu-core/tests/data/caption_golden.txt"))
            .unwrap();
    let (mut log, mut cases, mut rewards) = (None, Vec::new(), Vec::new());
    let mut case: Option<Case> = None;
    let mut reward: Option<Reward> = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "numpy" | "printed" => {}
            "log" => log = Some(LogTable::from_values(floats(&f[1..]))),
            "case" => {
                case = Some(Case {
                    name: f[1].into(),
                    bleu_n: f[2].parse().unwrap(),
                    cider_n: f[3].parse().unwrap(),
                    sigma: f[4].parse().unwrap(),
                    ..Default::default()
                })
            }
            "img" => {
                let c = case.as_mut().unwrap();
                c.hyps.push(json_str(f[1]));
                c.refs.push(f[2..].iter().map(|s| json_str(s)).collect());
            }
            "real" => {
                let c = case.as_mut().unwrap();
                match real_images(f[1]) {
                    Some((h, r)) => (c.hyps, c.refs) = (h, r),
                    None => c.missing = true,
                }
            }
            "synth" => {
                let c = case.as_mut().unwrap();
                (c.hyps, c.refs) = synth_images(f[1].parse().unwrap());
                c.period = Some(f[2].parse().unwrap());
            }
            "bleu" => case.as_mut().unwrap().bleu = floats(&f[1..]),
            "bleu_stats" => {
                let c = case.as_mut().unwrap();
                c.bleu_stats = f[1..f.len() - 1]
                    .iter()
                    .map(|v| v.parse().unwrap())
                    .collect();
                c.ratio = f[f.len() - 1].parse().unwrap();
            }
            "rouge" => case.as_mut().unwrap().rouge = f[1].parse().unwrap(),
            "cider" => case.as_mut().unwrap().cider = f[1].parse().ok(),
            "s" => {
                let row = f[1..]
                    .iter()
                    .map(|v| v.parse().unwrap_or(f64::NAN))
                    .collect();
                case.as_mut().unwrap().images.push(row);
            }
            "reward" => {
                reward = Some(Reward {
                    name: f[1].into(),
                    corpus: f[2].into(),
                    batch: f[3].into(),
                    first: f[4].parse().unwrap(),
                    count: f[5].parse().unwrap(),
                    scores: Vec::new(),
                })
            }
            "r" => {
                let v = floats(&f[1..]);
                reward.as_mut().unwrap().scores.push((v[0], v[1]));
            }
            "end" => {
                if let Some(c) = case.take() {
                    cases.push(c);
                }
                if let Some(r) = reward.take() {
                    rewards.push(r);
                }
            }
            other => panic!("unknown golden record {other:?}"),
        }
    }
    (log.unwrap(), cases, rewards)
}

fn corpus<'a>(hyps: &'a [String], refs: &'a [Vec<String>]) -> Corpus<&'a str> {
    let groups = Groups::from_iter(refs.iter().map(|r| r.iter().map(String::as_str)));
    Corpus::new(hyps.iter().map(String::as_str).collect(), groups).unwrap()
}

fn same(got: f64, want: f64, what: &str) {
    assert_eq!(
        got.to_bits(),
        want.to_bits(),
        "{what}: got {got:?}, pycocoevalcap {want:?}"
    );
}

fn check_case(c: &Case, log: &LogTable, threads: Threads) {
    let corp = corpus(&c.hyps, &c.refs);
    let n = c.bleu_n;
    let period = c.period.unwrap_or(c.hyps.len());
    assert_eq!(c.images.len(), period, "{}", c.name);
    // BLEU: rows, their sums against the printed statistics, every score.
    let bleu = CocoBleu::new(n).unwrap();
    let rows = bleu.corpus_stats(&corp, threads).unwrap();
    let totals = bleu.totals(&rows).unwrap();
    assert_eq!(totals, c.bleu_stats, "{} BLEU statistics", c.name);
    let ratio = (totals[0] as f64 + TINY) / (totals[1] as f64 + SMALL);
    same(ratio, c.ratio, &format!("{} BLEU ratio", c.name));
    for (k, (&got, &want)) in bleu.scores(&totals).iter().zip(&c.bleu).enumerate() {
        same(got, want, &format!("{} corpus BLEU-{}", c.name, k + 1));
    }
    let per = bleu.image_scores(&rows).unwrap();
    // ROUGE-L and CIDEr-D.
    let rouge = CocoRougeL::default();
    let r_rows = rouge.corpus_stats(&corp, threads).unwrap();
    let r_tot = rouge.totals(&r_rows).unwrap();
    same(rouge.score(&r_tot), c.rouge, &format!("{} ROUGE-L", c.name));
    let cider = CiderD::new(c.cider_n, c.sigma).unwrap();
    let got = corpus_scores(cider, &corp, log, threads);
    let cider_images = match (c.cider, got) {
        (Some(want), Ok((mean, images))) => {
            same(mean, want, &format!("{} CIDEr-D", c.name));
            images
        }
        (None, Err(e)) => {
            assert!(e.to_string().contains("ValueError"), "{e}");
            vec![f64::NAN; c.hyps.len()]
        }
        (want, got) => panic!("{}: CIDEr-D {want:?} but got {got:?}", c.name),
    };
    for i in 0..c.hyps.len() {
        let want = &c.images[i % period];
        let what = |m: &str| format!("{} image {i} {m}", c.name);
        for k in 0..n {
            same(per[i * n + k], want[k], &what(&format!("BLEU-{}", k + 1)));
        }
        same(r_tot[i], want[n], &what("ROUGE-L"));
        if c.cider.is_some() {
            same(cider_images[i], want[n + 1], &what("CIDEr-D"));
        }
    }
}

#[test]
fn caption_metrics_equal_pycocoevalcap() {
    let (log, cases, _) = read_golden();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    // The synthetic case's ref_len is np.log(9170.0), which on AVX-512 machines is NumPy's own
    // (one bit below libm's here): the scores hold only with the table of NumPy's logs.
    assert_eq!(log.len(), 9170);
    let mut checked = 0;
    for c in &cases {
        if c.missing {
            eprintln!(
                "caption golden: {} not run: {} is absent",
                c.name,
                shared_dir().display()
            );
            assert!(c.name.starts_with("shared"), "{} lacks its data", c.name);
            continue;
        }
        check_case(c, &log, Threads::ONE);
        check_case(c, &log, Threads::ALL);
        checked += 1;
    }
    assert!(checked >= cases.len() - 1);
}

/// The captions of `case`, tokens numbered by `vocab` (shared by both corpora).
fn to_ids(
    hyps: &[String],
    refs: &[Vec<String>],
    vocab: &mut HashMap<String, u32>,
) -> (Vec<Vec<u32>>, Vec<Vec<Vec<u32>>>) {
    let mut ids = |s: &String| -> Vec<u32> {
        py_split(s)
            .map(|t| {
                let next = vocab.len() as u32 * 7 + 3; // any injective numbering
                *vocab.entry(t.to_owned()).or_insert(next)
            })
            .collect()
    };
    let h = hyps.iter().map(&mut ids).collect();
    let r = refs
        .iter()
        .map(|rs| rs.iter().map(&mut ids).collect())
        .collect();
    (h, r)
}

#[test]
fn cider_reward_with_a_corpus_frequencies() {
    let (log, cases, rewards) = read_golden();
    assert_eq!(rewards.len(), 2);
    let find = |name: &str| cases.iter().find(|c| c.name == name).unwrap();
    for r in &rewards {
        let (corp, batch) = (find(&r.corpus), find(&r.batch));
        let hyps = &batch.hyps[r.first..r.first + r.count];
        let refs = &batch.refs[r.first..r.first + r.count];
        assert_eq!(r.scores.len(), r.count);
        // Text.
        let corpus_refs =
            Groups::from_iter(corp.refs.iter().map(|rs| rs.iter().map(String::as_str)));
        let df = DocumentFrequency::from_texts(&corpus_refs).unwrap();
        let b = corpus(hyps, refs);
        // Token IDs.
        let mut vocab = HashMap::new();
        let (_, c_ids) = to_ids(&[], &corp.refs, &mut vocab);
        let (h_ids, r_ids) = to_ids(hyps, refs, &mut vocab);
        let id_groups = Groups::from_iter(c_ids.iter().map(|rs| rs.iter().map(Vec::as_slice)));
        let df_ids = DocumentFrequency::from_ids(&id_groups).unwrap();
        let b_ids = Corpus::new(
            h_ids.iter().map(Vec::as_slice).collect(),
            Groups::from_iter(r_ids.iter().map(|rs| rs.iter().map(Vec::as_slice))),
        )
        .unwrap();
        assert_eq!(df.len(), df_ids.len());
        for (mode, pick) in [(RefLen::Corpus, 0), (RefLen::Batch, 1)] {
            let s = Scorer::for_batch(CiderD::default(), &df, &log, mode, r.count).unwrap();
            let s_ids = Scorer::for_batch(CiderD::default(), &df_ids, &log, mode, r.count).unwrap();
            for threads in [Threads::ONE, Threads::ALL] {
                let got = s.scores(&b, threads).unwrap();
                let got_ids = s_ids.scores(&b_ids, threads).unwrap();
                for (i, w) in r.scores.iter().enumerate() {
                    let want = if pick == 0 { w.0 } else { w.1 };
                    same(got[i], want, &format!("{} {mode:?} sample {i}", r.name));
                    same(
                        got_ids[i],
                        want,
                        &format!("{} {mode:?} IDs sample {i}", r.name),
                    );
                }
            }
            // Text captions against ID frequencies are refused.
            let wrong = Scorer::for_batch(CiderD::default(), &df_ids, &log, mode, r.count).unwrap();
            assert!(wrong.scores(&b, Threads::ONE).is_err());
        }
    }
}

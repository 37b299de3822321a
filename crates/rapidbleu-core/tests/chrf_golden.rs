//! Golden vectors from sacreBLEU 2.6.0 (`scripts/gen_chrf_golden.py`, format described there):
//! statistics rows, sentence scores and corpus scores for 40 option sets over hand-made nasty
//! segments, and float32 scores of bootstrap-style rows, all compared with `==`.

use rapidbleu_core::chrf::{self, ChrfOptions};
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;

const GOLDEN: &str = include_str!("data/chrf_golden.txt");

fn text(field: &str) -> String {
    let hex = field.strip_prefix('x').expect("strings start with x");
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    String::from_utf8(bytes).expect("UTF-8")
}

fn f64_bits(field: &str) -> f64 {
    f64::from_bits(u64::from_str_radix(field, 16).expect("f64 bits"))
}

fn int(field: &str) -> i64 {
    field.parse().expect("integer")
}

/// One option set and its expected segments: (segment index, row, sentence score).
struct Case {
    params: ChrfOptions,
    segments: Vec<(usize, Vec<i64>, f64)>,
    corpus: f64,
}

fn parse() -> (Vec<Vec<String>>, Vec<Case>, Vec<Vec<String>>) {
    let (mut texts, mut cases, mut f32_rows) = (Vec::new(), Vec::<Case>::new(), Vec::new());
    for line in GOLDEN.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(' ').collect();
        match f[0] {
            "T" => texts.push(f[1..].iter().map(|s| text(s)).collect()),
            "P" => cases.push(Case {
                params: ChrfOptions::new(
                    int(f[1]),
                    int(f[2]),
                    f64_bits(f[3]),
                    f[4] == "1",
                    f[5] == "1",
                    f[6] == "1",
                )
                .expect("valid options"),
                segments: Vec::new(),
                corpus: f64::NAN,
            }),
            "S" => {
                let row = f[2].split(',').filter(|s| !s.is_empty()).map(int).collect();
                let case = cases.last_mut().expect("P before S");
                case.segments
                    .push((int(f[1]) as usize, row, f64_bits(f[3])));
            }
            "C" => cases.last_mut().expect("P before C").corpus = f64_bits(f[1]),
            "F" => f32_rows.push(f.iter().map(|s| s.to_string()).collect()),
            other => panic!("unknown record {other:?}"),
        }
    }
    (texts, cases, f32_rows)
}

#[test]
fn rows_and_scores_equal_sacrebleu() {
    let (texts, cases, _) = parse();
    assert_eq!(cases.len(), 40);
    let mut checked = 0;
    for case in &cases {
        let p = &case.params;
        let segs: Vec<&Vec<String>> = case.segments.iter().map(|s| &texts[s.0]).collect();
        let hyps: Vec<&str> = segs.iter().map(|t| t[0].as_str()).collect();
        let refs: Groups<&str> = segs
            .iter()
            .map(|t| t[1..].iter().map(String::as_str).collect::<Vec<_>>())
            .collect();
        let corpus = Corpus::new(hyps, refs).unwrap();
        let want_rows: Vec<i64> = case.segments.iter().flat_map(|s| s.1.clone()).collect();
        for threads in [1, 2] {
            let threads = Threads::new(threads).unwrap();
            let rows = chrf::corpus_stats(&corpus, p, threads).unwrap();
            assert_eq!(rows, want_rows, "{p:?}");
            let scores = chrf::sentence_scores(&corpus, p, threads).unwrap();
            for (got, s) in scores.iter().zip(&case.segments) {
                assert_eq!(got.to_bits(), s.2.to_bits(), "{p:?} segment {}", s.0);
            }
        }
        let sentence = chrf::score_rows(&want_rows, p).unwrap();
        assert!(sentence
            .iter()
            .zip(&case.segments)
            .all(|(a, s)| a.to_bits() == s.2.to_bits()));
        let mut total = vec![0i64; p.row_len()];
        for row in want_rows.chunks_exact(p.row_len()) {
            total.iter_mut().zip(row).for_each(|(t, v)| *t += v);
        }
        assert_eq!(chrf::f_score(&total, p).to_bits(), case.corpus.to_bits());
        checked += corpus.len();
    }
    assert_eq!(checked, 2880);
}

#[test]
fn float32_scores_equal_numpy() {
    let (_, _, rows) = parse();
    assert_eq!(rows.len(), 400);
    let mut types = [0; 2];
    for f in &rows {
        let p = ChrfOptions::new(
            int(&f[1]),
            int(&f[2]),
            f64_bits(&f[3]),
            false,
            f[4] == "1",
            false,
        )
        .unwrap();
        let row: Vec<f32> = f[5]
            .split(',')
            .map(|s| f32::from_bits(u32::from_str_radix(s, 16).unwrap()))
            .collect();
        let got = chrf::f_score_f32(&row, &p);
        assert_eq!(got.value.to_bits(), f64_bits(&f[6]).to_bits(), "{f:?}");
        assert_eq!(got.is_float32, f[7] == "1", "{f:?}");
        types[usize::from(got.is_float32)] += 1;
    }
    // Both result types occur (a Python float 0.0, or eps-only sums, and np.float32).
    assert!(types[0] > 0 && types[1] > 0, "{types:?}");
}

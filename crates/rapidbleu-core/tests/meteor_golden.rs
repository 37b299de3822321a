//! NLTK 3.10.4's METEOR and WordNet look-ups, compared with `==` (f64 bits) against the golden
//! file written by `tests/meteor/make_golden.py` (format described there): generated cases
//! under nine option sets, the real WMT22 zh-en English of tests/data (rows, sentence scores,
//! evaluate's `np.mean`), and the synonym and morphy sets of every word form of that data and
//! of samples of WordNet's lemmas, exception forms and inflections.
//!
//! WordNet comes from `target/nltk_data` (built by `scripts/wordnet_data.py`, which
//! `scripts/test.sh` runs) or `$RAPIDBLEU_WORDNET`; without it the test fails, saying how to
//! build it.

use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::meteor::metric::Worker;
use rapidbleu_core::meteor::wordnet::locate;
use rapidbleu_core::meteor::{MeteorOptions, WordNet};
use rapidbleu_core::metric::Metric;
use rapidbleu_core::text::whitespace::py_split;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn wordnet() -> &'static WordNet {
    let dir = std::env::var_os("RAPIDBLEU_WORDNET")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/nltk_data/corpora/wordnet"));
    locate::shared(&dir)
        .unwrap_or_else(|e| panic!("{e}\nbuild it with: .venv/bin/python scripts/wordnet_data.py"))
}

fn unescape(tok: &str) -> String {
    let b = tok.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&tok[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn tokens(field: &str) -> Vec<String> {
    field
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(unescape)
        .collect()
}

fn f64_bits(field: &str) -> f64 {
    f64::from_bits(u64::from_str_radix(field, 16).unwrap())
}

fn row(field: &str) -> Vec<i64> {
    field.split(',').map(|v| v.parse().unwrap()).collect()
}

/// `fnv` of make_golden.py: FNV-1a 64 of the sorted names joined by newlines, top 48 bits.
fn fnv(names: &[&str]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in names.join("\n").bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    format!("{:012x}", h >> 16)
}

fn golden() -> String {
    let path = repo().join("tests/data/meteor/golden.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn options(golden: &str, wn: &'static WordNet) -> Vec<MeteorOptions> {
    golden
        .lines()
        .filter(|l| l.starts_with("O\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            MeteorOptions::new(
                f64_bits(f[2]),
                f64_bits(f[3]),
                f64_bits(f[4]),
                f[5] == "1",
                f[6] == "1",
                (f[7] == "1").then_some(wn),
            )
        })
        .collect()
}

#[test]
fn generated_cases() {
    let wn = wordnet();
    let golden = golden();
    let opts = options(&golden, wn);
    let mut w = Worker::default();
    let mut n = 0;
    for line in golden.lines().filter(|l| l.starts_with("G\t")) {
        let f: Vec<&str> = line.split('\t').collect();
        let bar = f.iter().position(|&x| x == "|").unwrap();
        let o = &opts[f[1].parse::<usize>().unwrap()];
        let hyp = tokens(f[2]);
        let refs: Vec<Vec<String>> = f[3..bar].iter().map(|r| tokens(r)).collect();
        let mut got = [0i64; 4];
        o.tokens_row(&mut w, &hyp, &refs, &mut got).unwrap();
        let want = f64_bits(f[bar + 3]);
        let score = o.tokens_score(&mut w, &hyp, &refs).unwrap();
        assert_eq!(
            (score.to_bits(), got.to_vec()),
            (want.to_bits(), row(f[bar + 2])),
            "{line}"
        );
        if f[bar + 1] != "-" {
            let single = o.tokens_score(&mut w, &hyp, &refs[..1]).unwrap();
            assert_eq!(single.to_bits(), f64_bits(f[bar + 1]).to_bits(), "{line}");
        }
        n += 1;
    }
    assert!(n > 2000, "{n} generated cases");
}

fn real_lines(name: &str) -> Vec<String> {
    let path = repo().join("tests/data/wmt22.zh-en").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    text.split('\n').map(String::from).collect::<Vec<_>>()[..1875].to_vec()
}

#[test]
fn real_data() {
    let wn = wordnet();
    let golden = golden();
    let o = MeteorOptions::nltk(Some(wn));
    let hyps = real_lines("hyp.NiuTrans.en");
    let (ra, rb) = (real_lines("ref.A.en"), real_lines("ref.B.en"));
    for (set, n_refs) in [("zh-en.1", 1), ("zh-en.2", 2)] {
        // Through the Metric trait: text split on whitespace, rows on 2 threads.
        let mut refs = Groups::new();
        for i in 0..hyps.len() {
            let group: Vec<&str> = [ra[i].as_str(), rb[i].as_str()][..n_refs].to_vec();
            refs.push_group(group);
        }
        let corpus = Corpus::new(hyps.iter().map(|s| s.as_str()).collect(), refs).unwrap();
        let rows = o.corpus_stats(&corpus, Threads::new(2).unwrap()).unwrap();
        let scores = o.score_rows(&rows).unwrap();
        let mut checked = 0;
        for line in golden
            .lines()
            .filter(|l| l.starts_with(&format!("R\t{set}\t")))
        {
            let f: Vec<&str> = line.split('\t').collect();
            let i: usize = f[2].parse().unwrap();
            assert_eq!(rows[4 * i..4 * i + 4].to_vec(), row(f[3]), "{line}");
            assert_eq!(scores[i].to_bits(), f64_bits(f[4]).to_bits(), "{line}");
            // And on tokens.
            let h: Vec<&str> = py_split(&hyps[i]).collect();
            let rs: Vec<Vec<&str>> = [&ra[i], &rb[i]][..n_refs]
                .iter()
                .map(|r| py_split(r).collect())
                .collect();
            let s = o.tokens_score(&mut Worker::default(), &h, &rs).unwrap();
            assert_eq!(s.to_bits(), scores[i].to_bits(), "{line}");
            checked += 1;
        }
        assert_eq!(checked, hyps.len());
        let mean = golden
            .lines()
            .find_map(|l| l.strip_prefix(&format!("M\t{set}\t")))
            .unwrap();
        assert_eq!(
            o.corpus_score(&rows).unwrap().to_bits(),
            f64_bits(mean).to_bits()
        );
    }
}

#[test]
fn synonym_and_morphy_sets() {
    let wn = wordnet();
    let golden = golden();
    let mut n = 0;
    for line in golden.lines().filter(|l| l.starts_with("W\t")) {
        let f: Vec<&str> = line.split('\t').collect();
        let word = unescape(f[1]);
        let names = wn.lemma_names(&word);
        assert_eq!(
            (names.len().to_string(), fnv(&names)),
            (f[2].into(), f[3].into()),
            "{line}: {names:?}"
        );
        let lowered = rapidbleu_core::meteor::lower::py_lower(&word);
        let mut parts = String::new();
        let mut count = 0;
        for p in ["n", "v", "a", "r"] {
            let forms = wn.morphy(&lowered, p);
            count += forms.len();
            parts.push_str(&format!("{p}:{};", forms.join(",")));
        }
        assert_eq!(
            (count.to_string(), fnv(&[&parts])),
            (f[4].into(), f[5].into()),
            "{line}: {parts}"
        );
        n += 1;
    }
    assert!(n > 10_000, "{n} words");
}

#[test]
fn load_errors_say_where_and_how() {
    let e = WordNet::load(Path::new("/nonexistent/wordnet")).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("/nonexistent/wordnet does not exist") && m.contains("nltk.downloader"),
        "{m}"
    );
    let e = locate::find(&[PathBuf::from("/nonexistent")])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("/nonexistent") && e.contains("wordnet-base"),
        "{e}"
    );
}

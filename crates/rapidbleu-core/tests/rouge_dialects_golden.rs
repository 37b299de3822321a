//! ROUGE's dialects against golden vectors of the packages themselves
//! (`tests/rouge_dialects/make_golden.py`, format described there): the `rouge` package 1.0.1,
//! `rouge-chinese` 1.0.3, rouge-score 0.1.2 with rapidbleu's Unicode tokenizer, and XL-Sum's
//! `multilingual-rouge` 0.0.1. Counts, scores and averages compared with `==` (f64 bits).

use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::rouge::dialects::pltrdy::{self, f_p_r, PltrdyOptions};
use rapidbleu_core::rouge::dialects::sentences::Splitter;
use rapidbleu_core::rouge::dialects::tokens::{self, TokenItem, TokenText};
use rapidbleu_core::rouge::dialects::unicode;
use rapidbleu_core::rouge::score::score;
use rapidbleu_core::rouge::RougeOptions;
use std::io::Read;
use std::path::PathBuf;

const METRICS: [&str; 6] = [
    "rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l",
];

/// `_recon`'s depth beyond which CPython's default recursion limit (1,000 frames, a few
/// taken by the callers) raises `RecursionError`.
const DEEP: i64 = 980;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn golden(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/rouge_dialects")
        .join(name);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap();
    text
}

fn unhex(field: &str) -> String {
    let hex = field.strip_prefix('x').expect("strings start with x");
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    String::from_utf8(bytes).unwrap()
}

/// A string field: inline hex, or a line of a tests/data file.
fn text(field: &str) -> String {
    match field.strip_prefix('f') {
        Some(spec) => {
            let (path, line) = spec.rsplit_once(':').unwrap();
            let body = std::fs::read_to_string(root().join("tests/data").join(path)).unwrap();
            body.split('\n')
                .nth(line.parse().unwrap())
                .unwrap()
                .to_string()
        }
        None => unhex(field),
    }
}

fn bits(field: &str) -> f64 {
    f64::from_bits(u64::from_str_radix(field, 16).unwrap())
}

fn records<'a>(body: &'a str, tag: &'a str) -> impl Iterator<Item = Vec<&'a str>> + 'a {
    body.lines()
        .filter(move |l| l.split(' ').next() == Some(tag))
        .map(|l| l.split(' ').skip(1).collect())
}

/// The items `(hyp, ref)` of a golden file's `T` records.
fn items(body: &str) -> Vec<(String, String)> {
    records(body, "T")
        .enumerate()
        .map(|(i, f)| {
            assert_eq!(f[0].parse::<usize>().unwrap(), i);
            (text(f[1]), text(f[2]))
        })
        .collect()
}

/// The message of a golden error code.
fn message(code: &str) -> &'static str {
    match code {
        "EH" => "Hypothesis is empty.",
        "EF" => "Reference is empty.",
        "EC" => "Collections must contain at least 1 sentence.",
        other => panic!("no message for {other}"),
    }
}

fn check_package(file: &str, splitter: Splitter) -> (usize, usize) {
    let body = golden(file);
    let texts = items(&body);
    let pairs: Vec<(&str, &str)> = texts
        .iter()
        .map(|(h, r)| (h.as_str(), r.as_str()))
        .collect();
    let (mut checked, mut averages) = (0, 0);
    for excl in [false, true] {
        let opts = PltrdyOptions::new(Some(&METRICS), excl, splitter).unwrap();
        let width = opts.row_len();
        let rows = pltrdy::rows(&opts, &pairs, Threads::ALL).unwrap();
        assert_eq!(pltrdy::rows(&opts, &pairs, Threads::ONE).unwrap(), rows);
        let depth = |i: usize| rows[i * width + width - 1];
        for f in records(&body, "R").filter(|f| f[1] == if excl { "1" } else { "0" }) {
            let i: usize = f[0].parse().unwrap();
            let row = &rows[i * width..(i + 1) * width];
            let what = format!("{file} item {i} exclusive={excl}: {:?}", pairs[i]);
            if f[2] != "-" {
                assert_eq!(
                    &row[18..20],
                    &[f[2].parse().unwrap(), f[3].parse::<i64>().unwrap()]
                );
            }
            for (k, m) in f[4..].iter().enumerate() {
                if *m == "ER" {
                    assert!(depth(i) > DEEP, "{what}: depth {}", depth(i));
                    continue;
                }
                if let Some(code) = m.strip_prefix('E') {
                    let one = PltrdyOptions::new(Some(&METRICS[k..=k]), excl, splitter).unwrap();
                    let empty = row[width - 2];
                    assert_eq!(
                        one.error(empty),
                        Some(message(&format!("E{code}"))),
                        "{what}"
                    );
                    continue;
                }
                let v: Vec<&str> = m.split(',').collect();
                let counts: Vec<i64> = v[..3].iter().map(|x| x.parse().unwrap()).collect();
                assert_eq!(&row[3 * k..3 * k + 3], &counts[..], "{what} {}", METRICS[k]);
                let got = f_p_r(&row[3 * k..3 * k + 3]);
                assert_eq!(got, (bits(v[3]), bits(v[4]), bits(v[5])), "{what}");
                if k == 5 && splitter == Splitter::Period {
                    assert!(depth(i) <= DEEP, "{what}");
                }
                checked += 1;
            }
        }
        for f in records(&body, "A").filter(|f| f[0] == if excl { "1" } else { "0" }) {
            let ignore_empty = f[1] == "1";
            let ids: Vec<usize> = match f[2] {
                "-" => Vec::new(),
                s => s.split(',').map(|x| x.parse().unwrap()).collect(),
            };
            // `ignore_empty`: the pairs whose strings are both non-empty (Python's `len`).
            let kept: Vec<usize> = ids
                .into_iter()
                .filter(|&i| !ignore_empty || !(pairs[i].0.is_empty() || pairs[i].1.is_empty()))
                .collect();
            let sub: Vec<i64> = kept
                .iter()
                .flat_map(|&i| rows[i * width..(i + 1) * width].iter().copied())
                .collect();
            let got = pltrdy::average(&opts, &sub);
            match f[3] {
                "EZ" => assert!(kept.is_empty() && !ignore_empty && got.is_err()),
                "EU" => assert!(kept.is_empty() && ignore_empty && got.is_err()),
                "ER" => assert!(kept.iter().any(|&i| depth(i) > DEEP)),
                code if code.starts_with('E') => {
                    assert_eq!(opts.first_error(&sub).map(|e| e.1), Some(message(code)));
                    assert!(got.is_err());
                }
                _ => {
                    let got = got.unwrap();
                    for (k, m) in f[3..9].iter().enumerate() {
                        let v: Vec<f64> = m.split(',').map(bits).collect();
                        assert_eq!(got.scores[k], (v[0], v[1], v[2]), "{file} {f:?}");
                    }
                    let l: Vec<f64> = f[9].split(',').map(bits).collect();
                    assert_eq!(got.lengths, (l[0], l[1]));
                    averages += 1;
                }
            }
        }
    }
    (checked, averages)
}

#[test]
fn rouge_package() {
    let (checked, averages) = check_package("pltrdy.txt.gz", Splitter::Period);
    assert!(checked > 5000 && averages > 30, "{checked} {averages}");
}

#[test]
fn rouge_chinese_package() {
    let (checked, averages) = check_package("chinese.txt.gz", Splitter::Chinese);
    assert!(checked > 5000 && averages > 30, "{checked} {averages}");
}

#[test]
fn unicode_tokenizer_with_rouge_score() {
    let texts = items(&golden("pltrdy.txt.gz"));
    let body = golden("unicode.txt.gz");
    let types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"];
    let mut checked = 0;
    for stem in [false, true] {
        let opts = RougeOptions::new(&types, stem).unwrap();
        let recs: Vec<Vec<&str>> = records(&body, "U")
            .filter(|f| f[3] == if stem { "1" } else { "0" })
            .collect();
        let items: Vec<(&str, Vec<&str>)> = recs
            .iter()
            .map(|f| {
                let i: usize = f[0].parse().unwrap();
                let mut refs = vec![texts[i].1.as_str()];
                if f[1] != "-" {
                    refs.push(texts[f[1].parse::<usize>().unwrap()].1.as_str());
                }
                (texts[i].0.as_str(), refs)
            })
            .collect();
        let rows = unicode::rows(&opts, &items, Threads::ALL).unwrap();
        assert_eq!(unicode::rows(&opts, &items, Threads::ONE).unwrap(), rows);
        for (k, f) in recs.iter().enumerate() {
            if f[2] != "-" {
                let want: Vec<String> = match unhex(f[2]).as_str() {
                    "" => Vec::new(),
                    s => s.split('\u{1f}').map(String::from).collect(),
                };
                assert_eq!(unicode::tokenize(items[k].0), want, "{:?}", items[k].0);
            }
            let row = &rows[k * 15..(k + 1) * 15];
            for (t, v) in f[4..].iter().enumerate() {
                let v: Vec<f64> = v.split(',').map(bits).collect();
                let got = score(row[3 * t], row[3 * t + 1], row[3 * t + 2]);
                assert_eq!(got, (v[0], v[1], v[2]), "{} {:?}", types[t], items[k]);
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn unicode_identical_text_scores_one() {
    let opts = RougeOptions::new(&["rouge1", "rougeL", "rougeLsum"], false).unwrap();
    let texts = items(&golden("pltrdy.txt.gz"));
    let all: Vec<&str> = texts
        .iter()
        .flat_map(|(h, r)| [h.as_str(), r.as_str()])
        .collect();
    let items: Vec<(&str, Vec<&str>)> = all.iter().map(|t| (*t, vec![*t])).collect();
    let rows = unicode::rows(&opts, &items, Threads::ALL).unwrap();
    for (t, row) in all.iter().zip(rows.chunks(9)) {
        if unicode::tokenize(t).is_empty() {
            assert_eq!(row, &[0; 9]);
        } else {
            for tr in row.chunks(3) {
                assert_eq!(score(tr[0], tr[1], tr[2]), (1.0, 1.0, 1.0), "{t:?}");
            }
        }
    }
}

fn token_text<'a>(tokens: &'a str, sents: &'a str) -> TokenText<'a> {
    let split = |s: &'a str| -> Vec<&'a str> {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split('\u{1f}').collect()
        }
    };
    let mut parts = sents.split('\u{1e}');
    let n: usize = parts.next().unwrap().parse().unwrap();
    let sentences: Vec<Vec<&str>> = parts.map(split).collect();
    assert_eq!(sentences.len(), n);
    TokenText {
        tokens: split(tokens),
        sentences: Some(sentences),
    }
}

#[test]
fn xlsum_multilingual_rouge_on_its_tokens() {
    let body = golden("xlsum.txt.gz");
    let opts = RougeOptions::new(&["rouge1", "rouge2", "rougeL", "rougeLsum"], false).unwrap();
    let recs: Vec<Vec<String>> = records(&body, "X")
        .map(|f| {
            let mut v: Vec<String> = vec![f[0].to_string()];
            v.extend(f[1..5].iter().map(|x| unhex(x)));
            v.extend(f[5..].iter().map(|x| x.to_string()));
            v
        })
        .collect();
    let items: Vec<TokenItem<'_>> = recs
        .iter()
        .map(|f| TokenItem {
            target: token_text(&f[1], &f[3]),
            prediction: token_text(&f[2], &f[4]),
        })
        .collect();
    let rows = tokens::rows(&opts, &items, Threads::ALL).unwrap();
    let mut checked = 0;
    for (k, f) in recs.iter().enumerate() {
        for t in 0..4 {
            let v: Vec<f64> = f[5 + t].split(',').map(bits).collect();
            let r = &rows[k * 12 + 3 * t..k * 12 + 3 * t + 3];
            assert_eq!(
                score(r[0], r[1], r[2]),
                (v[0], v[1], v[2]),
                "item {k} type {t}"
            );
            checked += 1;
        }
    }
    let langs = records(&body, "L").filter(|f| f[2] == "ok").count();
    assert!(checked > 3000 && langs >= 25, "{checked} {langs}");
}

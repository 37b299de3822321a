//! METEOR without Python: a line protocol for the full WordNet check against NLTK, and a
//! timer for real files.
//!
//! - `meteor words WORDNET_DIR`: reads lines `HEX(word)` and prints, per word,
//!   `count<TAB>hash<TAB>morphy_count<TAB>morphy_hash<TAB>HEX(stem)<TAB>HEX(lower)`: the
//!   number and FNV-1a hash (top 48 bits) of `{l.name() for s in synsets(word) for l in
//!   s.lemmas()}` (sorted, joined by `\n`), the same of NLTK's `_morphy(word.lower(), pos)`
//!   written `pos:form,form;` for n, v, a, r, `PorterStemmer().stem(word)` and
//!   `word.lower()` (`tests/meteor/check_wordnet_full.py` compares them with NLTK).
//! - `meteor bench WORDNET_DIR THREADS REPEATS HYP REF [REF...]`: times WordNet's load and
//!   the sentence scores of every line of `HYP` against the same lines of the `REF` files
//!   (tokens: Python's `str.split()`), `REPEATS` times; prints `load_s=... first_s=...
//!   median_s=... pairs=...` (the first call has no cached word, stem or synonym set; later
//!   ones reuse the workers' caches) then the score bits of each pair, one per line
//!   (`benchmarks/bench_meteor_core.py` compares them with NLTK's). `METEOR_STAGES=SW` (two
//!   0/1 flags, default `11`) turns the stem and synonym stages off, to time them.

use rapidbleu_core::engine::parallel::Threads;
use rapidbleu_core::meteor::lower::py_lower;
use rapidbleu_core::meteor::stem::Stemmer;
use rapidbleu_core::meteor::{MeteorOptions, WordNet};
use rapidbleu_core::text::whitespace::py_split;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

fn hex(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> String {
    let bytes: Vec<u8> = (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    String::from_utf8(bytes).expect("UTF-8")
}

fn fnv(names: &[&str]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in names.join("\n").bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    format!("{:012x}", h >> 16)
}

fn words(wn: &WordNet) {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut stemmer = Stemmer::default();
    let mut stem = String::new();
    for line in std::io::stdin().lock().lines() {
        let word = unhex(line.expect("stdin").trim_end());
        let names = wn.lemma_names(&word);
        let lowered = py_lower(&word);
        let mut parts = String::new();
        let mut count = 0;
        for p in ["n", "v", "a", "r"] {
            let forms = wn.morphy(&lowered, p);
            count += forms.len();
            parts.push_str(&format!("{p}:{};", forms.join(",")));
        }
        stemmer.stem(&word, &mut stem);
        writeln!(
            out,
            "{}\t{}\t{count}\t{}\t{}\t{}",
            names.len(),
            fnv(&names),
            fnv(&[&parts]),
            hex(&stem),
            hex(&lowered)
        )
        .expect("stdout");
    }
}

fn read_lines(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable UTF-8 file");
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    lines
}

fn bench(dir: &Path, args: &[String]) {
    let threads = Threads::new(args[0].parse().expect("threads")).expect("threads");
    let repeats: usize = args[1].parse().expect("repeats");
    let t = Instant::now();
    let wn: &'static WordNet = Box::leak(Box::new(WordNet::load(dir).expect("WordNet")));
    let load_s = t.elapsed().as_secs_f64();
    let hyps = read_lines(&args[2]);
    let refs: Vec<Vec<String>> = args[3..].iter().map(|p| read_lines(p)).collect();
    let hyp_tokens: Vec<Vec<&str>> = hyps.iter().map(|h| py_split(h).collect()).collect();
    let ref_tokens: Vec<Vec<Vec<&str>>> = (0..hyps.len())
        .map(|i| refs.iter().map(|r| py_split(&r[i]).collect()).collect())
        .collect();
    // METEOR_STAGES (a timing aid): "SW" flags for the stem and WordNet stages, default "11".
    let stages = std::env::var("METEOR_STAGES").unwrap_or_else(|_| "11".into());
    let flag = |k: usize| stages.as_bytes().get(k) != Some(&b'0');
    let o = MeteorOptions::new(0.9, 3.0, 0.5, true, flag(0), flag(1).then_some(wn));
    let mut times = Vec::new();
    let mut rows = Vec::new();
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        rows = o
            .tokens_rows(&hyp_tokens, &ref_tokens, threads)
            .expect("rows");
        times.push(t.elapsed().as_secs_f64());
    }
    let first_s = times[0];
    times.sort_by(f64::total_cmp);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(
        out,
        "load_s={load_s} first_s={first_s} median_s={} pairs={}",
        times[times.len() / 2],
        hyps.len()
    )
    .expect("stdout");
    for row in rows.chunks_exact(4) {
        writeln!(out, "{:016x}", o.row_score(row).to_bits()).expect("stdout");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = Path::new(&args[2]);
    match args[1].as_str() {
        "words" => words(&WordNet::load(dir).expect("WordNet")),
        "bench" => bench(dir, &args[3..]),
        other => panic!("unknown command {other}"),
    }
}

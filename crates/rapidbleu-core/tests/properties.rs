//! The core's properties (`common/properties.rs`) on generated input, with proptest: a fixed
//! seed and a fixed number of cases, so CI runs the same inputs in the same time on stable
//! Rust. `RAPIDBLEU_PROPTEST_CASES=10000 cargo test --release -p rapidbleu-core --test
//! properties` runs more; the `cargo fuzz` targets of `fuzz/` (nightly) run the same
//! properties open-ended.

#[path = "common/properties.rs"]
mod properties;
#[path = "common/seam.rs"]
mod seam;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Cases per property: `$RAPIDBLEU_PROPTEST_CASES`, else 256.
fn config() -> Config {
    let cases = std::env::var("RAPIDBLEU_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x5eed_b1e0),
        ..Config::default()
    }
}

/// Pieces that the tokenizers treat specially, and any character.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "a", "b", "The", "cat", " ", "  ", "\t", "\n", "\u{a0}", "\u{3000}", ".", ",", "-",
            "'", "\"", "&amp;", "&lt;", "<skipped>", "1,000.5", "U.S.", "中", "文", "。",
            "日本語", "é", "e\u{301}", "İ", "ß", "😀", "\u{200b}", "\u{2028}", "\u{85}", "\0",
        ])
        .prop_map(str::to_string),
        1 => any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..24).prop_map(|p| p.concat())
}

fn tokenizer() -> impl Strategy<Value = rapidbleu_core::text::tokenize::Tokenizer> {
    prop::sample::select(properties::TOKENIZERS.to_vec())
}

fn text_corpus() -> impl Strategy<Value = (Vec<String>, Vec<Vec<String>>)> {
    (1usize..5).prop_flat_map(|n| {
        (
            prop::collection::vec(line(), n),
            prop::collection::vec(prop::collection::vec(line(), 1..4), n),
        )
    })
}

/// A corpus of 1 to 12 segments, each with 1 to 3 references (the shape every metric takes).
fn corpus_of_lines() -> impl Strategy<Value = (Vec<String>, Vec<Vec<String>>)> {
    (1usize..13).prop_flat_map(|n| {
        (
            prop::collection::vec(line(), n),
            prop::collection::vec(prop::collection::vec(line(), 1..4), n),
        )
    })
}

fn id_corpus() -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<Vec<Vec<i64>>>)> {
    let seq = prop::collection::vec(prop_oneof![0i64..6, any::<i64>()], 0..30);
    (1usize..5).prop_flat_map(move |n| {
        (
            prop::collection::vec(seq.clone(), n),
            prop::collection::vec(prop::collection::vec(seq.clone(), 1..4), n),
        )
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn tokenizers_never_panic_and_tokens_are_the_split_output(tok in tokenizer(), s in line()) {
        properties::tokenizer(tok, &s);
    }

    #[test]
    fn tokenizers_on_arbitrary_text(tok in tokenizer(), s in any::<String>()) {
        properties::tokenizer(tok, &s);
    }

    #[test]
    fn text_statistics_equal_the_naive_counter(
        tok in tokenizer(),
        lowercase in any::<bool>(),
        order in prop::sample::select(vec![1usize, 2, 4, 7]),
        (hyps, refs) in text_corpus(),
    ) {
        properties::text_stats(tok, lowercase, order, &hyps, &refs);
    }

    #[test]
    fn id_statistics_equal_the_naive_counter(
        order in prop::sample::select(vec![1usize, 3, 4, 9]),
        (hyps, refs) in id_corpus(),
    ) {
        properties::id_stats(order, &hyps, &refs);
    }

    #[test]
    fn chrf_rows_add_and_threads_change_no_row(
        char_order in 1i64..7,
        word_order in 0i64..3,
        beta in prop::sample::select(vec![0.5f64, 1.0, 4.0, 9.0]),
        whitespace in any::<bool>(),
        eps in any::<bool>(),
        lowercase in any::<bool>(),
        (hyps, refs) in corpus_of_lines(),
        chunk in 1usize..5,
    ) {
        use rapidbleu_core::chrf::ChrfOptions;
        let m = ChrfOptions::new(char_order, word_order, beta, whitespace, eps, lowercase);
        seam::rows_add(&m.expect("valid options"), &hyps, &refs, chunk);
    }

    #[test]
    fn ter_rows_add_and_threads_change_no_row(
        normalized in any::<bool>(),
        no_punct in any::<bool>(),
        asian_support in any::<bool>(),
        case_sensitive in any::<bool>(),
        (hyps, refs) in corpus_of_lines(),
        chunk in 1usize..5,
    ) {
        use rapidbleu_core::ter::TerOptions;
        let m = TerOptions { normalized, no_punct, asian_support, case_sensitive };
        seam::rows_add(&m, &hyps, &refs, chunk);
    }

    #[test]
    fn rouge_rows_add_and_threads_change_no_row(
        types in prop::sample::subsequence(vec!["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"], 1..5),
        stem in any::<bool>(),
        (hyps, refs) in corpus_of_lines(),
        chunk in 1usize..5,
    ) {
        use rapidbleu_core::rouge::RougeOptions;
        let m = RougeOptions::new(&types, stem).expect("valid rouge types");
        seam::rows_add(&m, &hyps, &refs, chunk);
    }

    #[test]
    fn meteor_rows_add_and_threads_change_no_row(
        alpha in prop::sample::select(vec![0.0f64, 0.5, 0.9, 1.0]),
        beta in prop::sample::select(vec![0.0f64, 1.0, 3.0]),
        gamma in prop::sample::select(vec![0.0f64, 0.5, 2.0]),
        lowercase in any::<bool>(),
        stem in any::<bool>(),
        (hyps, refs) in corpus_of_lines(),
        chunk in 1usize..5,
    ) {
        // Without WordNet (the synonym stage is checked against NLTK in meteor_golden.rs).
        use rapidbleu_core::meteor::MeteorOptions;
        let m = MeteorOptions::new(alpha, beta, gamma, lowercase, stem, None);
        seam::rows_add(&m, &hyps, &refs, chunk);
    }

    #[test]
    fn scoring_any_rows_never_panics(
        values in prop::collection::vec(prop_oneof![0i64..20, any::<i64>()], 0..60),
        order in 1usize..6,
        smooth in any::<u8>(),
        value in prop_oneof![0.0f64..2.0, any::<f64>()],
        effective in any::<bool>(),
    ) {
        properties::score_any_rows(&values, order, smooth, value, effective);
    }

    #[test]
    fn nltk_rows_are_finite_or_left_to_python(
        values in prop::collection::vec(0i64..30, 0..60),
        order in 1usize..6,
        weights in prop::collection::vec(prop_oneof![0.0f64..1.0, any::<f64>()], 1..6),
        method in any::<u8>(),
        eps in prop_oneof![0.0f64..1.0, any::<f64>()],
        k in prop_oneof![0.0f64..10.0, any::<f64>()],
    ) {
        properties::nltk_any_rows(&values, order, &weights, method, eps, k);
    }
}

/// One long segment (the memory bound of the order-by-order counter): a line of distinct
/// words and one word repeated, at order 4 and at the largest order, counted exactly.
#[test]
fn long_segments_count_exactly() {
    use rapidbleu_core::text::tokenize::Tokenizer;
    // Sizes the naive counter checks in seconds in a debug build (CI's `cargo test`).
    let words: Vec<String> = (0..6_000).map(|i| format!("w{}", i % 1999)).collect();
    let distinct = words.join(" ");
    let same = "ab ".repeat(6_000);
    for order in [4, 40] {
        properties::text_stats(
            Tokenizer::None,
            false,
            order,
            &[distinct.clone(), same.clone()],
            &[vec![distinct.clone()], vec![same.clone(), distinct.clone()]],
        );
    }
}

//! Text statistics of any small corpus (any tokenizer, lowercase, order) equal a naive
//! `Counter` of n-grams; one and two threads agree; scores are finite and within 0..=100.
#![no_main]

#[path = "../../crates/rapidbleu-core/tests/common/properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, bool, u8, Vec<(String, Vec<String>)>)| {
    let (pick, lowercase, order, segments) = input;
    let tok = properties::TOKENIZERS[pick as usize % properties::TOKENIZERS.len()];
    let order = 1 + order as usize % 8;
    let (hyps, refs): (Vec<String>, Vec<Vec<String>>) = segments.into_iter().take(8).unzip();
    properties::text_stats(tok, lowercase, order, &hyps, &refs);
});

//! NLTK's batched sentence BLEU on any rows, weights, method and constants: no panic; each
//! score is finite, or NaN for a row left to NLTK's Python code.
#![no_main]

#[path = "../../crates/rapidbleu-core/tests/common/properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Vec<i64>, u8, Vec<f64>, u8, f64, f64)| {
    let (values, order, weights, method, eps, k) = input;
    if weights.is_empty() {
        return;
    }
    let weights: Vec<f64> = weights.into_iter().take(8).collect();
    properties::nltk_any_rows(&values, 1 + order as usize % 6, &weights, method, eps, k);
});

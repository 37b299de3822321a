//! Token-ID statistics (any i64 IDs, every reference-length rule) equal a naive `Counter`.
#![no_main]

#[path = "../../crates/rapidbleu-core/tests/common/properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, Vec<(Vec<i64>, Vec<Vec<i64>>)>)| {
    let (order, segments) = input;
    let order = 1 + order as usize % 9;
    let (hyps, refs): (Vec<Vec<i64>>, Vec<Vec<Vec<i64>>>) = segments.into_iter().take(8).unzip();
    properties::id_stats(order, &hyps, &refs);
});

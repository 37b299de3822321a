//! sacreBLEU's scoring of any rows (negative, huge, inconsistent counts), any smoothing and
//! value: an error or one score per row, never a panic; consistent rows score in 0..=100.
#![no_main]

#[path = "../../crates/rapidbleu-core/tests/common/properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Vec<i64>, u8, u8, f64, bool)| {
    let (values, order, smooth, value, effective) = input;
    properties::score_any_rows(&values, 1 + order as usize % 6, smooth, value, effective);
});

//! Every tokenizer on any UTF-8 line: no panic, tokens are the `str.split()` of the output.
#![no_main]

#[path = "../../crates/rapidbleu-core/tests/common/properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &str)| {
    let (pick, line) = input;
    let tok = properties::TOKENIZERS[pick as usize % properties::TOKENIZERS.len()];
    properties::tokenizer(tok, line);
});

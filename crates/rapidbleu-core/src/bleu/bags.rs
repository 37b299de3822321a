//! A sentence's n-grams as a [`Bag`]: per order, sorted `(code, count)` pairs, with codes from
//! the engine's maps (`engine::token_map`, and `engine::ngram_map` keyed by `ngram_key` as in
//! [`crate::bleu::ngram`]) shared by a whole group of sentences. Each
//! order's codes are dense (pairwise BLEU indexes arrays by them).

use crate::bleu::options::{BleuOptions, TextPrep};
use crate::bleu::stats::{too_long, total_size, TokState};
use crate::corpus::Groups;
use crate::engine::ngram_map::{ngram_key, NgramMap};
use crate::engine::token_map::TokenMap;
use crate::error::CoreError;

/// The n-grams of one tokenized sentence.
#[derive(Clone, Debug, Default)]
pub struct Bag {
    /// Length in tokens.
    pub len: i64,
    /// Per order `n` (index `n - 1`) up to the sentence's length (longer orders have no
    /// n-gram, so the bag's size does not grow with the order asked for): `(n-gram code,
    /// count)`, sorted by code.
    grams: Vec<Vec<(u32, u32)>>,
}

impl Bag {
    /// The n-grams of order `n` (from 1): `(code, count)` sorted by code.
    pub fn grams(&self, n: usize) -> &[(u32, u32)] {
        self.grams.get(n - 1).map_or(&[], Vec::as_slice)
    }
}

/// Sorted `(code, count)` pairs of a list of codes (`sorted` is scratch space).
fn run_lengths(codes: &[u32], sorted: &mut Vec<u32>) -> Vec<(u32, u32)> {
    sorted.clear();
    sorted.extend_from_slice(codes);
    sorted.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &code in sorted.iter() {
        match out.last_mut() {
            Some((last, c)) if *last == code => *c += 1,
            _ => out.push((code, 1)),
        }
    }
    out
}

/// The bags of `texts`, tokenized once, with codes shared by all of them.
///
/// Performance decision: the sentences are tokenized first, then their n-grams are coded order
/// by order in one map, sized once for the most n-grams an order has and emptied in O(1)
/// between orders (an order's codes only need to be dense among themselves). Growing one map
/// per order as sentences came in cost three full-table rebuilds and twice the memory.
pub fn bags(texts: &[&str], opts: &BleuOptions) -> Result<Vec<Bag>, CoreError> {
    // The group's text shares one arena and one code space of `u32`s: the whole group is
    // bounded as the counter bounds one segment.
    let size = total_size(texts.iter().copied());
    if too_long(size, opts.layout()) {
        return Err(CoreError::TooLarge(format!(
            "a group of {} sentences holds up to {} tokens, too many to count at \
             max_ngram_order {}; give fewer or shorter sentences per group",
            texts.len(),
            size.tokens,
            opts.max_order()
        )));
    }
    let codes = token_codes(texts, opts.text());
    let mut sorted = Vec::new();
    let mut bags: Vec<Bag> = codes
        .iter()
        .map(|c| {
            let mut grams = Vec::with_capacity(opts.max_order().min(c.len()));
            if !c.is_empty() {
                grams.push(run_lengths(c, &mut sorted));
            }
            Bag {
                len: c.len() as i64,
                grams,
            }
        })
        .collect();
    // `prefixes[p]`: the code of the n-gram of the order just done that starts at position
    // `p` of `codes.items()` (for the positions where one starts).
    let mut prefixes = codes.items().to_vec();
    let mut next = vec![0u32; prefixes.len()];
    let mut map = NgramMap::default();
    for n in 2..=opts.max_order() {
        let count: usize = codes.iter().map(|c| (c.len() + 1).saturating_sub(n)).sum();
        if count == 0 {
            break;
        }
        map.clear_for(count);
        let mut start = 0;
        for (bag, c) in bags.iter_mut().zip(codes.iter()) {
            let (prev, out) = (&prefixes[start..], &mut next[start..]);
            for i in 0..(c.len() + 1).saturating_sub(n) {
                let fresh = map.len() as u32;
                out[i] = map.insert_reserved(ngram_key(prev[i], c[i + n - 1]), fresh);
            }
            if c.len() >= n {
                bag.grams
                    .push(run_lengths(&out[..c.len() - n + 1], &mut sorted));
            }
            start += c.len();
        }
        std::mem::swap(&mut prefixes, &mut next);
    }
    Ok(bags)
}

/// The token codes of every sentence of `texts` (`BLEU._preprocess_segment` then
/// `str.split()`), one group per sentence, from one [`TokenMap`].
fn token_codes(texts: &[&str], prep: &TextPrep) -> Groups<u32> {
    let mut tokens = TokenMap::default();
    let mut tok = TokState::default();
    let mut codes = Groups::new();
    for text in texts {
        let (bytes, ranges) = tok.tokenize(text, prep);
        // One copy of the text into the map's arena, as the reference table does.
        let base = tokens.append_arena(bytes, ranges.len());
        codes.push_group(ranges.iter().map(|&(a, b)| {
            tokens
                .get_or_insert_arena(base + a as usize, (b - a) as usize)
                .0
        }));
    }
    codes
}

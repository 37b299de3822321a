//! A sentence's n-grams as a [`Bag`]: per order, sorted `(code, count)` pairs, with codes from
//! the engine's maps ([`crate::engine::token_map`], and [`crate::engine::ngram_map`] keyed by
//! [`ngram_key`] as in [`crate::bleu::ngram`]) shared by a whole group of sentences, one map
//! per order so that each order's codes are dense (pairwise BLEU indexes arrays by them).

use crate::bleu::options::{BleuOptions, TextPrep};
use crate::bleu::stats::{too_long, total_size, TokState};
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

/// Codes of tokens and n-grams shared by the sentences of one group.
#[derive(Default)]
struct Interner {
    tokens: TokenMap,
    /// Per order `n >= 2` (index `n - 2`): n-gram key -> code of order `n`.
    ngrams: Vec<NgramMap>,
    tok: TokState,
    /// Token codes of the sentence.
    toks: Vec<u32>,
    /// Codes of the n-grams of the order just built (by start position), and of the next.
    cur: Vec<u32>,
    next: Vec<u32>,
    sorted: Vec<u32>,
}

impl Interner {
    /// Tokenizes `text` (`BLEU._preprocess_segment` then `str.split()`) and counts its n-grams
    /// up to `max_order`.
    fn bag(&mut self, text: &str, prep: &TextPrep, max_order: usize) -> Bag {
        let Interner {
            tokens,
            ngrams,
            tok,
            toks,
            cur,
            next,
            sorted,
        } = self;
        let (bytes, ranges) = tok.tokenize(text, prep);
        // One copy of the text into the map's arena, as the reference table does.
        let base = tokens.append_arena(bytes);
        toks.clear();
        toks.extend(ranges.iter().map(|&(a, b)| {
            tokens
                .get_or_insert_arena(base + a as usize, (b - a) as usize)
                .0
        }));
        let len = toks.len();
        // Orders longer than the sentence have no n-gram: no map, no list.
        let orders = max_order.min(len);
        if ngrams.len() + 1 < orders {
            ngrams.resize_with(orders - 1, NgramMap::default);
        }
        let mut grams = Vec::with_capacity(orders);
        if orders > 0 {
            grams.push(run_lengths(toks, sorted));
        }
        cur.clear();
        cur.extend_from_slice(toks);
        for n in 2..=orders {
            let map = &mut ngrams[n - 2];
            map.reserve(len - n + 1);
            next.clear();
            for i in 0..=len - n {
                let fresh = map.len() as u32;
                next.push(map.insert_reserved(ngram_key(cur[i], toks[i + n - 1]), fresh));
            }
            std::mem::swap(cur, next);
            grams.push(run_lengths(cur, sorted));
        }
        Bag {
            len: len as i64,
            grams,
        }
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
    let mut interner = Interner::default();
    Ok(texts
        .iter()
        .map(|t| interner.bag(t, opts.text(), opts.max_order()))
        .collect())
}

//! N-gram counting and clipping for one segment, exactly as sacreBLEU's
//! `extract_all_word_ngrams` + `BLEU._extract_reference_info` + `_compute_segment_statistics`.
//!
//! Representation (a performance decision): tokens get dense segment-local *codes* (a text
//! token by its bytes, an integer token ID by its value), a unigram's code is its token's code,
//! and an n-gram of order n > 1 gets a code from the pair (code of its (n-1)-gram prefix, code
//! of its last token), keyed by `ngram_key`. So every n-gram of any order is one `u64` key in
//! a small hash map, with no per-n-gram allocation and no limit on the order, and the counts
//! live in a `Vec` indexed by n-gram code. Keys are exact (no hashing of strings into
//! fingerprints), so no collision can change a count. Orders are processed one at a time
//! ([`RefTable::count_and_match`]), so the map holds one order's n-grams: memory is linear in
//! the segment's length, whatever the order.
//!
//! The reference side builds a [`RefTable`] (max count of each n-gram over the references,
//! `Counter |=` in sacreBLEU); the hypothesis side only looks n-grams up in it. An n-gram whose
//! token or prefix is not in the table cannot match (it still counts towards the total, which
//! is `len - n + 1`), so both sides only extend the n-grams that survived the previous order,
//! and references skip tokens the hypothesis lacks.

use crate::bleu::layout::RowMut;
use crate::bleu::ref_len::RefLenRule;
use crate::engine::id_vocab::IdVocab;
use crate::engine::ngram_map::{ngram_key as key, NgramMap};
use crate::engine::token_map::TokenMap;

mod codes;

/// Code of a hypothesis token that no reference contains.
const MISSING: u32 = u32::MAX;

/// Code of a reference token that the hypothesis lacks: never equal to a hypothesis code
/// (not even [`MISSING`]), so that comparing codes needs no other test. Codes stay below it
/// (`MAX_SEGMENT_WORK` in [`crate::bleu::stats`]).
const REF_MISSING: u32 = u32::MAX - 1;

/// The reference side of one segment: vocabulary, n-gram codes, clipped counts and lengths.
#[derive(Default, Clone, Debug)]
pub struct RefTable {
    /// Reference token -> token code, for tokens given as bytes.
    vocab: TokenMap,
    /// Reference token -> token code, for integer token IDs (the two are never mixed in one
    /// table: both number their tokens from 0).
    id_vocab: IdVocab,
    /// (prefix code, last token code) -> n-gram code, for the order being matched.
    ngrams: NgramMap,
    /// n-gram code (of the order being matched) -> maximum count over the references, less
    /// what the hypothesis has used up.
    max_counts: Vec<u32>,
    /// Length in tokens of each reference, in the order given.
    lens: Vec<u32>,
    /// The code the next new n-gram gets.
    next_code: u32,
}

/// Scratch space reused across segments by one worker.
#[derive(Default, Debug)]
pub struct Scratch {
    /// Token codes of the hypothesis (`MISSING` where no reference has the token).
    hyp_codes: Vec<u32>,
    /// Token codes of all references of the segment, back to back.
    ref_codes: Vec<u32>,
    /// `hyp_count[token code]`: the token's occurrences in the hypothesis.
    hyp_count: Vec<u32>,
    /// `ref_pos[token code]`: with a single reference, a position of the token in it (its
    /// only one for the tokens that are paired, see [`RefTable::count_and_match`]).
    ref_pos: Vec<u32>,
    /// `(start, code)` of the hypothesis' surviving n-grams of the order being processed.
    live: Vec<(u32, u32)>,
    /// The same for every reference, back to back ...
    ref_live: Vec<(u32, u32)>,
    /// ... `(first entry, surviving entries)` of each reference in `ref_live`.
    ref_spans: Vec<(u32, u32)>,
    counts: Vec<u32>,
    touched: Vec<u32>,
    /// `in_hyp[code]`: the (n-1)-gram with this code (of the order last matched) occurs in
    /// the hypothesis, so its reference extensions can match (false for paired tokens, whose
    /// n-grams are settled apart).
    in_hyp: Vec<bool>,
}

impl RefTable {
    /// Empties the table, keeping its allocations.
    pub fn clear(&mut self) {
        self.vocab.clear();
        self.id_vocab.clear();
        self.ngrams.clear();
        self.max_counts.clear();
        self.lens.clear();
    }

    /// Number of distinct reference tokens (token codes are `0..n_tokens`).
    fn n_tokens(&self) -> usize {
        self.vocab.len() + self.id_vocab.len()
    }

    /// Number of references added.
    pub fn n_refs(&self) -> usize {
        self.lens.len()
    }

    /// Length in tokens of each reference, in the order given.
    pub fn ref_lens(&self) -> &[u32] {
        &self.lens
    }

    /// Counts the interned references' n-grams and matches the hypothesis last given to
    /// [`RefTable::lookup_hypothesis`] (or its variants) against them, writing its statistics
    /// row into `row` (its order is the row's); `rule` picks the reference length.
    ///
    /// Order by order (a memory decision): the n-grams of order n are coded, counted and
    /// matched, then the map is emptied for order n + 1, whose keys are (code of the order-n
    /// prefix, last token). So the map never holds more than one order's n-grams, at most the
    /// references' token count, whatever `max_ngram_order` is, and a segment of T tokens
    /// needs O(T) memory, not O(T x N). Only n-grams made of hypothesis tokens are counted,
    /// and only n-grams that survived the previous order (on both sides) are extended.
    ///
    /// Clipping `min(hyp_count, ref_max)` is summed without hypothesis counts: each hypothesis
    /// occurrence of an n-gram takes one of its reference count.
    pub fn count_and_match(
        &mut self,
        mut row: RowMut<'_, i64>,
        rule: RefLenRule,
        sc: &mut Scratch,
    ) {
        let max_order = row.correct.len();
        let len = sc.hyp_codes.len();
        *row.hyp_len = len as i64;
        *row.ref_len = i64::from(rule.pick(self.lens.iter().copied(), len as u32));
        row.correct.fill(0);
        row.set_totals(len as i64);
        let n_tokens = self.n_tokens();
        sc.hyp_count.clear();
        sc.hyp_count.resize(n_tokens, 0);
        for &code in &sc.hyp_codes {
            if code != MISSING {
                sc.hyp_count[code as usize] += 1;
            }
        }
        // Order 1: unigram codes are token codes (no map lookup).
        self.next_code = n_tokens as u32;
        self.max_counts.clear();
        self.max_counts.resize(n_tokens, 0);
        if sc.counts.len() < n_tokens {
            sc.counts.resize(n_tokens, 0);
        }
        let mut ref_codes = std::mem::take(&mut sc.ref_codes);
        let single = self.lens.len() == 1;
        if single {
            sc.ref_pos.clear();
            sc.ref_pos.resize(n_tokens, 0);
        }
        sc.ref_live.clear();
        sc.ref_spans.clear();
        let mut off = 0;
        for r in 0..self.lens.len() {
            let n = self.lens[r] as usize;
            self.unigrams(&mut ref_codes[off..off + n], single, sc);
            off += n;
        }
        // Performance decision (most tokens of a sentence pair are such tokens): with a single
        // reference, a token that occurs once in the hypothesis and once in the reference is
        // *paired*. An n-gram that starts with it occurs at most once on each side, at the
        // token's positions, so it matches exactly when the two texts go on alike for n - 1
        // more tokens. Those n-grams are settled here by comparing codes ([`common_run`])
        // instead of being coded and looked up order by order; the n-grams that start with any
        // other token never equal them, and go on through the table (the reference's paired
        // positions are not extended: `in_hyp` is false for their tokens).
        let pairs = single && max_order > 1;
        sc.in_hyp.clear();
        sc.in_hyp.resize(n_tokens, false);
        let live = &mut sc.live;
        live.clear();
        let mut correct = 0;
        for (i, &t) in sc.hyp_codes.iter().enumerate() {
            if t != MISSING {
                let left = &mut self.max_counts[t as usize];
                // With one reference its counts are the maxima.
                let paired = pairs && *left == 1 && sc.hyp_count[t as usize] == 1;
                correct += take_one(left);
                if paired {
                    let j = sc.ref_pos[t as usize] as usize;
                    let (h, r) = (&sc.hyp_codes[i + 1..], &ref_codes[j + 1..]);
                    // Counted in `row.correct[k]` for a run of k more tokens alike (the
                    // row's order-1 entry is set below), summed into orders next.
                    row.correct[common_run(h, r, max_order - 1)] += 1;
                } else {
                    live.push((i as u32, t));
                    sc.in_hyp[t as usize] = true;
                }
            }
        }
        row.correct[0] = correct;
        // A paired token's run of k more tokens alike matches at orders 2..=k + 1.
        for k in (1..max_order.saturating_sub(1)).rev() {
            row.correct[k] += row.correct[k + 1];
        }
        for n in 2..=max_order {
            if sc.live.is_empty() {
                // No (n-1)-gram of the hypothesis is in the references, so no n-gram is.
                break;
            }
            let surviving: usize = sc.ref_spans.iter().map(|&(_, k)| k as usize).sum();
            // The map holds this order's n-grams only; a short segment after a long one uses
            // few slots.
            self.ngrams.clear_for(surviving.min(1 << 14));
            // Codes start again at 0 (the counts of older orders are never read again), so
            // the counts stay linear in the segment's length, not in length x order.
            self.next_code = 0;
            self.max_counts.clear();
            // From order 3 on, a reference (n-1)-gram the hypothesis lacks is not extended
            // (its n-grams cannot match): on long unrelated lines, orders 3+ cost almost
            // nothing. At order 2, tokens the hypothesis lacks are already REF_MISSING, and paired
            // tokens are left out.
            let filter = n > 2 || pairs;
            let mut off = 0;
            for r in 0..self.lens.len() {
                let len_r = self.lens[r] as usize;
                self.extend_reference(r, &ref_codes[off..off + len_r], (n, filter), single, sc);
                off += len_r;
            }
            row.correct[n - 1] += self.match_order(n, sc);
        }
        sc.ref_codes = ref_codes;
        sc.ref_codes.clear();
    }

    /// Order 1 of one reference (`codes`: token codes): counts its unigrams and records its
    /// surviving positions in the scratch space. A token the hypothesis lacks becomes
    /// REF_MISSING (one test per position in the orders after).
    #[inline]
    fn unigrams(&mut self, codes: &mut [u32], single: bool, sc: &mut Scratch) {
        let begin = sc.ref_live.len();
        sc.touched.clear();
        for (i, t) in codes.iter_mut().enumerate() {
            if sc.hyp_count[*t as usize] == 0 {
                *t = REF_MISSING;
            } else {
                let t = *t;
                if single {
                    sc.ref_pos[t as usize] = i as u32;
                }
                sc.ref_live.push((i as u32, t));
                bump(
                    &mut self.max_counts,
                    &mut sc.counts,
                    &mut sc.touched,
                    single,
                    t,
                );
            }
        }
        self.merge_counts(single, sc);
        sc.ref_spans
            .push((begin as u32, (sc.ref_live.len() - begin) as u32));
    }

    /// Order `n` of reference `r` (`codes`: its token codes): extends its surviving
    /// (n-1)-grams by one token, codes and counts the n-grams, and keeps those that survive.
    #[inline]
    fn extend_reference(
        &mut self,
        r: usize,
        codes: &[u32],
        (n, filter): (usize, bool),
        single: bool,
        sc: &mut Scratch,
    ) {
        let Scratch {
            ref_live,
            ref_spans,
            counts,
            touched,
            in_hyp,
            ..
        } = sc;
        let (begin, count) = (ref_spans[r].0 as usize, ref_spans[r].1 as usize);
        let entries = &mut ref_live[begin..begin + count];
        // The bound the loops below index by (so that no index needs a check).
        let count = entries.len();
        touched.clear();
        let mut kept = 0;
        let mut at = 0;
        'chunks: while at < count {
            // Room for one chunk of new n-grams at a time, so that the insertions below
            // neither check capacity nor reallocate, and the map grows with the n-grams
            // actually found (a long line of few distinct words stays small).
            let end = (at + INSERT_CHUNK).min(count);
            self.ngrams.reserve(end - at);
            let limit = self.next_code as usize + (end - at);
            if self.max_counts.len() < limit {
                self.max_counts.resize(limit, 0);
            }
            if counts.len() < limit {
                counts.resize(limit, 0);
            }
            for e in at..end {
                let (start, prefix) = entries[e];
                // Starts increase, so once an n-gram would end past the reference, all do.
                let Some(&t) = codes.get(start as usize + n - 1) else {
                    break 'chunks;
                };
                if t == REF_MISSING || (filter && !in_hyp[prefix as usize]) {
                    continue;
                }
                let code = self.ngrams.insert_reserved(key(prefix, t), self.next_code);
                self.next_code += u32::from(code == self.next_code);
                bump(&mut self.max_counts, counts, touched, single, code);
                entries[kept] = (start, code);
                kept += 1;
            }
            at = end;
        }
        ref_spans[r].1 = kept as u32;
        self.merge_counts(single, sc);
    }

    /// With several references, folds the counts of the reference just counted into the
    /// maxima (`Counter |=`); a single reference counted straight into them.
    #[inline]
    fn merge_counts(&mut self, single: bool, sc: &mut Scratch) {
        if single {
            return;
        }
        for &code in sc.touched.iter() {
            let idx = code as usize;
            self.max_counts[idx] = self.max_counts[idx].max(sc.counts[idx]);
            sc.counts[idx] = 0;
        }
    }

    /// Matches the hypothesis' surviving (n-1)-grams, extended by one token, against the
    /// references' n-grams of order `n`; returns the clipped matches.
    #[inline]
    fn match_order(&mut self, n: usize, sc: &mut Scratch) -> i64 {
        // An n-gram missing from the table gets the code `absent`, whose count is 0, so that it
        // matches nothing and is dropped from `live` without a branch (a hypothesis token
        // missing from the references is MISSING, and no reference n-gram contains MISSING).
        let absent = self.next_code;
        if self.max_counts.len() <= absent as usize {
            self.max_counts.resize(absent as usize + 1, 0);
        }
        self.max_counts[absent as usize] = 0;
        let (codes, live) = (&sc.hyp_codes, &mut sc.live);
        let mut correct = 0;
        let mut kept = 0;
        for r in 0..live.len() {
            let (start, prefix) = live[r];
            let Some(&t) = codes.get(start as usize + n - 1) else {
                break;
            };
            let code = self.ngrams.get_or(key(prefix, t), absent);
            correct += take_one(&mut self.max_counts[code as usize]);
            live[kept] = (start, code);
            kept += usize::from(code != absent);
        }
        live.truncate(kept);
        // Which n-grams the hypothesis has, for the references' next order.
        sc.in_hyp.clear();
        sc.in_hyp.resize(absent as usize + 1, false);
        for &(_, code) in live.iter() {
            sc.in_hyp[code as usize] = true;
        }
        correct
    }
}

/// How many of the first `cap` tokens of `h` and `r` (hypothesis and reference codes after a
/// paired token) are alike before the first difference or end (MISSING and REF_MISSING are
/// never alike).
#[inline]
fn common_run(h: &[u32], r: &[u32], cap: usize) -> usize {
    let n = cap.min(h.len()).min(r.len());
    let (h, r) = (&h[..n], &r[..n]);
    let mut k = 0;
    while k < n && h[k] == r[k] {
        k += 1;
    }
    k
}

/// Positions extended between two checks of the map's room (see
/// [`RefTable::extend_reference`]).
const INSERT_CHUNK: usize = 4096;

/// Counts one occurrence of n-gram `code` in the reference being counted: with a single
/// reference its counts are the maxima, so they go straight into `max_counts`; otherwise into
/// `counts` (and `touched`), folded into the maxima when the reference is done.
#[inline(always)]
fn bump(
    max_counts: &mut [u32],
    counts: &mut [u32],
    touched: &mut Vec<u32>,
    single: bool,
    code: u32,
) {
    if single {
        max_counts[code as usize] += 1;
    } else {
        let count = &mut counts[code as usize];
        if *count == 0 {
            touched.push(code);
        }
        *count += 1;
    }
}

/// One hypothesis occurrence of an n-gram whose remaining reference count is `*left`: it
/// matches (1) while some count is left, and uses one up.
#[inline(always)]
fn take_one(left: &mut u32) -> i64 {
    let hit = u32::from(*left > 0);
    *left -= hit;
    i64::from(hit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bleu::layout::RowLayout;

    fn row(hyp: &'static str, refs: &[&'static str], n: i64) -> Vec<i64> {
        let mut t = RefTable::default();
        let mut sc = Scratch::default();
        let toks = |s: &'static str| s.split(' ').filter(|s| !s.is_empty()).map(str::as_bytes);
        for r in refs {
            t.intern_reference(toks(r), &mut sc);
        }
        t.lookup_hypothesis(toks(hyp), &mut sc);
        let layout = RowLayout::new(n).expect("valid order");
        let mut out = vec![7; layout.row_len()];
        t.count_and_match(
            layout.row_mut(&mut out),
            RefLenRule::ClosestShorter,
            &mut sc,
        );
        out
    }

    #[test]
    fn clipping_takes_max_over_references() {
        // hyp "the the the the", refs with 2 and 1 "the": clipped unigram count is 2.
        assert_eq!(
            row("the the the the", &["the cat the", "the"], 2),
            vec![4, 3, 2, 0, 4, 3]
        );
    }

    #[test]
    fn closest_length_ties_go_shorter() {
        assert_eq!(row("a b c", &["a b c d", "a b"], 1)[1], 2);
        assert_eq!(row("", &["x"], 4), vec![0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn higher_orders() {
        let r = row("a b c d e", &["a b c d e"], 6);
        assert_eq!(r, vec![5, 5, 5, 4, 3, 2, 1, 0, 5, 4, 3, 2, 1, 0]);
    }
}

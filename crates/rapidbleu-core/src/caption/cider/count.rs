//! The document frequencies of a corpus coded by [`super::corpus`], counted on every core.
//!
//! Order by order (the order-n candidates need the order-(n-1) frequencies of the whole
//! corpus): each [`Shard`] counts, in its own tables, the tokens and n-grams whose hash falls
//! to it, over every part's distinct n-grams; then each part, in parallel, takes its n-grams'
//! frequencies ([`settle`]), drops the codes of frequency 0 or 1, and files the next order's
//! candidates by shard.
//!
//! Why the frequencies are pycocoevalcap's: a part's n-grams are distinct within their image,
//! so each counts once for its image (`compute_doc_freq`'s `set` of an image's n-grams), and
//! an n-gram is counted by one shard only, so its count is the whole corpus's. Only the codes'
//! numbering depends on the shards (shard `s`'s code `c` is `c << bits | s`), and no score
//! depends on it.
//!
//! Performance decision: this count was the serial half of CIDEr-D's COCO evaluation. The
//! shards share nothing while they count (no lock), and their work is the table operations
//! alone: which n-grams are candidates, and their keys, are found by [`settle`], in parallel
//! over the parts.

use super::corpus::{shard_bits, shard_of, Gram, Part};
use super::doc_freq::{check_codes, Caption, DocumentFrequency, NONE};
use super::MAX_ORDER;
use crate::caption::grams::key;
use crate::engine::ngram_map::NgramMap;
use crate::engine::parallel::{self, Threads};
use crate::error::CoreError;
use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;

/// How many n-grams ahead of the one counted [`count_shard`] prefetches the slot of.
///
/// Performance decision: the candidates' table is several MiB and a rare n-gram's slot is
/// rarely in cache; asking for it early overlaps those misses.
const AHEAD: usize = 16;

/// One shard of the count: the tokens (`d`'s vocabulary) and n-grams (`grams`) it owns, their
/// frequencies (`d.df`, by the shard's code: tokens first, then n-grams).
#[derive(Default)]
pub(super) struct Shard {
    d: DocumentFrequency,
    grams: NgramMap,
    /// The shard's codes so far.
    used: usize,
}

impl Shard {
    /// The heap bytes its candidates' table and frequencies hold (the vocabulary left out).
    pub(super) fn bytes(&self) -> usize {
        self.grams.bytes() + self.d.df.capacity() * std::mem::size_of::<u32>()
    }

    /// Forgets the previous count (the buffers stay).
    fn reset(&mut self, ids: bool) {
        self.d.reset(ids);
        self.grams.clear();
        self.used = 0;
    }
}

/// Shard `s`'s count of order `k + 1`: the references' tokens (order 1) or candidates it owns
/// counted, then the hypotheses' others it owns looked up (after every part's references, as
/// an n-gram may be in a later image's).
fn count_shard<'a, C: Caption<'a>>(
    parts: &[Part],
    (k, s, shards): (usize, usize, usize),
    sh: &mut Shard,
) -> Result<(), CoreError> {
    let (bits, s32) = (shard_bits(shards), s as u32);
    for which in [0, 1] {
        let is_ref = which == 0;
        for p in parts {
            let batch = &p.batches[s][which];
            if is_ref {
                check_codes((sh.used + batch.len()) << bits)?;
                sh.d.df.resize(sh.used + batch.len(), 0);
            }
            for (i, &(g, kk)) in batch.iter().enumerate() {
                let c = if k == 0 {
                    let tok = p.token(kk as usize, C::IDS);
                    if is_ref {
                        let c = sh.d.add_token(tok);
                        sh.used += usize::from(c as usize == sh.used);
                        c
                    } else {
                        sh.d.token(tok)
                    }
                } else {
                    if let Some(&(_, ahead)) = batch.get(i + AHEAD) {
                        sh.grams.prefetch(ahead);
                    }
                    if is_ref {
                        // Room for one key at a time: the batch repeats most n-grams, and a
                        // table sized for all of it would be several times too large.
                        sh.grams.reserve(1);
                        let c = sh.grams.insert_reserved(kk, sh.used as u32);
                        sh.used += usize::from(c as usize == sh.used);
                        c
                    } else {
                        sh.grams.get_or(kk, NONE)
                    }
                };
                if is_ref {
                    sh.d.df[c as usize] += 1;
                }
                let code = c.wrapping_shl(bits) | s32;
                let code = std::hint::select_unpredictable(c == NONE, NONE, code);
                p.gcode[g as usize].store(code, Relaxed);
            }
            if is_ref {
                sh.d.df.truncate(sh.used);
            }
        }
    }
    Ok(())
}

/// After order `k + 1` is counted, in part `p`: each n-gram's frequency, and its code only
/// when the frequency is 2 or more; then the next order's candidates (both (n-1)-grams of
/// frequency 2 or more, and so their last token), filed by the shard owning their key.
fn settle(p: &mut Part, k: usize, shards: &[Shard]) {
    let (n, bits) = (shards.len(), shard_bits(shards.len()));
    let mask = (1u32 << bits) - 1;
    let Part {
        ref_grams,
        hyp_grams,
        gtok,
        gcode,
        gdf,
        batches,
        ..
    } = p;
    for gram in ref_grams[k].iter().chain(&hyp_grams[k]) {
        let g = gram.g as usize;
        let c = *gcode[g].get_mut();
        let df = match c {
            NONE => 0,
            c => shards[(c & mask) as usize].d.df[(c >> bits) as usize],
        };
        let frequent = df >= 2;
        *gcode[g].get_mut() = if frequent { c } else { NONE };
        gdf[g] = if frequent { df } else { 0 };
        if k == 0 {
            // A token's code is its unigram's.
            *gtok[gram.last as usize].get_mut() = *gcode[g].get_mut();
        }
    }
    if k + 1 == MAX_ORDER {
        return;
    }
    for b in batches.iter_mut() {
        b[0].clear();
        b[1].clear();
    }
    let code = |v: &mut [std::sync::atomic::AtomicU32], i: u32| *v[i as usize].get_mut();
    for (which, list) in [&ref_grams[k + 1], &hyp_grams[k + 1]]
        .into_iter()
        .enumerate()
    {
        for &Gram {
            g,
            prefix,
            suffix,
            last,
        } in list.iter()
        {
            let (a, t) = (code(gcode, prefix), code(gtok, last));
            // A hypothesis's n-gram is looked up, not counted: its suffix need not be tested.
            let b = if which == 0 { code(gcode, suffix) } else { 0 };
            if a == NONE || t == NONE || b == NONE {
                continue;
            }
            let kk = key(a, t);
            batches[shard_of(kk, n)][which].push((g, kk));
        }
    }
}

/// Counts the document frequencies of `parts` (coded from captions of kind `C`) on the shards
/// `sh` (one per thread, or one), leaving each n-gram's in the parts; the largest frequency, or
/// an error when no reference has a token.
pub(super) fn count<'a, C: Caption<'a>>(
    parts: &mut [Part],
    sh: &mut [Shard],
    threads: Threads,
) -> Result<u32, CoreError> {
    for s in sh.iter_mut() {
        s.reset(C::IDS);
    }
    for k in 0..MAX_ORDER {
        if sh.len() == 1 {
            count_shard::<C>(parts, (k, 0, 1), &mut sh[0])?;
        } else {
            let (shared, shards): (&[Part], usize) = (parts, sh.len());
            parallel::install(threads, || {
                sh.par_iter_mut()
                    .enumerate()
                    .try_for_each(|(s, d)| count_shard::<C>(shared, (k, s, shards), d))
            })?;
        }
        if k == 0 && sh.iter().all(|s| s.d.df.is_empty()) {
            // compute_score's `max(self.document_frequency.values())` of nothing: ValueError.
            return Err(CoreError::InvalidInput(
                "no reference caption has a word, so CIDEr-D has no document frequency \
                 (pycocoevalcap fails with ValueError: max() arg is an empty sequence)"
                    .into(),
            ));
        }
        let shards: &[Shard] = sh;
        if shards.len() == 1 {
            parts.iter_mut().for_each(|p| settle(p, k, shards));
        } else {
            parallel::install(threads, || {
                parts.par_iter_mut().for_each(|p| settle(p, k, shards));
            });
        }
    }
    Ok(sh.iter().map(|s| s.d.max_count()).max().unwrap_or(0))
}

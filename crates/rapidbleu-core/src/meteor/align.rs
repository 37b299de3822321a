//! `_enum_align_words` (nltk 3.10.4): exact matches, then Porter stems, then WordNet
//! synonyms, each stage on the words the previous left, and the chunk count.
//!
//! Each stage is 3.10's linear-time `_match_enums`: the hypothesis words are taken from the
//! last, and each is matched to the latest still-unused reference word of the same form
//! (`ref_positions[word].pop()`). Positions in NLTK's shrunken lists keep the original order,
//! so "latest" is the highest original position among the unused ones; a stage here works on
//! the original positions with a matched mark, and the per-form stacks are linked lists
//! through the positions (`head[form]`, `below[position]`).
//!
//! A quirk kept: `_enum_stem_match` returns the words it leaves *stemmed*, so the synonym
//! stage looks up the synsets of the hypothesis words' Porter stems and compares their lemma
//! names with the reference words' stems (with the stem stage off, the words themselves).

use super::stem::Stemmer;
use super::wordnet::WordNet;
use crate::engine::token_map::TokenMap;
use rustc_hash::FxHashMap;

const NONE: u32 = u32::MAX;

/// Synonym sets and stems kept per worker at most this many words (then forgotten).
const CACHE_LIMIT: usize = 1 << 20;

/// The alignment of one hypothesis with one reference: the reference position matched by each
/// hypothesis position ([`NONE`]: unmatched).
#[derive(Debug, Default)]
pub struct Aligner {
    stemmer: Stemmer,
    stem_buf: String,
    forms: TokenMap,
    head: Vec<u32>,
    below: Vec<u32>,
    hyp_form: Vec<u32>,
    ref_form: Vec<u32>,
    /// The reference position matched by each hypothesis position.
    hyp_match: Vec<u32>,
    ref_used: Vec<bool>,
    stems: FxHashMap<Box<str>, Box<str>>,
    synonyms: Synonyms,
    name_head: FxHashMap<u32, u32>,
    /// The words the stem stage leaves, stemmed (hypothesis words, then reference words;
    /// a matched word as an empty one), and their ends in `stemmed`.
    stemmed: String,
    stemmed_ends: Vec<usize>,
}

/// Synonym sets of hypothesis words, cached per worker.
#[derive(Debug, Default)]
struct Synonyms {
    sets: FxHashMap<Box<str>, Box<[u32]>>,
    lowered: String,
    synsets: Vec<u32>,
    buf: Vec<u32>,
}

impl Synonyms {
    /// The sorted synonym name ids of `word` ([`WordNet::synonyms_into`]).
    fn get(&mut self, wn: &WordNet, word: &str) -> &[u32] {
        if !self.sets.contains_key(word) {
            wn.synonyms_into(word, &mut self.lowered, &mut self.synsets, &mut self.buf);
            if self.sets.len() >= CACHE_LIMIT {
                self.sets.clear();
            }
            self.sets.insert(word.into(), self.buf.as_slice().into());
        }
        self.sets.get(word).map_or(&[], |s| s)
    }
}

impl Aligner {
    /// `_match_enums` over the unmatched positions, forms given as ids in `hyp_form` and
    /// `ref_form` (below `n_forms`).
    fn match_forms(&mut self, n_forms: usize) {
        self.head.clear();
        self.head.resize(n_forms, NONE);
        self.below.resize(self.ref_form.len(), NONE);
        for (j, &f) in self.ref_form.iter().enumerate() {
            if !self.ref_used[j] {
                self.below[j] = self.head[f as usize];
                self.head[f as usize] = j as u32;
            }
        }
        for i in (0..self.hyp_form.len()).rev() {
            if self.hyp_match[i] != NONE {
                continue;
            }
            let f = self.hyp_form[i] as usize;
            let j = self.head[f];
            if j != NONE {
                self.head[f] = self.below[j as usize];
                self.hyp_match[i] = j;
                self.ref_used[j as usize] = true;
            }
        }
    }

    /// The Porter stem of `word` (cached), appended to `stemmed`; its form id.
    fn stem_id(&mut self, word: &str) -> u32 {
        if !self.stems.contains_key(word) {
            self.stemmer.stem(word, &mut self.stem_buf);
            if self.stems.len() >= CACHE_LIMIT {
                self.stems.clear();
            }
            self.stems
                .insert(word.into(), self.stem_buf.as_str().into());
        }
        let s = self.stems.get(word).map_or("", |s| s);
        self.stemmed.push_str(s);
        self.stemmed_ends.push(self.stemmed.len());
        self.forms.get_or_insert(s.as_bytes())
    }

    /// `_enum_wordnetsyn_match` over the unmatched positions.
    ///
    /// NLTK's synonym set also holds the hypothesis word itself (`.union({word})`); after the
    /// exact stage no unused reference word equals an unmatched hypothesis word (that stage
    /// would have paired them), so that member never matches and is left out.
    fn match_synonyms<S: AsRef<str>>(&mut self, wn: &WordNet, hyp: &[S], reference: &[S]) {
        self.name_head.clear();
        for (j, w) in reference.iter().enumerate() {
            self.below[j] = NONE;
            if self.ref_used[j] {
                continue;
            }
            if let Some(n) = wn.name_id(w.as_ref()) {
                let head = self.name_head.entry(n).or_insert(NONE);
                self.below[j] = *head;
                *head = j as u32;
            }
        }
        if self.name_head.is_empty() {
            return;
        }
        for i in (0..hyp.len()).rev() {
            if self.hyp_match[i] != NONE {
                continue;
            }
            let syns = self.synonyms.get(wn, hyp[i].as_ref());
            // The highest still-available position whose word is a synonym (positions are
            // distinct, so the set's order does not matter).
            let mut best: Option<(u32, u32)> = None;
            for &n in syns {
                if let Some(&j) = self.name_head.get(&n) {
                    if j != NONE && best.is_none_or(|(b, _)| j > b) {
                        best = Some((j, n));
                    }
                }
            }
            if let Some((j, n)) = best {
                self.name_head.insert(n, self.below[j as usize]);
                self.hyp_match[i] = j;
                self.ref_used[j as usize] = true;
            }
        }
    }

    /// Aligns `hyp` with `reference` (both already preprocessed) and returns `(matches,
    /// chunks)`.
    pub fn align<S: AsRef<str>>(
        &mut self,
        hyp: &[S],
        reference: &[S],
        stem: bool,
        wordnet: Option<&WordNet>,
    ) -> (i64, i64) {
        self.hyp_match.clear();
        self.hyp_match.resize(hyp.len(), NONE);
        self.ref_used.clear();
        self.ref_used.resize(reference.len(), false);
        self.below.clear();
        self.below.resize(reference.len(), NONE);
        // Stage 1: exact forms.
        self.forms.clear();
        self.hyp_form.clear();
        self.ref_form.clear();
        for w in hyp {
            self.hyp_form
                .push(self.forms.get_or_insert(w.as_ref().as_bytes()));
        }
        for w in reference {
            self.ref_form
                .push(self.forms.get_or_insert(w.as_ref().as_bytes()));
        }
        self.match_forms(self.forms.len());
        // Stage 2: Porter stems of the words left (`_enum_stem_match`).
        let left = |a: &Aligner| a.hyp_match.contains(&NONE) && a.ref_used.contains(&false);
        if !left(self) {
            return self.chunks();
        }
        if stem {
            self.forms.clear();
            self.stemmed.clear();
            self.stemmed_ends.clear();
            // Matched words are not stemmed: an empty word keeps the positions.
            for (i, w) in hyp.iter().enumerate() {
                self.hyp_form[i] = if self.hyp_match[i] == NONE {
                    self.stem_id(w.as_ref())
                } else {
                    self.stemmed_ends.push(self.stemmed.len());
                    0
                };
            }
            for (j, w) in reference.iter().enumerate() {
                self.ref_form[j] = if self.ref_used[j] {
                    self.stemmed_ends.push(self.stemmed.len());
                    0
                } else {
                    self.stem_id(w.as_ref())
                };
            }
            self.match_forms(self.forms.len());
        }
        // Stage 3: WordNet synonyms, of the stems when the stem stage ran.
        if let Some(wn) = wordnet {
            if left(self) {
                if stem {
                    let stemmed = std::mem::take(&mut self.stemmed);
                    let ends = std::mem::take(&mut self.stemmed_ends);
                    let word = |k: usize| &stemmed[if k == 0 { 0 } else { ends[k - 1] }..ends[k]];
                    let h: Vec<&str> = (0..hyp.len()).map(word).collect();
                    let r: Vec<&str> = (hyp.len()..hyp.len() + reference.len()).map(word).collect();
                    self.match_synonyms(wn, &h, &r);
                    self.stemmed = stemmed;
                    self.stemmed_ends = ends;
                } else {
                    self.match_synonyms(wn, hyp, reference);
                }
            }
        }
        self.chunks()
    }

    /// `(matches, chunks)` of the alignment made.
    fn chunks(&self) -> (i64, i64) {
        // `_count_chunks` over the matches sorted by hypothesis position.
        let (mut matches, mut chunks) = (0i64, 0i64);
        let mut last: Option<(usize, u32)> = None;
        for (i, &j) in self.hyp_match.iter().enumerate() {
            if j == NONE {
                continue;
            }
            matches += 1;
            let continues = last.is_some_and(|(pi, pj)| i == pi + 1 && j == pj.wrapping_add(1));
            if !continues {
                chunks += 1;
            }
            last = Some((i, j));
        }
        (matches, chunks)
    }
}

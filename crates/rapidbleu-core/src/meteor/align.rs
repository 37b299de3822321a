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
//!
//! Performance decision: an [`Aligner`] (one per worker thread) interns every word it sees
//! once, and keeps per word its stage-2 form, per form its synonym name ids and its WordNet
//! name id, all computed on first need; a segment then costs one hash probe per token and
//! array look-ups. Everything it keeps belongs to one option set (stem stage, WordNet), and
//! is dropped when it is used with another. Aligners are kept between calls in a static
//! worker pool (`metric.rs`), as the other metrics keep their workers, so repeated calls
//! (batches) find the words they have seen.

use super::stem::Stemmer;
use super::wordnet::WordNet;
use rustc_hash::FxHashMap;

const NONE: u32 = u32::MAX;

/// Distinct words an aligner keeps before it starts afresh (bounded memory on huge input).
const CACHE_LIMIT: usize = 1 << 20;

/// Interned strings with their texts.
#[derive(Debug, Default)]
struct Strings {
    map: FxHashMap<Box<str>, u32>,
    text: String,
    ends: Vec<usize>,
}

impl Strings {
    fn id(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.map.get(s) {
            return id;
        }
        let id = self.ends.len() as u32;
        self.map.insert(s.into(), id);
        self.text.push_str(s);
        self.ends.push(self.text.len());
        id
    }

    fn get(&self, id: u32) -> &str {
        let k = id as usize;
        &self.text[if k == 0 { 0 } else { self.ends[k - 1] }..self.ends[k]]
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn clear(&mut self) {
        self.map.clear();
        self.text.clear();
        self.ends.clear();
    }
}

/// Aligns hypotheses with references, word ids from [`Aligner::word_id`] (see the module
/// documentation).
#[derive(Debug, Default)]
pub struct Aligner {
    /// The option set the caches belong to: (stem stage, [`WordNet::serial`]).
    mode: Option<(bool, u64)>,
    words: Strings,
    /// Word id -> its stage-2 form's id ([`NONE`]: not yet computed).
    word_form: Vec<u32>,
    forms: Strings,
    /// Form id -> its synonyms' range in `syn_pool` (start [`NONE`]: not yet computed).
    form_syns: Vec<(u32, u32)>,
    syn_pool: Vec<u32>,
    /// Form id -> its WordNet name id ([`NONE`]: none; `NONE - 1`: not yet computed).
    form_name: Vec<u32>,
    stemmer: Stemmer,
    stem_buf: String,
    lowered: String,
    synsets: Vec<u32>,
    syn_buf: Vec<u32>,
    head: Vec<u32>,
    below: Vec<u32>,
    hyp_form: Vec<u32>,
    ref_form: Vec<u32>,
    /// The reference position matched by each hypothesis position ([`NONE`]: unmatched).
    hyp_match: Vec<u32>,
    ref_used: Vec<bool>,
}

const NOT_YET: u32 = NONE - 1;

impl Aligner {
    /// Makes the caches those of `stem` and `wordnet` (dropping others), and bounds them.
    pub fn prepare(&mut self, stem: bool, wordnet: Option<&WordNet>) {
        let mode = (stem, wordnet.map_or(0, WordNet::serial));
        if self.mode != Some(mode) || self.words.len() > CACHE_LIMIT {
            self.words.clear();
            self.word_form.clear();
            self.forms.clear();
            self.form_syns.clear();
            self.syn_pool.clear();
            self.form_name.clear();
            self.mode = Some(mode);
        }
    }

    /// The id of a (preprocessed) word.
    pub fn word_id(&mut self, word: &str) -> u32 {
        let id = self.words.id(word);
        if id as usize == self.word_form.len() {
            self.word_form.push(NONE);
        }
        id
    }

    /// The stage-2 form of word `w`: its Porter stem, or itself without the stem stage.
    fn form(&mut self, w: u32, stem: bool) -> u32 {
        let f = self.word_form[w as usize];
        if f != NONE {
            return f;
        }
        let word = self.words.get(w);
        let f = if stem {
            self.stemmer.stem(word, &mut self.stem_buf);
            self.forms.id(&self.stem_buf)
        } else {
            self.forms.id(word)
        };
        if f as usize == self.form_syns.len() {
            self.form_syns.push((NONE, 0));
            self.form_name.push(NOT_YET);
        }
        self.word_form[w as usize] = f;
        f
    }

    /// `_match_enums` over the unmatched positions, forms in `hyp_form` and `ref_form` (a
    /// matched position's form is not read; a used reference position may hold [`NONE`]).
    fn match_forms(&mut self, n_forms: usize) {
        if self.head.len() < n_forms {
            self.head.resize(n_forms, NONE);
        }
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
        for &f in &self.ref_form {
            if f != NONE {
                self.head[f as usize] = NONE;
            }
        }
    }

    /// The synonyms of form `f` (sorted name ids), as a range of `syn_pool`.
    fn synonyms(&mut self, wn: &WordNet, f: u32) -> (usize, usize) {
        let (start, len) = self.form_syns[f as usize];
        if start != NONE {
            return (start as usize, len as usize);
        }
        let word = self.forms.get(f);
        wn.synonyms_into(
            word,
            &mut self.lowered,
            &mut self.synsets,
            &mut self.syn_buf,
        );
        let start = self.syn_pool.len();
        self.syn_pool.extend_from_slice(&self.syn_buf);
        self.form_syns[f as usize] = (start as u32, self.syn_buf.len() as u32);
        (start, self.syn_buf.len())
    }

    /// The WordNet name id of form `f` ([`NONE`]: no lemma has that name).
    fn name(&mut self, wn: &WordNet, f: u32) -> u32 {
        if self.form_name[f as usize] == NOT_YET {
            self.form_name[f as usize] = wn.name_id(self.forms.get(f)).unwrap_or(NONE);
        }
        self.form_name[f as usize]
    }

    /// `_enum_wordnetsyn_match` over the unmatched positions (forms in `hyp_form` and
    /// `ref_form`): the per-name stacks are `head` indexed by name id.
    ///
    /// NLTK's synonym set also holds the hypothesis form itself (`.union({word})`); after the
    /// exact and stem stages no unused reference form equals an unmatched hypothesis form
    /// (those stages would have paired them), so that member never matches and is left out.
    fn match_synonyms(&mut self, wn: &WordNet) {
        if self.head.len() < wn.name_count() {
            self.head.resize(wn.name_count(), NONE);
        }
        let mut any = false;
        for j in 0..self.ref_form.len() {
            self.below[j] = NONE;
            if self.ref_used[j] {
                continue;
            }
            let n = self.name(wn, self.ref_form[j]);
            if n != NONE {
                self.below[j] = self.head[n as usize];
                self.head[n as usize] = j as u32;
                any = true;
            }
        }
        if any {
            for i in (0..self.hyp_form.len()).rev() {
                if self.hyp_match[i] != NONE {
                    continue;
                }
                let (start, len) = self.synonyms(wn, self.hyp_form[i]);
                // The highest still-available position whose word is a synonym (positions
                // are distinct, so the set's order does not matter).
                let mut best = (NONE, NONE);
                for &n in &self.syn_pool[start..start + len] {
                    let j = self.head[n as usize];
                    if j != NONE && (best.0 == NONE || j > best.0) {
                        best = (j, n);
                    }
                }
                if best.0 != NONE {
                    let (j, n) = best;
                    self.head[n as usize] = self.below[j as usize];
                    self.hyp_match[i] = j;
                    self.ref_used[j as usize] = true;
                }
            }
        }
        for &f in &self.ref_form {
            if f != NONE {
                let n = self.form_name[f as usize];
                if n < NOT_YET {
                    self.head[n as usize] = NONE;
                }
            }
        }
    }

    /// Aligns `hyp` with `reference` (word ids of preprocessed words) and returns `(matches,
    /// chunks)`. [`Aligner::prepare`] must have been called with the same `stem` and
    /// `wordnet`.
    pub fn align(
        &mut self,
        hyp: &[u32],
        reference: &[u32],
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
        self.hyp_form.clear();
        self.hyp_form.extend_from_slice(hyp);
        self.ref_form.clear();
        self.ref_form.extend_from_slice(reference);
        self.match_forms(self.words.len());
        let left = |a: &Aligner| a.hyp_match.contains(&NONE) && a.ref_used.contains(&false);
        if !(stem || wordnet.is_some()) || !left(self) {
            return self.chunks();
        }
        // The stage-2 forms of the words left (a matched position keeps a placeholder that
        // no stage reads).
        for (i, &w) in hyp.iter().enumerate() {
            self.hyp_form[i] = if self.hyp_match[i] == NONE {
                self.form(w, stem)
            } else {
                NONE
            };
        }
        for (j, &w) in reference.iter().enumerate() {
            self.ref_form[j] = if self.ref_used[j] {
                NONE
            } else {
                self.form(w, stem)
            };
        }
        // Stage 2: Porter stems (`_enum_stem_match`).
        if stem {
            self.match_forms(self.forms.len());
        }
        // Stage 3: WordNet synonyms of the stage-2 forms.
        if let Some(wn) = wordnet {
            if left(self) {
                self.match_synonyms(wn);
            }
        }
        self.chunks()
    }

    /// `(matches, chunks)` of the alignment made: `_count_chunks` over the matches sorted by
    /// hypothesis position.
    fn chunks(&self) -> (i64, i64) {
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

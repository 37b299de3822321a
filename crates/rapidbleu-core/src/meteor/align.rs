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
//! once ([`Interner`]), and keeps per word one record (its stage-2 form, the form's WordNet
//! name id and its synonym name ids), computed on first need (per form, so words with one
//! stem share the WordNet look-up); a segment then costs one hash probe per token and one
//! record read per word a later stage needs. The synonym stage scans the few reference words
//! left against each hypothesis word's sorted synonym ids (a binary search each), not a stack
//! per WordNet name: those stacks were a table of ~150,000 entries read at one random place
//! per synonym, cache misses that cost more than the searches. Everything it keeps belongs to one option set (stem stage, WordNet), and
//! is dropped when it is used with another. Aligners are kept between calls in a static
//! worker pool (`metric.rs`), as the other metrics keep their workers, so repeated calls
//! (batches) find the words they have seen.

use super::intern::Interner;
use super::stem::Stemmer;
use super::wordnet::WordNet;

const NONE: u32 = u32::MAX;
const NOT_YET: u32 = NONE - 1;

/// Distinct words an aligner keeps before it starts afresh (bounded memory on huge input).
const CACHE_LIMIT: usize = 1 << 20;
/// Text bytes and synonym ids an aligner keeps before it starts afresh.
const POOL_LIMIT: usize = 1 << 28;

/// What the later stages need of a word, computed on first need.
#[derive(Clone, Copy, Debug)]
struct WordInfo {
    /// Its stage-2 form's id ([`NONE`]: not yet computed).
    form: u32,
    /// Its form's WordNet name id ([`NONE`]: none; [`NOT_YET`]: not yet computed).
    name: u32,
    /// Its form's synonyms, `syn_pool[syn_start..][..syn_len]` ([`NONE`]: not yet computed).
    syn_start: u32,
    syn_len: u32,
}

const UNKNOWN: WordInfo = WordInfo {
    form: NONE,
    name: NOT_YET,
    syn_start: NONE,
    syn_len: 0,
};

/// Aligns hypotheses with references, word ids from [`Aligner::word_id`] (see the module
/// documentation).
#[derive(Debug, Default)]
pub struct Aligner {
    /// The option set the caches belong to: (stem stage, [`WordNet::serial`]).
    mode: Option<(bool, u64)>,
    words: Interner,
    info: Vec<WordInfo>,
    forms: Interner,
    /// Per form: its name id and synonym range, as in [`WordInfo`] (`form` unused).
    form_info: Vec<WordInfo>,
    syn_pool: Vec<u32>,
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
    /// Unmatched counts of the hypothesis and the reference.
    hyp_left: usize,
    ref_left: usize,
    /// The synonym stage's candidates: (reference position, name id), highest position first.
    named: Vec<(u32, u32)>,
}

impl Aligner {
    /// Makes the caches those of `stem` and `wordnet` (dropping others), and bounds them.
    pub fn prepare(&mut self, stem: bool, wordnet: Option<&WordNet>) {
        let mode = (stem, wordnet.map_or(0, WordNet::serial));
        if self.mode != Some(mode)
            || self.words.len() > CACHE_LIMIT
            || self.words.text_len() > POOL_LIMIT
            || self.forms.text_len() > POOL_LIMIT
            || self.syn_pool.len() > POOL_LIMIT
        {
            self.words.clear();
            self.info.clear();
            self.forms.clear();
            self.form_info.clear();
            self.syn_pool.clear();
            self.mode = Some(mode);
        }
    }

    /// The hash of a (preprocessed) word for [`Aligner::word_id_hashed`], its table slot
    /// prefetched (see [`Interner::prefetch`]).
    #[inline]
    pub fn prefetch_word(&self, word: &str) -> u64 {
        self.words.prefetch(word)
    }

    /// The id of a (preprocessed) word.
    #[inline]
    pub fn word_id(&mut self, word: &str) -> u32 {
        let id = self.words.id(word);
        if id as usize == self.info.len() {
            self.info.push(UNKNOWN);
        }
        id
    }

    /// [`Aligner::word_id`] of a word whose hash is `h`, from [`Aligner::prefetch_word`].
    #[inline]
    pub fn word_id_hashed(&mut self, word: &str, h: u64) -> u32 {
        let id = self.words.id_hashed(word, h);
        if id as usize == self.info.len() {
            self.info.push(UNKNOWN);
        }
        id
    }

    /// The stage-2 form of word `w`: its Porter stem, or itself without the stem stage.
    #[inline]
    fn form(&mut self, w: u32, stem: bool) -> u32 {
        let f = self.info[w as usize].form;
        if f != NONE {
            return f;
        }
        self.new_form(w, stem)
    }

    #[cold]
    fn new_form(&mut self, w: u32, stem: bool) -> u32 {
        let word = self.words.get(w);
        let f = if stem {
            self.stemmer.stem(word, &mut self.stem_buf);
            self.forms.id(&self.stem_buf)
        } else {
            self.forms.id(word)
        };
        if f as usize == self.form_info.len() {
            self.form_info.push(UNKNOWN);
        }
        self.info[w as usize].form = f;
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
                self.hyp_left -= 1;
                self.ref_left -= 1;
            }
        }
        for &f in &self.ref_form {
            if f != NONE {
                self.head[f as usize] = NONE;
            }
        }
    }

    /// The WordNet name id of word `w`'s form ([`NONE`]: no lemma has that name).
    #[inline]
    fn name(&mut self, wn: &WordNet, w: u32) -> u32 {
        let n = self.info[w as usize].name;
        if n != NOT_YET {
            return n;
        }
        let f = self.info[w as usize].form as usize;
        if self.form_info[f].name == NOT_YET {
            self.form_info[f].name = wn.name_id(self.forms.get(f as u32)).unwrap_or(NONE);
        }
        let n = self.form_info[f].name;
        self.info[w as usize].name = n;
        n
    }

    /// The synonyms of word `w`'s form (sorted name ids), as a range of `syn_pool`.
    #[inline]
    fn synonyms(&mut self, wn: &WordNet, w: u32) -> (usize, usize) {
        let i = self.info[w as usize];
        if i.syn_start != NONE {
            return (i.syn_start as usize, i.syn_len as usize);
        }
        let f = i.form as usize;
        if self.form_info[f].syn_start == NONE {
            wn.synonyms_into(
                self.forms.get(f as u32),
                &mut self.lowered,
                &mut self.synsets,
                &mut self.syn_buf,
            );
            self.form_info[f].syn_start = self.syn_pool.len() as u32;
            self.form_info[f].syn_len = self.syn_buf.len() as u32;
            self.syn_pool.extend_from_slice(&self.syn_buf);
        }
        let (start, len) = (self.form_info[f].syn_start, self.form_info[f].syn_len);
        self.info[w as usize].syn_start = start;
        self.info[w as usize].syn_len = len;
        (start as usize, len as usize)
    }

    /// `_enum_wordnetsyn_match` over the unmatched positions of `hyp` and `reference`: each
    /// hypothesis word, from the last, takes the highest unused reference position whose
    /// form is the name of a lemma among its synonyms (what popping per-name stacks of
    /// positions gives).
    ///
    /// NLTK's synonym set also holds the hypothesis form itself (`.union({word})`); after the
    /// exact and stem stages no unused reference form equals an unmatched hypothesis form
    /// (those stages would have paired them), so that member never matches and is left out.
    fn match_synonyms(&mut self, wn: &WordNet, hyp: &[u32], reference: &[u32]) {
        self.named.clear();
        for j in (0..reference.len()).rev() {
            if !self.ref_used[j] {
                let n = self.name(wn, reference[j]);
                if n != NONE {
                    self.named.push((j as u32, n));
                }
            }
        }
        for i in (0..hyp.len()).rev() {
            if self.named.is_empty() {
                break;
            }
            if self.hyp_match[i] != NONE {
                continue;
            }
            let (start, len) = self.synonyms(wn, hyp[i]);
            let syns = &self.syn_pool[start..start + len];
            if let Some(k) = self
                .named
                .iter()
                .position(|&(_, n)| syns.binary_search(&n).is_ok())
            {
                let (j, _) = self.named.remove(k);
                self.hyp_match[i] = j;
                self.ref_used[j as usize] = true;
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
        (self.hyp_left, self.ref_left) = (hyp.len(), reference.len());
        // Stage 1: exact forms.
        self.hyp_form.clear();
        self.hyp_form.extend_from_slice(hyp);
        self.ref_form.clear();
        self.ref_form.extend_from_slice(reference);
        self.match_forms(self.words.len());
        if !(stem || wordnet.is_some()) || self.hyp_left == 0 || self.ref_left == 0 {
            return self.chunks();
        }
        // Stage 2: Porter stems (`_enum_stem_match`), on the stage-2 forms of the words left
        // (a matched position keeps a placeholder that no stage reads).
        if stem {
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
            self.match_forms(self.forms.len());
        }
        // Stage 3: WordNet synonyms of the stage-2 forms.
        if let Some(wn) = wordnet {
            if self.hyp_left > 0 && self.ref_left > 0 {
                if !stem {
                    // The forms the synonym stage reads (the words themselves).
                    for &w in hyp.iter().chain(reference) {
                        self.form(w, stem);
                    }
                }
                self.match_synonyms(wn, hyp, reference);
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

//! WordNet 3.0 read from its own files, without NLTK: the lemma names of every synset that
//! NLTK 3.10.4's `WordNetCorpusReader.synsets(word)` finds (its `_morphy` over every part of
//! speech), which is what `meteor_score` takes as a word's synonyms.
//!
//! Loaded once per folder and process ([`locate::shared`]) and read by any number of threads:
//! everything is parsed at load time into flat arrays, so a look-up is a few hash probes.
//! Performance decision: the data files are parsed whole (about 117,000 synsets) instead of
//! read at an index offset per look-up as NLTK does, so look-ups need no file and no lock.

pub mod locate;
mod morphy;
mod parse;
mod zip;

use crate::error::CoreError;
use parse::{Entry, Exceptions, Index, Names, POS};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// WordNet 3.0's lemmas, synsets and exception lists (see the module documentation).
#[derive(Debug)]
pub struct WordNet {
    dir: PathBuf,
    serial: u64,
    names: Names,
    /// Whether a name holds `_` (a multi-word lemma, which `meteor_score` leaves out).
    underscore: Vec<bool>,
    /// Synset `s` has the names `synset_names[synset_starts[s]..synset_starts[s + 1]]`.
    synset_names: Vec<u32>,
    synset_starts: Vec<u32>,
    index: Index,
    /// `_exception_map`, per part of speech in [`POS`] order.
    exceptions: [Exceptions; 4],
}

impl WordNet {
    /// Reads WordNet 3.0 from `dir` (the folder of `index.noun`, `data.noun`, `noun.exc`, ...:
    /// NLTK's `corpora/wordnet`, or Debian's `/usr/share/wordnet`), or from a zip archive
    /// (NLTK's `corpora/wordnet.zip`, or a folder inside one: `wordnet.zip/wordnet`).
    ///
    /// Errors: [`CoreError::MissingData`] when a file is missing or not in WordNet's format.
    pub fn load(dir: &Path) -> Result<WordNet, CoreError> {
        let files = zip::Files::open(dir)?;
        let mut names = Names::default();
        let (mut synset_names, mut synset_starts) = (Vec::new(), Vec::new());
        let mut offsets: Vec<(u32, Vec<u32>)> = Vec::with_capacity(4);
        for (suffix, _) in POS {
            let name = format!("data.{suffix}");
            let text = files.read(&name)?;
            let first = synset_starts.len() as u32;
            let path = files.path_of(&name);
            let o = parse::data(
                &path,
                &text,
                &mut names,
                &mut synset_names,
                &mut synset_starts,
            )?;
            offsets.push((first, o));
        }
        synset_starts.push(synset_names.len() as u32);
        let synset_of = |p: usize, offset: u32| {
            let (first, o) = &offsets[p];
            o.binary_search(&offset).ok().map(|k| first + k as u32)
        };
        let mut index = Index::default();
        for (suffix, _) in POS {
            let name = format!("index.{suffix}");
            let text = files.read(&name)?;
            parse::index(&files.path_of(&name), &text, &mut index, synset_of)?;
        }
        let mut exceptions: [Exceptions; 4] = Default::default();
        for (k, (suffix, _)) in POS.iter().enumerate() {
            exceptions[k] = parse::exceptions(&files.read(&format!("{suffix}.exc"))?);
        }
        let underscore = (0..names.len() as u32)
            .map(|n| names.get(n).contains('_'))
            .collect();
        static LOADS: AtomicU64 = AtomicU64::new(1);
        Ok(WordNet {
            dir: dir.to_path_buf(),
            serial: LOADS.fetch_add(1, Ordering::Relaxed),
            names,
            underscore,
            synset_names,
            synset_starts,
            index,
            exceptions,
        })
    }

    /// The folder this WordNet was read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A number unique to this load in the process (never 0): what caches of look-ups are
    /// keyed by (an address can be reused after a drop).
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Number of synsets.
    pub fn synset_count(&self) -> usize {
        self.synset_starts.len().saturating_sub(1)
    }

    /// Number of distinct lemma names.
    pub fn name_count(&self) -> usize {
        self.names.len()
    }

    /// The id of lemma name `name` (exact, case-sensitive), if some synset has it.
    pub fn name_id(&self, name: &str) -> Option<u32> {
        self.names.ids.get(name).copied()
    }

    /// The lemma name of id `id` (from [`WordNet::name_id`] or [`WordNet::synonyms_into`]).
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id)
    }

    /// Every index lemma (the keys of NLTK's `_lemma_pos_offset_map`), in no order.
    pub fn index_lemmas(&self) -> impl Iterator<Item = &str> {
        self.index.lemmas.keys().map(|k| &**k)
    }

    fn entry(&self, form: &str) -> Option<&Entry> {
        self.index.lemmas.get(form)
    }

    /// The synset ids `synsets(word)` returns, in its order (duplicates kept), for a word
    /// already lowercased as `synsets` lowercases it (`lemma.lower()`).
    pub fn synsets_of_lowered(&self, word: &str, out: &mut Vec<u32>) {
        out.clear();
        let mut forms = Vec::new();
        for p in 0..POS.len() {
            morphy::forms(self, word, p, &mut forms);
            for form in &forms {
                if let Some(&(start, len)) = self.entry(form).map(|e| &e[p]) {
                    out.extend_from_slice(&self.index.synsets[start as usize..][..len as usize]);
                }
            }
        }
    }

    /// The lemma name ids of synset `s` (`synset.lemmas()`'s names, in order).
    pub fn synset_names(&self, s: u32) -> &[u32] {
        let s = s as usize;
        &self.synset_names[self.synset_starts[s] as usize..self.synset_starts[s + 1] as usize]
    }

    /// `meteor_score`'s synonyms of `word` (before its `.union({word})`), as sorted distinct
    /// name ids: `{lemma.name() for synset in wordnet.synsets(word) for lemma in
    /// synset.lemmas() if lemma.name().find("_") < 0}`. `lowered` and `synsets` are buffers.
    pub fn synonyms_into(
        &self,
        word: &str,
        lowered: &mut String,
        synsets: &mut Vec<u32>,
        out: &mut Vec<u32>,
    ) {
        crate::meteor::lower::py_lower_into(word, lowered);
        self.synsets_of_lowered(lowered, synsets);
        out.clear();
        for &s in synsets.iter() {
            let names = self.synset_names(s);
            out.extend(
                names
                    .iter()
                    .copied()
                    .filter(|&n| !self.underscore[n as usize]),
            );
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Every lemma name of `synsets(word)` (with `_` too), sorted and distinct: NLTK's
    /// `{l.name() for s in wordnet.synsets(word) for l in s.lemmas()}`.
    pub fn lemma_names(&self, word: &str) -> Vec<&str> {
        let lowered = crate::meteor::lower::py_lower(word);
        let mut synsets = Vec::new();
        self.synsets_of_lowered(&lowered, &mut synsets);
        let mut names: Vec<&str> = synsets
            .iter()
            .flat_map(|&s| self.synset_names(s).iter().map(|&n| self.name(n)))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// NLTK's `_morphy(form, pos)` for a part of speech `pos` (`"n"`, `"v"`, `"a"` or `"r"`):
    /// the forms of `form` that are index lemmas of that part of speech, in its order.
    pub fn morphy(&self, form: &str, pos: &str) -> Vec<String> {
        let Some(p) = POS.iter().position(|&(_, letter)| letter == pos) else {
            return Vec::new();
        };
        let mut forms = Vec::new();
        morphy::forms(self, form, p, &mut forms);
        forms
    }
}

//! WordNet 3.0's files read as NLTK 3.10.4's `WordNetCorpusReader` reads them
//! (`nltk/corpus/reader/wordnet.py`): `index.<pos>` (`_load_lemma_pos_offset_map`),
//! `data.<pos>` (`_synset_from_pos_and_line`, only the lemma names) and `<pos>.exc`
//! (`_load_exception_map`).

use crate::error::CoreError;
use rustc_hash::FxHashMap;
use std::path::Path;

/// The parts of speech in NLTK's `POS_LIST` order (`synsets` visits them in this order): the
/// files' suffix and the `pos` letter of `index.*` lines.
pub(super) const POS: [(&str, &str); 4] =
    [("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")];

/// The text of `dir/name`, or an error saying where it looked and how to get WordNet.
pub(super) fn read(dir: &Path, name: &str) -> Result<String, CoreError> {
    let path = dir.join(name);
    let bytes = std::fs::read(&path).map_err(|e| {
        CoreError::MissingData(format!(
            "cannot read WordNet's {} ({e}); {}",
            path.display(),
            super::locate::HOW_TO_GET
        ))
    })?;
    String::from_utf8(bytes).map_err(|e| bad(&path, format!("not UTF-8 ({e})")))
}

/// Python's `line.split()`: fields between runs of Python whitespace.
///
/// Performance decision: WordNet's files are ASCII, and an ASCII file (checked once,
/// `ascii`) is split on bytes (the ASCII members of Python's whitespace: `\t`..`\r` and
/// `\x1c`..` `) by a concrete iterator the parsers' loops inline; any other by the general
/// rule.
fn py_split(line: &str, ascii: bool) -> Fields<'_> {
    if ascii {
        Fields::Ascii { line, i: 0 }
    } else {
        Fields::Other(Box::new(crate::text::whitespace::py_split(line)))
    }
}

/// The fields of a line (see [`py_split`]).
enum Fields<'a> {
    /// An ASCII line and the byte where the search goes on.
    Ascii { line: &'a str, i: usize },
    /// Any other line.
    Other(Box<dyn Iterator<Item = &'a str> + 'a>),
}

impl<'a> Iterator for Fields<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Fields::Ascii { line, i } => {
                let b = line.as_bytes();
                let space = |c: u8| matches!(c, b'\t'..=b'\r' | 0x1c..=b' ');
                while *i < b.len() && space(b[*i]) {
                    *i += 1;
                }
                if *i == b.len() {
                    return None;
                }
                let start = *i;
                while *i < b.len() && !space(b[*i]) {
                    *i += 1;
                }
                line.get(start..*i)
            }
            Fields::Other(it) => it.next(),
        }
    }
}

/// The lines of `text` with their line ends (`split_inclusive('\n')`), found with the
/// `memchr` crate's vectorised search (the files are 30 MB, mostly glosses to skip).
fn lines_inclusive(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |k| start + k + 1);
        let line = text.get(start..end);
        start = end;
        line
    })
}

/// A format error in `path`.
pub(super) fn bad(path: &Path, what: impl std::fmt::Display) -> CoreError {
    CoreError::MissingData(format!(
        "WordNet's {} is not a WordNet 3.0 file as NLTK reads it: {what}; {}",
        path.display(),
        super::locate::HOW_TO_GET
    ))
}

/// The lemma names of the synsets, interned (`Lemma.name()`): name id -> its text (all in
/// one arena: one allocation per name, the map's key, instead of two).
#[derive(Debug, Default)]
pub(super) struct Names {
    arena: String,
    ends: Vec<u32>,
    pub(super) ids: FxHashMap<Box<str>, u32>,
}

impl Names {
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.ends.len() as u32;
        self.arena.push_str(name);
        self.ends.push(self.arena.len() as u32);
        self.ids.insert(name.into(), id);
        id
    }

    /// The text of name `id`.
    pub(super) fn get(&self, id: u32) -> &str {
        let k = id as usize;
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.arena[start..self.ends[k] as usize]
    }

    /// Number of names.
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }
}

/// `_synset_from_pos_and_line`'s lemma name: the word without its syntactic marker, the regex
/// `(.*?)(\([^()]*\))?$`: a final `(...)` holding no parenthesis is cut.
fn strip_marker(word: &str) -> &str {
    // The search for `(` only for a word ending in `)` (few do).
    if let Some(body) = word.strip_suffix(')') {
        if let Some(open) = word.rfind('(') {
            if !body[open..].contains(')') {
                return &word[..open];
            }
        }
    }
    word
}

/// The synsets of one `data.<pos>` file: each line's byte offset (ascending) and lemma names
/// (appended to `synset_names`, one start per synset in `synset_starts`).
pub(super) fn data(
    path: &Path,
    text: &str,
    names: &mut Names,
    synset_names: &mut Vec<u32>,
    synset_starts: &mut Vec<u32>,
) -> Result<Vec<u32>, CoreError> {
    let mut offsets = Vec::new();
    let mut start = 0usize;
    let ascii = text.is_ascii();
    for (n, line) in lines_inclusive(text).enumerate() {
        let line_start = start;
        start += line.len();
        // The licence header is indented; `synset_from_pos_and_offset` never lands there.
        if line.starts_with(' ') || line.trim().is_empty() {
            continue;
        }
        let at = |what: &str| bad(path, format!("line {}: {what}", n + 1));
        let mut tok = py_split(line, ascii);
        let mut next = |what: &str| tok.next().ok_or_else(|| at(what));
        let offset = next("no offset")?;
        // `synset_from_pos_and_offset` checks that the line at an index offset starts with
        // that offset: files with CRLF line endings fail here.
        if offset.parse::<usize>().ok() != Some(line_start) {
            return Err(at(&format!(
                "it starts with offset {offset:?} but is at byte {line_start} (CRLF line \
                 endings? NLTK needs the files with LF endings)"
            )));
        }
        next("no lexicographer file")?;
        next("no synset type")?;
        let count = next("no word count")?;
        let count = usize::from_str_radix(count, 16).map_err(|_| at("bad word count"))?;
        offsets.push(line_start as u32);
        synset_starts.push(synset_names.len() as u32);
        for _ in 0..count {
            let word = next("missing word")?;
            next("missing lex_id")?;
            synset_names.push(names.intern(strip_marker(word)));
        }
    }
    Ok(offsets)
}

/// Synset ids of a lemma, per part of speech: ranges of `Index::synsets`.
pub(super) type Entry = [(u32, u32); 4];

/// `_lemma_pos_offset_map`: lemma -> part of speech -> synset ids (in the file's order).
#[derive(Debug, Default)]
pub(super) struct Index {
    pub(super) lemmas: FxHashMap<Box<str>, Entry>,
    pub(super) synsets: Vec<u32>,
}

/// Adds the lines of `index.<pos>` to `index`; `synset_of(pos, offset)` resolves an offset.
pub(super) fn index(
    path: &Path,
    text: &str,
    index: &mut Index,
    synset_of: impl Fn(usize, u32) -> Option<u32>,
) -> Result<(), CoreError> {
    let ascii = text.is_ascii();
    // WordNet 3.0's index files hold about 148,000 lemmas: one allocation of the table.
    index.lemmas.reserve(text.len() / 50);
    for (n, line) in lines_inclusive(text).enumerate() {
        // `str.lines()`: without the line end (`\n` or `\r\n`).
        let line = match line.strip_suffix('\n') {
            Some(l) => l.strip_suffix('\r').unwrap_or(l),
            None => line,
        };
        if line.starts_with(' ') {
            continue;
        }
        let at = |what: &str| bad(path, format!("line {}: {what}", n + 1));
        let mut tok = py_split(line, ascii);
        let mut next = |what: &str| tok.next().ok_or_else(|| at(what));
        let lemma = next("no lemma")?;
        let pos = next("no part of speech")?;
        let int = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| at(&format!("{s:?} is no number")))
        };
        let n_synsets = int(next("no synset count")?)?;
        if n_synsets == 0 {
            return Err(at("a lemma without synsets"));
        }
        let n_pointers = int(next("no pointer count")?)?;
        for _ in 0..n_pointers {
            next("missing pointer")?;
        }
        if int(next("no sense count")?)? != n_synsets {
            return Err(at("sense and synset counts differ"));
        }
        next("no tagged sense count")?;
        // Only NLTK's `POS_LIST` parts of speech are ever looked up.
        let Some(p) = POS.iter().position(|&(_, letter)| letter == pos) else {
            continue;
        };
        let first = index.synsets.len() as u32;
        for _ in 0..n_synsets {
            let offset = int(next("missing synset offset")?)?;
            let id = u32::try_from(offset)
                .ok()
                .and_then(|o| synset_of(p, o))
                .ok_or_else(|| {
                    at(&format!(
                        "offset {offset} is not a line of data.{}",
                        POS[p].0
                    ))
                })?;
            index.synsets.push(id);
        }
        // A later line for the same lemma and part of speech replaces the earlier (a dict).
        index.lemmas.entry(lemma.into()).or_default()[p] = (first, n_synsets as u32);
    }
    Ok(())
}

/// An exception list: inflected form -> base forms.
pub(super) type Exceptions = FxHashMap<Box<str>, Box<[Box<str>]>>;

/// `_load_exception_map` for one part of speech.
pub(super) fn exceptions(text: &str) -> Exceptions {
    let mut map = FxHashMap::default();
    let ascii = text.is_ascii();
    for line in text.lines() {
        let mut terms = py_split(line, ascii);
        if let Some(form) = terms.next() {
            map.insert(form.into(), terms.map(Box::from).collect());
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        assert_eq!(strip_marker("galore(ip)"), "galore");
        assert_eq!(strip_marker("a(p)(a)"), "a(p)");
        assert_eq!(strip_marker("x(y)z"), "x(y)z");
        assert_eq!(strip_marker("plain"), "plain");
        assert_eq!(strip_marker("()"), "");
    }
}

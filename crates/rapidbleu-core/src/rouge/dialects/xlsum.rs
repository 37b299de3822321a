//! XL-Sum's multilingual ROUGE (`multilingual-rouge` 0.0.1) read in the core, for the texts
//! whose tokens the core can make exactly as the package's Python does.
//!
//! The package's `RougeScorer.score` for a language without a tokenizer of its own (every
//! language but Thai, Chinese, Japanese and Burmese, and `lang=None`) tokenizes each text as
//! `tokenize.tokenize(text, stemmer, MultiTokenizer)`: `text.lower()`, then
//! `MultiTokenizer.__call__`: `text.strip()`, BERT's `BasicTokenizer` (`_clean_text` drops
//! NUL, U+FFFD and control characters, which joins their neighbours, and turns whitespace into
//! spaces; `_run_split_on_punc` splits at ASCII punctuation and Unicode `P*`), then
//! `pyonmttok.Tokenizer("aggressive")`, which splits letters from digits
//! (`"x86"` -> `x`, `86`), then `tokenize_chinese_chars` (nothing here). rougeLsum's lines
//! (`text.split("\n")`, non-empty) go through `tokenize.tokenize(s, stemmer)`: the
//! `BasicTokenizer` alone, so letters and digits stay together there. The stemmer
//! (`MultiStemmer`, tokens longer than three characters) is NLTK's Porter for `lang=None`
//! (`SnowballStemmer("porter")`, NLTK's `PorterStemmer`: [`crate::rouge::porter`]).
//!
//! pyonmttok's rules and the Unicode tables of Python and pyonmttok differ beyond ASCII, so
//! the core reads only texts of ASCII, of the spaces and punctuation in [`SEPARATORS`] (which
//! the `BasicTokenizer` removes before pyonmttok sees the text), of the format characters in
//! [`REMOVED`] (which it deletes) and of the symbols and emoji in [`SYMBOLS`] (a token each for
//! pyonmttok); [`readable`] says which. Other texts (letters beyond ASCII: `é`, `中`) are
//! tokenized by the package in Python.
//!
//! Chinese (`lang="chinese"`, whose tokenizer is `list(jieba.cut(text))` after the
//! `BasicTokenizer`, with no pyonmttok and no stemmer) is read on the port of jieba in
//! [`super::jieba`]: the `BasicTokenizer`'s words joined by spaces, cut by jieba (its words
//! include those spaces); rougeLsum's lines are the `BasicTokenizer`'s words alone. Its texts
//! may also hold CJK ideographs, full-width letters and digits, Latin letters and
//! mathematical operators ([`chinese_letter`]), whose classes and lowercase no Unicode version
//! since Python 3.8's has changed.

use super::jieba::{Jieba, Scratch};
use crate::engine::parallel::{for_each_row_in, Threads, WorkerPool};
use crate::error::{zeroed, CoreError};
use crate::rouge::stats::Worker as ScoreWorker;
use crate::rouge::tokenize::{short_key, Doc, Vocab, DROPPED};
use crate::rouge::RougeOptions;
use rustc_hash::FxHashMap;

/// Non-ASCII characters that the `BasicTokenizer` turns into a separator, as Python 3.11's
/// `unicodedata` (Unicode 14.0.0) classes them: spaces (`Zs`, `_is_whitespace`) and
/// punctuation (`P*`, `_is_punctuation`). Each is its own lowercase.
const SEPARATORS: &[(u32, u32)] = &[
    (0xA0, 0xA1),
    (0xA7, 0xA7),
    (0xAB, 0xAB),
    (0xB6, 0xB7),
    (0xBB, 0xBB),
    (0xBF, 0xBF),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2010, 0x2027),
    (0x202F, 0x2043),
    (0x2045, 0x2051),
    (0x2053, 0x205F),
    (0x3000, 0x3003),
    (0x3008, 0x3011),
    (0x3014, 0x301F),
    (0xFF01, 0xFF03),
    (0xFF05, 0xFF0A),
    (0xFF0C, 0xFF0F),
    (0xFF1A, 0xFF1B),
    (0xFF1F, 0xFF20),
    (0xFF3B, 0xFF3D),
    (0xFF3F, 0xFF3F),
    (0xFF5B, 0xFF5B),
    (0xFF5D, 0xFF5D),
    (0xFF5F, 0xFF65),
];

/// Non-ASCII symbols (`S*`, each its own lowercase) that the `BasicTokenizer` keeps and
/// pyonmttok's aggressive mode makes a token of its own (`"a®b"` -> `a`, `®`, `b`): `©`, `®`,
/// `°`, `±`, `×`, `÷`, `™`, arrows, miscellaneous symbols and emoji (skin tones excluded).
const SYMBOLS: &[(u32, u32)] = &[
    (0xA9, 0xA9),
    (0xAE, 0xAE),
    (0xB0, 0xB1),
    (0xD7, 0xD7),
    (0xF7, 0xF7),
    (0x2122, 0x2122),
    (0x2190, 0x21FF),
    (0x2600, 0x26FF),
    (0x1F300, 0x1F3FA),
    (0x1F400, 0x1F64F),
    (0x1F680, 0x1F6C5),
];

/// Non-ASCII format characters (`C*`) that `_clean_text` removes, joining their neighbours.
const REMOVED: &[(u32, u32)] = &[
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0xFEFF, 0xFEFF),
];

fn within(ranges: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    ranges.iter().any(|&(a, b)| a <= c && c <= b)
}

/// Whether `c` (not ASCII) is one of the [`SEPARATORS`].
pub fn is_separator(c: char) -> bool {
    within(SEPARATORS, c)
}

/// What the `BasicTokenizer` and pyonmttok do with one character of a text, or `None`: a
/// character the core does not read.
#[derive(Clone, Copy)]
enum Class {
    /// An ASCII letter or digit, lowercased.
    Word(u8),
    /// A symbol of [`SYMBOLS`]: a token of its own for pyonmttok, part of the word for the
    /// `BasicTokenizer` alone (rougeLsum).
    Symbol(char),
    /// Whitespace or punctuation: ends a word.
    Separator,
    /// A control or format character (`_clean_text`): removed, so its neighbours join.
    Removed,
}

fn class(c: char) -> Option<Class> {
    Some(match c {
        'A'..='Z' | 'a'..='z' | '0'..='9' => Class::Word(c.to_ascii_lowercase() as u8),
        // `_is_whitespace`: space, \t, \n, \r (\x0b, \x0c and the other controls are `Cc`).
        ' ' | '\t' | '\n' | '\r' => Class::Separator,
        '\0'..='\x1f' | '\x7f' => Class::Removed,
        // ASCII punctuation (`_is_punctuation`'s ranges).
        _ if c.is_ascii() => Class::Separator,
        _ if within(SEPARATORS, c) => Class::Separator,
        _ if within(SYMBOLS, c) => Class::Symbol(c),
        _ if within(REMOVED, c) => Class::Removed,
        _ => return None,
    })
}

/// A character the `BasicTokenizer` keeps in a word in the Chinese reading, lowercased as
/// `str.lower` does, beyond [`class`]'s: CJK ideographs (the unified block as assigned since
/// Unicode 11, and extension A), full-width digits and letters, the letters of Latin-1 and
/// Latin Extended-A, and the mathematical operators.
fn chinese_letter(c: char) -> Option<char> {
    Some(match c {
        '\u{4E00}'..='\u{9FEF}' | '\u{3400}'..='\u{4DB5}' => c,
        '\u{FF10}'..='\u{FF19}' | '\u{FF41}'..='\u{FF5A}' => c,
        // Full-width A-Z, and Latin-1's capitals (`×` excepted): their lowercase is 0x20 on.
        '\u{FF21}'..='\u{FF3A}' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{DE}' => {
            char::from_u32(c as u32 + 0x20)?
        }
        '\u{DF}'..='\u{F6}' | '\u{F8}'..='\u{FF}' => c,
        // Latin Extended-A (`š`), whose lowercase is one character (`İ`'s is two), and the
        // mathematical operators (`−`, `Sm`, their own lowercase).
        '\u{100}'..='\u{17F}' if c != '\u{130}' => {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) => l,
                _ => return None,
            }
        }
        '\u{2200}'..='\u{22FF}' => c,
        _ => return None,
    })
}

/// [`class`] for the Chinese reading: `Symbol` for any character of a word (lowercased: there
/// is no pyonmttok to split letters, digits and symbols apart), a separator, a removed
/// character, or `None` (not read).
fn chinese_class(c: char) -> Option<Class> {
    if ('\u{4E00}'..='\u{9FEF}').contains(&c) {
        return Some(Class::Symbol(c)); // the common case first
    }
    match class(c) {
        Some(Class::Symbol(s)) => Some(Class::Symbol(s)),
        Some(Class::Word(b)) => Some(Class::Symbol(char::from(b))),
        Some(other) => Some(other),
        None => chinese_letter(c).map(Class::Symbol),
    }
}

/// Calls `f` with each token of `text` (a readable text): with `pyonmttok`, its aggressive
/// split (letters from digits, each symbol alone); else the `BasicTokenizer`'s words.
fn words(text: &str, pyonmttok: bool, word: &mut Vec<u8>, mut f: impl FnMut(&[u8])) {
    word.clear();
    let mut buf = [0u8; 4];
    for c in text.chars() {
        match class(c) {
            Some(Class::Word(b)) => {
                let digit_change = word
                    .last()
                    .is_some_and(|l| l.is_ascii_digit() != b.is_ascii_digit());
                if pyonmttok && digit_change {
                    f(word);
                    word.clear();
                }
                word.push(b);
            }
            Some(Class::Symbol(s)) => {
                let bytes = s.encode_utf8(&mut buf).as_bytes();
                if pyonmttok {
                    if !word.is_empty() {
                        f(word);
                        word.clear();
                    }
                    f(bytes);
                } else {
                    word.extend_from_slice(bytes);
                }
            }
            Some(Class::Separator) | None => {
                if !word.is_empty() {
                    f(word);
                    word.clear();
                }
            }
            Some(Class::Removed) => {}
        }
    }
    if !word.is_empty() {
        f(word);
        word.clear();
    }
}

/// Whether the core reads `text` exactly: each character ASCII or of [`SEPARATORS`],
/// [`SYMBOLS`] or [`REMOVED`]; with `porter`, also no rougeLsum word of more than three
/// characters with a symbol before its end. (NLTK's Porter, which stems such a word, rewrites
/// only suffixes of ASCII letters: it leaves a word that ends with a symbol as it is. The
/// core's Porter stems ASCII words.)
pub fn readable(text: &str, porter: bool) -> bool {
    if text.is_ascii() {
        return true;
    }
    if !text.chars().all(|c| class(c).is_some()) {
        return false;
    }
    let mut ok = true;
    if porter {
        words(text, false, &mut Vec::new(), |w| {
            let ends_with_symbol = w.last().is_some_and(|b| !b.is_ascii());
            if !w.is_ascii() && !ends_with_symbol && String::from_utf8_lossy(w).chars().count() > 3
            {
                ok = false;
            }
        });
    }
    ok
}

/// How the core reads the texts: as a language without a tokenizer of its own (`porter`: its
/// Porter stemmer), or as Chinese with jieba.
#[derive(Clone, Copy)]
pub enum Reading<'a> {
    /// `lang=None` and the languages without a tokenizer: the `BasicTokenizer` and pyonmttok.
    Words {
        /// NLTK's Porter stemmer on tokens longer than three characters.
        porter: bool,
    },
    /// `lang="chinese"`: the `BasicTokenizer` and jieba, no stemmer.
    Chinese(&'a Jieba),
}

impl Reading<'_> {
    fn pool(&self) -> usize {
        match self {
            Reading::Words { porter } => usize::from(*porter),
            Reading::Chinese(_) => 2,
        }
    }
}

/// Token ids of one item, for the Chinese reading.
///
/// Performance decision: rouge-score's counts only ask whether two tokens of the same item are
/// equal, and Chinese tokens are not stemmed, so their ids are the item's own, from tables
/// emptied per item: they stay small enough for the cache, where a vocabulary kept across
/// items grows with every new word and every rougeLsum sentence (mostly distinct), and its
/// look-ups were a quarter of the reading's time.
#[derive(Default)]
struct ItemIds {
    /// Tokens of up to 16 bytes, by [`short_key`] (no allocation).
    short: FxHashMap<(u64, u64, usize), u32>,
    /// Longer tokens (rougeLsum's sentences of many characters).
    long: FxHashMap<Box<[u8]>, u32>,
}

impl ItemIds {
    fn clear(&mut self) {
        self.short.clear();
        self.long.clear();
    }

    fn id(&mut self, token: &[u8]) -> u32 {
        let next = (self.short.len() + self.long.len()) as u32;
        match short_key(token) {
            Some(key) => *self.short.entry(key).or_insert(next),
            None => match self.long.get(token) {
                Some(&id) => id,
                None => *self.long.entry(token.into()).or_insert(next),
            },
        }
    }
}

/// Reads a Chinese text into `doc`, or returns `false` at its first character the core
/// does not read: `jieba.cut` of the `BasicTokenizer`'s words joined by spaces, and when
/// `lines` each line's `BasicTokenizer` words.
///
/// One pass makes both: `"\n"` separates words, so the words of the lines are those of the
/// text, in order.
fn read_chinese(jieba: &Jieba, text: &str, lines: bool, w: &mut Worker, doc: &mut Doc) -> bool {
    doc.clear();
    let Worker {
        item_ids: ids,
        joined,
        scratch,
        ..
    } = w;
    // `" ".join(BasicTokenizer(text))`: a space where a word ends and another starts.
    joined.clear();
    let mut word_start: Option<usize> = None;
    let mut line_len = 0usize;
    let mut end_word = |joined: &mut String, start: &mut Option<usize>, doc: &mut Doc| {
        if let Some(at) = start.take() {
            if lines {
                doc.sent_tokens.push(ids.id(&joined.as_bytes()[at..]));
            }
        }
    };
    for c in text.chars() {
        if c == '\n' {
            end_word(joined, &mut word_start, doc);
            if lines && line_len > 0 {
                // `get_sents`: `text.split("\n")`, lines of length 0 dropped.
                doc.sent_ends.push(doc.sent_tokens.len());
            }
            line_len = 0;
            continue;
        }
        line_len += 1;
        match chinese_class(c) {
            Some(Class::Symbol(l)) => {
                if word_start.is_none() {
                    if !joined.is_empty() {
                        joined.push(' ');
                    }
                    word_start = Some(joined.len());
                }
                joined.push(l);
            }
            Some(Class::Removed) => {}
            Some(_) => end_word(joined, &mut word_start, doc),
            None => return false,
        }
    }
    end_word(joined, &mut word_start, doc);
    if lines && line_len > 0 {
        doc.sent_ends.push(doc.sent_tokens.len());
    }
    doc.own_sentences = true;
    jieba.cut(joined, scratch, &mut |token| {
        doc.tokens.push(ids.id(token.as_bytes()))
    });
    true
}

/// Reads a readable text into `doc`: the tokens of rouge1..9 and rougeL, and when `lines`
/// (rougeLsum) each non-empty line's tokens.
fn read(text: &str, lines: bool, vocab: &mut Vocab, word: &mut Vec<u8>, doc: &mut Doc) {
    doc.clear();
    let Doc {
        tokens,
        sent_tokens,
        sent_ends,
        own_sentences,
    } = doc;
    let mut push = |to: &mut Vec<u32>, w: &[u8]| {
        // Porter (when asked) on ASCII tokens; others (symbols) are kept as they are.
        let id = if w.is_ascii() {
            vocab.id(w)
        } else {
            vocab.id_as_is(w)
        };
        if id != DROPPED {
            to.push(id);
        }
    };
    words(text, true, word, |w| push(tokens, w));
    *own_sentences = true;
    if lines {
        // `get_sents`: `text.split("\n")`, lines of length 0 dropped.
        for line in text.split('\n').filter(|l| !l.is_empty()) {
            words(line, false, word, |w| push(sent_tokens, w));
            sent_ends.push(sent_tokens.len());
        }
    }
}

/// A worker: the vocabulary (and Porter cache), rouge-score's scoring worker, two documents,
/// and the Chinese reading's buffers.
struct Worker {
    vocab: Vocab,
    word: Vec<u8>,
    score: ScoreWorker,
    docs: [Doc; 2],
    stem: bool,
    joined: String,
    scratch: Scratch,
    item_ids: ItemIds,
}

impl Worker {
    fn new(stem: bool) -> Self {
        Worker {
            vocab: Vocab::new(stem),
            word: Vec::new(),
            score: ScoreWorker::new(false),
            docs: Default::default(),
            stem,
            joined: String::new(),
            scratch: Scratch::default(),
            item_ids: ItemIds::default(),
        }
    }
}

/// A worker's vocabulary is emptied (at the start of an item) once it holds this many forms.
const MAX_VOCAB: usize = 1 << 18;

/// The first value of the row of an item the core does not read, until `rows` returns.
const UNREAD: i64 = -1;

/// Spare workers: without and with the Porter stemmer, and Chinese.
static WORKERS: [WorkerPool<Worker>; 3] = [WorkerPool::new(), WorkerPool::new(), WorkerPool::new()];

/// rouge-score's rows (`[hits, prediction_count, target_count]` per type) of
/// `(prediction, target)` items, each text tokenized as the package does, read as `reading`
/// says. Items with a text the core does not read ([`readable`], [`chinese_class`]) are left
/// as zeros: the caller computes them (their indices are returned).
pub fn rows(
    opts: &RougeOptions,
    reading: Reading<'_>,
    items: &[(&str, &str)],
    threads: Threads,
) -> Result<(Vec<i64>, Vec<usize>), CoreError> {
    let width = opts.row_len();
    let mut out = zeroed(items.len(), width)?;
    let lines = opts.needs_sentences();
    let stem = matches!(reading, Reading::Words { porter: true });
    for_each_row_in(
        &WORKERS[reading.pool()],
        &mut out,
        width,
        threads,
        || Worker::new(stem),
        |w, i, row| {
            let (pred, target) = items[i];
            if w.vocab.len() > MAX_VOCAB {
                w.vocab = Vocab::new(w.stem);
            }
            let [mut p, mut t] = std::mem::take(&mut w.docs);
            let read_here = match reading {
                Reading::Words { porter } => {
                    let read_here = readable(pred, porter) && readable(target, porter);
                    if read_here {
                        read(pred, lines, &mut w.vocab, &mut w.word, &mut p);
                        read(target, lines, &mut w.vocab, &mut w.word, &mut t);
                    }
                    read_here
                }
                Reading::Chinese(jieba) => {
                    w.item_ids.clear();
                    read_chinese(jieba, pred, lines, w, &mut p)
                        && read_chinese(jieba, target, lines, w, &mut t)
                }
            };
            if read_here {
                w.score.doc_item(opts, &p, std::slice::from_ref(&t), row);
            } else {
                // Marked for the caller (a count is never negative), reset below.
                row[0] = UNREAD;
            }
            w.docs = [p, t];
        },
    );
    let mut unread = Vec::new();
    for (i, row) in out.chunks_exact_mut(width).enumerate() {
        if row[0] == UNREAD {
            row[0] = 0;
            unread.push(i);
        }
    }
    Ok((out, unread))
}

/// The tokens of a readable text (rouge1..9 and rougeL's, unstemmed), for inspection.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    words(text, true, &mut Vec::new(), |w| {
        out.push(String::from_utf8_lossy(w).into_owned())
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_as_the_package() {
        assert_eq!(
            tokenize("Abc123def, x86_64 \u{201c}O'Neil\u{201d}\u{a0}a\u{0}b 3rd"),
            ["abc", "123", "def", "x", "86", "64", "o", "neil", "ab", "3", "rd"]
        );
        assert_eq!(
            tokenize("a\u{ae}b12\u{1f618}\u{200d}x"),
            ["a", "\u{ae}", "b", "12", "\u{1f618}", "x"]
        );
        assert!(readable("a \u{2014} b", true));
        assert!(!readable("caf\u{e9}", false));
        assert!(readable("ok\u{1f618}", false));
        assert!(readable("okay\u{1f618}", true));
        assert!(!readable("ok\u{1f618}ay", true));
    }

    #[test]
    fn rows_with_lines_and_stems() {
        let opts = RougeOptions::new(&["rouge1", "rougeLsum"], false).unwrap();
        let items = [("cats running\n3rd", "cat runs\n3rd"), ("caf\u{e9}", "x")];
        let (rows, unread) =
            rows(&opts, Reading::Words { porter: true }, &items, Threads::ONE).unwrap();
        assert_eq!(unread, [1]);
        // rouge1: cat run 3 rd vs cat run 3 rd; rougeLsum: lines keep "3rd" whole.
        assert_eq!(&rows[..6], &[4, 4, 4, 3, 3, 3]);
        assert_eq!(&rows[6..], &[0; 6]);
    }
}

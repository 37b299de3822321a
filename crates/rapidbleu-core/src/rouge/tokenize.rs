//! rouge-score's `DefaultTokenizer` (`rouge_score/tokenize.py`): `text.lower()`, every run of
//! characters outside `[a-z0-9]` replaced by a space, split, Porter-stem tokens longer than
//! three characters, drop tokens that are not `[a-z0-9]+`.
//!
//! Python's `str.lower()` is per character here (its one context rule, the final sigma, never
//! yields ASCII), and only three kinds of character lowercase to something containing
//! `[a-z0-9]` (checked over every code point of the interpreter's tables by the tests): ASCII
//! letters and digits, U+212A KELVIN SIGN (`'k'`) and U+0130 (`'i'` + U+0307, so the token
//! ends after its `i`). Everything else separates tokens.

use super::porter;
use rustc_hash::FxHashMap;

/// What [`scan`] reports: a token's bytes (lowercase `[a-z0-9]+`), or a line break.
pub enum Piece<'a> {
    /// A raw token (before stemming).
    Token(&'a [u8]),
    /// A `\n` (rougeLsum's sentence separator).
    Newline,
}

/// Per ASCII byte, whether it is in `[A-Za-z0-9]` (a token's), else a separator.
const ASCII_TOKEN: [bool; 128] = {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    t
};

/// Calls `f` for each raw token of `text` and each `\n`, in order; `word` is scratch space.
pub fn scan(text: &str, word: &mut Vec<u8>, mut f: impl FnMut(Piece<'_>)) {
    word.clear();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            if ASCII_TOKEN[usize::from(b)] {
                // Performance decision: a run of ASCII letters and digits (most tokens whole)
                // is found first; a lowercase run that an ASCII separator (or the end) closes
                // is the token itself, handed on with no copy.
                let start = i;
                let mut upper = false;
                while i < bytes.len() {
                    let b = bytes[i];
                    if b >= 0x80 || !ASCII_TOKEN[usize::from(b)] {
                        break;
                    }
                    upper |= b.is_ascii_uppercase();
                    i += 1;
                }
                let run = &bytes[start..i];
                // A non-ASCII character may continue the token (U+212A, U+0130).
                let closed = bytes.get(i).is_none_or(|&b| b < 0x80);
                if word.is_empty() && closed && !upper {
                    f(Piece::Token(run));
                } else {
                    word.extend(run.iter().map(u8::to_ascii_lowercase));
                }
                continue;
            }
            i += 1;
            flush(word, &mut f);
            if b == b'\n' {
                f(Piece::Newline);
            }
            continue;
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        i += c.len_utf8();
        match c {
            '\u{212A}' => word.push(b'k'),
            '\u{0130}' => {
                // "i" + U+0307 COMBINING DOT ABOVE: the dot separates.
                word.push(b'i');
                flush(word, &mut f);
            }
            _ => flush(word, &mut f),
        }
    }
    flush(word, &mut f);
}

fn flush(word: &mut Vec<u8>, f: &mut impl FnMut(Piece<'_>)) {
    if !word.is_empty() {
        f(Piece::Token(word));
        word.clear();
    }
}

/// Interns tokens as `u32` ids, stemming first when asked; one per worker, reused across
/// segments (a raw token is stemmed once, however often it occurs).
#[derive(Default)]
pub struct Vocab {
    /// Raw token of at most 16 bytes ([`short_key`]) -> id of its final form ([`DROPPED`]
    /// when the final form is not kept).
    short: FxHashMap<(u64, u64, usize), u32>,
    /// The same for longer raw tokens.
    raw: FxHashMap<Box<[u8]>, u32>,
    /// Final form -> id.
    forms: FxHashMap<Box<[u8]>, u32>,
    stemmed: Vec<u8>,
    stem: bool,
}

/// The id of a token that rouge-score drops (its final form is not `[a-z0-9]+`).
pub const DROPPED: u32 = u32::MAX;

impl Vocab {
    /// An empty vocabulary; `stem`: Porter-stem tokens longer than three characters.
    pub fn new(stem: bool) -> Self {
        Vocab {
            stem,
            ..Vocab::default()
        }
    }

    /// How many final forms have ids (every id is below this).
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    /// Whether no token has been seen.
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// The id of raw token `word` (lowercase `[a-z0-9]+`).
    pub fn id(&mut self, word: &[u8]) -> u32 {
        // Performance decision: almost every token is short, and a key of two words and a
        // length is hashed and compared in a few instructions, where a boxed key costs a
        // byte-wise hash and a `memcmp` call per lookup.
        if let Some(key) = short_key(word) {
            if let Some(&id) = self.short.get(&key) {
                return id;
            }
            let id = self.form_id(word);
            self.short.insert(key, id);
            return id;
        }
        if let Some(&id) = self.raw.get(word) {
            return id;
        }
        let id = self.form_id(word);
        self.raw.insert(word.into(), id);
        id
    }

    /// The id of the final form of raw token `word` (stemmed when asked), made if new.
    fn form_id(&mut self, word: &[u8]) -> u32 {
        let form: &[u8] = if self.stem && word.len() > 3 {
            porter::stem(word, &mut self.stemmed);
            &self.stemmed
        } else {
            word
        };
        // rouge-score's VALID_TOKEN_RE: the stemmer never empties a word, but keep its check.
        if form.is_empty() {
            return DROPPED;
        }
        let next = self.forms.len() as u32;
        *self.forms.entry(form.into()).or_insert(next)
    }
}

/// `word` (at most 16 bytes) as two words and its length: its first eight bytes and its last
/// eight, which overlap below 16 (with the length they still determine every byte), or the
/// bytes themselves, zero-padded, below eight.
pub(crate) fn short_key(word: &[u8]) -> Option<(u64, u64, usize)> {
    let n = word.len();
    let word_at = |i: usize| u64::from_le_bytes(word[i..i + 8].try_into().unwrap_or([0; 8]));
    match n {
        8..=16 => Some((word_at(0), word_at(n - 8), n)),
        0..=7 => {
            let mut padded = [0u8; 8];
            padded[..n].copy_from_slice(word);
            Some((u64::from_le_bytes(padded), 0, n))
        }
        _ => None,
    }
}

impl Vocab {
    /// The id of `word` kept as it is, never stemmed (a token that is not ASCII, from a
    /// tokenizer other than rouge-score's: `dialects::xlsum`'s symbols).
    pub fn id_as_is(&mut self, word: &[u8]) -> u32 {
        let next = self.forms.len() as u32;
        *self.forms.entry(word.into()).or_insert(next)
    }
}

/// A tokenized text: its token ids and, for rougeLsum, its sentences.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doc {
    /// Token ids of the whole text.
    pub tokens: Vec<u32>,
    /// Sentence token ids, concatenated (empty when the sentences are `tokens` split at
    /// `sent_ends`).
    pub sent_tokens: Vec<u32>,
    /// Whether `sent_tokens` holds the sentences (else `tokens` does).
    pub own_sentences: bool,
    /// End offset of each sentence in the sentence tokens.
    pub sent_ends: Vec<usize>,
}

impl Doc {
    /// Empties the document, keeping its buffers.
    pub fn clear(&mut self) {
        self.tokens.clear();
        self.sent_tokens.clear();
        self.own_sentences = false;
        self.sent_ends.clear();
    }

    /// The sentence tokens and the end offset of each sentence.
    pub fn sentences(&self) -> (&[u32], &[usize]) {
        let toks = if self.own_sentences {
            &self.sent_tokens
        } else {
            &self.tokens
        };
        (toks, &self.sent_ends)
    }

    /// Tokenizes `text` into `tokens`, with sentences split at `\n` (rouge-score's
    /// `text.split("\n")`; empty lines hold no tokens and change no score).
    pub fn read(&mut self, text: &str, vocab: &mut Vocab, word: &mut Vec<u8>) {
        self.clear();
        let Doc {
            tokens, sent_ends, ..
        } = self;
        scan(text, word, |p| match p {
            Piece::Token(w) => {
                let id = vocab.id(w);
                if id != DROPPED {
                    tokens.push(id);
                }
            }
            Piece::Newline => sent_ends.push(tokens.len()),
        });
        sent_ends.push(tokens.len());
    }

    /// Appends the tokens of one sentence given on its own (`split_summaries`).
    pub fn push_sentence(&mut self, text: &str, vocab: &mut Vocab, word: &mut Vec<u8>) {
        self.own_sentences = true;
        let toks = &mut self.sent_tokens;
        scan(text, word, |p| {
            if let Piece::Token(w) = p {
                let id = vocab.id(w);
                if id != DROPPED {
                    toks.push(id);
                }
            }
        });
        self.sent_ends.push(self.sent_tokens.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str, stem: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut v = Vocab::new(stem);
        let mut st = Vec::new();
        scan(text, &mut Vec::new(), |p| {
            if let Piece::Token(w) = p {
                if stem && w.len() > 3 {
                    porter::stem(w, &mut st);
                    out.push(String::from_utf8(st.clone()).unwrap());
                } else {
                    out.push(String::from_utf8(w.to_vec()).unwrap());
                }
                v.id(w);
            }
        });
        out
    }

    #[test]
    fn lowercases_like_python() {
        assert_eq!(
            toks("The \u{212A}elvin İstanbul", false),
            ["the", "kelvin", "i", "stanbul"]
        );
        assert_eq!(
            toks("Running DOGS, 3rd-place", true),
            ["run", "dog", "3rd", "place"]
        );
        assert_eq!(toks("café—ü", false), ["caf"]);
    }

    #[test]
    fn ids_are_one_per_distinct_token_of_any_length() {
        // Every word of 0..=20 bytes over "ab0" up to 6 long, and long runs of one letter:
        // keys of every length class (padded, overlapping, boxed) and the lengths between.
        let mut words: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=6 {
            let mut next = Vec::new();
            for w in words.iter().filter(|w| w.len() == len - 1) {
                for &c in b"ab0" {
                    let mut w = w.clone();
                    w.push(c);
                    next.push(w);
                }
            }
            words.extend(next);
        }
        for len in 7..=20 {
            words.push(vec![b'a'; len]);
            words.push([vec![b'a'; len - 1], vec![b'b']].concat());
            words.push([vec![b'b'], vec![b'a'; len - 1]].concat());
        }
        let mut v = Vocab::new(false);
        let ids: Vec<u32> = words.iter().map(|w| v.id(w)).collect();
        let again: Vec<u32> = words.iter().map(|w| v.id(w)).collect();
        assert_eq!(ids, again);
        let distinct: std::collections::HashSet<u32> = ids[1..].iter().copied().collect();
        assert_eq!(distinct.len(), words.len() - 1, "one id per distinct word");
        assert_eq!(ids[0], DROPPED, "the empty word is not a token");
    }

    #[test]
    fn sentences_split_at_newlines() {
        let mut d = Doc::default();
        let mut v = Vocab::new(false);
        d.read("a b\n\nc\n", &mut v, &mut Vec::new());
        assert_eq!(d.tokens, [0, 1, 2]);
        assert_eq!(d.sent_ends, [2, 2, 3, 3]);
    }
}

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

/// Calls `f` for each raw token of `text` and each `\n`, in order; `word` is scratch space.
pub fn scan(text: &str, word: &mut Vec<u8>, mut f: impl FnMut(Piece<'_>)) {
    word.clear();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            i += 1;
            let lower = b.to_ascii_lowercase();
            if lower.is_ascii_lowercase() || lower.is_ascii_digit() {
                word.push(lower);
                continue;
            }
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
    /// Raw token -> id of its final form ([`DROPPED`] when the final form is not kept).
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
        if let Some(&id) = self.raw.get(word) {
            return id;
        }
        let form: &[u8] = if self.stem && word.len() > 3 {
            porter::stem(word, &mut self.stemmed);
            &self.stemmed
        } else {
            word
        };
        // rouge-score's VALID_TOKEN_RE: the stemmer never empties a word, but keep its check.
        let id = if form.is_empty() {
            DROPPED
        } else {
            let next = self.forms.len() as u32;
            *self.forms.entry(form.into()).or_insert(next)
        };
        self.raw.insert(word.into(), id);
        id
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
    fn sentences_split_at_newlines() {
        let mut d = Doc::default();
        let mut v = Vocab::new(false);
        d.read("a b\n\nc\n", &mut v, &mut Vec::new());
        assert_eq!(d.tokens, [0, 1, 2]);
        assert_eq!(d.sent_ends, [2, 2, 3, 3]);
    }
}

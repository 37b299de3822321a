//! Sentences and words as the `rouge` package 1.0.1 (pltrdy) and `rouge-chinese` 1.0.3 read a
//! text (`Rouge._get_scores`, `rouge_score._split_into_words`), as interned word ids.
//!
//! Both packages keep the sentences of length > 0 (before whitespace is normalised), normalise
//! each with `" ".join(s.split())` (Python's whitespace) and split it again on `" "`. So a
//! sentence of whitespace only is one empty word `""`, which is a word like any other: it
//! counts, is an n-gram, and matches another `""`. Words are case-sensitive and keep their
//! punctuation.

use crate::text::whitespace::{py_rstrip, py_split_ranges};
use rustc_hash::FxHashMap;

/// How a dialect cuts a text into sentences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Splitter {
    /// `rouge` 1.0.1: `text.split(".")` (an ASCII full stop only).
    Period,
    /// `rouge-chinese` 1.0.3: `Rouge.cut_sent`, four regular expressions then `rstrip()` and
    /// `split("\n")`.
    Chinese,
}

/// A text read into sentences of word ids.
#[derive(Clone, Debug, Default)]
pub struct SentDoc {
    /// The words of every sentence, concatenated (`_split_into_words(sentences)`).
    pub words: Vec<u32>,
    /// End offset in `words` of each sentence.
    pub ends: Vec<usize>,
    /// `len(" ".join(sentences).split())`: the non-empty words (`return_lengths`).
    pub nonempty: usize,
    /// Scratch: the byte ranges of one sentence's words.
    ranges: Vec<(u32, u32)>,
}

impl SentDoc {
    /// Whether the text has no sentence (both packages raise `ValueError` on such a text).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The word ids of each sentence.
    pub fn sentences(&self) -> impl Iterator<Item = &[u32]> + Clone {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let s = &self.words[start..end];
            start = end;
            s
        })
    }
}

/// Interns words as dense `u32` ids; one per worker, reused across items.
#[derive(Default)]
pub struct WordIds {
    map: FxHashMap<Box<str>, u32>,
}

/// A worker's vocabulary is emptied (before an item) once it holds this many words, which
/// bounds the memory a long-running process keeps.
const MAX_WORDS: usize = 1 << 18;

impl WordIds {
    /// How many distinct words have ids (every id is below this).
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no word has an id.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Forgets every word once the vocabulary is large (call between items only).
    pub fn trim(&mut self) {
        if self.map.len() > MAX_WORDS {
            self.map = FxHashMap::default();
        }
    }

    /// The id of `word`.
    pub fn id(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.map.get(word) {
            return id;
        }
        let id = self.map.len() as u32;
        self.map.insert(word.into(), id);
        id
    }
}

/// Reads `text` into `doc`: its sentences as `splitter` cuts them, each normalised and split
/// into words. `scratch` is the worker's buffer for `rouge-chinese`'s cut text.
pub fn read(
    text: &str,
    splitter: Splitter,
    ids: &mut WordIds,
    scratch: &mut CutBuf,
    doc: &mut SentDoc,
) {
    doc.words.clear();
    doc.ends.clear();
    doc.nonempty = 0;
    let push = |s: &str| {
        // `[... for _ in parts if len(_) > 0]`, then `" ".join(_.split())` and `.split(" ")`.
        if s.is_empty() {
            return;
        }
        let before = doc.words.len();
        doc.ranges.clear();
        py_split_ranges(s, &mut doc.ranges);
        for &(a, b) in &doc.ranges {
            doc.words.push(ids.id(&s[a as usize..b as usize]));
        }
        doc.nonempty += doc.words.len() - before;
        if doc.words.len() == before {
            doc.words.push(ids.id(""));
        }
        doc.ends.push(doc.words.len());
    };
    match splitter {
        Splitter::Period => text.split('.').for_each(push),
        Splitter::Chinese => py_rstrip(scratch.cut(text)).split('\n').for_each(push),
    }
}

/// Buffers for [`CutBuf::cut`].
#[derive(Default)]
pub struct CutBuf {
    a: String,
    b: String,
}

/// `rouge-chinese`'s sentence-final marks: `[。！？\?]`.
fn is_final(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '?')
}

/// `[”’]`: the closing quotes the patterns refuse after a break.
fn is_close_quote(c: char) -> bool {
    matches!(c, '”' | '’')
}

/// The offset of the first character of `s` that `is` accepts, among those whose UTF-8
/// starts with one of the bytes `lead` (a fast byte search: CJK text is mostly other lead
/// bytes, `E4..E9`).
fn find_among(s: &str, lead: [u8; 3], is: impl Fn(char) -> bool) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr3(lead[0], lead[1], lead[2], &bytes[i..]) {
        let at = i + k;
        // `at` is a lead byte (never a continuation byte), so a char boundary.
        if s[at..].chars().next().is_some_and(&is) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// `[。！？\?]`: `?`, and `E3 80 82`, `EF BC 81`, `EF BC 9F`.
fn find_final(s: &str) -> Option<usize> {
    find_among(s, [b'?', 0xE3, 0xEF], is_final)
}

/// `[”’]`: `E2 80 9D`, `E2 80 99`.
fn find_close_quote(s: &str) -> Option<usize> {
    find_among(s, [0xE2, 0xE2, 0xE2], is_close_quote)
}

/// Which buffer holds the text cut so far.
#[derive(Clone, Copy)]
enum Loc {
    Para,
    A,
    B,
}

impl CutBuf {
    /// `Rouge.cut_sent(para)` of `rouge-chinese` up to its `rstrip()`: the text with `\n`
    /// inserted where its four `re.sub` calls insert one, in their order.
    ///
    /// Each pattern is a fixed-length match, so `re.sub`'s left-to-right scan (a match
    /// consumes its characters, the scan goes on after it) is a walk trying each position
    /// where the pattern's first character occurs.
    ///
    /// Performance decision: a pass runs only when the text holds its first characters (most
    /// text lacks `......`, `……` and closing quotes), and it copies the spans between matches
    /// whole; the text is copied only when a pass runs.
    pub fn cut<'a>(&'a mut self, para: &'a str) -> &'a str {
        let CutBuf { a, b } = self;
        let mut loc = Loc::Para;
        for pass in 0..4 {
            let (src, dst): (&str, &mut String) = match loc {
                Loc::Para => (para, &mut *a),
                Loc::A => (a.as_str(), &mut *b),
                Loc::B => (b.as_str(), &mut *a),
            };
            let changed = match pass {
                // re.sub('([。！？\?])([^”’])', r"\1\n\2", para)
                0 => {
                    find_final(src).is_some()
                        && sub(src, dst, find_final, |s| {
                            let mut cs = s.chars();
                            match (cs.next(), cs.next()) {
                                (Some(c), Some(d)) if !is_close_quote(d) => {
                                    Some(c.len_utf8() + d.len_utf8())
                                }
                                _ => None,
                            }
                        })
                }
                // re.sub('(\.{6})([^”’])', r"\1\n\2", para)
                1 => sub(src, dst, |s| s.find("......"), |s| prefix_then(s, "......")),
                // re.sub('(\…{2})([^”’])', r"\1\n\2", para)
                2 => sub(src, dst, |s| s.find("……"), |s| prefix_then(s, "……")),
                // re.sub('([。！？\?][”’])([^，。！？\?])', r'\1\n\2', para)
                _ => {
                    find_close_quote(src).is_some()
                        && sub(src, dst, find_final, |s| {
                            let mut cs = s.chars();
                            match (cs.next(), cs.next(), cs.next()) {
                                (Some(c), Some(q), Some(d))
                                    if is_close_quote(q) && !is_final(d) && d != '，' =>
                                {
                                    Some(c.len_utf8() + q.len_utf8() + d.len_utf8())
                                }
                                _ => None,
                            }
                        })
                }
            };
            if changed {
                loc = match loc {
                    Loc::Para | Loc::B => Loc::A,
                    Loc::A => Loc::B,
                };
            }
        }
        match loc {
            Loc::Para => para,
            Loc::A => a,
            Loc::B => b,
        }
    }
}

/// A match of `(prefix)([^”’])` at the start of `s`: its length in bytes.
fn prefix_then(s: &str, prefix: &str) -> Option<usize> {
    let rest = s.strip_prefix(prefix)?;
    let d = rest.chars().next()?;
    (!is_close_quote(d)).then(|| prefix.len() + d.len_utf8())
}

/// `re.sub(pattern, r"\1\n\2", text)` into `out` for a pattern of two groups whose second
/// group is its last character: `find(s)` is the first offset where a match may start (every
/// earlier position is no match), `matches(s)` is the
/// byte length of a match at the start of `s`. Whether any match was found (else `out` is
/// left unspecified and `text` is the result).
fn sub(
    text: &str,
    out: &mut String,
    find: impl Fn(&str) -> Option<usize>,
    matches: impl Fn(&str) -> Option<usize>,
) -> bool {
    out.clear();
    let (mut copied, mut i) = (0, 0);
    while let Some(k) = find(&text[i..]) {
        let at = i + k;
        let rest = &text[at..];
        match matches(rest) {
            Some(len) => {
                let m = &rest[..len];
                let last = m.char_indices().last().map_or(0, |(k, _)| k);
                out.push_str(&text[copied..at]);
                out.push_str(&m[..last]);
                out.push('\n');
                out.push_str(&m[last..]);
                i = at + len;
                copied = i;
            }
            None => i = at + rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    if copied == 0 {
        return false;
    }
    out.push_str(&text[copied..]);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str, splitter: Splitter) -> (Vec<Vec<String>>, usize) {
        let mut ids = WordIds::default();
        let mut doc = SentDoc::default();
        read(text, splitter, &mut ids, &mut CutBuf::default(), &mut doc);
        let mut names = vec![String::new(); ids.len()];
        for (w, &i) in &ids.map {
            names[i as usize] = w.to_string();
        }
        let sents = doc
            .sentences()
            .map(|s| s.iter().map(|&i| names[i as usize].clone()).collect())
            .collect();
        (sents, doc.nonempty)
    }

    #[test]
    fn period_sentences() {
        let (s, n) = words("A b. c\u{a0}d. . e..", Splitter::Period);
        assert_eq!(s, [vec!["A", "b"], vec!["c", "d"], vec![""], vec!["e"]]);
        assert_eq!(n, 5);
        assert!(words("...", Splitter::Period).0.is_empty());
    }

    #[test]
    fn chinese_cut() {
        let mut b = CutBuf::default();
        assert_eq!(b.cut("你好。世界！？”好"), "你好。\n世界！\n？”\n好");
        assert_eq!(b.cut("。。。"), "。\n。。");
        assert_eq!(b.cut("a.......b……c"), "a......\n.b……\nc");
        assert_eq!(b.cut("好？’，"), "好？’，");
        let (s, _) = words("一 二。三 \n \n四  ", Splitter::Chinese);
        assert_eq!(s, [vec!["一", "二。"], vec!["三"], vec![""], vec!["四"]]);
    }
}

//! rapidbleu's own Unicode tokenizer for rouge-score's scoring, for text in any script
//! (`tokenizer="unicode"`; never the default, which stays rouge-score's `DefaultTokenizer`).
//!
//! rouge-score keeps only `[a-z0-9]`, so Thai, Hindi, Chinese or Arabic text scores 0.0
//! against itself and "Cristóbal" becomes "Cristbal". This tokenizer is defined as follows,
//! on Unicode 14.0.0 (the tables of Python 3.11's `unicodedata`, generated into
//! `unicode_tables.rs` by `scripts/gen_rouge_unicode_tables.py`):
//!
//! 1. **Lowercase** each character on its own as Python 3.11's `c.lower()` does (full
//!    mappings: U+0130 becomes `i` + U+0307; no context: `Σ` is always `σ`). No other
//!    normalisation (no NFC/NFKC): texts equal code point for code point tokenize equally.
//! 2. **Word characters** are those of general category `L*` (letters), `M*` (marks) and
//!    `N*` (numbers); every other character (spaces, punctuation, symbols and emoji,
//!    controls, unassigned) separates tokens. A token is a maximal run of word characters.
//! 3. **Scripts written without spaces** (Han and the CJK ideograph blocks, Hiragana,
//!    Katakana, Thai, Lao, Myanmar, Khmer: [`is_unsegmented`]): each such character starts a
//!    token of its own, which takes the marks (`M*`) that follow it.
//! 4. **Stemming** (`use_stemmer`): rouge-score's Porter stemmer (NLTK's) on tokens of ASCII
//!    letters and digits longer than three characters; other tokens are kept as they are.
//! 5. **Sentences** (rougeLsum) are split at `\n`, as rouge-score splits them.
//!
//! So any text with a letter, mark or number in it scores 1.0 against itself, and a text with
//! none (punctuation or emoji only) has no tokens and scores 0.0, as in rouge-score.

use super::sentences::WordIds;
use super::unicode_tables::{lower, word_class, WordClass};
use crate::engine::parallel::{for_each_row_in, Threads, WorkerPool};
use crate::error::{zeroed, CoreError};
use crate::rouge::porter;
use crate::rouge::stats::Worker as ScoreWorker;
use crate::rouge::tokenize::Doc;
use crate::rouge::RougeOptions;

/// Whether `c` belongs to a script written without spaces between words (rule 3): the blocks
/// CJK Unified Ideographs (and Extension A, the supplementary ideographic planes 2 and 3),
/// CJK Compatibility Ideographs, U+3005..U+3007 and the Hangzhou numerals U+3021..U+3029,
/// U+3038..U+303B, Hiragana, Katakana (and its phonetic extensions, halfwidth forms), Thai,
/// Lao, Myanmar (and extensions A, B) and Khmer (and its symbols).
pub fn is_unsegmented(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF // Thai, Lao
        | 0x1000..=0x109F // Myanmar
        | 0x1780..=0x17FF // Khmer
        | 0x19E0..=0x19FF // Khmer symbols
        | 0x3005..=0x3007
        | 0x3021..=0x3029
        | 0x3038..=0x303B
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x31F0..=0x31FF // Katakana phonetic extensions
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xA9E0..=0xA9FF // Myanmar Extended-B
        | 0xAA60..=0xAA7F // Myanmar Extended-A
        | 0xF900..=0xFAFF // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F // Halfwidth Katakana
        | 0x20000..=0x3FFFF // Supplementary and Tertiary Ideographic Planes
    )
}

/// Calls `f(Some(token))` for each token of `text` (lowercased) and `f(None)` at each `\n`,
/// in order; `word` is scratch space.
pub fn scan(text: &str, word: &mut String, mut f: impl FnMut(Option<&str>)) {
    word.clear();
    // Whether `word` is one character of an unsegmented script (and its marks).
    let mut single = false;
    let flush = |word: &mut String, f: &mut dyn FnMut(Option<&str>)| {
        if !word.is_empty() {
            f(Some(word));
            word.clear();
        }
    };
    for c in text.chars() {
        if c == '\n' {
            flush(word, &mut f);
            single = false;
            f(None);
            continue;
        }
        let (first, second) = lower(c);
        for l in std::iter::once(first).chain(second) {
            match word_class(l) {
                WordClass::Other => {
                    flush(word, &mut f);
                    single = false;
                }
                // A mark joins the token before it (or starts one after a separator).
                WordClass::Mark => word.push(l),
                WordClass::Word if is_unsegmented(l) => {
                    flush(word, &mut f);
                    word.push(l);
                    single = true;
                }
                WordClass::Word => {
                    if single {
                        flush(word, &mut f);
                        single = false;
                    }
                    word.push(l);
                }
            }
        }
    }
    flush(word, &mut f);
}

/// Token ids of one worker: [`WordIds`] of the final forms, after stemming when asked.
struct Tokenizer {
    ids: WordIds,
    word: String,
    stemmed: Vec<u8>,
    stem: bool,
}

impl Tokenizer {
    fn id(&mut self, w: &str) -> u32 {
        let b = w.as_bytes();
        if self.stem && b.len() > 3 && b.iter().all(u8::is_ascii_alphanumeric) {
            porter::stem(b, &mut self.stemmed);
            // The stemmer maps ASCII to ASCII.
            if let Ok(s) = std::str::from_utf8(&self.stemmed) {
                return self.ids.id(s);
            }
        }
        self.ids.id(w)
    }

    /// Reads `text` into `doc`: its tokens, and sentence ends at each `\n`.
    fn read(&mut self, text: &str, doc: &mut Doc) {
        doc.clear();
        let mut word = std::mem::take(&mut self.word);
        let mut tokens = std::mem::take(&mut doc.tokens);
        let mut ends = std::mem::take(&mut doc.sent_ends);
        scan(text, &mut word, |w| match w {
            Some(w) => tokens.push(self.id(w)),
            None => ends.push(tokens.len()),
        });
        ends.push(tokens.len());
        (self.word, doc.tokens, doc.sent_ends) = (word, tokens, ends);
    }
}

/// A worker: the tokenizer, rouge-score's scoring worker and two documents.
struct Worker {
    tok: Tokenizer,
    score: ScoreWorker,
    pred: Doc,
    targets: Vec<Doc>,
}

impl Worker {
    fn new(stem: bool) -> Self {
        Worker {
            tok: Tokenizer {
                ids: WordIds::default(),
                word: String::new(),
                stemmed: Vec::new(),
                stem,
            },
            score: ScoreWorker::new(false),
            pred: Doc::default(),
            targets: Vec::new(),
        }
    }

    fn item(&mut self, opts: &RougeOptions, pred: &str, targets: &[&str], row: &mut [i64]) {
        self.tok.ids.trim();
        self.tok.read(pred, &mut self.pred);
        self.targets.resize_with(targets.len(), Doc::default);
        for (t, doc) in targets.iter().zip(&mut self.targets) {
            self.tok.read(t, doc);
        }
        self.score
            .doc_item(opts, &self.pred, &self.targets[..targets.len()], row);
    }
}

/// Spare workers, without and with stemming.
static WORKERS: [WorkerPool<Worker>; 2] = [WorkerPool::new(), WorkerPool::new()];

/// rouge-score's rows (`[hits, prediction_count, target_count]` per type, the best target's,
/// as `score_multi` picks it) of `(prediction, targets)` items read by this tokenizer, in
/// parallel. `opts.stem` asks for rule 4.
pub fn rows(
    opts: &RougeOptions,
    items: &[(&str, Vec<&str>)],
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    if let Some(i) = items.iter().position(|(_, t)| t.is_empty()) {
        return Err(CoreError::MissingReference(format!(
            "item {i} has no reference; ROUGE scores a prediction against at least one"
        )));
    }
    let width = opts.row_len();
    let mut out = zeroed(items.len(), width)?;
    for_each_row_in(
        &WORKERS[usize::from(opts.stem)],
        &mut out,
        width,
        threads,
        || Worker::new(opts.stem),
        |w, i, row| w.item(opts, items[i].0, &items[i].1, row),
    );
    Ok(out)
}

/// The row of one item, on the calling thread, with a spare worker.
pub fn item_row(opts: &RougeOptions, pred: &str, targets: &[&str], row: &mut [i64]) {
    let width = row.len();
    for_each_row_in(
        &WORKERS[usize::from(opts.stem)],
        row,
        width,
        Threads::ONE,
        || Worker::new(opts.stem),
        |w, _, r| w.item(opts, pred, targets, r),
    );
}

/// The tokens of `text` (the words rule 1-3 make, before stemming), for inspection.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    scan(text, &mut String::new(), |w| {
        out.extend(w.map(str::to_string))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_of_many_scripts() {
        assert_eq!(tokenize("Cristóbal, ΣΟΦΙΑ!"), ["cristóbal", "σοφια"]);
        assert_eq!(tokenize("हिन्दी भाषा"), ["हिन्दी", "भाषा"]);
        assert_eq!(tokenize("我爱abc北京"), ["我", "爱", "abc", "北", "京"]);
        assert_eq!(tokenize("สวัสดี"), ["ส", "วั", "ส", "ดี"]);
        assert_eq!(tokenize("İz 😀 x2"), ["i\u{307}z", "x2"]);
        assert!(tokenize("😀 !?").is_empty());
    }

    #[test]
    fn identical_text_scores_one() {
        let opts = RougeOptions::new(&["rouge1", "rouge2", "rougeL", "rougeLsum"], true).unwrap();
        for t in [
            "Привет, мир",
            "مرحبا بالعالم",
            "こんにちは世界",
            "สวัสดีครับ",
            "नमस्ते दुनिया",
        ] {
            let r = rows(&opts, &[(t, vec![t])], Threads::ONE).unwrap();
            for tr in r.chunks(3) {
                let hits = if tr[1] == 0 { continue } else { tr[0] };
                assert_eq!((hits, hits), (tr[1], tr[2]), "{t}");
            }
            assert!(r[0] > 0);
        }
    }
}

//! rouge-score's scoring of texts tokenized elsewhere: XL-Sum's `multilingual-rouge` 0.0.1.
//!
//! Its `RougeScorer.score(target, prediction)` is rouge-score 0.1.2's, unchanged after the
//! tokens (`_score_ngrams`, `_score_lcs`, `_summary_level_lcs` and `scoring.fmeasure` are the
//! same code): what differs is the tokens, made by a tokenizer and stemmer per language
//! (`MultiTokenizer`: BERT's `BasicTokenizer`, then pythainlp, jieba, fugashi, a Burmese
//! syllable splitter or `pyonmttok`'s aggressive mode; `MultiStemmer`). Those run in Python,
//! in the package's own objects, and hand their tokens here; rougeLsum's sentences are the
//! non-empty lines, each tokenized by `tokenize.tokenize(s, stemmer)` (the `BasicTokenizer`,
//! not the language's), so they come as their own token lists.

use super::sentences::WordIds;
use crate::engine::parallel::{for_each_row_in, Threads, WorkerPool};
use crate::error::{zeroed, CoreError};
use crate::rouge::stats::Worker as ScoreWorker;
use crate::rouge::tokenize::Doc;
use crate::rouge::RougeOptions;

/// A tokenized text: its tokens and, for rougeLsum, its sentences' tokens.
#[derive(Clone, Debug, Default)]
pub struct TokenText<'a> {
    /// The tokens of the whole text.
    pub tokens: Vec<&'a str>,
    /// The tokens of each sentence (rougeLsum); `None`: one sentence, `tokens`.
    pub sentences: Option<Vec<Vec<&'a str>>>,
}

/// One item: `score(target, prediction)` of the package (one target).
#[derive(Clone, Debug, Default)]
pub struct TokenItem<'a> {
    /// The target (reference).
    pub target: TokenText<'a>,
    /// The prediction.
    pub prediction: TokenText<'a>,
}

struct Worker {
    ids: WordIds,
    score: ScoreWorker,
    docs: [Doc; 2],
}

fn read(ids: &mut WordIds, text: &TokenText<'_>, doc: &mut Doc) {
    doc.clear();
    doc.tokens.extend(text.tokens.iter().map(|t| ids.id(t)));
    match &text.sentences {
        None => doc.sent_ends.push(doc.tokens.len()),
        Some(sents) => {
            doc.own_sentences = true;
            for s in sents {
                doc.sent_tokens.extend(s.iter().map(|t| ids.id(t)));
                doc.sent_ends.push(doc.sent_tokens.len());
            }
        }
    }
}

static WORKERS: WorkerPool<Worker> = WorkerPool::new();

/// rouge-score's rows (`[hits, prediction_count, target_count]` per type) of tokenized
/// items, in parallel. `opts.stem` is ignored: the tokens come stemmed.
pub fn rows(
    opts: &RougeOptions,
    items: &[TokenItem<'_>],
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    let width = opts.row_len();
    let mut out = zeroed(items.len(), width)?;
    for_each_row_in(
        &WORKERS,
        &mut out,
        width,
        threads,
        || Worker {
            ids: WordIds::default(),
            score: ScoreWorker::new(false),
            docs: Default::default(),
        },
        |w, i, row| {
            w.ids.trim();
            let [pred, target] = &mut w.docs;
            read(&mut w.ids, &items[i].prediction, pred);
            read(&mut w.ids, &items[i].target, target);
            w.score
                .doc_item(opts, pred, std::slice::from_ref(target), row);
        },
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rouge_score_on_tokens() {
        let opts = RougeOptions::new(&["rouge1", "rougeL", "rougeLsum"], false).unwrap();
        let text = |t: &[&'static str]| TokenText {
            tokens: t.to_vec(),
            sentences: Some(vec![t[..1].to_vec(), t[1..].to_vec()]),
        };
        let item = TokenItem {
            target: text(&["এক", "দুই", "তিন"]),
            prediction: text(&["এক", "তিন", "চার", "দুই"]),
        };
        let r = rows(&opts, &[item], Threads::ONE).unwrap();
        assert_eq!(r, [3, 4, 3, 2, 4, 3, 2, 4, 3]);
    }
}

//! Per-item statistics rows: one prediction against its references, for every rouge type,
//! in parallel over items.

use super::lcs::LcsBuf;
use super::ngram::NgramCounter;
use super::score::score;
use super::tokenize::{Doc, Vocab};
use super::{RougeOptions, RougeType};
use crate::engine::parallel::{for_each_row, for_each_row_in, Threads, WorkerPool};
use crate::error::{zeroed, CoreError};

/// One item as the core reads it: a prediction and its references, as text, each with its
/// sentences for rougeLsum when the caller split them (`split_summaries`), else `None`
/// (split at `\n`).
pub struct TextItem<'a> {
    /// The prediction.
    pub prediction: Text<'a>,
    /// The references (targets), at least one.
    pub targets: Vec<Text<'a>>,
}

/// A text and, optionally, its sentences as split by the caller.
pub struct Text<'a> {
    /// The whole text.
    pub text: &'a str,
    /// Its sentences (rougeLsum with `split_summaries`), or `None`: split at `\n`.
    pub sentences: Option<Vec<&'a str>>,
}

/// A worker's state: the vocabulary (and stem cache) and scratch space.
pub struct Worker {
    vocab: Vocab,
    word: Vec<u8>,
    ngrams: NgramCounter,
    lcs: LcsBuf,
    pred: Doc,
    target: Doc,
    best: Vec<(f64, [i64; 3])>,
}

impl Worker {
    /// A worker for options with stemming `stem`.
    pub fn new(stem: bool) -> Self {
        Worker {
            vocab: Vocab::new(stem),
            word: Vec::new(),
            ngrams: NgramCounter::default(),
            lcs: LcsBuf::default(),
            pred: Doc::default(),
            target: Doc::default(),
            best: Vec::new(),
        }
    }

    fn read(vocab: &mut Vocab, word: &mut Vec<u8>, doc: &mut Doc, text: &Text<'_>) {
        doc.read(text.text, vocab, word);
        if let Some(sents) = &text.sentences {
            doc.sent_ends.clear();
            for s in sents {
                doc.push_sentence(s, vocab, word);
            }
        }
    }

    /// Fills `row` (`3 x types`) with the triples of the best target per type.
    pub fn text_item(&mut self, opts: &RougeOptions, item: &TextItem<'_>, row: &mut [i64]) {
        if self.vocab.len() > MAX_VOCAB {
            self.vocab = Vocab::new(opts.stem);
        }
        Self::read(
            &mut self.vocab,
            &mut self.word,
            &mut self.pred,
            &item.prediction,
        );
        self.best.clear();
        self.best
            .resize(opts.types().len(), (f64::NEG_INFINITY, [0; 3]));
        for t in &item.targets {
            Self::read(&mut self.vocab, &mut self.word, &mut self.target, t);
            pick(
                opts,
                &mut self.ngrams,
                &mut self.lcs,
                &self.target,
                &self.pred,
                &mut self.best,
            );
        }
        write_row(&self.best, row);
    }

    /// [`Worker::text_item`] for documents already tokenized (a user tokenizer's).
    pub fn doc_item(&mut self, opts: &RougeOptions, pred: &Doc, targets: &[Doc], row: &mut [i64]) {
        self.best.clear();
        self.best
            .resize(opts.types().len(), (f64::NEG_INFINITY, [0; 3]));
        for t in targets {
            pick(
                opts,
                &mut self.ngrams,
                &mut self.lcs,
                t,
                pred,
                &mut self.best,
            );
        }
        write_row(&self.best, row);
    }
}

fn write_row(best: &[(f64, [i64; 3])], row: &mut [i64]) {
    for (out, (_, triple)) in row.chunks_mut(3).zip(best) {
        out.copy_from_slice(triple);
    }
}

/// Updates each type's best target with `target`: rouge-score's `score_multi` takes
/// `np.argmax` of the F-measures, the first of equal maxima.
fn pick(
    opts: &RougeOptions,
    ngrams: &mut NgramCounter,
    lcs: &mut LcsBuf,
    target: &Doc,
    pred: &Doc,
    best: &mut [(f64, [i64; 3])],
) {
    for (ty, slot) in opts.types().iter().zip(best.iter_mut()) {
        let triple = triple(*ty, ngrams, lcs, target, pred);
        let f = score(triple[0], triple[1], triple[2]).2;
        if f > slot.0 {
            *slot = (f, triple);
        }
    }
}

/// `[hits, prediction_count, target_count]` of one rouge type.
fn triple(
    ty: RougeType,
    ngrams: &mut NgramCounter,
    lcs: &mut LcsBuf,
    t: &Doc,
    p: &Doc,
) -> [i64; 3] {
    let (hits, pc, tc) = match ty {
        RougeType::N(n) => {
            let count = |len: usize| (len + 1).saturating_sub(n);
            let hits = ngrams.overlap(&t.tokens, &p.tokens, n);
            (hits, count(p.tokens.len()), count(t.tokens.len()))
        }
        RougeType::L => (
            lcs.length(&t.tokens, &p.tokens),
            p.tokens.len(),
            t.tokens.len(),
        ),
        RougeType::Lsum => {
            let (tt, te) = t.sentences();
            let (pt, pe) = p.sentences();
            (lcs.summary_hits(tt, te, pt, pe), pt.len(), tt.len())
        }
    };
    [hits as i64, pc as i64, tc as i64]
}

/// Spare workers kept between calls, without and with stemming: a worker's vocabulary is
/// its stem cache, so repeated calls (one item at a time, or batches) stem each word once.
static WORKERS: [WorkerPool<Worker>; 2] = [WorkerPool::new(), WorkerPool::new()];

/// A worker's vocabulary is emptied (at the start of an item) once it holds this many forms,
/// which bounds the memory a long-running process keeps.
const MAX_VOCAB: usize = 1 << 18;

/// The row of one text item, on the calling thread, with a spare worker (the metric
/// trait's `segment_stats`: pairwise cells and single sentences).
pub fn item_row(opts: &RougeOptions, item: &TextItem<'_>, row: &mut [i64]) {
    let width = row.len();
    for_each_row_in(
        &WORKERS[usize::from(opts.stem)],
        row,
        width,
        Threads::ONE,
        || Worker::new(opts.stem),
        |w, _, r| w.text_item(opts, item, r),
    );
}

/// Rows (`items x 3 x types`, row-major) of text items, in parallel.
pub fn text_rows(
    opts: &RougeOptions,
    items: &[TextItem<'_>],
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    let width = opts.row_len();
    let mut out = zeroed(items.len(), width)?;
    for_each_row_in(
        &WORKERS[usize::from(opts.stem)],
        &mut out,
        width,
        threads,
        || Worker::new(opts.stem),
        |w, i, row| w.text_item(opts, &items[i], row),
    );
    Ok(out)
}

/// Rows of tokenized items (`(prediction, targets)`), in parallel.
pub fn doc_rows(
    opts: &RougeOptions,
    items: &[(Doc, Vec<Doc>)],
    threads: Threads,
) -> Result<Vec<i64>, CoreError> {
    let width = opts.row_len();
    let mut out = zeroed(items.len(), width)?;
    for_each_row(
        &mut out,
        width,
        threads,
        || Worker::new(false),
        |w, i, row| w.doc_item(opts, &items[i].0, &items[i].1, row),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Text<'_> {
        Text {
            text: s,
            sentences: None,
        }
    }

    #[test]
    fn rouge_score_examples() {
        let opts = RougeOptions::new(&["rouge1", "rouge2", "rougeL", "rougeLsum"], true).unwrap();
        let items = [TextItem {
            prediction: text("The quick brown dog jumps on the log."),
            targets: vec![text("The quick brown fox jumps over the lazy dog")],
        }];
        let rows = text_rows(&opts, &items, Threads::ONE).unwrap();
        // rouge1: 6 of 8 / 9 tokens; rouge2: 2 of 7 / 8 bigrams; rougeL: LCS 5.
        assert_eq!(&rows[..9], &[6, 8, 9, 2, 7, 8, 5, 8, 9]);
    }
}

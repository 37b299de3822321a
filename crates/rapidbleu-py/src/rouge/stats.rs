//! Glue of `rapidbleu_core::rouge::stats` beyond the template's statistics: rows of
//! predictions against per-item targets with sentences given (rouge-score's
//! `split_summaries`) and of tokens (a user tokenizer's), in parallel with the GIL released.
//! Lone surrogates are read as `?` here ([`utf8`]), as rouge-score reads them: a separator.

use super::items::{check_len, item_strings, item_text, items};
use super::text::{strings, utf8};
use crate::arrays::to_2d;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, type_name, ErrorKind};
use crate::metric::PyMetric;
use crate::rouge::options::PyRougeOptions;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rapidbleu_core::rouge::stats::{doc_rows, text_rows, Text, TextItem};
use rapidbleu_core::rouge::tokenize::Doc;
use rapidbleu_core::rouge::RougeOptions;
use std::borrow::Cow;

#[pymethods]
impl PyRougeOptions {
    /// Statistics rows `(n, 3 x types)` of `predictions[i]` against its targets `targets[i]` (a
    /// list of str, at least one), each type's triple `[hits, prediction_count, target_count]`
    /// from the target with the best F-measure. `prediction_sentences[i]` and
    /// `target_sentences[i][k]`, when given, are the texts' sentences for rougeLsum (rouge-score's
    /// `split_summaries`); otherwise texts are split at `\n`.
    #[pyo3(signature = (predictions, targets, num_threads = 0, prediction_sentences = None, target_sentences = None))]
    fn item_statistics<'py>(
        &self,
        py: Python<'py>,
        predictions: &Bound<'py, PyAny>,
        targets: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
        prediction_sentences: Option<&Bound<'py, PyAny>>,
        target_sentences: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let options = <RougeOptions as PyMetric>::of(self);
        guard(|| {
            let threads = threads(py, num_threads)?;
            let (preds, tgts) = item_strings(predictions, targets)?;
            if let Some(i) = tgts.iter().position(|t| t.is_empty()) {
                return Err(ErrorKind::EmptyInput.err(
                    py,
                    format!("targets[{i}] is empty; each prediction needs at least one target"),
                ));
            }
            let sentences = match (prediction_sentences, target_sentences) {
                (Some(p), Some(t)) => Some(read_sentences(py, p, t, &tgts)?),
                (None, None) => None,
                _ => {
                    return Err(ErrorKind::InvalidOption.err(
                        py,
                        "give both prediction_sentences and target_sentences, or neither",
                    ))
                }
            };
            // Borrow every text as UTF-8 (the strings stay alive above), then score detached.
            let (pred_text, tgt_text) = item_text(&preds, &tgts)?;
            let sent_text: Option<SentText<'_>> = match &sentences {
                Some((p, t)) => Some((
                    p.iter()
                        .map(|s| s.iter().map(utf8).collect())
                        .collect::<PyResult<_>>()?,
                    t.iter()
                        .map(|ts| ts.iter().map(|s| s.iter().map(utf8).collect()).collect())
                        .collect::<PyResult<_>>()?,
                )),
                None => None,
            };
            let all: Vec<TextItem<'_>> = (0..pred_text.len())
                .map(|i| TextItem {
                    prediction: Text {
                        text: &pred_text[i],
                        sentences: sent_text.as_ref().map(|(p, _)| borrow(&p[i])),
                    },
                    targets: tgt_text[i]
                        .iter()
                        .enumerate()
                        .map(|(k, t)| Text {
                            text: t,
                            sentences: sent_text.as_ref().map(|(_, ts)| borrow(&ts[i][k])),
                        })
                        .collect(),
                })
                .collect();
            let opts = &options;
            let rows = run_detached(py, || text_rows(opts, &all, threads))?;
            to_2d(py, rows, opts.row_len())
        })
    }
}

/// Borrows every text of `v`.
fn borrow<'a>(v: &'a [Cow<'_, str>]) -> Vec<&'a str> {
    v.iter().map(|s| s.as_ref()).collect()
}

type Sentences<'py> = Vec<Vec<Bound<'py, PyString>>>;
type SentText<'a> = (Vec<Vec<Cow<'a, str>>>, Vec<Vec<Vec<Cow<'a, str>>>>);

/// The sentence lists, shaped as the predictions and targets are.
fn read_sentences<'py>(
    py: Python<'py>,
    preds: &Bound<'py, PyAny>,
    targets: &Bound<'py, PyAny>,
    tgts: &[Vec<Bound<'py, PyString>>],
) -> PyResult<(Sentences<'py>, Vec<Sentences<'py>>)> {
    let p = items(preds, "prediction_sentences")?;
    check_len(py, "prediction_sentences", p.len(), tgts.len())?;
    let p = p
        .iter()
        .enumerate()
        .map(|(i, s)| strings(s, &format!("prediction_sentences[{i}]")))
        .collect::<PyResult<_>>()?;
    let t = items(targets, "target_sentences")?;
    check_len(py, "target_sentences", t.len(), tgts.len())?;
    let mut out = Vec::with_capacity(t.len());
    for (i, (ts, tg)) in t.iter().zip(tgts).enumerate() {
        let ts = items(ts, &format!("target_sentences[{i}]"))?;
        if ts.len() != tg.len() {
            return Err(ErrorKind::LengthMismatch.err(
                py,
                format!(
                    "target_sentences[{i}] has {} entries but targets[{i}] has {}",
                    ts.len(),
                    tg.len()
                ),
            ));
        }
        out.push(
            ts.iter()
                .enumerate()
                .map(|(k, s)| strings(s, &format!("target_sentences[{i}][{k}]")))
                .collect::<PyResult<_>>()?,
        );
    }
    Ok((p, out))
}

#[pymethods]
impl PyRougeOptions {
    /// [`rouge_item_statistics`] of tokenized texts (a user tokenizer's output): each text is a pair
    /// `(tokens, sentences)`, `sentences` a list of token lists (rougeLsum) or `None`. Tokens are
    /// any hashable Python values, equal as Python compares them (rouge-score's `Counter` and
    /// `==`).
    #[pyo3(signature = (predictions, targets, num_threads = 0))]
    fn token_statistics<'py>(
        &self,
        py: Python<'py>,
        predictions: &Bound<'py, PyAny>,
        targets: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let options = <RougeOptions as PyMetric>::of(self);
        guard(|| {
            let threads = threads(py, num_threads)?;
            let preds = items(predictions, "predictions")?;
            let tgts = items(targets, "targets")?;
            check_len(py, "targets", tgts.len(), preds.len())?;
            let vocab = PyDict::new(py);
            let mut all = Vec::with_capacity(preds.len());
            for (i, (p, t)) in preds.iter().zip(&tgts).enumerate() {
                let pred = doc(&vocab, p, &format!("predictions[{i}]"))?;
                let ts = items(t, &format!("targets[{i}]"))?;
                if ts.is_empty() {
                    return Err(ErrorKind::EmptyInput.err(
                        py,
                        format!("targets[{i}] is empty; each prediction needs at least one target"),
                    ));
                }
                let ts = ts
                    .iter()
                    .enumerate()
                    .map(|(k, t)| doc(&vocab, t, &format!("targets[{i}][{k}]")))
                    .collect::<PyResult<Vec<_>>>()?;
                all.push((pred, ts));
            }
            let opts = &options;
            let rows = run_detached(py, || doc_rows(opts, &all, threads))?;
            to_2d(py, rows, opts.row_len())
        })
    }
}

/// A `(tokens, sentences)` pair as a [`Doc`], tokens interned through `vocab`.
fn doc(vocab: &Bound<'_, PyDict>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Doc> {
    let py = obj.py();
    let bad = || {
        ErrorKind::InputType.err(
            py,
            format!(
                "{what} must be a pair (tokens, sentences or None), not {}",
                type_name(obj)
            ),
        )
    };
    let (tokens, sentences): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
        obj.extract().map_err(|_| bad())?;
    let mut d = Doc::default();
    intern(vocab, &tokens, &mut d.tokens, what)?;
    if !sentences.is_none() {
        d.own_sentences = true;
        for (k, s) in items(&sentences, what)?.iter().enumerate() {
            intern(
                vocab,
                s,
                &mut d.sent_tokens,
                &format!("{what} sentence {k}"),
            )?;
            d.sent_ends.push(d.sent_tokens.len());
        }
    }
    Ok(d)
}

fn intern(
    vocab: &Bound<'_, PyDict>,
    tokens: &Bound<'_, PyAny>,
    out: &mut Vec<u32>,
    what: &str,
) -> PyResult<()> {
    for t in items(tokens, what)? {
        let id = match vocab.get_item(&t)? {
            Some(id) => id.extract::<u32>()?,
            None => {
                let id = vocab.len() as u32;
                vocab.set_item(&t, id)?;
                id
            }
        };
        out.push(id);
    }
    Ok(())
}

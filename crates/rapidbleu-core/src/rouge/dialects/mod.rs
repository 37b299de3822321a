//! ROUGE as the field computes it besides rouge-score: the dialects.
//!
//! - [`pltrdy`]: the `rouge` package 1.0.1 (pltrdy) and its fork `rouge-chinese` 1.0.3, with
//!   their own sentences and words ([`sentences`]), n-gram sets or lists ([`ngrams`]) and
//!   ROUGE-L ([`recon`]: `rouge`'s summary-level union LCS; `rouge-chinese`'s plain LCS);
//!   [`metric`] implements [`crate::metric::Metric`] for them;
//! - [`unicode`]: rapidbleu's own Unicode tokenizer for rouge-score's scoring of any script
//!   (never rouge-score's default), on the tables of `unicode_tables`; [`unicode_metric`]
//!   makes it a [`crate::metric::Metric`] (rouge-score's rows and totals);
//! - [`tokens`]: rouge-score's scoring of texts tokenized elsewhere (XL-Sum's
//!   `multilingual-rouge` 0.0.1, whose tokenizers and stemmers run in Python), one target
//!   per prediction as its `RougeScorer.score` takes. Not a [`crate::metric::Metric`]: the
//!   trait's segments are text, and these are tokens made in Python; their rows are
//!   rouge-score's, so `RougeOptions`'s totals and scores apply to them unchanged;
//! - [`xlsum`]: XL-Sum's tokens made in the core, for languages without a tokenizer of their
//!   own, on the texts the core reads exactly (ASCII and some separators).
//!
//! Every number is the package's float64, bit for bit
//! (`crates/rapidbleu-core/tests/data/rouge_dialects/`).

pub mod jieba;
pub mod metric;
pub mod ngrams;
pub mod pltrdy;
pub mod recon;
pub mod sentences;
pub mod tokens;
pub mod unicode;
pub mod unicode_metric;
mod unicode_tables;
pub mod xlsum;

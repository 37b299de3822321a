//! Google's rouge-score 0.1.2 (`rouge_score/rouge_scorer.py`, `tokenize.py`, `scoring.py`),
//! exact, without Python.
//!
//! The pipeline is [`tokenize`] (rouge-score's `DefaultTokenizer`: Python's `str.lower()`,
//! `[^a-z0-9]+` to spaces, NLTK's Porter stemmer on tokens longer than three letters) ->
//! token ids, interned per worker -> per rouge type and reference one statistics triple
//! `[hits, prediction_count, target_count]` ([`ngram`] overlaps, [`lcs`] lengths and the
//! summary-level union LCS) -> the reference with the best F-measure (rouge-score's
//! `score_multi`, ties to the first) -> one int64 row of `3 x types` values per item
//! ([`stats`]). [`score`] turns a triple into rouge-score's `(precision, recall, fmeasure)`
//! in its float64 operation order; [`bootstrap`] replays `BootstrapAggregator`'s NumPy draws.
//! `metric.rs` implements the [`crate::metric::Metric`] trait: rows of text, and totals that
//! are the in-order mean of the items' scores.
//!
//! A triple determines the score: rouge-score's three scorers divide the same way
//! (`hits / max(count, 1)`, and both LCS scorers return zeros exactly when a count is zero).

pub mod bootstrap;
pub mod dialects;
pub(crate) mod lcs;
pub mod metric;
mod ngram;
pub mod porter;
pub mod score;
pub mod stats;
pub mod tokenize;

use crate::error::CoreError;

/// One rouge type of rouge-score's `RougeScorer(rouge_types)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RougeType {
    /// `rouge1` .. `rouge9`: n-gram overlap.
    N(usize),
    /// `rougeL`: the longest common subsequence of the whole texts.
    L,
    /// `rougeLsum`: summary-level union LCS over sentences.
    Lsum,
}

impl RougeType {
    /// Parses rouge-score's spelling (`rouge[0-9]`, `rougeL`, `rougeLsum`).
    ///
    /// Example: `RougeType::parse("rouge2") == Ok(RougeType::N(2))`.
    pub fn parse(name: &str) -> Result<Self, CoreError> {
        match name {
            "rougeL" => Ok(RougeType::L),
            "rougeLsum" => Ok(RougeType::Lsum),
            _ => match name.strip_prefix("rouge").map(str::as_bytes) {
                Some([d @ b'1'..=b'9']) => Ok(RougeType::N(usize::from(d - b'0'))),
                Some([b'0']) => Err(CoreError::InvalidOption(format!(
                    "rougen requires positive n: {name} (allowed: rouge1 .. rouge9, rougeL, \
                     rougeLsum)"
                ))),
                _ => Err(CoreError::InvalidOption(format!(
                    "invalid rouge type: {} (allowed: rouge1 .. rouge9, rougeL, rougeLsum)",
                    crate::error::py_str(name)
                ))),
            },
        }
    }
}

/// The number of distinct rouge types (`rouge1` .. `rouge9`, `rougeL`, `rougeLsum`).
pub const MAX_TYPES: usize = 11;

/// The options of one scorer (rouge-score's `RougeScorer` arguments the core needs).
///
/// `Copy` (the types in a fixed array), as the glue's metrics are: options cross into the
/// generic functions by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RougeOptions {
    types: [RougeType; MAX_TYPES],
    len: usize,
    /// Porter-stem tokens longer than three letters (`use_stemmer`).
    pub stem: bool,
}

impl RougeOptions {
    /// Options from rouge type names. A repeated type counts once, in the place it first
    /// appears: rouge-score's result is a dict keyed by type.
    pub fn new(types: &[&str], stem: bool) -> Result<Self, CoreError> {
        if types.is_empty() {
            return Err(CoreError::InvalidOption(
                "rouge_types is empty; give at least one of rouge1 .. rouge9, rougeL, rougeLsum"
                    .into(),
            ));
        }
        let mut opts = RougeOptions {
            types: [RougeType::L; MAX_TYPES],
            len: 0,
            stem,
        };
        for t in types {
            let ty = RougeType::parse(t)?;
            if !opts.types().contains(&ty) {
                // At most MAX_TYPES distinct types parse, so there is room.
                opts.types[opts.len] = ty;
                opts.len += 1;
            }
        }
        Ok(opts)
    }

    /// The rouge types, in the caller's order (each gives three row columns).
    pub fn types(&self) -> &[RougeType] {
        &self.types[..self.len]
    }

    /// The width of a statistics row: `[hits, prediction_count, target_count]` per type.
    pub fn row_len(&self) -> usize {
        3 * self.len
    }

    /// Whether any type needs sentences (`rougeLsum`).
    pub fn needs_sentences(&self) -> bool {
        self.types().contains(&RougeType::Lsum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_types() {
        assert_eq!(RougeType::parse("rouge9"), Ok(RougeType::N(9)));
        assert_eq!(RougeType::parse("rougeLsum"), Ok(RougeType::Lsum));
        assert!(RougeType::parse("rouge0").is_err());
        assert!(RougeType::parse("rouge10").is_err());
        assert!(RougeType::parse("rougel").is_err());
        assert!(RougeOptions::new(&[], false).is_err());
        let o = RougeOptions::new(&["rougeL", "rouge1", "rougeL"], false).unwrap();
        assert_eq!(o.types(), &[RougeType::L, RougeType::N(1)]);
        assert_eq!(o.row_len(), 6);
    }
}

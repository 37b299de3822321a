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
//!
//! A triple determines the score: rouge-score's three scorers divide the same way
//! (`hits / max(count, 1)`, and both LCS scorers return zeros exactly when a count is zero).

pub mod bootstrap;
mod lcs;
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

/// The options of one scorer (rouge-score's `RougeScorer` arguments the core needs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RougeOptions {
    /// The rouge types, in the caller's order (each gives three row columns).
    pub types: Vec<RougeType>,
    /// Porter-stem tokens longer than three letters (`use_stemmer`).
    pub stem: bool,
}

impl RougeOptions {
    /// Options from rouge type names.
    pub fn new(types: &[&str], stem: bool) -> Result<Self, CoreError> {
        if types.is_empty() {
            return Err(CoreError::InvalidOption(
                "rouge_types is empty; give at least one of rouge1 .. rouge9, rougeL, rougeLsum"
                    .into(),
            ));
        }
        let types = types
            .iter()
            .map(|t| RougeType::parse(t))
            .collect::<Result<_, _>>()?;
        Ok(RougeOptions { types, stem })
    }

    /// The width of a statistics row: `[hits, prediction_count, target_count]` per type.
    pub fn row_len(&self) -> usize {
        3 * self.types.len()
    }

    /// Whether any type needs sentences (`rougeLsum`).
    pub fn needs_sentences(&self) -> bool {
        self.types.contains(&RougeType::Lsum)
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
    }
}

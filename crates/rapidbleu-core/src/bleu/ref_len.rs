//! Which reference length a segment contributes to the brevity penalty: the one rule of each
//! dialect, written once.

use crate::error::{py_str, CoreError};

/// Which reference length a segment contributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefLenRule {
    /// Closest to the hypothesis length, ties to the shorter: sacreBLEU's
    /// `BLEU._get_closest_ref_len` and NLTK's `closest_ref_length`.
    ClosestShorter,
    /// Closest to the hypothesis length, ties to the first listed: the R package sacRebleu.
    ClosestFirst,
    /// The shortest reference: TensorFlow NMT's `compute_bleu` (Hugging Face `evaluate`'s
    /// "bleu").
    Shortest,
}

/// The names accepted by [`RefLenRule::from_name`].
pub const REF_LEN_RULE_NAMES: [&str; 3] = ["closest", "closest-first", "shortest"];

impl RefLenRule {
    /// Parses `closest`, `closest-first` or `shortest`.
    pub fn from_name(name: &str) -> Result<Self, CoreError> {
        match name {
            "closest" => Ok(RefLenRule::ClosestShorter),
            "closest-first" => Ok(RefLenRule::ClosestFirst),
            "shortest" => Ok(RefLenRule::Shortest),
            _ => Err(CoreError::InvalidOption(format!(
                "unknown reference length rule {}; allowed: {}",
                py_str(name),
                REF_LEN_RULE_NAMES.join(", ")
            ))),
        }
    }

    /// Whether reference length `r` is preferred to `best` (seen earlier) for a hypothesis of
    /// `hyp_len` tokens.
    #[inline(always)]
    pub fn prefers<T: Ord + Copy + AbsDiff>(self, r: T, best: T, hyp_len: T) -> bool {
        match self {
            RefLenRule::Shortest => r < best,
            RefLenRule::ClosestShorter => {
                let (d, db) = (hyp_len.abs_diff_to(r), hyp_len.abs_diff_to(best));
                d < db || (d == db && r < best)
            }
            RefLenRule::ClosestFirst => hyp_len.abs_diff_to(r) < hyp_len.abs_diff_to(best),
        }
    }

    /// The reference length of a segment whose references have lengths `lens` (0 if there is
    /// none).
    #[inline]
    pub fn pick<T: Ord + Copy + Default + AbsDiff>(
        self,
        lens: impl IntoIterator<Item = T>,
        hyp_len: T,
    ) -> T {
        let mut lens = lens.into_iter();
        let Some(mut best) = lens.next() else {
            return T::default();
        };
        for r in lens {
            if self.prefers(r, best, hyp_len) {
                best = r;
            }
        }
        best
    }
}

/// `|a - b|` for the integer types lengths are kept in.
pub trait AbsDiff {
    /// `|self - other|`, without overflow.
    fn abs_diff_to(self, other: Self) -> u64;
}

impl AbsDiff for u32 {
    #[inline(always)]
    fn abs_diff_to(self, other: u32) -> u64 {
        u64::from(self.abs_diff(other))
    }
}

impl AbsDiff for i64 {
    #[inline(always)]
    fn abs_diff_to(self, other: i64) -> u64 {
        self.abs_diff(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        let lens = [5u32, 3, 1];
        assert_eq!(RefLenRule::ClosestShorter.pick(lens, 4), 3);
        assert_eq!(RefLenRule::ClosestFirst.pick(lens, 4), 5);
        assert_eq!(RefLenRule::Shortest.pick(lens, 4), 1);
        assert_eq!(RefLenRule::ClosestFirst.pick([1u32, 3], 2), 1);
        assert_eq!(RefLenRule::ClosestShorter.pick([3u32, 1], 2), 1);
        assert_eq!(RefLenRule::ClosestShorter.pick([4i64, 2], 3), 2);
        assert_eq!(RefLenRule::Shortest.pick(Vec::<u32>::new(), 3), 0);
        let err = RefLenRule::from_name("nearest").unwrap_err().to_string();
        assert!(
            err.contains("'nearest'") && err.contains("closest-first"),
            "{err}"
        );
    }
}

//! A class's [`Tally`]: its count in the hypothesis and what the current reference has left
//! of it. Below the matcher ([`super::ngrams`]) and both of its tables ([`super::table`],
//! [`super::dense_table`]), which count into it, so none of them imports another in a circle.

/// A class's count in the hypothesis and the current reference's copy of it, which the
/// reference's occurrences use up: `[count, left]`.
///
/// Performance decision: side by side, one load (and one bounds check) reads both, and a
/// count is written with its copy, so that the first reference needs no copying pass.
pub(crate) type Tally = [u32; 2];

/// Counts one more occurrence of a class (its first if `new`) in `t`, and copies the count.
#[inline(always)]
pub(crate) fn count_one(t: &mut Tally, new: bool) {
    let k = std::hint::select_unpredictable(new, 0, t[0]) + 1;
    *t = [k, k];
}

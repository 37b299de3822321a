//! The one container of segments, for every input kind: a [`Corpus`] of hypotheses, each with
//! its references.
//!
//! A segment is held by a cheap handle `S`: `&str` for text, `&[i64]` for integer token IDs,
//! `&[&[u8]]` for tokens given as their bytes. The handles borrow what the caller owns (Python's
//! UTF-8 buffers, a flat buffer of IDs), so building a corpus copies no text and no IDs.
//! [`Groups`] stores items in consecutive groups with one allocation for all of them: the
//! references of every segment, or the IDs of every sequence.

use crate::error::{reserve, CoreError};

/// Items in consecutive groups: group `i` is `items[ends[i - 1]..ends[i]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groups<T> {
    items: Vec<T>,
    /// `ends[0] == 0`, then where each group ends.
    ends: Vec<usize>,
}

impl<T> Default for Groups<T> {
    fn default() -> Self {
        Groups {
            items: Vec::new(),
            ends: vec![0],
        }
    }
}

impl<T> Groups<T> {
    /// No group yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// No group yet, with room for `groups` groups of `items` items in all (a hint: more may
    /// be added).
    pub fn with_capacity(groups: usize, items: usize) -> Self {
        let mut ends = Vec::with_capacity(groups + 1);
        ends.push(0);
        Groups {
            items: Vec::with_capacity(items),
            ends,
        }
    }

    /// No group yet, storing items in `buf` (emptied first): a caller can reuse one
    /// allocation across calls.
    pub fn with_buffer(mut buf: Vec<T>) -> Self {
        buf.clear();
        Groups {
            items: buf,
            ends: vec![0],
        }
    }

    /// `groups` groups of `size` items each, `items` in order (`items.len()` is
    /// `groups * size`; a shorter `items` leaves the last groups short).
    pub fn uniform(items: Vec<T>, size: usize, groups: usize) -> Self {
        let n = items.len();
        Groups {
            ends: (0..=groups).map(|i| (i * size).min(n)).collect(),
            items,
        }
    }

    /// The items' buffer, for reuse by [`Groups::with_buffer`].
    pub fn into_buffer(self) -> Vec<T> {
        self.items
    }

    /// Makes room for `additional` more items, fallibly (e.g. for an array whose length comes
    /// from the input).
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), CoreError> {
        reserve(&mut self.items, additional)
    }

    /// Adds an item to the group being built.
    pub fn push_item(&mut self, item: T) {
        self.items.push(item);
    }

    /// Closes the group being built (which may be empty).
    pub fn end_group(&mut self) {
        self.ends.push(self.items.len());
    }

    /// Appends one whole group.
    pub fn push_group(&mut self, group: impl IntoIterator<Item = T>) {
        self.items.extend(group);
        self.end_group();
    }

    /// Appends one whole group copied from a slice.
    pub fn push_slice(&mut self, group: &[T])
    where
        T: Clone,
    {
        self.items.extend_from_slice(group);
        self.end_group();
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.ends.len() - 1
    }

    /// Whether there is no group.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Group `i`.
    pub fn get(&self, i: usize) -> &[T] {
        &self.items[self.ends[i]..self.ends[i + 1]]
    }

    /// Every group, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[T]> + '_ {
        self.ends.windows(2).map(move |w| &self.items[w[0]..w[1]])
    }

    /// Every item of every group, in order.
    pub fn items(&self) -> &[T] {
        &self.items
    }
}

impl<T, G: IntoIterator<Item = T>> FromIterator<G> for Groups<T> {
    fn from_iter<I: IntoIterator<Item = G>>(iter: I) -> Self {
        let mut g = Groups::new();
        for group in iter {
            g.push_group(group);
        }
        g
    }
}

/// Hypotheses and the references of each: segment `i` is `hyps[i]` against `refs.get(i)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corpus<S> {
    hyps: Vec<S>,
    refs: Groups<S>,
}

impl<S: Copy> Corpus<S> {
    /// A corpus of `hyps` and their references, checked: one group of references per
    /// hypothesis, at least one reference in each (an empty text or sequence counts).
    pub fn new(hyps: Vec<S>, refs: Groups<S>) -> Result<Self, CoreError> {
        check_lengths(hyps.len(), refs.len())?;
        check_references(&refs)?;
        Ok(Corpus { hyps, refs })
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.hyps.len()
    }

    /// Whether there is no segment.
    pub fn is_empty(&self) -> bool {
        self.hyps.is_empty()
    }

    /// The hypotheses.
    pub fn hyps(&self) -> &[S] {
        &self.hyps
    }

    /// The hypothesis of segment `i`.
    pub fn hyp(&self, i: usize) -> S {
        self.hyps[i]
    }

    /// The references of segment `i` (at least one).
    pub fn refs(&self, i: usize) -> &[S] {
        self.refs.get(i)
    }

    /// The references of every segment.
    pub fn references(&self) -> &Groups<S> {
        &self.refs
    }

    /// The handles, for reuse of their allocations.
    pub fn into_parts(self) -> (Vec<S>, Groups<S>) {
        (self.hyps, self.refs)
    }
}

/// One group of references per hypothesis.
pub fn check_lengths(n_hyps: usize, n_segments: usize) -> Result<(), CoreError> {
    if n_hyps != n_segments {
        return Err(CoreError::InvalidInput(format!(
            "{n_hyps} hypotheses but references for {n_segments} segments; they must be equal"
        )));
    }
    Ok(())
}

/// At least one reference per segment: sacreBLEU would fail on an empty reference set (the
/// closest reference length of nothing), so it is refused up front with the segment's index.
pub fn check_references<S>(refs: &Groups<S>) -> Result<(), CoreError> {
    // Two equal ends are an empty group; comparing the ends, rather than making each group's
    // slice, keeps this pass (on the calling thread, before any worker starts) short.
    match refs.ends.windows(2).position(|w| w[0] == w[1]) {
        Some(i) => Err(CoreError::MissingReference(format!(
            "segment {i} has no reference (with reference streams: every stream is None \
             there); give at least one reference per segment (an empty one is allowed)"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_only_a_hint() {
        let mut g = Groups::with_capacity(1, 1);
        g.push_group(["a", "b"]);
        g.end_group();
        g.push_item("c");
        g.end_group();
        assert_eq!(g, [vec!["a", "b"], vec![], vec!["c"]].into_iter().collect());
    }

    #[test]
    fn groups_and_corpus() {
        let mut g: Groups<&str> = [vec!["a", "b"], vec![], vec!["c"]].into_iter().collect();
        assert_eq!(g.len(), 3);
        assert_eq!(g.get(0), ["a", "b"]);
        assert!(g.get(1).is_empty());
        assert_eq!(g.iter().map(<[&str]>::len).collect::<Vec<_>>(), [2, 0, 1]);
        assert_eq!(g.items(), ["a", "b", "c"]);
        let err = Corpus::new(vec!["x", "y", "z"], g.clone()).unwrap_err();
        assert!(matches!(err, CoreError::MissingReference(m) if m.contains("segment 1")));
        assert!(matches!(
            Corpus::new(vec!["x"], g.clone()),
            Err(CoreError::InvalidInput(_))
        ));
        g = [vec!["a"], vec![""]].into_iter().collect();
        let c = Corpus::new(vec!["x", "y"], g).unwrap();
        assert_eq!((c.len(), c.hyp(1), c.refs(1)), (2, "y", &[""][..]));
        let ids: Groups<i64> = Groups::with_buffer(vec![7; 100]);
        assert!(ids.is_empty() && ids.items().is_empty());
    }

    #[test]
    fn uniform_groups() {
        let g = Groups::uniform(vec!["a", "b", "c", "d"], 2, 2);
        assert_eq!(g, [vec!["a", "b"], vec!["c", "d"]].into_iter().collect());
        let empty: Groups<&str> = Groups::uniform(vec![], 0, 3);
        assert_eq!((empty.len(), empty.get(2)), (3, &[][..]));
    }
}

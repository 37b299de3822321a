//! [`Lines`]: the lines of one input in a chunk, held in a few parts of lines back to back.
//!
//! Performance decision: the reader splits, checks and strips a block of lines on several
//! threads at once, each thread copying its lines into a part of its own ([`Part`]). The parts
//! are kept as they are rather than joined into one buffer, which would copy every byte a
//! second time on one thread. A line is found by its part (a binary search over a few parts)
//! and its place in the part; iterating walks the parts in order. What the scorer does once per
//! line before scoring (a view of every line, a count) runs on the pool too ([`Lines::views`],
//! [`Lines::count_where`]): on the calling thread it would be the command's serial part.

use crate::engine::parallel::{install, Threads};
use rayon::prelude::*;

/// Below this many lines, [`Lines::views`] and [`Lines::count_where`] run on the calling
/// thread (a hand-off to the pool costs microseconds).
const MIN_PARALLEL_LINES: usize = 4096;

/// Lines back to back in one buffer: line `i` is `text[ends[i - 1]..ends[i]]`.
#[derive(Clone, Debug, Default)]
pub struct Part {
    text: String,
    ends: Vec<usize>,
}

impl Part {
    /// An empty part with room for `bytes` bytes of text (the text of its lines, at most).
    pub fn with_capacity(bytes: usize) -> Self {
        Part {
            text: String::with_capacity(bytes),
            ends: Vec::new(),
        }
    }

    /// Appends a line.
    pub fn push(&mut self, line: &str) {
        self.text.push_str(line);
        self.ends.push(self.text.len());
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no line.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// Every line, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// Bytes of text held.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }
}

/// The lines of one input (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Lines {
    parts: Vec<Part>,
    /// `firsts[p]` is the index of part `p`'s first line.
    firsts: Vec<usize>,
    len: usize,
}

impl Lines {
    /// No line.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no line.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Line `i`.
    ///
    /// # Panics
    /// When `i` is not below [`Lines::len`], as a slice index does.
    pub fn get(&self, i: usize) -> &str {
        let p = self.firsts.partition_point(|&first| first <= i) - 1;
        self.parts[p].get(i - self.firsts[p])
    }

    /// Every line, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            parts: &self.parts,
            part: 0,
            line: 0,
            left: self.len,
        }
    }

    /// Appends a line.
    pub fn push(&mut self, line: &str) {
        if self.parts.is_empty() {
            self.firsts.push(self.len);
            self.parts.push(Part::default());
        }
        if let Some(last) = self.parts.last_mut() {
            last.push(line);
            self.len += 1;
        }
    }

    /// Appends the lines of `part` (moved, not copied).
    pub fn append_part(&mut self, part: Part) {
        if part.is_empty() {
            return;
        }
        self.firsts.push(self.len);
        self.len += part.len();
        self.parts.push(part);
    }

    /// Bytes of text held.
    pub fn text_len(&self) -> usize {
        self.parts.iter().map(Part::text_len).sum()
    }

    /// The parts, in order (every line of each, in order, is a line of the list).
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// Every line, in order, made on `threads` threads.
    pub fn views(&self, threads: Threads) -> Vec<&str> {
        if threads == Threads::ONE || self.len < MIN_PARALLEL_LINES {
            return self.iter().collect();
        }
        install(threads, || {
            (0..self.len).into_par_iter().map(|i| self.get(i)).collect()
        })
    }

    /// How many lines `keep` holds for, counted on `threads` threads.
    pub fn count_where(
        &self,
        threads: Threads,
        keep: impl Fn(&str) -> bool + Sync + Send,
    ) -> usize {
        if threads == Threads::ONE || self.len < MIN_PARALLEL_LINES {
            return self.iter().filter(|l| keep(l)).count();
        }
        install(threads, || {
            self.parts
                .par_iter()
                .map(|p| (0..p.len()).filter(|&i| keep(p.get(i))).count())
                .sum()
        })
    }
}

/// Equal when the lines are, however they are split into parts.
impl PartialEq for Lines {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for Lines {}

impl<'a> FromIterator<&'a str> for Lines {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut lines = Lines::new();
        for line in iter {
            lines.push(line);
        }
        lines
    }
}

/// The lines of a [`Lines`], in order ([`Lines::iter`]).
pub struct Iter<'a> {
    parts: &'a [Part],
    part: usize,
    line: usize,
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let part = self.parts.get(self.part)?;
            if self.line < part.len() {
                let line = part.get(self.line);
                self.line += 1;
                self.left -= 1;
                return Some(line);
            }
            self.part += 1;
            self.line = 0;
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(lines: &[&str]) -> Part {
        let mut p = Part::with_capacity(8);
        for l in lines {
            p.push(l);
        }
        p
    }

    #[test]
    fn parts_read_as_one_list() {
        let mut lines = Lines::new();
        lines.append_part(part(&["a", "bc"]));
        lines.append_part(part(&[]));
        lines.append_part(part(&["", "d"]));
        lines.push("e");
        assert_eq!(lines.len(), 5);
        let all: Vec<&str> = lines.iter().collect();
        assert_eq!(all, ["a", "bc", "", "d", "e"]);
        assert_eq!((0..5).map(|i| lines.get(i)).collect::<Vec<_>>(), all);
        assert_eq!(lines.iter().len(), 5);
        assert_eq!(lines.text_len(), 5);
        assert_eq!(lines, all.iter().copied().collect::<Lines>());
        assert_ne!(lines, ["a"].into_iter().collect::<Lines>());
    }

    #[test]
    fn views_and_counts_on_any_thread_count() {
        let mut lines = Lines::new();
        for k in 0..7 {
            let texts: Vec<String> = (0..3000).map(|i| format!("{k} {i} .")).collect();
            let mut p = Part::with_capacity(0);
            for t in &texts {
                p.push(if t.ends_with("7 .") {
                    t.as_str()
                } else {
                    &t[..t.len() - 2]
                });
            }
            lines.append_part(p);
        }
        let serial: Vec<&str> = lines.iter().collect();
        let periods = serial.iter().filter(|l| l.ends_with(" .")).count();
        assert!(periods > 0);
        for threads in [Threads::ONE, Threads::ALL, Threads::new(3).unwrap()] {
            assert_eq!(lines.views(threads), serial);
            assert_eq!(lines.count_where(threads, |l| l.ends_with(" .")), periods);
        }
    }

    #[test]
    fn an_empty_list() {
        let lines = Lines::new();
        assert!(lines.is_empty() && lines.iter().next().is_none());
        let mut lines = Lines::new();
        lines.push("");
        assert_eq!((lines.len(), lines.get(0)), (1, ""));
    }
}

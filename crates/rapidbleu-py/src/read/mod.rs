//! Reading pre-tokenised input from Python: token IDs (lists of int, NumPy integer arrays of
//! any byte order, masked arrays without their masked entries, torch CPU tensors, 2-D arrays
//! with lengths or a padding id) and tokens (lists of str) into [`Collector`]s, with the
//! messages of every input error.
//!
//! NumPy arrays are read through their buffers (no Python object per token), lists item by
//! item. IDs become one flat `i64` buffer, tokens borrow the UTF-8 of the Python strings. The
//! rules are the text path's: a lone surrogate is not text (`InvalidTextError`), and only
//! sequences are read (see [`crate::sequence`]).
//!
//! By concept: [`arrays`] (NumPy arrays and torch tensors as int64 IDs), [`sequence`] (one
//! sequence, item by item or from a 1-D array), [`batch`] (a list of sequences, or a 2-D
//! array whose rows end at lengths or padding).

mod arrays;
mod batch;
mod sequence;

pub(crate) use batch::push_seqs;

use crate::errors::ErrorKind;
use pyo3::prelude::*;
use rapidbleu_core::corpus::Groups;
use std::fmt::{self, Display};

/// What a corpus holds, decided by its first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Unknown,
    Ids,
    Tokens,
}

/// Sequences being collected; every sequence is pushed to both representations (only the one
/// of the corpus kind holds tokens), so empty sequences need no kind.
#[derive(Default)]
pub(crate) struct Collector<'py> {
    /// Token IDs, one group per sequence.
    pub(crate) ids: Groups<i64>,
    pub(crate) toks: Vec<Bound<'py, PyAny>>,
    pub(crate) tok_offsets: Vec<usize>,
}

impl<'py> Collector<'py> {
    /// Ends a sequence: `ids`, and the tokens pushed since the last one.
    pub(crate) fn end_seq(&mut self, ids: &[i64]) {
        self.ids.push_slice(ids);
        self.tok_offsets.push(self.toks.len());
    }
}

/// `base[index]`, formatted only when a message needs it (labels are built for every
/// sequence, messages almost never).
pub(crate) struct Indexed<'a>(pub(crate) &'a dyn Display, pub(crate) usize);

impl Display for Indexed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

/// How sequences are read.
#[derive(Clone, Copy)]
pub(crate) struct Read {
    /// An ID dropped wherever it occurs (padding).
    pub(crate) pad: Option<i64>,
    /// A str sequence is the sequence of its characters (NLTK iterates a str hypothesis);
    /// otherwise it is an error.
    pub(crate) str_chars: bool,
}

/// The message for a corpus of token IDs and tokens mixed.
fn mixed(py: Python<'_>, what: &dyn Display) -> PyErr {
    ErrorKind::InputType.err(
        py,
        format!(
            "{what} mixes token IDs (int) and tokens (str); one corpus holds one kind: \
             all sequences of int, or all sequences of str"
        ),
    )
}

/// Records the kind of a token (`want`), or an error if the corpus holds the other kind.
pub(crate) fn set_kind(
    py: Python<'_>,
    kind: &mut Kind,
    want: Kind,
    what: &dyn Display,
) -> PyResult<()> {
    match *kind {
        Kind::Unknown => {
            *kind = want;
            Ok(())
        }
        k if k == want => Ok(()),
        _ => Err(mixed(py, what)),
    }
}

//! Python text -> the core's [`Corpus`] of `&str`, without copying text.
//!
//! Two phases: first collect owned references to the Python strings (so they stay alive while
//! the GIL is released, whatever other threads do to the containers), lowercasing non-ASCII
//! strings with Python's own `str.lower()` (whose Unicode version is the interpreter's, as in
//! sacreBLEU); then borrow their UTF-8 buffers. ASCII lowercasing happens later in Rust.

use crate::errors::{type_name, ErrorKind, OrRaise};
use crate::pystr::{self, NonAscii, Snapshot, Text};
use crate::sequence::{is_sequence, not_a_sequence};
use crate::tokenized_lines::TokenizedLines;
use pyo3::prelude::*;
use pyo3::types::{PyAnyMethods, PyList, PyString, PyTuple};
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::{install, spawn, Threads, FREE_APART_FROM};
use rayon::prelude::*;
use std::ptr::NonNull;

/// A line read from Python: a `str`, or text the core holds already ([`TokenizedLines`]).
pub enum Line<'py> {
    /// A Python string and its UTF-8 text.
    Py(PyLine<'py>),
    /// Text that the line's collection ([`Owned`]) keeps alive: read by the pool from a `str`
    /// of its snapshot ([`crate::pystr`]: ASCII data or cached UTF-8), or a line of the lines
    /// object it holds.
    Borrowed(NonNull<str>),
    /// Text transcoded by the pool from a `str`'s 1-, 2- or 4-byte characters.
    Decoded(Box<str>),
}

/// A Python `str` and its UTF-8 text, read once, when the string is collected.
///
/// Performance decision: the text is kept as a pointer because every later borrow of it (the
/// corpus, the reference groups) ran under the GIL before any worker could start, and asking
/// CPython for it again (`PyUnicode_AsUTF8AndSize`) was serial work on every string.
pub struct PyLine<'py> {
    obj: Bound<'py, PyString>,
    /// `None` for a string that is not valid Unicode (read as it is by [`collect_as_is`]).
    utf8: Option<NonNull<str>>,
}

impl<'py> PyLine<'py> {
    /// `obj` and its text, `None` if it is not valid Unicode.
    fn as_is(obj: Bound<'py, PyString>) -> Self {
        let utf8 = obj.to_str().ok().map(NonNull::from);
        PyLine { obj, utf8 }
    }

    /// `obj` (item `i` of `what`) and its text; a lone surrogate is an `InvalidTextError`.
    fn checked(
        obj: Bound<'py, PyString>,
        what: impl std::fmt::Display,
        i: usize,
    ) -> PyResult<Self> {
        let utf8 = Some(NonNull::from(to_str(&obj, what, i)?));
        Ok(PyLine { obj, utf8 })
    }

    /// The string.
    pub fn obj(&self) -> &Bound<'py, PyString> {
        &self.obj
    }

    /// Its UTF-8 text; `None` if it is not valid Unicode.
    pub fn text(&self) -> Option<&str> {
        // SAFETY: `utf8` was borrowed from `obj`, which `self` keeps alive, and CPython neither
        // changes nor frees a string's UTF-8 buffer (its ASCII data, or the UTF-8 copy it
        // caches) while the string lives (PyO3's `PyBackedStr` relies on the same).
        self.utf8.map(|p| unsafe { p.as_ref() })
    }
}

/// Owned lines, `None` where a reference is missing, and the private copy of the list whose
/// strings the pool read ([`Line::Borrowed`] points into them).
pub struct Owned<'py> {
    lines: Vec<Option<Line<'py>>>,
    /// The pool that frees the [`Line::Decoded`] lines, where the pool made 4,096 or more of
    /// them on more than one thread (else they are freed here).
    free_on: Option<Threads>,
    /// Declared after `lines`, so dropped after them.
    _snapshot: Option<Snapshot<'py>>,
    /// The lines object whose text the lines borrow, where they came from one (one reference
    /// for all of them: a reference per line was an increment and a decrement each on the
    /// calling thread).
    _held: Option<Bound<'py, TokenizedLines>>,
}

impl Drop for Owned<'_> {
    fn drop(&mut self) {
        // Performance decision: text the pool transcoded (`Line::Decoded`: CJK and other wide
        // strings without a cached UTF-8 copy) is one allocation a line, and freeing them on
        // the calling thread after a score was 7% of a ja-mecab BLEU's serial instructions
        // (callgrind): a large collection's are freed by a job on the pool.
        let Some(threads) = self.free_on else {
            return;
        };
        let decoded: Vec<Box<str>> = self
            .lines
            .iter_mut()
            .filter_map(|l| match l {
                Some(Line::Decoded(text)) => Some(std::mem::take(text)),
                _ => None,
            })
            .collect();
        spawn(threads, move || drop(decoded));
    }
}

impl<'py> From<Vec<Option<Line<'py>>>> for Owned<'py> {
    fn from(lines: Vec<Option<Line<'py>>>) -> Self {
        Owned {
            lines,
            free_on: None,
            _snapshot: None,
            _held: None,
        }
    }
}

impl<'py> std::ops::Deref for Owned<'py> {
    type Target = [Option<Line<'py>>];

    fn deref(&self) -> &Self::Target {
        &self.lines
    }
}

impl<'a, 'py> IntoIterator for &'a Owned<'py> {
    type Item = &'a Option<Line<'py>>;
    type IntoIter = std::slice::Iter<'a, Option<Line<'py>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.lines.iter()
    }
}

/// Collects the items of `seq` (described as `what` in messages, e.g. `hypotheses`; formatted
/// only for a message, so a per-segment label costs nothing on the happy path).
pub fn collect<'py>(
    seq: &Bound<'py, PyAny>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
    lowercase: bool,
) -> PyResult<Owned<'py>> {
    collect_on(seq, what, allow_none, lowercase, Threads::ONE)
}

/// [`collect`], a large list's strings read on `threads` threads ([`crate::pystr`]).
pub fn collect_on<'py>(
    seq: &Bound<'py, PyAny>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
    lowercase: bool,
    threads: Threads,
) -> PyResult<Owned<'py>> {
    collect_as(
        seq,
        what,
        allow_none,
        Reading::Checked { lowercase },
        threads,
    )
}

/// The items of `seq` as [`collect`] reads them, but as they are: not lowercased, and not
/// checked to be valid Unicode (a string with a lone surrogate is kept, for a caller that
/// hands such strings on to the code that must refuse them in its own way).
pub fn collect_as_is<'py>(
    seq: &Bound<'py, PyAny>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
) -> PyResult<Owned<'py>> {
    collect_as(seq, what, allow_none, Reading::AsIs, Threads::ONE)
}

/// What [`collect_as`] makes of each string.
#[derive(Clone, Copy)]
enum Reading {
    /// Lowercased if asked, and checked to be valid Unicode.
    Checked { lowercase: bool },
    /// Kept as it is.
    AsIs,
}

fn collect_as<'py>(
    seq: &Bound<'py, PyAny>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
    reading: Reading,
    threads: Threads,
) -> PyResult<Owned<'py>> {
    let py = seq.py();
    let items = if allow_none { "str or None" } else { "str" };
    if let Ok(lines) = seq.cast::<TokenizedLines>() {
        // Before `is_sequence`, whose NumPy test would import NumPy on a first call.
        return held_lines(lines, what, allow_none, reading);
    }
    if !(seq.is_instance_of::<PyList>() || seq.is_instance_of::<PyTuple>()) {
        if let Some(lines) = crate::arrow::lines(seq, &what)? {
            return held_lines(&Bound::new(py, lines)?, what, allow_none, reading);
        }
    }
    if !is_sequence(seq) {
        // A generator would be read once (and be empty the next time); a set has no order.
        return Err(not_a_sequence(seq, &what, items));
    }
    let mut out: Vec<Option<Line<'py>>> = Vec::with_capacity(seq.len().unwrap_or(0));
    if let Ok(list) = seq.cast_exact::<PyList>() {
        if let Reading::Checked { lowercase } = reading {
            let snapshot = || Snapshot::of(list);
            let non_ascii = if lowercase {
                NonAscii::Lowercase
            } else {
                NonAscii::Decode
            };
            if let Some(owned) = read_fast(list, snapshot, what, allow_none, non_ascii, threads)? {
                return Ok(owned);
            }
        }
        collect_list(list, what, allow_none, reading, &mut out)?;
    } else {
        let iter = seq.try_iter().map_err(|_| {
            ErrorKind::InputType.err(
                py,
                format!("{what} must be a sequence of str, not {}", type_name(seq)),
            )
        })?;
        for (i, item) in iter.enumerate() {
            out.push(read_item(item?, what, i, allow_none, reading)?);
        }
    }
    Ok(out.into())
}

/// The items of `list` read by the pool ([`crate::pystr`]), as [`collect`] reads them; `None`
/// where the interpreter's layout is unknown or the list holds anything but exact `str` (and
/// `None` where allowed): the caller then reads it the serial way, with its errors.
fn read_fast<'py>(
    list: &Bound<'py, PyList>,
    snapshot: impl FnOnce() -> PyResult<Snapshot<'py>>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
    non_ascii: NonAscii,
    threads: Threads,
) -> PyResult<Option<Owned<'py>>> {
    if list.len() < pystr::FAST_FROM {
        return Ok(None);
    }
    let Some(layout) = pystr::layout(list.py()) else {
        return Ok(None);
    };
    let snapshot = snapshot()?;
    let texts = snapshot.read(layout, allow_none, non_ascii, threads);
    if !texts
        .iter()
        .any(|t| matches!(t, Text::Caller | Text::Fallback))
    {
        // Performance decision: this runs on the calling thread. Where the pool read every
        // item (most input), the lines are made in one pass with no error path: 30
        // instructions an item with the loop below became about 17 (callgrind).
        let mut decoded = 0;
        let lines = texts
            .into_iter()
            .map(|t| match t {
                Text::Borrowed(p) => Some(Line::Borrowed(p)),
                Text::Decoded(s) => {
                    decoded += 1;
                    Some(Line::Decoded(s))
                }
                _ => None,
            })
            .collect();
        return Ok(Some(Owned {
            lines,
            free_on: (decoded >= FREE_APART_FROM && threads != Threads::ONE).then_some(threads),
            _snapshot: Some(snapshot),
            _held: None,
        }));
    }
    let mut lines = Vec::with_capacity(texts.len());
    for (i, t) in texts.into_iter().enumerate() {
        lines.push(match t {
            Text::Missing => None,
            Text::Borrowed(p) => Some(Line::Borrowed(p)),
            Text::Decoded(s) => Some(Line::Decoded(s)),
            // An exact `str`: reading it runs no Python code of the caller's, so reading it
            // after the others yields what the serial way yields, errors included (the first
            // in order: every other item read without one).
            Text::Caller => {
                let lowercase = non_ascii == NonAscii::Lowercase;
                let reading = Reading::Checked { lowercase };
                read_item(snapshot.list().get_item(i)?, what, i, allow_none, reading)?
            }
            Text::Fallback => return Ok(None),
        });
    }
    Ok(Some(Owned {
        lines,
        free_on: None, // a rare path: its decoded lines are freed here
        _snapshot: Some(snapshot),
        _held: None,
    }))
}

/// The strings of `list`, a list the caller made for this read and hands over, as
/// [`collect_on`] reads a list of `str` (not lowercased; no `None`): read in place by the pool,
/// without the private copy that a caller's list needs. For strings read in call after call:
/// non-ASCII text is left in the strings' UTF-8 cache ([`NonAscii::Cache`]).
pub fn collect_private<'py>(
    list: Bound<'py, PyList>,
    what: impl std::fmt::Display + Copy,
    threads: Threads,
) -> PyResult<Owned<'py>> {
    let private = || Ok(Snapshot::private(list.clone()));
    if let Some(owned) = read_fast(&list, private, what, false, NonAscii::Cache, threads)? {
        return Ok(owned);
    }
    let mut out = Vec::with_capacity(list.len());
    let reading = Reading::Checked { lowercase: false };
    collect_list(&list, what, false, reading, &mut out)?;
    Ok(out.into())
}

/// Appends the items of `list` to `out`, as [`collect`] reads them.
fn collect_list<'py>(
    list: &Bound<'py, PyList>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
    reading: Reading,
    out: &mut Vec<Option<Line<'py>>>,
) -> PyResult<()> {
    // Performance decision: a list (most input) is read by index, each string's object
    // fetched into the cache a few items before it is read. Reading strings runs under the
    // GIL, before any thread can start, and it was bound by the cache miss of each object's
    // first touch: up to a tenth of a one-thread corpus BLEU, and so the largest serial part
    // on many cores. The length is read again after each item only where Python code may
    // have run (`str.lower()` of a str subclass may change the list).
    let runs_python = matches!(reading, Reading::Checked { lowercase: true });
    let mut len = list.len();
    let mut i = 0;
    while i < len {
        prefetch_item(list, i + PREFETCH_AHEAD, len);
        out.push(read_item(list.get_item(i)?, what, i, allow_none, reading)?);
        i += 1;
        if runs_python {
            len = list.len();
        }
    }
    Ok(())
}

/// Item `i` of a sequence of str named `what`: `None` where allowed, else its string, as
/// `reading` says (lowercased with `str.lower()` if asked and not ASCII, and checked to be
/// valid Unicode; or as it is).
fn read_item<'py>(
    item: Bound<'py, PyAny>,
    what: impl std::fmt::Display + Copy,
    i: usize,
    allow_none: bool,
    reading: Reading,
) -> PyResult<Option<Line<'py>>> {
    let py = item.py();
    if item.is_none() && allow_none {
        return Ok(None);
    }
    let s = item.cast_into::<PyString>().map_err(|e| {
        let obj = e.into_inner();
        let items = if allow_none { "str or None" } else { "str" };
        ErrorKind::InputType.err(
            py,
            format!("{what}[{i}] is {}; expected {items}", type_name(&obj)),
        )
    })?;
    let Reading::Checked { lowercase } = reading else {
        return Ok(Some(Line::Py(PyLine::as_is(s))));
    };
    // Validating here, where the item's name is at hand, lets later borrows use `text`.
    let line = PyLine::checked(s, what, i)?;
    if lowercase && !line.text().is_some_and(str::is_ascii) {
        let lower = line.obj.call_method0("lower")?.cast_into::<PyString>();
        return Ok(Some(Line::Py(PyLine::checked(lower?, what, i)?)));
    }
    Ok(Some(Line::Py(line)))
}

/// The lines of a [`TokenizedLines`] as [`collect`] reads a sequence: a missing line is an
/// error where `None` is not allowed, and non-ASCII text to lowercase goes through Python's
/// `str.lower()` (ASCII is lowercased later in Rust, as for a `str`).
fn held_lines<'py>(
    lines: &Bound<'py, TokenizedLines>,
    what: impl std::fmt::Display + Copy,
    allow_none: bool,
    reading: Reading,
) -> PyResult<Owned<'py>> {
    let py = lines.py();
    let held = lines.get();
    let owned = |lines_read| Owned {
        lines: lines_read,
        free_on: None,
        _snapshot: None,
        _held: Some(lines.clone()),
    };
    if !matches!(reading, Reading::Checked { lowercase: true }) {
        // No Python method is needed: one pass, with no error but a missing line's.
        // (The lines object is frozen: its text neither changes nor moves while the
        // collection holds it.)
        let mut out = Vec::with_capacity(held.len());
        held.try_for_each(|i, line| {
            out.push(match line {
                Some(text) => Some(Line::Borrowed(NonNull::from(text))),
                None if allow_none => None,
                None => {
                    return Err(ErrorKind::InputType
                        .err(py, format!("{what}[{i}] is NoneType; expected str")))
                }
            });
            Ok(())
        })?;
        return Ok(owned(out));
    }
    (0..held.len())
        .map(|i| match held.get(i) {
            None if allow_none => Ok(None),
            None => {
                Err(ErrorKind::InputType.err(py, format!("{what}[{i}] is NoneType; expected str")))
            }
            Some(text) => match reading {
                Reading::Checked { lowercase: true } if !text.is_ascii() => {
                    let lower = PyString::new(py, text).call_method0("lower")?;
                    Ok(Some(Line::Py(PyLine::checked(
                        lower.cast_into()?,
                        what,
                        i,
                    )?)))
                }
                // The lines object is frozen: its text neither changes nor moves while the
                // collection holds it.
                _ => Ok(Some(Line::Borrowed(NonNull::from(text)))),
            },
        })
        .collect::<PyResult<Vec<_>>>()
        .map(owned)
}

/// How many items ahead [`collect_list`] fetches a string object: enough misses in flight to
/// hide the memory latency, few enough that the lines are still cached when read.
const PREFETCH_AHEAD: usize = 16;

/// Asks the CPU to fetch the object at `list[j]` (its header, and an ASCII string's first
/// characters) into the cache; nothing if `j` is not below `len` (the list's length, with no
/// Python code run since it was read) or on other architectures.
fn prefetch_item(list: &Bound<'_, PyList>, j: usize, len: usize) {
    #[cfg(target_arch = "x86_64")]
    if j < len {
        // SAFETY: the GIL is held (`list` is a `Bound`) and `j` is below the list's length, so
        // `PyList_GetItem` returns a valid borrowed pointer; a prefetch only hints the cache
        // (it cannot fault, and nothing is read through the pointer here).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let item = pyo3::ffi::PyList_GetItem(list.as_ptr(), j as pyo3::ffi::Py_ssize_t);
            // Two lines: the header and the string's state may straddle a line boundary.
            _mm_prefetch::<_MM_HINT_T0>(item.cast());
            _mm_prefetch::<_MM_HINT_T0>(item.cast::<i8>().wrapping_add(48));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (list, j, len);
}

/// The UTF-8 text of `s`; a lone surrogate (not valid Unicode) is an `InvalidTextError`.
pub fn to_str<'a>(
    s: &'a Bound<'_, PyString>,
    what: impl std::fmt::Display,
    i: usize,
) -> PyResult<&'a str> {
    s.to_str().map_err(|_| {
        ErrorKind::InvalidText.err(
            s.py(),
            format!(
                "{what}[{i}] is not valid Unicode text (it contains a lone surrogate code point \
                 U+D800..U+DFFF); decode your input with errors='replace' or 'ignore'"
            ),
        )
    })
}

/// The UTF-8 text of a line that [`collect`] has validated (read when it was collected).
pub fn text<'a>(line: &'a Line<'_>) -> &'a str {
    match line {
        Line::Py(s) => s.text().unwrap_or_default(),
        // SAFETY: text that the line's collection keeps alive (declared after the lines, so
        // dropped after them): a string of its snapshot, whose ASCII data or cached UTF-8
        // CPython neither changes nor frees while the string lives, or a line of its frozen
        // lines object, whose text neither changes nor moves while it lives.
        Line::Borrowed(p) => unsafe { p.as_ref() },
        Line::Decoded(s) => s,
    }
}

/// Borrows every string of `owned` (collected without `None`).
pub fn borrow_all<'a>(owned: &'a Owned<'_>) -> Vec<&'a str> {
    owned.iter().map(|s| s.as_ref().map_or("", text)).collect()
}

/// Reference streams (sacreBLEU's layout, `refs[k][i]`) -> owned strings per stream, each
/// checked against `n_hyps` when given (else against the first stream).
pub fn collect_streams<'py>(
    refs: &Bound<'py, PyAny>,
    n_hyps: Option<usize>,
    lowercase: bool,
    threads: Threads,
) -> PyResult<Vec<Owned<'py>>> {
    let py = refs.py();
    if !refs.is_instance_of::<PyString>() && !is_sequence(refs) {
        return Err(not_a_sequence(refs, &"references", "reference streams"));
    }
    let iter = refs.try_iter().map_err(|_| {
        ErrorKind::InputType.err(
            py,
            "references must be a sequence of reference streams (sequences of str)",
        )
    })?;
    let mut streams = Vec::new();
    for (k, stream) in iter.enumerate() {
        let stream = stream?;
        if stream.is_instance_of::<PyString>() {
            return Err(ErrorKind::InputType.err(
                py,
                format!(
                    "references[{k}] is a str; references must be a list of reference streams, \
                     each a list with one str per segment, e.g. [[ref1_seg1, ref1_seg2, ...]]"
                ),
            ));
        }
        let s = collect_on(
            &stream,
            &format!("references[{k}]"),
            true,
            lowercase,
            threads,
        )?;
        let expected =
            n_hyps.unwrap_or_else(|| streams.first().map_or(s.len(), |f: &Owned<'py>| f.len()));
        if s.len() != expected {
            let against = if n_hyps.is_some() {
                "hypotheses"
            } else {
                "segments in references[0]"
            };
            return Err(ErrorKind::LengthMismatch.err(
                py,
                format!(
                    "references[{k}] has {} segments but there are {expected} {against}; every \
                     reference stream needs exactly one entry (str, or None for a missing \
                     reference) per hypothesis",
                    s.len()
                ),
            ));
        }
        streams.push(s);
    }
    if streams.is_empty() {
        return Err(ErrorKind::EmptyInput.err(
            py,
            "no reference streams given; pass at least one, e.g. [[ref_seg1, ref_seg2, ...]]",
        ));
    }
    Ok(streams)
}

/// References given per segment (`refs[i]` is the list of references of hypothesis `i`).
fn collect_segments<'py>(
    refs: &Bound<'py, PyAny>,
    n_hyps: usize,
    lowercase: bool,
    threads: Threads,
) -> PyResult<Vec<Owned<'py>>> {
    let py = refs.py();
    if refs.is_instance_of::<PyString>() || !is_sequence(refs) {
        return Err(not_a_sequence(
            refs,
            &"references",
            "reference lists (one per hypothesis)",
        ));
    }
    let segs: Vec<Bound<'py, PyAny>> = refs
        .try_iter()
        .map_err(|_| ErrorKind::InputType.err(py, "references must be a sequence"))?
        .collect::<PyResult<_>>()?;
    if segs.len() != n_hyps {
        return Err(ErrorKind::LengthMismatch.err(
            py,
            format!(
                "{n_hyps} candidates but {} reference lists; each candidate needs its own list",
                segs.len()
            ),
        ));
    }
    segs.iter()
        .enumerate()
        .map(|(i, seg)| {
            if seg.is_instance_of::<PyString>() {
                return Err(ErrorKind::InputType.err(
                    py,
                    format!(
                        "references[{i}] is a str; each item's references must be a list of str"
                    ),
                ));
            }
            collect_on(
                seg,
                format_args!("references[{i}]"),
                true,
                lowercase,
                threads,
            )
        })
        .collect()
}

/// The references of each segment (an iterator per segment over its entries, `None` for a
/// missing one) added to `groups`, and sacreBLEU's `num_refs` (-1 when it varies:
/// `nrefs:var`).
fn ref_groups<'a, 'py: 'a, I>(
    mut groups: Groups<&'a str>,
    segments: impl Iterator<Item = I>,
) -> (Groups<&'a str>, i64)
where
    I: Iterator<Item = &'a Option<Line<'py>>>,
{
    let (mut lo, mut hi) = (usize::MAX, 0usize);
    for seg in segments {
        let mut count = 0;
        for s in seg.flatten() {
            groups.push_item(text(s));
            count += 1;
        }
        groups.end_group();
        lo = lo.min(count);
        hi = hi.max(count);
    }
    let num_refs = if lo == hi || groups.is_empty() {
        hi as i64
    } else {
        -1
    };
    (groups, num_refs)
}

/// The references of each segment from reference streams.
pub fn stream_groups<'a>(streams: &'a [Owned<'_>]) -> (Groups<&'a str>, i64) {
    let n = streams.first().map_or(0, |s| s.len());
    let k = streams.len();
    // Performance decision: this runs on the calling thread, before the pool starts. Where no
    // reference is missing (most input), every group has `k` items, so the items are read in
    // one pass without a group's bookkeeping: 62 instructions a segment of one stream
    // became about 10 (callgrind, `benchmarks/serial_fraction.py`).
    if streams.iter().all(|s| s.lines.iter().all(Option::is_some)) {
        let items = if let [stream] = streams {
            borrow_all(stream) // every line is there: `borrow_all`'s "" is never read
        } else {
            let mut items = Vec::with_capacity(n * k);
            for i in 0..n {
                items.extend(streams.iter().filter_map(|s| s.lines[i].as_ref().map(text)));
            }
            items
        };
        let num_refs = if n == 0 { 0 } else { k as i64 };
        return (Groups::uniform(items, k, n), num_refs);
    }
    let groups = Groups::with_capacity(n, n * k);
    ref_groups(groups, (0..n).map(|i| streams.iter().map(move |s| &s[i])))
}

/// Hypotheses and references read from Python: reference streams (sacreBLEU's layout), or
/// with `per_segment` one list of references per hypothesis.
pub struct TextInput<'py> {
    hyps: Owned<'py>,
    refs: Vec<Owned<'py>>,
    per_segment: bool,
}

impl<'py> TextInput<'py> {
    /// Collects `hyps` and `refs`, lowercasing non-ASCII text with `str.lower()` if asked,
    /// large lists read on `threads` threads.
    pub fn read(
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        lowercase: bool,
        per_segment: bool,
        threads: Threads,
    ) -> PyResult<Self> {
        let hyps = collect_on(hyps, "hypotheses", false, lowercase, threads)?;
        let refs = if per_segment {
            collect_segments(refs, hyps.len(), lowercase, threads)?
        } else {
            collect_streams(refs, Some(hyps.len()), lowercase, threads)?
        };
        Ok(TextInput {
            hyps,
            refs,
            per_segment,
        })
    }

    /// The corpus (borrowing the Python strings) and sacreBLEU's `num_refs`.
    pub fn corpus(&self, py: Python<'_>) -> PyResult<(Corpus<&str>, i64)> {
        let (groups, num_refs) = if self.per_segment {
            let items = self.refs.iter().map(|s| s.len()).sum();
            let groups = Groups::with_capacity(self.refs.len(), items);
            ref_groups(groups, self.refs.iter().map(|seg| seg.iter()))
        } else {
            stream_groups(&self.refs)
        };
        Ok((
            Corpus::new(borrow_all(&self.hyps), groups).or_raise(py)?,
            num_refs,
        ))
    }
}

/// How many hypotheses end in `" ."` (sacreBLEU warns about tokenized input from 100 on),
/// counted on `threads` threads.
pub fn count_tokenized_periods(hyps: &[&str], threads: Threads) -> usize {
    // Performance decision: this ran on the calling thread, 44 instructions a line with
    // `ends_with` (a `memcmp` call each); the last two bytes are now one `u16`, and a long
    // corpus is counted on the pool (callgrind, `benchmarks/serial_fraction.py`).
    let period = u16::from_ne_bytes(*b" .");
    let ends = |h: &&&str| {
        h.as_bytes()
            .last_chunk::<2>()
            .is_some_and(|&b| u16::from_ne_bytes(b) == period)
    };
    if threads == Threads::ONE || hyps.len() < PARALLEL_COUNT_FROM {
        return hyps.iter().filter(ends).count();
    }
    install(threads, || {
        hyps.par_iter().with_min_len(1024).filter(ends).count()
    })
}

/// The fewest hypotheses [`count_tokenized_periods`] counts on the pool.
const PARALLEL_COUNT_FROM: usize = 4096;

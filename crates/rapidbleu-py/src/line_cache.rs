//! `_core.LineCache`: the line cache behind the MeCab and SentencePiece tokenizers' batches.
//!
//! A batch is reduced to its distinct lines that are not cached yet, those go to the
//! tokenizer (a Python callable) in one call, and the results are kept, up to a bound, oldest
//! first out, for the next batch: references scored against several systems, and lines
//! repeated across systems, are tokenized once. Tokenization is a pure function of the line,
//! so the cache changes speed, never output.
//!
//! Performance decision: this was a Python dict, with sacreBLEU's `_preprocess_segment`
//! (lowercase, `rstrip()`) as a Python loop before it. In a cold ja-mecab corpus BLEU of five
//! WMT22 systems those loops (hashing, deduplication, reassembly) took about 12 ms of 270, the
//! largest part of the distance to MeCab's own parse. Here a line is hashed from the UTF-8
//! that the tokenizer and the counting read anyway, and a cached result is handed back as the
//! same Python string, whose UTF-8 is already made.
//!
//! The lock is only taken with the GIL held and never across a call into Python: a thread
//! whose tokenizer released the GIL cannot hold it while another waits for it with the GIL,
//! and `os.fork()` (which holds the GIL) never finds it taken.

use crate::corpus::{collect_as_is, Owned};
use crate::errors::{guard, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rapidbleu_core::text::whitespace::py_rstrip;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The cached lines, and their order of arrival (the oldest leaves first).
#[derive(Default)]
struct Lines {
    done: FxHashMap<Arc<str>, Py<PyString>>,
    order: VecDeque<Arc<str>>,
}

/// Tokenized lines, bounded to `size` entries; safe to share between threads.
#[pyclass(frozen, module = "rapidbleu._core")]
pub struct LineCache {
    size: usize,
    lines: Mutex<Lines>,
}

/// Where a line's result comes from.
enum Slot {
    Missing,
    Cached(Py<PyString>),
    Fresh(usize),
}

impl LineCache {
    fn lock(&self) -> MutexGuard<'_, Lines> {
        // A panic while the lock was held left whole entries (each is one insert): go on.
        self.lines.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `fresh` results of the lines `todo` (`None`: not to be kept), dropping the oldest
    /// beyond the bound.
    fn keep(&self, todo: &[Option<&str>], fresh: &Owned<'_>) {
        let mut lines = self.lock();
        // Grown once, not by doubling as entries arrive (rehashing was a tenth of the cache's
        // time on a first batch).
        let room = todo.len().min(self.size);
        lines.done.reserve(room);
        lines.order.reserve(room);
        for (line, out) in todo.iter().zip(fresh) {
            let (Some(line), Some(out)) = (line, out) else {
                continue; // not valid Unicode: never cached
            };
            if lines.done.contains_key(*line) {
                continue; // another thread tokenized it meanwhile
            }
            let key: Arc<str> = Arc::from(*line);
            lines.done.insert(key.clone(), out.clone().unbind());
            lines.order.push_back(key);
        }
        let mut evicted = Vec::new();
        while lines.order.len() > self.size {
            if let Some(old) = lines.order.pop_front() {
                evicted.extend(lines.done.remove(&old));
            }
        }
        drop(lines);
        // Released after the lock: the last reference to a str subclass runs its `__del__`.
        drop(evicted);
    }
}

#[pymethods]
impl LineCache {
    /// A cache of at most `size` lines.
    #[new]
    fn new(size: usize) -> Self {
        LineCache {
            size,
            lines: Mutex::new(Lines::default()),
        }
    }

    fn __len__(&self) -> usize {
        self.lock().done.len()
    }

    /// `tokenize` applied to each line, calling it once, on a list of distinct lines, for the
    /// lines not cached yet; one string per line (`None` stays `None`).
    ///
    /// With `lowercase`, a line is lowercased (Python's `str.lower()`) and with `rstrip`
    /// stripped on the right (`str.rstrip()`) first, as sacreBLEU's `_preprocess_segment`
    /// does before its tokenizer. A line that is not valid Unicode (a lone surrogate) goes to
    /// `tokenize` as it is and is never cached: the tokenizer refuses it in its own way.
    #[pyo3(signature = (lines, tokenize, *, lowercase = false, rstrip = false, allow_none = false))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        lines: &Bound<'py, PyAny>,
        tokenize: &Bound<'py, PyAny>,
        lowercase: bool,
        rstrip: bool,
        allow_none: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            // Every call into Python (a str subclass's `lower` or `rstrip` may run any code)
            // happens before the lock is taken (module docs).
            let owned = collect_as_is(lines, "lines", allow_none)?;
            let mut lines: Vec<Option<Line<'_, 'py>>> = Vec::with_capacity(owned.len());
            for s in &owned {
                lines.push(match s {
                    None => None,
                    Some(s) => Some(line(s, lowercase, rstrip)?),
                });
            }
            let mut todo: Vec<Option<&str>> = Vec::new();
            let mut todo_objs: Vec<Bound<'py, PyString>> = Vec::new();
            let mut slots: Vec<Slot> = Vec::with_capacity(lines.len());
            {
                let cached = self.lock();
                let mut pending: FxHashMap<&str, usize> =
                    FxHashMap::with_capacity_and_hasher(lines.len(), Default::default());
                for line in &lines {
                    slots.push(match line {
                        None => Slot::Missing,
                        Some(Line::Text(key, obj)) => {
                            let key = key.as_ref();
                            if let Some(hit) = cached.done.get(key) {
                                Slot::Cached(hit.clone_ref(py))
                            } else if let Some(&j) = pending.get(key) {
                                Slot::Fresh(j)
                            } else {
                                pending.insert(key, todo.len());
                                todo.push(Some(key));
                                todo_objs
                                    .push(obj.clone().unwrap_or_else(|| PyString::new(py, key)));
                                Slot::Fresh(todo.len() - 1)
                            }
                        }
                        Some(Line::Invalid(obj)) => {
                            todo.push(None);
                            todo_objs.push(obj.clone());
                            Slot::Fresh(todo.len() - 1)
                        }
                    });
                }
            }
            let fresh: Owned<'py> = if todo_objs.is_empty() {
                Vec::new()
            } else {
                let out = tokenize.call1((PyList::new(py, &todo_objs)?,))?;
                let fresh = collect_as_is(&out, "the tokenizer's output", false)?;
                if fresh.len() != todo.len() {
                    return Err(ErrorKind::Input.err(
                        py,
                        format!(
                            "the tokenizer returned {} lines for {}; it must return one per line",
                            fresh.len(),
                            todo.len()
                        ),
                    ));
                }
                self.keep(&todo, &fresh);
                fresh
            };
            PyList::new(
                py,
                slots.into_iter().map(|slot| match slot {
                    Slot::Missing => py.None(),
                    Slot::Cached(hit) => hit.into_any(),
                    Slot::Fresh(j) => fresh[j]
                        .as_ref()
                        .map_or(py.None(), |s| s.clone().into_any().unbind()),
                }),
            )
        })
    }
}

/// A line as the tokenizer will see it.
enum Line<'a, 'py> {
    /// Valid text: the key it is cached under, and the string to tokenize if that is an
    /// object already (`None`: make it from the key).
    Text(Cow<'a, str>, Option<Bound<'py, PyString>>),
    /// Not valid Unicode: the string to tokenize, not cached.
    Invalid(Bound<'py, PyString>),
}

/// What the tokenizer gets of `s`: lowercased and stripped on the right where asked.
fn line<'a, 'py>(
    s: &'a Bound<'py, PyString>,
    lowercase: bool,
    rstrip: bool,
) -> PyResult<Line<'a, 'py>> {
    let Ok(text) = s.to_str() else {
        // Python's own methods, which take lone surrogates.
        let mut s = s.clone();
        for (asked, method) in [(lowercase, "lower"), (rstrip, "rstrip")] {
            if asked {
                s = s.call_method0(method)?.cast_into::<PyString>()?;
            }
        }
        return Ok(Line::Invalid(s));
    };
    if lowercase && !text.is_ascii() {
        // Python's `str.lower()` (the interpreter's Unicode version, as in sacreBLEU), whose
        // result outlives this call only as the string handed to the tokenizer.
        let lower = s.call_method0("lower")?.cast_into::<PyString>()?;
        let key = {
            let text = lower.to_str()?;
            Cow::Owned(if rstrip { py_rstrip(text) } else { text }.to_owned())
        };
        return Ok(Line::Text(key, None));
    }
    let key = prepared(text, lowercase, rstrip);
    let same = matches!(&key, Cow::Borrowed(k) if k.len() == text.len());
    Ok(Line::Text(key, same.then(|| s.clone())))
}

/// The line as the tokenizer sees it: ASCII lowercased here where asked (`collect` has
/// lowercased other lines with `str.lower()` already; the two agree on ASCII), then stripped
/// on the right where asked.
fn prepared(line: &str, lowercase: bool, rstrip: bool) -> Cow<'_, str> {
    let line = if rstrip { py_rstrip(line) } else { line };
    if lowercase && line.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(line.to_ascii_lowercase())
    } else {
        Cow::Borrowed(line)
    }
}

/// Adds the class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LineCache>()
}

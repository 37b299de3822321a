//! `_core.LineCache`: the line cache behind the MeCab and SentencePiece tokenizers' batches.
//!
//! A batch is reduced to its distinct lines that are not cached yet, those go to the
//! tokenizer in one call, and the results are kept, up to a bound, oldest first out, for the
//! next batch: references scored against several systems, and lines repeated across systems,
//! are tokenized once. Tokenization is a pure function of the line, so the cache changes
//! speed, never output. The tokenizer is MeCab's model, called here with the GIL released, or
//! a Python callable (SentencePiece, the Python bindings). The results stay in Rust
//! ([`TokenizedLines`]) on their way to the statistics.
//!
//! Performance decision: this was a Python dict, with sacreBLEU's `_preprocess_segment`
//! (lowercase, `rstrip()`) as a Python loop before it. In a cold ja-mecab corpus BLEU of five
//! WMT22 systems those loops (hashing, deduplication, reassembly) took about 12 ms of 270, the
//! largest part of the distance to MeCab's own parse. Here a line is hashed from the UTF-8
//! that the tokenizer reads anyway, and MeCab's output is never a Python string.
//!
//! The lock is only taken with the GIL held and never across a call into Python: a thread
//! whose tokenizer released the GIL cannot hold it while another waits for it with the GIL,
//! and `os.fork()` (which holds the GIL) never finds it taken.

use crate::corpus::{collect, collect_as_is, collect_on, text, Line as Input};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use crate::mecab::{mecab_err, PyMecabModel};
use crate::tokenized_lines::TokenizedLines;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rapidbleu_core::text::mecab::MecabError;
use rapidbleu_core::text::whitespace::py_rstrip;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The cached lines, and their order of arrival (the oldest leaves first).
#[derive(Default)]
struct Lines {
    done: FxHashMap<Arc<str>, Arc<str>>,
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
    Cached(Arc<str>),
    Fresh(usize),
}

impl LineCache {
    fn lock(&self) -> MutexGuard<'_, Lines> {
        // A panic while the lock was held left whole entries (each is one insert): go on.
        self.lines.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `fresh` results of the lines `todo` (`None`: not to be kept), dropping the oldest
    /// beyond the bound.
    fn keep(&self, todo: &[Option<&str>], fresh: &[Arc<str>]) {
        let mut lines = self.lock();
        // Grown once, not by doubling as entries arrive (rehashing was a tenth of the cache's
        // time on a first batch).
        let room = todo.len().min(self.size);
        lines.done.reserve(room);
        lines.order.reserve(room);
        for (line, out) in todo.iter().zip(fresh) {
            let Some(line) = line else {
                continue; // not valid Unicode: never cached
            };
            if lines.done.contains_key(*line) {
                continue; // another thread tokenized it meanwhile
            }
            let key: Arc<str> = Arc::from(*line);
            lines.done.insert(Arc::clone(&key), Arc::clone(out));
            lines.order.push_back(key);
        }
        while lines.order.len() > self.size {
            if let Some(old) = lines.order.pop_front() {
                lines.done.remove(&old);
            }
        }
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

    /// The tokenization of each line, tokenizing only the distinct lines not cached yet, in
    /// one call; `None` stays `None`.
    ///
    /// `tokenize` is a `MecabModel` (run on `num_threads` threads, the GIL released) or a
    /// callable taking a list of distinct lines and returning one `str` per line. With
    /// `lowercase`, a line is lowercased (Python's `str.lower()`) and with `rstrip` stripped
    /// on the right (`str.rstrip()`) first, as sacreBLEU's `_preprocess_segment` does before
    /// its tokenizer. A line that is not valid Unicode (a lone surrogate) goes to a callable
    /// as it is and is never cached: the tokenizer refuses it in its own way.
    #[pyo3(signature = (lines, tokenize, *, num_threads = 0, lowercase = false, rstrip = false, allow_none = false))]
    #[allow(clippy::too_many_arguments)]
    fn run<'py>(
        &self,
        py: Python<'py>,
        lines: &Bound<'py, PyAny>,
        tokenize: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
        lowercase: bool,
        rstrip: bool,
        allow_none: bool,
    ) -> PyResult<TokenizedLines> {
        guard(|| {
            let threads = threads(py, num_threads)?;
            let model = tokenize.cast::<PyMecabModel>().ok();
            // Every call into Python (a str subclass's `lower` or `rstrip` may run any code)
            // happens before the lock is taken (module docs).
            // MeCab refuses text that is not valid Unicode as its own `tokenize` does (`collect`
            // checks it); a Python tokenizer gets such a line as it is, to refuse it its way.
            let owned = match model {
                Some(_) => collect_on(lines, "lines", allow_none, false, threads)?,
                None => collect_as_is(lines, "lines", allow_none)?,
            };
            let mut lines: Vec<Option<Line<'_, 'py>>> = Vec::with_capacity(owned.len());
            for s in &owned {
                lines.push(match s {
                    None => None,
                    Some(s) => Some(line(py, s, lowercase, rstrip)?),
                });
            }
            let mut todo: Vec<Option<&str>> = Vec::new();
            let mut todo_objs: Vec<&Line<'_, 'py>> = Vec::new();
            let mut slots: Vec<Slot> = Vec::with_capacity(lines.len());
            {
                let cached = self.lock();
                let mut pending: FxHashMap<&str, usize> =
                    FxHashMap::with_capacity_and_hasher(lines.len(), Default::default());
                for line in &lines {
                    slots.push(match line {
                        None => Slot::Missing,
                        Some(l @ Line::Text(key, _)) => {
                            let key = key.as_ref();
                            if let Some(hit) = cached.done.get(key) {
                                Slot::Cached(Arc::clone(hit))
                            } else if let Some(&j) = pending.get(key) {
                                Slot::Fresh(j)
                            } else {
                                pending.insert(key, todo.len());
                                todo.push(Some(key));
                                todo_objs.push(l);
                                Slot::Fresh(todo.len() - 1)
                            }
                        }
                        Some(l @ Line::Invalid(_)) => {
                            todo.push(None);
                            todo_objs.push(l);
                            Slot::Fresh(todo.len() - 1)
                        }
                    });
                }
            }
            let fresh: Vec<Arc<str>> = match (todo.is_empty(), model) {
                (true, _) => Vec::new(),
                (false, Some(model)) => {
                    let strs: Vec<&str> = todo.iter().map(|k| k.unwrap_or_default()).collect();
                    let model = model.get().model();
                    // Made `Arc<str>`s by the threads that parsed them (copying 10k lines
                    // into shared strings was serial work here).
                    run_detached(py, || Ok(model.tokenize::<Arc<str>>(&strs, threads)))?
                        .map_err(|e| mecab_err(py, first_line(e, &todo, &lines)))?
                }
                (false, None) => call(py, tokenize, &todo_objs)?,
            };
            self.keep(&todo, &fresh);
            Ok(TokenizedLines::new(
                slots
                    .into_iter()
                    .map(|slot| match slot {
                        Slot::Missing => None,
                        Slot::Cached(hit) => Some(hit),
                        Slot::Fresh(j) => Some(Arc::clone(&fresh[j])),
                    })
                    .collect(),
            ))
        })
    }
}

/// `tokenize` (a Python callable) on the lines `todo`: one string each, as Rust text.
fn call(
    py: Python<'_>,
    tokenize: &Bound<'_, PyAny>,
    todo: &[&Line<'_, '_>],
) -> PyResult<Vec<Arc<str>>> {
    let objs = todo.iter().map(|line| match line {
        Line::Text(_, Some(obj)) => obj.clone(),
        Line::Text(key, _) => PyString::new(py, key),
        Line::Invalid(obj) => obj.clone(),
    });
    let out = tokenize.call1((PyList::new(py, objs)?,))?;
    let fresh = collect(&out, "the tokenizer's output", false, false)?;
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
    // `collect` refused `None` and text that is not valid Unicode.
    Ok(fresh.iter().flatten().map(|s| Arc::from(text(s))).collect())
}

/// MeCab's error about line `j` of the batch, about the first line of the call that is it.
fn first_line(e: MecabError, todo: &[Option<&str>], lines: &[Option<Line<'_, '_>>]) -> MecabError {
    let MecabError::Parse { line: j, what } = e else {
        return e;
    };
    let key = todo.get(j).copied().flatten();
    let line = lines
        .iter()
        .position(|l| matches!((l, key), (Some(Line::Text(k, _)), Some(key)) if k == key))
        .unwrap_or(j);
    MecabError::Parse { line, what }
}

/// A line as the tokenizer will see it.
enum Line<'a, 'py> {
    /// Valid text: the key it is cached under, and the string it came from where it has one.
    Text(Cow<'a, str>, Option<Bound<'py, PyString>>),
    /// Not valid Unicode: the string to tokenize, not cached.
    Invalid(Bound<'py, PyString>),
}

/// What the tokenizer gets of `s`: lowercased and stripped on the right where asked. A string
/// that is not valid Unicode is passed on as it is.
fn line<'a, 'py>(
    py: Python<'py>,
    s: &'a Input<'py>,
    lowercase: bool,
    rstrip: bool,
) -> PyResult<Line<'a, 'py>> {
    let (text, obj) = match s {
        Input::Held { .. } | Input::Borrowed(_) | Input::Decoded(_) => (text(s), None),
        Input::Py(l) => match l.text() {
            Some(t) => (t, Some(l.obj())),
            None => {
                // Python's own methods, which take lone surrogates.
                let mut s = l.obj().clone();
                for (asked, method) in [(lowercase, "lower"), (rstrip, "rstrip")] {
                    if asked {
                        s = s.call_method0(method)?.cast_into::<PyString>()?;
                    }
                }
                return Ok(Line::Invalid(s));
            }
        },
    };
    if lowercase && !text.is_ascii() {
        // Python's `str.lower()` (the interpreter's Unicode version, as in sacreBLEU).
        let original = match obj {
            Some(o) => o.clone(),
            None => PyString::new(py, text),
        };
        let lower = original.call_method0("lower")?.cast_into::<PyString>()?;
        let key = {
            let t = lower.to_str()?;
            Cow::Owned(if rstrip { py_rstrip(t) } else { t }.to_owned())
        };
        return Ok(Line::Text(key, None));
    }
    let key = prepared(text, lowercase, rstrip);
    let same = matches!(&key, Cow::Borrowed(k) if k.len() == text.len());
    Ok(Line::Text(key, obj.filter(|_| same).cloned()))
}

/// The line as the tokenizer sees it, stripped on the right and lowercased where asked; only
/// for lines that need no `str.lower()` (ASCII, where Rust and Python agree; [`line`] has
/// Python lowercase the others).
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

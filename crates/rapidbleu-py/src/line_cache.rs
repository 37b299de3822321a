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
//! Performance decision: what is left on the calling thread is one lookup per line. The lines
//! are hashed on the pool, and each hash serves the batch's de-duplication, the cache lookup
//! and the insert; the keys kept are copied on the pool too, and a large cache is freed
//! there. In a cold ja-mecab BLEU the calling thread hashed every line five times,
//! copied every key and freed the previous batch's entries: about 2,700 instructions a line,
//! the serial share that capped it at 16 threads (`benchmarks/serial_fraction.py`).
//!
//! The lock is only taken with the GIL held and never across a call into Python: a thread
//! whose tokenizer released the GIL cannot hold it while another waits for it with the GIL,
//! and `os.fork()` (which holds the GIL) never finds it taken.

use crate::corpus::{collect, collect_as_is, collect_on, text, Line as Input};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind};
use crate::mecab::{mecab_err, PyMecabModel};
use crate::tokenized_lines::TokenizedLines;
use hashbrown::hash_table::{Entry as Found, HashTable};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rapidbleu_core::engine::parallel::{install, map_collect, spawn, Threads, FREE_APART_FROM};
use rapidbleu_core::text::mecab::MecabError;
use rapidbleu_core::text::whitespace::py_rstrip;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// A kept line: its hash, the line as the tokenizer saw it, and the tokenizer's output.
struct Kept {
    hash: u64,
    key: Arc<str>,
    value: Arc<str>,
}

/// The cached lines, and their order of arrival (the oldest leaves first).
#[derive(Default)]
struct Lines {
    done: HashTable<Kept>,
    order: VecDeque<(u64, Arc<str>)>,
    /// How many batches have added lines: a batch that finds it unchanged since its lookup
    /// knows that none of its lines was added meanwhile (by another thread).
    additions: u64,
    /// The threads of the last batch that added lines: the pool that frees a large cache.
    threads: Option<Threads>,
}

/// The shortest batch whose results are assembled on the pool (consuming the slots, which
/// [`map_collect`] cannot): below it, handing the work over costs more than it saves.
const PARALLEL_FROM: usize = 4096;

/// The hash of a line, as every table here takes it.
fn hash_of(line: &str) -> u64 {
    FxBuildHasher.hash_one(line)
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

    /// Keeps `fresh` results of the lines `keys` (`None`: not to be kept; `hashes` theirs),
    /// dropping the oldest beyond the bound.
    ///
    /// `seen` is [`Lines::additions`] when the batch looked its lines up: unchanged, no line of
    /// the batch (distinct, and not cached then) can be cached now, so none is looked up again.
    /// `threads`: the batch's, on whose pool a large cache is freed when dropped.
    fn keep(
        &self,
        keys: Vec<Option<Arc<str>>>,
        hashes: &[u64],
        fresh: &[Arc<str>],
        seen: u64,
        threads: Threads,
    ) {
        let mut lines = self.lock();
        let unchanged = lines.additions == seen;
        lines.additions += 1;
        lines.threads = Some(threads);
        let Lines { done, order, .. } = &mut *lines;
        // Grown once, not by doubling as entries arrive (rehashing was a tenth of the cache's
        // time on a first batch).
        let room = keys.len().min(self.size);
        done.reserve(room, |k| k.hash);
        order.reserve(room);
        for ((key, &hash), out) in keys.into_iter().zip(hashes).zip(fresh) {
            let Some(key) = key else {
                continue; // not valid Unicode: never cached
            };
            let kept = Kept {
                hash,
                key: Arc::clone(&key),
                value: Arc::clone(out),
            };
            if unchanged {
                done.insert_unique(hash, kept, |k| k.hash);
            } else {
                let Found::Vacant(slot) = done.entry(hash, |k| *k.key == *key, |k| k.hash) else {
                    continue; // another thread tokenized it meanwhile
                };
                slot.insert(kept);
            }
            order.push_back((hash, key));
        }
        while order.len() > self.size {
            if let Some((hash, old)) = order.pop_front() {
                if let Ok(entry) = done.find_entry(hash, |k| Arc::ptr_eq(&k.key, &old)) {
                    entry.remove();
                }
            }
        }
    }
}

impl Drop for LineCache {
    fn drop(&mut self) {
        // Freeing a large cache (two strings an entry) is serial work for whoever drops the
        // last reference, typically between two scores: a job on the pool its last batch ran
        // on does it (never waited for: at the process's exit the memory goes with the
        // process; on one thread, it is freed here).
        let lines = std::mem::take(self.lines.get_mut().unwrap_or_else(PoisonError::into_inner));
        if let (Some(threads), true) = (lines.threads, lines.done.len() >= FREE_APART_FROM) {
            spawn(threads, move || drop(lines));
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
            // A line that needs no Python method (most lines) is stripped and hashed on the
            // pool; the others are made by Python here, before the lock is taken.
            let plain: Vec<Option<&str>> = owned
                .iter()
                .map(|s| s.as_ref().and_then(|s| plain_text(s, lowercase)))
                .collect();
            let prepared = map_collect(
                plain.len(),
                threads,
                || (),
                |_, i| {
                    plain[i].map(|t| {
                        let key = prepared(t, lowercase, rstrip);
                        let hash = hash_of(&key);
                        (key, hash)
                    })
                },
            );
            let mut lines: Vec<Option<Line<'_, 'py>>> = Vec::with_capacity(owned.len());
            let mut hashes: Vec<u64> = Vec::with_capacity(owned.len());
            for (s, ready) in owned.iter().zip(prepared) {
                let (made, hash) = match (s, ready) {
                    (None, _) => (None, 0),
                    (Some(s), Some((key, hash))) => {
                        // A Python tokenizer gets the string itself where the key is all of it.
                        let whole = matches!(&key, Cow::Borrowed(k) if k.len() == text(s).len());
                        let obj = match s {
                            Input::Py(l) if model.is_none() && whole => Some(l.obj().clone()),
                            _ => None,
                        };
                        (Some(Line::Text(key, obj)), hash)
                    }
                    (Some(s), None) => {
                        let made = line(py, s, lowercase, rstrip)?;
                        let hash = match &made {
                            Line::Text(key, _) => hash_of(key),
                            Line::Invalid(_) => 0,
                        };
                        (Some(made), hash)
                    }
                };
                lines.push(made);
                hashes.push(hash);
            }
            let keys: Vec<Option<&str>> = lines
                .iter()
                .map(|l| match l {
                    Some(Line::Text(key, _)) => Some(key.as_ref()),
                    _ => None,
                })
                .collect();
            // Room for every line: growing these by doubling copied them again and again.
            let mut todo: Vec<Option<&str>> = Vec::with_capacity(lines.len());
            let mut todo_hashes: Vec<u64> = Vec::with_capacity(lines.len());
            let mut todo_objs: Vec<&Line<'_, 'py>> = Vec::with_capacity(lines.len());
            let mut slots: Vec<Slot> = Vec::with_capacity(lines.len());
            let seen;
            {
                let cached = self.lock();
                seen = cached.additions;
                // Indices into `todo`, by the line's hash.
                let mut pending: HashTable<usize> = HashTable::with_capacity(lines.len());
                for ((line, key), &hash) in lines.iter().zip(&keys).zip(&hashes) {
                    slots.push(match (line, key) {
                        (None, _) => Slot::Missing,
                        (Some(l), Some(key)) => {
                            if let Some(hit) = cached.done.find(hash, |k| *k.key == **key) {
                                Slot::Cached(Arc::clone(&hit.value))
                            } else {
                                match pending.entry(
                                    hash,
                                    |&j| todo[j] == Some(*key),
                                    |&j| todo_hashes[j],
                                ) {
                                    Found::Occupied(j) => Slot::Fresh(*j.get()),
                                    Found::Vacant(slot) => {
                                        slot.insert(todo.len());
                                        todo.push(Some(key));
                                        todo_hashes.push(hash);
                                        todo_objs.push(l);
                                        Slot::Fresh(todo.len() - 1)
                                    }
                                }
                            }
                        }
                        // Not valid Unicode: tokenized as it is, never cached.
                        (Some(l), None) => {
                            todo.push(None);
                            todo_hashes.push(0);
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
            if self.size > 0 {
                // The keys kept, copied into shared strings on the pool.
                let kept = map_collect(
                    todo.len(),
                    threads,
                    || (),
                    |_, j| todo[j].map(Arc::<str>::from),
                );
                self.keep(kept, &todo_hashes, &fresh, seen, threads);
            }
            let out = if threads == Threads::ONE || slots.len() < PARALLEL_FROM {
                slots.into_iter().map(|s| s.line(&fresh)).collect()
            } else {
                install(threads, || {
                    slots
                        .into_par_iter()
                        .with_min_len(1024)
                        .map(|s| s.line(&fresh))
                        .collect()
                })
            };
            Ok(TokenizedLines::new(out))
        })
    }
}

impl Slot {
    /// The line's result, `fresh` holding the batch's new ones.
    fn line(self, fresh: &[Arc<str>]) -> Option<Arc<str>> {
        match self {
            Slot::Missing => None,
            Slot::Cached(hit) => Some(hit),
            Slot::Fresh(j) => Some(Arc::clone(&fresh[j])),
        }
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
        Input::Borrowed(_) | Input::Decoded(_) => (text(s), None),
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

/// The text of `s` where making the tokenizer's line of it needs no Python method: valid
/// Unicode, and ASCII where it is to be lowercased (see [`line`]).
fn plain_text<'a>(s: &'a Input<'_>, lowercase: bool) -> Option<&'a str> {
    let t = match s {
        Input::Py(l) => l.text()?,
        _ => text(s),
    };
    (!lowercase || t.is_ascii()).then_some(t)
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

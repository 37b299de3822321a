//! Python `str` objects read without a call per string: CPython's own representation (PEP 393)
//! read by the pool's threads while the caller holds the GIL.
//!
//! The extension is built for the stable ABI (one abi3 wheel for every CPython from 3.10),
//! which hides the layout of a `str`: each string was read with `PyUnicode_AsUTF8AndSize` on the
//! calling thread, about 180 instructions a string, the largest serial part of a corpus score
//! on many cores. The layout of `PyASCIIObject` and `PyCompactUnicodeObject` is fixed within a
//! CPython minor version and has changed once in the versions this runs on (3.12 dropped
//! `wstr`), so it is looked up by version here ([`Layout`]), and checked once per process
//! against the API's own answers on probe strings of each kind before it is trusted
//! ([`layout`]); an unknown version, another implementation, a big-endian or 32-bit machine, or a
//! failed probe leaves every string to the serial path. docs/architecture.md ("Strings read in
//! parallel") gives the decision and its measurements.
//!
//! **Why the threads may read the strings.** The caller holds the GIL for the whole read and
//! waits for the pool, so no Python code runs meanwhile: no string's data or cached UTF-8
//! changes, and none is freed, because a private copy of the list ([`Snapshot`]) holds a
//! reference to each. The threads only read memory (no reference counts, no API call); a pool
//! task never takes the GIL (nothing in the glue calls Python from the pool), so the caller's
//! wait cannot deadlock.
//!
//! Anything unusual is not read here: a `str` subclass or any other object makes the caller
//! read the whole list the serial way (its errors and any Python code it runs, in order), and a
//! string that is not compact, holds a lone surrogate, or (when lowercasing) is not ASCII is
//! handed back to the caller to read as before ([`Text::Caller`]).

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};
use rapidbleu_core::engine::parallel::{install, Threads};
use rayon::prelude::*;
use std::ptr::NonNull;

/// Where the parts of a `str` and a `list` lie, for one CPython minor version (64-bit, little
/// endian; the object header is `ob_refcnt`, `ob_type`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// `sizeof(PyASCIIObject)`: where an ASCII compact string's characters start.
    ascii_size: usize,
    /// `sizeof(PyCompactUnicodeObject)`: where other compact strings' characters start.
    compact_size: usize,
    /// Offset of `utf8_length` in `PyCompactUnicodeObject`.
    utf8_length: usize,
    /// Offset of `utf8` (the cached UTF-8, or NULL) in `PyCompactUnicodeObject`.
    utf8: usize,
    /// Before 3.12 the state has a `ready` bit (set on every compact string).
    has_ready: bool,
}

/// Offset of `ob_type` in every object.
const OB_TYPE: usize = 8;
/// Offset of `length` (code points) in `PyASCIIObject`.
const LENGTH: usize = 16;
/// Offset of the `state` bit field in `PyASCIIObject`.
const STATE: usize = 32;
/// Offset of `ob_size` in `PyListObject`.
const LIST_SIZE: usize = 16;
/// Offset of `ob_item` in `PyListObject`.
const LIST_ITEMS: usize = 24;

/// CPython 3.10 and 3.11: `PyASCIIObject` ends with `wstr`, `PyCompactUnicodeObject` with
/// `wstr_length`.
const UP_TO_3_11: Layout = Layout {
    ascii_size: 48,
    compact_size: 72,
    utf8_length: 48,
    utf8: 56,
    has_ready: true,
};

/// CPython 3.12 to 3.14 (the default build; a free-threaded one loads no abi3 module).
const FROM_3_12: Layout = Layout {
    ascii_size: 40,
    compact_size: 56,
    utf8_length: 40,
    utf8: 48,
    has_ready: false,
};

/// How [`Layout::read`] found a string.
pub(crate) enum Text {
    /// `None`, where allowed.
    Missing,
    /// UTF-8 inside the string (ASCII data, or its cached UTF-8).
    Borrowed(NonNull<str>),
    /// UTF-8 transcoded from the string's 1-, 2- or 4-byte characters.
    Decoded(Box<str>),
    /// An exact `str` the caller reads as before (not compact, a lone surrogate, or non-ASCII
    /// text that [`NonAscii`] leaves to the caller).
    Caller,
    /// Anything else (a `str` subclass, another object, a `None` not allowed): the caller
    /// reads the whole list as before.
    Fallback,
}

// SAFETY: a `Borrowed` pointer is into a string that the snapshot keeps alive and nobody
// changes while the GIL is held (module docs); it is only read.
unsafe impl Send for Text {}

/// An object pointer handed to the pool's threads.
#[derive(Clone, Copy)]
struct Items(*const *mut ffi::PyObject);

// SAFETY: the threads only read the array of a snapshot list and the strings in it, under the
// module's rule (GIL held by the waiting caller, objects kept alive by the snapshot).
unsafe impl Send for Items {}
// SAFETY: as for `Send`.
unsafe impl Sync for Items {}

impl Items {
    /// Item `i`.
    ///
    /// # Safety
    /// `i` is below the snapshot's length.
    unsafe fn get(self, i: usize) -> *mut ffi::PyObject {
        // SAFETY: by the caller.
        unsafe { *self.0.add(i) }
    }
}

/// What the pool makes of a non-ASCII string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NonAscii {
    /// Its cached UTF-8 is borrowed; without one, it is transcoded ([`Text::Decoded`]): for
    /// strings read once.
    Decode,
    /// Its cached UTF-8 is borrowed; without one, it goes to the caller ([`Text::Caller`]),
    /// whose `PyUnicode_AsUTF8AndSize` caches it in the string: for strings read again and
    /// again (the same references in call after call), which every later call then borrows
    /// instead of transcoding and freeing them again.
    Cache,
    /// It goes to the caller, for Python's `str.lower()`.
    Lowercase,
}

/// Bit fields of `state` (the first fields of every version, little-endian bit order).
fn kind(state: u32) -> u32 {
    (state >> 2) & 7
}

impl Layout {
    /// `obj` as the serial path would read it, without a call into Python.
    ///
    /// # Safety
    /// `obj` is a live object (kept alive and unchanged while this runs: module docs), and
    /// `self` is this interpreter's layout ([`layout`]).
    unsafe fn read(&self, obj: *mut ffi::PyObject, allow_none: bool, non_ascii: NonAscii) -> Text {
        // SAFETY: by the caller; every offset is inside the object for the type checked.
        unsafe {
            let base = obj.cast::<u8>();
            if obj == ffi::Py_None() {
                return if allow_none {
                    Text::Missing
                } else {
                    Text::Fallback
                };
            }
            let ty = *base.add(OB_TYPE).cast::<*mut ffi::PyTypeObject>();
            if ty != std::ptr::addr_of_mut!(ffi::PyUnicode_Type) {
                return Text::Fallback;
            }
            let state = *base.add(STATE).cast::<u32>();
            let (compact, ascii, ready) = (state >> 5 & 1, state >> 6 & 1, state >> 7 & 1);
            if compact == 0 || (self.has_ready && ready == 0) {
                return Text::Caller;
            }
            let Ok(len) = usize::try_from(*base.add(LENGTH).cast::<isize>()) else {
                return Text::Caller;
            };
            if ascii == 1 {
                let bytes = std::slice::from_raw_parts(base.add(self.ascii_size), len);
                // ASCII is UTF-8 as it is.
                return Text::Borrowed(NonNull::from(std::str::from_utf8_unchecked(bytes)));
            }
            if non_ascii == NonAscii::Lowercase {
                // Non-ASCII text is lowercased by Python's `str.lower()`, on the caller.
                return Text::Caller;
            }
            let utf8 = *base.add(self.utf8).cast::<*const u8>();
            if !utf8.is_null() {
                // Cached by `PyUnicode_AsUTF8AndSize`, which caches only valid UTF-8.
                let n = *base.add(self.utf8_length).cast::<isize>();
                let Ok(n) = usize::try_from(n) else {
                    return Text::Caller;
                };
                let bytes = std::slice::from_raw_parts(utf8, n);
                return Text::Borrowed(NonNull::from(std::str::from_utf8_unchecked(bytes)));
            }
            if non_ascii == NonAscii::Cache {
                return Text::Caller;
            }
            let data = base.add(self.compact_size);
            let decoded = match kind(state) {
                1 => Some(latin1(std::slice::from_raw_parts(data, len))),
                2 if data.cast::<u16>().is_aligned() => {
                    wide(std::slice::from_raw_parts(data.cast::<u16>(), len))
                }
                4 if data.cast::<u32>().is_aligned() => {
                    wide(std::slice::from_raw_parts(data.cast::<u32>(), len))
                }
                _ => None,
            };
            decoded.map_or(Text::Caller, Text::Decoded)
        }
    }
}

/// UTF-8 of Latin-1 (1-byte) characters.
///
/// Performance decision: the output is allocated at its exact size (a `Box<str>` made from a
/// larger buffer is a `realloc`), and runs of ASCII, most of a European text, are copied eight
/// bytes at a time. Two thirds of the captions of `bench_caption.py` are Latin-1; transcoded on
/// every call, a `char` pushed at a time, they were a tenth of a COCO BLEU call (`perf`; the
/// caption metrics now leave them in CPython's cache instead: [`NonAscii::Cache`]).
fn latin1(chars: &[u8]) -> Box<str> {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let high = chars.iter().filter(|&&c| c >= 0x80).count();
    let mut out = Vec::with_capacity(chars.len() + high);
    let mut words = chars.chunks_exact(8);
    for word in &mut words {
        if u64::from_le_bytes(word.try_into().unwrap_or_default()) & HIGHS == 0 {
            out.extend_from_slice(word);
        } else {
            push_latin1(&mut out, word);
        }
    }
    push_latin1(&mut out, words.remainder());
    // SAFETY: every byte below 0x80 is ASCII, and every other is written as its two-byte
    // UTF-8 sequence (`C2`/`C3`, then a continuation byte).
    unsafe { String::from_utf8_unchecked(out) }.into_boxed_str()
}

/// Appends the UTF-8 of Latin-1 `chars` to `out`.
fn push_latin1(out: &mut Vec<u8>, chars: &[u8]) {
    for &c in chars {
        if c < 0x80 {
            out.push(c);
        } else {
            out.extend_from_slice(&[0xc0 | (c >> 6), 0x80 | (c & 0x3f)]);
        }
    }
}

/// UTF-8 of 2- or 4-byte characters; `None` at a lone surrogate (not valid Unicode).
fn wide<T: Copy + Into<u32>>(chars: &[T]) -> Option<Box<str>> {
    let mut out = String::with_capacity(chars.len() * 3);
    for &c in chars {
        out.push(char::from_u32(c.into())?);
    }
    Some(out.into_boxed_str())
}

/// This interpreter's layout, if it is known and passed the probe (checked once).
pub(crate) fn layout(py: Python<'_>) -> Option<&'static Layout> {
    // A `PyOnceLock`, not a `std` one: the probe runs Python code, during which the
    // interpreter may hand the GIL to another thread; that thread, asking for the layout
    // while holding the GIL, would wait on a `std` lock forever, and the probing thread on the
    // GIL (two threads whose first calls came together hung so).
    static LAYOUT: PyOnceLock<Option<Layout>> = PyOnceLock::new();
    LAYOUT.get_or_init(py, || probe(py).ok().flatten()).as_ref()
}

/// The layout for this interpreter's version, checked against the API on probe objects.
fn probe(py: Python<'_>) -> PyResult<Option<Layout>> {
    if !cfg!(all(target_pointer_width = "64", target_endian = "little")) {
        return Ok(None);
    }
    let sys = py.import("sys")?;
    let name: String = sys.getattr("implementation")?.getattr("name")?.extract()?;
    let version = sys.getattr("version_info")?;
    let (major, minor): (u32, u32) = (
        version.get_item(0)?.extract()?,
        version.get_item(1)?.extract()?,
    );
    let layout = match (name.as_str(), major, minor) {
        ("cpython", 3, 10..=11) => UP_TO_3_11,
        ("cpython", 3, 12..=14) => FROM_3_12,
        _ => return Ok(None),
    };
    Ok(probes_agree(py, &layout)?.then_some(layout))
}

/// Whether `layout` reads probe strings of every kind and a probe list as the API does.
fn probes_agree(py: Python<'_>, layout: &Layout) -> PyResult<bool> {
    // Built at run time (never interned constants), as input strings are.
    let probes = [
        "rapidbleu",
        "caf\u{e9} \u{ff}",
        "\u{20ac}\u{3042}x",
        "\u{1f600}\u{e9}a",
        "",
    ];
    let mut objs = Vec::new();
    for p in probes {
        let s = PyString::new(py, &format!("{p}{}", probes.len()));
        objs.push(s);
    }
    let list = PyList::new(py, &objs)?;
    // SAFETY: `list` is a live list (GIL held); its size and items are read at the layout's
    // offsets and compared with the API's answers, never trusted before.
    let items = unsafe {
        let base = list.as_ptr().cast::<u8>();
        if *base.add(LIST_SIZE).cast::<isize>() != objs.len() as isize {
            return Ok(false);
        }
        Items(*base.add(LIST_ITEMS).cast::<*const *mut ffi::PyObject>())
    };
    for (i, s) in objs.iter().enumerate() {
        // SAFETY: `i` is below the list's length (checked above).
        if unsafe { items.get(i) } != s.as_ptr() {
            return Ok(false);
        }
        let expected = format!("{}{}", probes[i], probes.len());
        // Before the API caches UTF-8 (transcoded here, or ASCII data), then after.
        for _ in 0..2 {
            // SAFETY: `s` is alive and unchanged (GIL held, no Python code runs here).
            let got = match unsafe { layout.read(s.as_ptr(), false, NonAscii::Decode) } {
                Text::Borrowed(p) => unsafe { p.as_ref() }.to_owned(),
                Text::Decoded(b) => b.into_string(),
                _ => return Ok(false),
            };
            if got != expected || s.to_str()? != expected {
                return Ok(false);
            }
        }
        // The cached UTF-8 must be the one read the second time (its pointer, not a copy).
        // SAFETY: as above.
        if let Text::Borrowed(p) = unsafe { layout.read(s.as_ptr(), false, NonAscii::Decode) } {
            if p.as_ptr().cast::<u8>().cast_const() != s.to_str()?.as_ptr() {
                return Ok(false);
            }
        } else {
            return Ok(false);
        }
    }
    // A lone surrogate goes back to the caller; a subclass or another object to the serial way.
    let lone = py.eval(c"'a\\ud800'", None, None)?;
    // SAFETY: live objects, GIL held.
    let (lone, other) = unsafe {
        (
            layout.read(lone.as_ptr(), false, NonAscii::Decode),
            layout.read(list.as_ptr(), false, NonAscii::Decode),
        )
    };
    Ok(matches!(lone, Text::Caller) && matches!(other, Text::Fallback))
}

/// A private copy of a list: it holds a reference to each item, so that the strings read from
/// it stay alive (with the GIL released later) whatever other code does to the caller's list.
pub(crate) struct Snapshot<'py> {
    list: Bound<'py, PyList>,
}

impl<'py> Snapshot<'py> {
    /// A copy of `list` (one C call: `list[:]`).
    pub(crate) fn of(list: &Bound<'py, PyList>) -> PyResult<Self> {
        let py = list.py();
        let len = list.len() as ffi::Py_ssize_t;
        // SAFETY: the GIL is held and `list` is a list; the result is a new reference or NULL
        // with an exception set.
        let copy = unsafe {
            Bound::from_owned_ptr_or_err(py, ffi::PyList_GetSlice(list.as_ptr(), 0, len))?
        };
        Ok(Snapshot {
            list: copy.cast_into::<PyList>()?,
        })
    }

    /// `list` itself, which the caller made and hands over (no other code holds it, so no
    /// copy is needed).
    pub(crate) fn private(list: Bound<'py, PyList>) -> Self {
        Snapshot { list }
    }

    /// The copy.
    pub(crate) fn list(&self) -> &Bound<'py, PyList> {
        &self.list
    }

    /// Every item as [`Layout::read`] finds it, read on `threads` threads (on this one for a
    /// short list or one thread) while the caller holds the GIL.
    pub(crate) fn read(
        &self,
        layout: &Layout,
        allow_none: bool,
        non_ascii: NonAscii,
        threads: Threads,
    ) -> Vec<Text> {
        let len = self.list.len();
        // SAFETY: the list is alive; `ob_item` holds `len` items (the probe checked the
        // offsets), and nothing changes the private copy.
        let items = unsafe {
            Items(
                *self
                    .list
                    .as_ptr()
                    .cast::<u8>()
                    .add(LIST_ITEMS)
                    .cast::<*const *mut ffi::PyObject>(),
            )
        };
        let layout = *layout;
        // SAFETY (both closures): `i < len`, and the module's rule holds while the GIL is held.
        let one = move |i: usize| unsafe { layout.read(items.get(i), allow_none, non_ascii) };
        if threads == Threads::ONE || len < PARALLEL_FROM {
            return (0..len).map(one).collect();
        }
        install(threads, || {
            (0..len)
                .into_par_iter()
                .with_min_len(1024)
                .map(one)
                .collect()
        })
    }
}

/// The shortest list read this way: below it, copying the list costs more than the calls it
/// saves (a single sentence's references).
pub(crate) const FAST_FROM: usize = 16;

/// The shortest list read on the pool: below it, handing the work over costs more than it
/// saves.
const PARALLEL_FROM: usize = 4096;

/// `_core.fast_strings()`: whether this interpreter's strings are read by the pool (its layout
/// is known and passed the probe); the tests check that the parallel path is the one tested.
#[pyfunction]
fn fast_strings(py: Python<'_>) -> bool {
    layout(py).is_some()
}

/// Adds [`fast_strings`] to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fast_strings, m)?)
}

//! Arrow text input: any object with `__arrow_c_stream__` or `__arrow_c_array__` (pyarrow
//! arrays and chunked arrays, polars series, pandas' Arrow strings, Hugging Face datasets'
//! columns, Ray Data blocks), read through the Arrow C data interface without pyarrow.
//!
//! Its `string`, `large_string` and `string_view` arrays become lines held by the core
//! ([`TokenizedLines`]), which every text entry point reads as it reads a list of `str`, with
//! nulls as `None`. The text is not copied: the lines point into the Arrow buffers, which the
//! lines object keeps (it owns the arrays moved out of their capsules, and releases them when
//! it is freed). Each line is checked to be UTF-8 in parallel with the GIL released (the
//! format promises it; a producer that breaks the promise gets an `InvalidTextError`, never
//! undefined text).
//!
//! Performance decision: a list of `str` is read one Python object at a time on the calling
//! thread (about 180 instructions a string through the stable ABI); Arrow text is one buffer
//! of offsets and one of bytes, so the calling thread only walks offsets, and the UTF-8 check
//! spreads over the pool.

use crate::errors::{type_name, ErrorKind, OrRaise};
use crate::tokenized_lines::TokenizedLines;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyTuple};
use rapidbleu_core::engine::parallel::{install, Threads};
use rapidbleu_core::error::reserve;
use rayon::prelude::*;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt::Display;
use std::ptr::NonNull;
use std::sync::Arc;

/// `struct ArrowSchema` of the C data interface.
#[repr(C)]
pub(crate) struct FfiSchema {
    format: *const c_char,
    pub(crate) name: *const c_char,
    metadata: *const c_char,
    flags: i64,
    pub(crate) n_children: i64,
    pub(crate) children: *mut *mut FfiSchema,
    dictionary: *mut FfiSchema,
    release: Option<unsafe extern "C" fn(*mut FfiSchema)>,
    private_data: *mut c_void,
}

/// `struct ArrowArray` of the C data interface.
#[repr(C)]
pub(crate) struct FfiArray {
    pub(crate) length: i64,
    null_count: i64,
    pub(crate) offset: i64,
    pub(crate) n_buffers: i64,
    pub(crate) n_children: i64,
    pub(crate) buffers: *mut *const c_void,
    pub(crate) children: *mut *mut FfiArray,
    dictionary: *mut FfiArray,
    release: Option<unsafe extern "C" fn(*mut FfiArray)>,
    private_data: *mut c_void,
}

/// `struct ArrowArrayStream` of the C stream interface.
#[repr(C)]
struct FfiStream {
    get_schema: Option<unsafe extern "C" fn(*mut FfiStream, *mut FfiSchema) -> c_int>,
    get_next: Option<unsafe extern "C" fn(*mut FfiStream, *mut FfiArray) -> c_int>,
    get_last_error: Option<unsafe extern "C" fn(*mut FfiStream) -> *const c_char>,
    release: Option<unsafe extern "C" fn(*mut FfiStream)>,
    private_data: *mut c_void,
}

/// A C data interface struct owned here: released (its `release` called) when dropped.
trait Released {
    /// Calls `release` if the struct is live, as the interface asks of its consumer.
    fn release(&mut self);
}

macro_rules! released {
    ($t:ty) => {
        impl Released for $t {
            fn release(&mut self) {
                if let Some(release) = self.release {
                    // SAFETY: the struct was moved out of its capsule (or filled by its
                    // producer) and is released once: `release` is the producer's own.
                    unsafe { release(self) };
                }
            }
        }
        impl Drop for $t {
            fn drop(&mut self) {
                Released::release(self);
            }
        }
    };
}
released!(FfiSchema);
released!(FfiArray);
released!(FfiStream);

/// A struct marked released (all zero), for a producer to fill.
fn released_struct<T: Released>() -> T {
    // SAFETY: every field of the interface's structs is a number, a raw pointer or an
    // `Option` of a function pointer, for which all-zero bytes are valid (0, null, `None`).
    unsafe { std::mem::zeroed() }
}

/// Arrow text held by the core: the arrays, and each line's bytes in them.
pub struct ArrowText {
    /// Each line, pointing into `_arrays`.
    lines: Vec<Span>,
    /// The arrays, released when the last text that reads them is dropped (the reference
    /// streams of Arrow items share their table's arrays).
    _arrays: Arc<Arrays>,
}

/// Arrays moved out of their capsules, shared by the texts that point into them.
pub(crate) struct Arrays {
    /// Held only to be released (by their `Drop`) after the last text is dropped.
    _held: Vec<FfiArray>,
}

impl Arrays {
    /// Shared ownership of `arrays`.
    pub(crate) fn shared(arrays: Vec<FfiArray>) -> Arc<Arrays> {
        Arc::new(Arrays { _held: arrays })
    }
}

/// A line's bytes inside an Arrow buffer, `None` where the line is null (16 bytes a line).
#[derive(Clone, Copy)]
pub(crate) struct Span(Option<NonNull<[u8]>>);

// SAFETY: a span points into the buffers of arrays that its `ArrowText` owns, which nothing
// changes while they live (Arrow data is immutable once exported); it is only read.
unsafe impl Send for Span {}
// SAFETY: as above.
unsafe impl Sync for Span {}
// SAFETY: nothing changes exported Arrow data, and the C data interface lets a consumer call
// `release` from any thread (pyarrow's takes the GIL itself).
unsafe impl Send for Arrays {}
// SAFETY: as above; `&Arrays` only reads.
unsafe impl Sync for Arrays {}

impl Span {
    /// A missing line.
    pub(crate) const NULL: Span = Span(None);

    /// Whether the line is null.
    pub(crate) fn is_null(self) -> bool {
        self.0.is_none()
    }

    /// The bytes, `None` where null.
    ///
    /// # Safety
    /// The arrays the span points into are alive for `'a`.
    pub(crate) unsafe fn bytes<'a>(self) -> Option<&'a [u8]> {
        // SAFETY: the caller keeps the arrays alive.
        self.0.map(|p| unsafe { p.as_ref() })
    }
}

impl ArrowText {
    /// The lines `lines`, pointing into `arrays` (already checked to be UTF-8).
    pub(crate) fn new(lines: Vec<Span>, arrays: Arc<Arrays>) -> Self {
        ArrowText {
            lines,
            _arrays: arrays,
        }
    }

    /// How many lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Line `i` (below [`Self::len`]), `None` where null.
    pub fn get(&self, i: usize) -> Option<&str> {
        // SAFETY: `self` owns the arrays, and each line was checked to be UTF-8 when read.
        unsafe { self.lines[i].bytes() }.map(|b| unsafe { std::str::from_utf8_unchecked(b) })
    }
}

/// The text layouts read here.
#[derive(Clone, Copy)]
pub(crate) enum Layout {
    /// `string` (`u`): int32 offsets.
    Utf8,
    /// `large_string` (`U`): int64 offsets.
    LargeUtf8,
    /// `string_view` (`vu`): 16-byte views, inline or into data buffers.
    Utf8View,
}

/// The schema and the chunks of `obj` if it offers the Arrow C interface (`None` if it does
/// not), `what` naming it in messages.
pub(crate) fn chunks(
    obj: &Bound<'_, PyAny>,
    what: &dyn Display,
) -> PyResult<Option<(FfiSchema, Vec<FfiArray>)>> {
    let py = obj.py();
    if obj.hasattr("__arrow_c_stream__")? {
        let capsule = obj.call_method0("__arrow_c_stream__")?;
        return read_stream(&capsule, what).map(Some);
    }
    if !obj.hasattr("__arrow_c_array__")? {
        return Ok(None);
    }
    let pair = obj.call_method0("__arrow_c_array__")?;
    let pair = pair
        .cast::<PyTuple>()
        .map_err(|_| bad_protocol(py, obj, what))?;
    if pair.len() != 2 {
        return Err(bad_protocol(py, obj, what));
    }
    let schema: FfiSchema = take(&pair.get_item(0)?, c"arrow_schema", what)?;
    let array: FfiArray = take(&pair.get_item(1)?, c"arrow_array", what)?;
    Ok(Some((schema, vec![array])))
}

/// The lines of `obj` if it offers the Arrow C interface (`None` if it does not), `what`
/// naming it in messages.
pub fn lines(obj: &Bound<'_, PyAny>, what: &dyn Display) -> PyResult<Option<TokenizedLines>> {
    let py = obj.py();
    let Some((schema, arrays)) = chunks(obj, what)? else {
        return Ok(None);
    };
    let layout = layout_of(py, &schema, what)?;
    let total = arrays
        .iter()
        .map(|a| usize::try_from(a.length).unwrap_or(0))
        .sum();
    let mut lines = Vec::new();
    reserve(&mut lines, total).or_raise(py)?;
    for array in &arrays {
        spans_of(py, layout, array, 0, array.length, what, &mut lines)?;
    }
    // Performance decision: the check is the only pass over the bytes, so it runs on the pool.
    if let Some(i) = first_invalid(py, &lines) {
        return Err(ErrorKind::InvalidText.err(
            py,
            format!("{what}[{i}] is not valid UTF-8 (Arrow text must be UTF-8)"),
        ));
    }
    Ok(Some(TokenizedLines::arrow(ArrowText::new(
        lines,
        Arrays::shared(arrays),
    ))))
}

/// The first line that is not UTF-8, checked on the pool with the GIL released.
pub(crate) fn first_invalid(py: Python<'_>, lines: &[Span]) -> Option<usize> {
    // On the process's own pool (`install`): rayon's global pool, which a bare `par_iter`
    // uses, has no threads in a forked child, where this waited forever.
    py.detach(|| {
        install(Threads::ALL, || {
            lines.par_iter().position_first(|s| {
                // SAFETY: the caller holds the arrays the spans point into.
                unsafe { s.bytes() }.is_some_and(|b| simdutf8::basic::from_utf8(b).is_err())
            })
        })
    })
}

/// The error for an object whose Arrow methods do not return what the interface says.
fn bad_protocol(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &dyn Display) -> PyErr {
    ErrorKind::InputType.err(
        py,
        format!(
            "{what} is a {} whose Arrow PyCapsule interface does not return the C data \
             interface's capsules",
            type_name(obj)
        ),
    )
}

/// Moves the struct out of the capsule `capsule` named `name`, leaving it released (the
/// interface's rule: the capsule's destructor then frees nothing).
fn take<T: Released>(capsule: &Bound<'_, PyAny>, name: &CStr, what: &dyn Display) -> PyResult<T> {
    let py = capsule.py();
    let capsule = capsule
        .cast::<PyCapsule>()
        .map_err(|_| bad_protocol(py, capsule, what))?;
    let ptr = capsule.pointer_checked(Some(name))?.cast::<T>();
    // SAFETY: a capsule of this name holds a live `T` (the interface's contract); reading it
    // moves it here, and overwriting the original with a released struct means it is
    // released once, by the `T` returned.
    unsafe {
        let owned = std::ptr::read(ptr.as_ptr());
        std::ptr::write(ptr.as_ptr(), released_struct());
        Ok(owned)
    }
}

/// The schema and every chunk of the stream in the capsule `capsule`.
fn read_stream(
    capsule: &Bound<'_, PyAny>,
    what: &dyn Display,
) -> PyResult<(FfiSchema, Vec<FfiArray>)> {
    let py = capsule.py();
    let mut stream: FfiStream = take(capsule, c"arrow_array_stream", what)?;
    let (Some(get_schema), Some(get_next)) = (stream.get_schema, stream.get_next) else {
        return Err(bad_protocol(py, capsule, what));
    };
    let failed = |stream: &mut FfiStream, code: c_int| {
        // SAFETY: `get_last_error` returns null or a C string valid until the next call.
        let detail = stream.get_last_error.map_or(String::new(), |f| unsafe {
            let p = f(stream);
            if p.is_null() {
                String::new()
            } else {
                format!(": {}", CStr::from_ptr(p).to_string_lossy())
            }
        });
        ErrorKind::Input.err(
            py,
            format!("reading the Arrow stream of {what} failed (error {code}){detail}"),
        )
    };
    let mut schema: FfiSchema = released_struct();
    // SAFETY: the stream is live, and `schema` is a released struct for it to fill.
    let code = unsafe { get_schema(&mut stream, &mut schema) };
    if code != 0 {
        return Err(failed(&mut stream, code));
    }
    let mut chunks = Vec::new();
    loop {
        let mut array: FfiArray = released_struct();
        // SAFETY: as above; a released array back means the stream has ended.
        let code = unsafe { get_next(&mut stream, &mut array) };
        if code != 0 {
            return Err(failed(&mut stream, code));
        }
        if array.release.is_none() {
            return Ok((schema, chunks));
        }
        chunks.push(array);
    }
}

/// The format string of `schema`, or an error.
pub(crate) fn format_of<'a>(
    py: Python<'_>,
    schema: &'a FfiSchema,
    what: &dyn Display,
) -> PyResult<&'a [u8]> {
    if schema.format.is_null() {
        return Err(
            ErrorKind::InputType.err(py, format!("{what}: an Arrow schema without a format"))
        );
    }
    // SAFETY: a live schema's format is a NUL-terminated string.
    Ok(unsafe { CStr::from_ptr(schema.format) }.to_bytes())
}

/// The text layout of `schema`, or an error naming the type found.
pub(crate) fn layout_of(
    py: Python<'_>,
    schema: &FfiSchema,
    what: &dyn Display,
) -> PyResult<Layout> {
    match format_of(py, schema, what)? {
        b"u" => Ok(Layout::Utf8),
        b"U" => Ok(Layout::LargeUtf8),
        b"vu" => Ok(Layout::Utf8View),
        other => Err(ErrorKind::InputType.err(
            py,
            format!(
                "{what} is an Arrow array of format {:?}; expected text: string, large_string \
                 or string_view (format \"u\", \"U\" or \"vu\")",
                String::from_utf8_lossy(other)
            ),
        )),
    }
}

/// Appends items `start..start + count` of `array` to `out`, as spans of their bytes (`None`
/// where null); `start` counts from the array's own offset, as a parent's offset does.
pub(crate) fn spans_of(
    py: Python<'_>,
    layout: Layout,
    array: &FfiArray,
    start: i64,
    count: i64,
    what: &dyn Display,
    out: &mut Vec<Span>,
) -> PyResult<()> {
    let malformed = || malformed(py, what);
    let in_bounds = start >= 0 && count >= 0 && start.checked_add(count) <= Some(array.length);
    let (true, Ok(len), Ok(offset)) = (
        in_bounds,
        usize::try_from(count),
        usize::try_from(array.offset + start),
    ) else {
        return Err(malformed());
    };
    // string: validity, offsets, data; string_view: validity, views, (data buffers,) sizes.
    if array.n_buffers < 3 || array.buffers.is_null() {
        return Err(malformed());
    }
    // SAFETY (every read below): a live array of this layout has `n_buffers` buffer pointers;
    // its validity bitmap (or null) covers `offset + length` bits, its offsets `offset +
    // length + 1` entries, its views `offset + length` entries, and its offsets and views
    // point inside its data buffers (the C data interface's contract with its producer).
    let buffers = unsafe { std::slice::from_raw_parts(array.buffers, array.n_buffers as usize) };
    let validity = buffers[0].cast::<u8>();
    let valid = |j: usize| unsafe { is_valid(validity, j) };
    let span = |bytes: &[u8]| Span(Some(NonNull::from(bytes)));
    match layout {
        Layout::Utf8 | Layout::LargeUtf8 => {
            let data = buffers[2].cast::<u8>();
            let at = |j: usize| -> i64 {
                match layout {
                    Layout::Utf8 => i64::from(unsafe { *buffers[1].cast::<i32>().add(j) }),
                    _ => unsafe { *buffers[1].cast::<i64>().add(j) },
                }
            };
            for j in offset..offset + len {
                if !valid(j) {
                    out.push(Span(None));
                    continue;
                }
                let (start, end) = (at(j), at(j + 1));
                if start < 0 || end < start || (end > start && data.is_null()) {
                    return Err(malformed());
                }
                let n = (end - start) as usize;
                out.push(span(if n == 0 {
                    &[][..]
                } else {
                    unsafe { std::slice::from_raw_parts(data.add(start as usize), n) }
                }));
            }
        }
        Layout::Utf8View => {
            let views = buffers[1].cast::<u8>();
            let data_buffers = &buffers[2..buffers.len() - 1];
            for j in offset..offset + len {
                if !valid(j) {
                    out.push(Span(None));
                    continue;
                }
                let view = unsafe { std::slice::from_raw_parts(views.add(16 * j), 16) };
                let word =
                    |k: usize| i32::from_le_bytes([view[k], view[k + 1], view[k + 2], view[k + 3]]);
                let n = usize::try_from(word(0)).map_err(|_| malformed())?;
                if n <= 12 {
                    out.push(span(&view[4..4 + n]));
                    continue;
                }
                let (Ok(b), Ok(start)) = (usize::try_from(word(8)), usize::try_from(word(12)))
                else {
                    return Err(malformed());
                };
                let data = *data_buffers.get(b).ok_or_else(malformed)?;
                if data.is_null() {
                    return Err(malformed());
                }
                out.push(span(unsafe {
                    std::slice::from_raw_parts(data.cast::<u8>().add(start), n)
                }));
            }
        }
    }
    Ok(())
}

/// Whether item `j` (the array's offset included) is set in the validity bitmap `bitmap`
/// (null: every item is valid).
///
/// # Safety
/// A non-null `bitmap` covers bit `j` (an array's bitmap covers `offset + length` bits).
pub(crate) unsafe fn is_valid(bitmap: *const u8, j: usize) -> bool {
    // SAFETY: the caller's promise.
    bitmap.is_null() || unsafe { *bitmap.add(j / 8) >> (j % 8) & 1 == 1 }
}

/// The error for Arrow data that breaks the format's rules.
pub(crate) fn malformed(py: Python<'_>, what: &dyn Display) -> PyErr {
    ErrorKind::Input.err(py, format!("{what}: a malformed Arrow array"))
}

/// `_core.TokenizedLines.from_arrow(obj)`: the lines of an Arrow text array or stream.
#[pymethods]
impl TokenizedLines {
    /// The text of `obj` (an object with `__arrow_c_stream__` or `__arrow_c_array__`), nulls
    /// as `None`; an `InputTypeError` for anything else.
    #[staticmethod]
    fn from_arrow(obj: &Bound<'_, PyAny>) -> PyResult<TokenizedLines> {
        crate::errors::guard(|| {
            lines(obj, &"the Arrow input")?.ok_or_else(|| {
                ErrorKind::InputType.err(
                    obj.py(),
                    format!(
                        "{} has neither __arrow_c_stream__ nor __arrow_c_array__ (the Arrow \
                         PyCapsule interface)",
                        type_name(obj)
                    ),
                )
            })
        })
    }
}

//! The part of MeCab's C API (`mecab.h`, MeCab 0.996) that rapidbleu calls, resolved from a
//! shared library at run time.
//!
//! Why at run time (`dlopen`) and not linked: the library must be the very one that
//! sacreBLEU's Python binding runs (the copy bundled in the mecab-python3 or mecab-ko wheel;
//! the two differ), building rapidbleu must not need MeCab, and users without the `ja`/`ko`
//! extras must not be affected. Every function pointer here stays valid for as long as the
//! [`Library`] it came from is alive; [`Api`] is only ever stored next to that library.

use libloading::Library;
use std::ffi::{c_char, c_int, c_uint, c_ushort, c_void, CStr};
use std::path::Path;
use std::ptr::NonNull;

/// `mecab_dictionary_info_t`, field for field (`mecab.h`).
#[repr(C)]
pub(super) struct RawDictionaryInfo {
    pub filename: *const c_char,
    pub charset: *const c_char,
    pub size: c_uint,
    pub kind: c_int,
    pub lsize: c_uint,
    pub rsize: c_uint,
    pub version: c_ushort,
    pub next: *const RawDictionaryInfo,
}

/// The C functions used, copied out of the library once.
#[derive(Clone, Copy)]
pub(super) struct Api {
    pub model_new: unsafe extern "C" fn(c_int, *mut *mut c_char) -> *mut c_void,
    pub model_destroy: unsafe extern "C" fn(*mut c_void),
    pub model_new_tagger: unsafe extern "C" fn(*mut c_void) -> *mut c_void,
    pub model_dictionary_info: unsafe extern "C" fn(*mut c_void) -> *const RawDictionaryInfo,
    pub destroy: unsafe extern "C" fn(*mut c_void),
    pub sparse_tostr2: unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> *const c_char,
    pub strerror: unsafe extern "C" fn(*mut c_void) -> *const c_char,
    pub version: unsafe extern "C" fn() -> *const c_char,
}

/// Loads the library at `path` and resolves [`Api`] from it.
///
/// The error says what failed (the loader's message, or the missing symbol).
pub(super) fn load(path: &Path) -> Result<(Library, Api), String> {
    // SAFETY: loading a library runs its initialisers. The path names the MeCab library the
    // caller's Python binding itself loads (or one a user chose), whose initialisers only set
    // up C++ statics.
    let lib = unsafe { Library::new(path) }
        .map_err(|e| format!("cannot load {}: {e}", path.display()))?;
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: the type is the prototype of this symbol in mecab.h; the pointer is used
            // only while `lib` is alive (Api is stored next to it).
            *unsafe { lib.get($name) }.map_err(|e| {
                format!(
                    "{} is not a MeCab library: symbol {} is missing ({e})",
                    path.display(),
                    $name
                )
            })?
        };
    }
    let api = Api {
        model_new: sym!("mecab_model_new"),
        model_destroy: sym!("mecab_model_destroy"),
        model_new_tagger: sym!("mecab_model_new_tagger"),
        model_dictionary_info: sym!("mecab_model_dictionary_info"),
        destroy: sym!("mecab_destroy"),
        sparse_tostr2: sym!("mecab_sparse_tostr2"),
        strerror: sym!("mecab_strerror"),
        version: sym!("mecab_version"),
    };
    Ok((lib, api))
}

/// A C string from MeCab, copied (lossily: MeCab's messages and paths are meant as text).
///
/// # Safety
/// `p` is null or points to a NUL-terminated string that lives for the duration of the call.
pub(super) unsafe fn c_text(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: as documented above.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// MeCab's last global error (`mecab_strerror(NULL)`), e.g. why a model could not be opened.
pub(super) fn global_error(api: &Api) -> String {
    // SAFETY: strerror(NULL) returns MeCab's static error buffer.
    unsafe { c_text((api.strerror)(std::ptr::null_mut())) }
}

/// A MeCab tagger (`mecab_t`) made from a shared model: one per thread, never shared.
pub(super) struct Tagger {
    raw: NonNull<c_void>,
    api: Api,
}

// SAFETY: a tagger is used by one thread at a time (`&mut self`); MeCab keeps no thread-local
// state in it, so moving it to another thread between calls is fine.
unsafe impl Send for Tagger {}

impl Tagger {
    /// `mecab_model_new_tagger(model)`.
    ///
    /// # Safety
    /// `model` is a live `mecab_model_t` of `api`'s library that outlives the tagger.
    pub(super) unsafe fn new(api: Api, model: NonNull<c_void>) -> Result<Tagger, String> {
        // SAFETY: as documented above; the model is thread-safe (MeCab::Model's contract).
        let raw = unsafe { (api.model_new_tagger)(model.as_ptr()) };
        match NonNull::new(raw) {
            Some(raw) => Ok(Tagger { raw, api }),
            None => Err(format!(
                "MeCab could not create a tagger: {}",
                global_error(&api)
            )),
        }
    }

    /// `Tagger::parse(text, len)`: MeCab's output for `text`, borrowed until the next parse.
    ///
    /// This is the very call that `MeCab.Tagger.parse(str)` of the Python bindings makes
    /// (`TaggerImpl::parse(const char*, size_t)`), so the output is the same bytes.
    pub(super) fn parse(&mut self, text: &[u8]) -> Result<&[u8], String> {
        // SAFETY: `raw` is a live tagger used by this thread only; MeCab reads `len` bytes of
        // `text` (no terminator needed) and returns null or a NUL-terminated string owned by
        // the tagger's lattice, valid until its next parse (the borrow of `self` ensures that).
        unsafe {
            let out = (self.api.sparse_tostr2)(self.raw.as_ptr(), text.as_ptr().cast(), text.len());
            if out.is_null() {
                return Err(c_text((self.api.strerror)(self.raw.as_ptr())));
            }
            Ok(CStr::from_ptr(out).to_bytes())
        }
    }
}

impl Drop for Tagger {
    fn drop(&mut self) {
        // SAFETY: `raw` came from mecab_model_new_tagger and is destroyed once, here.
        unsafe { (self.api.destroy)(self.raw.as_ptr()) }
    }
}

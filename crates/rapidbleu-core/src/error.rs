//! Errors of the core, and how their messages spell values. The Python glue maps each variant
//! to a `rapidbleu.errors` class.

use std::fmt;

/// Everything that can go wrong in the core; no core function panics on user input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// An option value outside what is allowed (the message lists what is allowed).
    InvalidOption(String),
    /// Input whose shape or content cannot be scored (the message says where).
    InvalidInput(String),
    /// A segment without any reference.
    MissingReference(String),
    /// Input (times its options) too large to hold in memory or to count; the message says
    /// how large and what to change.
    TooLarge(String),
    /// Reference data a metric needs (WordNet for METEOR) missing or unreadable; the message
    /// says where it looked and how to get it.
    MissingData(String),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::InvalidOption(m)
            | CoreError::InvalidInput(m)
            | CoreError::MissingReference(m)
            | CoreError::TooLarge(m)
            | CoreError::MissingData(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CoreError {}

/// Makes room for `additional` more values in `v`, fallibly: sizes that come from the input
/// (segments times the row width, an array's length) must give an error when they do not fit
/// in memory, not abort the whole process.
pub fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), CoreError> {
    v.try_reserve(additional).map_err(|_| {
        CoreError::TooLarge(format!(
            "{additional} values ({} bytes each) do not fit in memory; give less input at a \
             time (fewer segments, shorter sequences) or lower max_ngram_order",
            std::mem::size_of::<T>()
        ))
    })
}

/// Numbers whose all-zero bit pattern is their `Default` (zero), so a buffer of them can come
/// zeroed from the allocator.
pub trait Zeroable: Copy + Default + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! zeroable {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Zeroable for $t {}
    )*};
}
zeroable!(i32, i64, u32, u64, usize, f32, f64);

/// `rows * row_len`, the length of a buffer of rows; an error if it overflows.
pub fn buffer_len(rows: usize, row_len: usize) -> Result<usize, CoreError> {
    rows.checked_mul(row_len)
        .ok_or_else(|| too_many_rows(rows, row_len))
}

fn too_many_rows(rows: usize, row_len: usize) -> CoreError {
    CoreError::TooLarge(format!(
        "{rows} rows of {row_len} values do not fit in memory; score fewer segments at a time \
         or lower max_ngram_order"
    ))
}

/// A zeroed buffer of `rows * row_len` values, allocated fallibly (as [`reserve`]).
///
/// The buffer comes from `alloc_zeroed` (`calloc`), which for a large first buffer gets fresh
/// pages from the kernel instead of writing zeros (`engine::parallel::zeroed_on` writes them
/// on many threads where they must be written).
pub fn zeroed<T: Zeroable>(rows: usize, row_len: usize) -> Result<Vec<T>, CoreError> {
    let n = buffer_len(rows, row_len)?;
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| too_many_rows(rows, row_len))?;
    if layout.size() == 0 {
        return Ok(vec![T::default(); n]);
    }
    // SAFETY: the layout has a non-zero size; a null pointer (no memory) is refused below.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return Err(too_many_rows(rows, row_len));
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `n` values of `T`
    // (so capacity `n`), and all `n` are initialized: zero bits are a valid `T` (`Zeroable`).
    Ok(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// A `str` as Python's `repr()` spells it, for messages: messages name values the way the
/// Python user wrote them (`'13A'`, not `"13A"`). Exact for ASCII; other characters are shown
/// as they are, except C1 controls, which are escaped as Python escapes them.
pub fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || ('\u{7f}'..='\u{9f}').contains(&c) => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A float as Python's `repr()` spells it (`nan`, `inf`, `-1.0`, `1e+308`, `1e-05`), for
/// messages: the shortest digits that round-trip (Rust and Python agree on those), placed as
/// Python's `float_repr_style = 'short'` places them (exponent form below 1e-4 and from 1e16).
pub fn py_float(v: f64) -> String {
    if v.is_nan() {
        return "nan".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // `{:e}` gives the shortest round-trip digits as `d.ddde±x`.
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..16).contains(&exp) {
        let fixed = format!("{v}");
        if fixed.contains('.') {
            fixed
        } else {
            fixed + ".0"
        }
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_as_python_spells_them() {
        // repr() in CPython 3.11.
        let cases = [
            (-0.1, "-0.1"),
            (-1.0, "-1.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1e308, "1e+308"),
            (-1.7976931348623157e308, "-1.7976931348623157e+308"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (5e-324, "5e-324"),
            (123.456, "123.456"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for (v, want) in cases {
            assert_eq!(py_float(v), want, "{v:e}");
        }
    }

    #[test]
    fn strings_as_python_spells_them() {
        assert_eq!(py_str("13A"), "'13A'");
        assert_eq!(py_str("it's"), "\"it's\"");
        assert_eq!(py_str("'\""), "'\\'\"'");
        assert_eq!(py_str("a\tb\n\\\u{1}\u{85}é"), "'a\\tb\\n\\\\\\x01\\x85é'");
    }

    #[test]
    fn huge_buffers_are_errors() {
        assert!(matches!(
            zeroed::<i64>(usize::MAX / 2, 3),
            Err(CoreError::TooLarge(_))
        ));
        assert!(matches!(
            zeroed::<i64>(1 << 40, 1 << 20),
            Err(CoreError::TooLarge(_))
        ));
        assert_eq!(zeroed::<i64>(2, 3), Ok(vec![0; 6]));
        // Beyond any address space (2**50 bytes), whatever the kernel's overcommit policy.
        assert!(reserve(&mut vec![0u8], 1 << 50).is_err());
    }
}

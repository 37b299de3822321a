//! Text from Python for ROUGE: `str` as UTF-8, the default tokenizer and the Porter stemmer
//! on their own (for tests and for `ROUGE.tokenize`).

use crate::errors::{type_name, ErrorKind};
use crate::rouge::options::PyRougeOptions;
use crate::sequence::{is_sequence, not_a_sequence};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use rapidbleu_core::rouge::porter;
use rapidbleu_core::rouge::tokenize::{scan, Piece};
use std::borrow::Cow;

/// The str items of `seq` (`what[i]` in messages).
pub fn strings<'py>(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyString>>> {
    let py = seq.py();
    if seq.is_instance_of::<PyString>() {
        return Err(ErrorKind::InputType.err(
            py,
            format!("{what} must be a sequence of str, not a single str"),
        ));
    }
    if !is_sequence(seq) {
        return Err(not_a_sequence(seq, &what, "str"));
    }
    let iter = seq.try_iter()?;
    let mut out = Vec::with_capacity(seq.len().unwrap_or(0));
    for (i, item) in iter.enumerate() {
        let item = item?;
        out.push(item.cast_into::<PyString>().map_err(|e| {
            ErrorKind::InputType.err(
                py,
                format!(
                    "{what}[{i}] is {}; expected str",
                    type_name(&e.into_inner())
                ),
            )
        })?);
    }
    Ok(out)
}

/// The UTF-8 text of `s`. A lone surrogate (no UTF-8 form) becomes `?`: rouge-score's
/// tokenizer treats both as a separator (neither is in `[a-z0-9]` after `lower()`, nor `\n`),
/// so the tokens and sentences are unchanged.
pub fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    match s.to_str() {
        Ok(t) => Ok(Cow::Borrowed(t)),
        Err(_) => {
            let b = s.call_method1("encode", ("utf-8", "replace"))?;
            let b = b.cast_into::<PyBytes>().map_err(PyErr::from)?;
            Ok(Cow::Owned(
                String::from_utf8_lossy(b.as_bytes()).into_owned(),
            ))
        }
    }
}

#[pymethods]
impl PyRougeOptions {
    #[staticmethod]
    /// rouge-score's `tokenize.tokenize(text, stemmer)`: the tokens of `text`.
    #[pyo3(signature = (text, use_stemmer = false))]
    fn tokenize(text: &Bound<'_, PyAny>, use_stemmer: bool) -> PyResult<Vec<String>> {
        let s = text.cast::<PyString>().map_err(|_| {
            ErrorKind::InputType.err(
                text.py(),
                format!("text must be a str, not {}", type_name(text)),
            )
        })?;
        let t = utf8(s)?;
        let mut out = Vec::new();
        let mut stemmed = Vec::new();
        scan(&t, &mut Vec::new(), |p| {
            if let Piece::Token(w) = p {
                let form = if use_stemmer && w.len() > 3 {
                    porter::stem(w, &mut stemmed);
                    &stemmed[..]
                } else {
                    w
                };
                if !form.is_empty() {
                    out.push(String::from_utf8_lossy(form).into_owned());
                }
            }
        });
        Ok(out)
    }
}

/// NLTK's `PorterStemmer().stem(word)` (`NLTK_EXTENSIONS`) for each word of lowercase ASCII
/// letters and digits (the words rouge-score stems).
#[pyfunction]
fn porter_stem(py: Python<'_>, words: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let words = strings(words, "words")?;
    let mut out = Vec::with_capacity(words.len());
    let mut buf = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let t = utf8(w)?;
        if !t
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            return Err(ErrorKind::Input.err(
                py,
                format!("words[{i}] is {t:?}; the stemmer takes lowercase a-z and 0-9 only"),
            ));
        }
        porter::stem(t.as_bytes(), &mut buf);
        out.push(String::from_utf8_lossy(&buf).into_owned());
    }
    Ok(out)
}

/// Adds this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(porter_stem, m)?)?;
    Ok(())
}

//! `_core.JiebaDict`: jieba's dictionary and HMM model, as the Python package has them loaded,
//! for the core's port of `jieba.cut` (`rapidbleu_core::rouge::dialects::jieba`).

use crate::errors::{guard, type_name, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rapidbleu_core::rouge::dialects::jieba::{Hmm, Jieba, Scratch, MIN_FLOAT};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// `finalseg`'s states, in its order.
const STATES: [&str; 4] = ["B", "M", "E", "S"];

/// jieba 0.42.1's prefix dictionary and HMM, copied from the Python package (frozen).
#[pyclass(name = "JiebaDict", module = "rapidbleu._core", frozen)]
pub struct PyJiebaDict {
    /// Shared with the threads that cut.
    pub jieba: Arc<Jieba>,
}

/// `d[key]` of a dict, as the package's code reads it (a missing key is an error).
fn item<'py>(d: &Bound<'py, PyDict>, key: &str, what: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .ok_or_else(|| ErrorKind::InvalidOption.err(d.py(), format!("{what} has no state {key:?}")))
}

/// `d[key]` as a dict (`trans_P` and `emit_P` hold one per state).
fn dict_item<'py>(d: &Bound<'py, PyDict>, key: &str, what: &str) -> PyResult<Bound<'py, PyDict>> {
    let v = item(d, key, what)?;
    v.cast_into::<PyDict>().map_err(|e| {
        let v = e.into_inner();
        ErrorKind::InputType.err(
            v.py(),
            format!("{what}[{key:?}] is {}; expected a dict", type_name(&v)),
        )
    })
}

/// A float of the model, as Python adds it.
fn float(v: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    v.extract::<f64>().map_err(|_| {
        ErrorKind::InputType.err(
            v.py(),
            format!("{what} is {}; expected a float", type_name(v)),
        )
    })
}

#[pymethods]
impl PyJiebaDict {
    /// From `jieba.dt.FREQ`, `math.log(jieba.dt.total)`, `finalseg`'s `start_P`, `trans_P`
    /// and `emit_P`, and `finalseg.Force_Split_Words`.
    #[new]
    fn new(
        freq: &Bound<'_, PyDict>,
        log_total: f64,
        start_p: &Bound<'_, PyDict>,
        trans_p: &Bound<'_, PyDict>,
        emit_p: &Bound<'_, PyDict>,
        force_split: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        guard(|| {
            let py = freq.py();
            let mut words = Vec::with_capacity(freq.len());
            for (k, v) in freq.iter() {
                let word = k.cast::<PyString>().map_err(|_| {
                    ErrorKind::InputType.err(py, "jieba's FREQ has a key that is not a str")
                })?;
                let f = float(&v, "a frequency of jieba's FREQ")?;
                if f.is_nan() || f < 0.0 {
                    // jieba's `log` raises on it where the Python code meets it.
                    return Err(ErrorKind::InvalidOption.err(
                        py,
                        format!("jieba's FREQ has frequency {f} for {word}; expected >= 0"),
                    ));
                }
                words.push((word.to_str()?.to_owned(), f, v.is_truthy()?));
            }
            let mut hmm = Hmm {
                start: [0.0; 4],
                trans: [[MIN_FLOAT; 4]; 4],
                emit: Default::default(),
            };
            for (y, state) in STATES.iter().enumerate() {
                hmm.start[y] = float(&item(start_p, state, "start_P")?, "start_P")?;
                let trans = dict_item(trans_p, state, "trans_P")?;
                for (z, to) in STATES.iter().enumerate() {
                    if let Some(p) = trans.get_item(to)? {
                        hmm.trans[y][z] = float(&p, "trans_P")?;
                    }
                }
                let emit = dict_item(emit_p, state, "emit_P")?;
                let mut map = FxHashMap::default();
                for (c, p) in emit.iter() {
                    // A key of other than one character never matches `emit_p[y].get(char)`.
                    let Ok(c) = c.extract::<String>() else {
                        continue;
                    };
                    let mut chars = c.chars();
                    if let (Some(c), None) = (chars.next(), chars.next()) {
                        map.insert(c, float(&p, "emit_P")?);
                    }
                }
                hmm.emit[y] = map;
            }
            let mut split = Vec::new();
            for w in force_split.try_iter()? {
                if let Ok(w) = w?.extract::<String>() {
                    split.push(w);
                }
            }
            Ok(PyJiebaDict {
                jieba: Arc::new(Jieba::new(words, log_total, hmm, split)),
            })
        })
    }

    /// `list(jieba.cut(text))`.
    fn cut(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.jieba.cut(text, &mut Scratch::default(), &mut |w| {
            out.push(w.to_owned())
        });
        out
    }
}

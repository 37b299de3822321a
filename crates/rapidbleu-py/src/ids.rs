//! Glue for pre-tokenised input: `token_statistics` (sequences read by `read.rs`, segments
//! assembled here, counted by the core) and NLTK's sentence scores from statistics rows. A
//! corpus holds IDs or tokens, never both (the engine numbers both from 0).

use crate::errors::{core_err, rb_err, run_detached};
use crate::read::{new_collector, push_seqs, recycle, Collector, Indexed, Kind, Read};
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use rapidbleu_core::bleu::nltk::{sentence_bleu_rows, NltkParams};
use rapidbleu_core::bleu::tokens::{token_stats, RefLenRule, TokenCorpus};

/// Everything read from Python: hypotheses, reference collectors and the order in which their
/// sequences form each segment's references.
struct Gathered<'py> {
    hyps: Collector<'py>,
    refs: Vec<Collector<'py>>,
    /// `(collector, sequence)` of every reference, segment after segment.
    ref_order: Vec<(usize, usize)>,
    ref_offsets: Vec<usize>,
}

impl<'py> Gathered<'py> {
    /// The ID corpus, moved out of the collectors (copied only to interleave several
    /// reference streams).
    fn ids(&mut self) -> TokenCorpus<i64> {
        let mut c = TokenCorpus {
            hyps: std::mem::take(&mut self.hyps.ids),
            ref_offsets: std::mem::take(&mut self.ref_offsets),
            ..TokenCorpus::default()
        };
        if let [only] = self.refs.as_mut_slice() {
            // One collector is read in order (`ref_order` is (0, 0), (0, 1), ...).
            c.refs = std::mem::take(&mut only.ids);
        } else {
            for &(k, i) in &self.ref_order {
                c.refs.push_slice(self.refs[k].ids.get(i));
            }
        }
        c
    }

    fn tokens(&self) -> TokenCorpus<&[u8]> {
        fn bytes<'a>(col: &'a Collector<'_>) -> Vec<&'a [u8]> {
            col.toks
                .iter()
                .map(|t| match t.cast::<PyString>() {
                    Ok(s) => s.to_str().map(str::as_bytes).unwrap_or_default(),
                    Err(_) => t
                        .cast::<PyBytes>()
                        .map(|b| b.as_bytes())
                        .unwrap_or_default(),
                })
                .collect()
        }
        let seq = |col: &Collector<'_>, i: usize| col.tok_offsets[i]..col.tok_offsets[i + 1];
        let hb = bytes(&self.hyps);
        let rb: Vec<Vec<&[u8]>> = self.refs.iter().map(bytes).collect();
        let mut c: TokenCorpus<&[u8]> = TokenCorpus::default();
        for i in 0..self.hyps.tok_offsets.len() - 1 {
            c.hyps.push_slice(&hb[seq(&self.hyps, i)]);
        }
        for &(k, i) in &self.ref_order {
            c.refs.push_slice(&rb[k][seq(&self.refs[k], i)]);
        }
        c.ref_offsets = self.ref_offsets.clone();
        c
    }
}

/// Lengths given per reference list (`ref_lengths[k]`), as `i64`s.
fn lengths_at(lengths: &Option<Vec<Option<Vec<i64>>>>, k: usize) -> Option<&[i64]> {
    lengths
        .as_ref()
        .and_then(|l| l.get(k))
        .and_then(|l| l.as_deref())
}

/// Per-segment statistics `[hyp_len, ref_len, correct_1..N, total_1..N]` of pre-tokenised
/// input and its kind (`"ids"`, `"tokens"`, or `"empty"` when every sequence is empty).
/// `refs` holds one list of references per hypothesis (`per_segment`) or reference streams.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (hyps, refs, max_order, ref_len_rule = "closest", per_segment = true, pad_id = None, hyp_lengths = None, ref_lengths = None, num_threads = 0, str_chars = false))]
pub fn token_statistics<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    max_order: usize,
    ref_len_rule: &str,
    per_segment: bool,
    pad_id: Option<i64>,
    hyp_lengths: Option<Vec<i64>>,
    ref_lengths: Option<Vec<Option<Vec<i64>>>>,
    num_threads: usize,
    str_chars: bool,
) -> PyResult<(Bound<'py, PyArray2<i64>>, &'static str)> {
    let rule = RefLenRule::from_name(ref_len_rule).map_err(|e| core_err(py, e))?;
    let read = Read {
        pad: pad_id,
        str_chars,
    };
    let mut kind = Kind::Unknown;
    let mut buf = Vec::new();
    let mut g = Gathered {
        hyps: new_collector(),
        refs: Vec::new(),
        ref_order: Vec::new(),
        ref_offsets: vec![0],
    };
    let n = push_seqs(
        hyps,
        &"hypotheses",
        read,
        hyp_lengths.as_deref(),
        &mut kind,
        &mut g.hyps,
        &mut buf,
    )?;
    let outer: Vec<Bound<'py, PyAny>> = refs
        .try_iter()
        .map_err(|_| rb_err(py, "InputTypeError", "references must be a sequence"))?
        .collect::<PyResult<_>>()?;
    if per_segment {
        if outer.len() != n {
            return Err(rb_err(
                py,
                "LengthMismatchError",
                format!(
                    "{n} hypotheses but {} reference lists; each hypothesis needs its own list \
                     of references",
                    outer.len()
                ),
            ));
        }
        let mut col = new_collector();
        let mut seen = 0;
        for (i, seg) in outer.iter().enumerate() {
            let what = Indexed(&"references", i);
            let lens = lengths_at(&ref_lengths, i);
            let count = push_seqs(seg, &what, read, lens, &mut kind, &mut col, &mut buf)?;
            g.ref_order.extend((seen..seen + count).map(|j| (0, j)));
            seen += count;
            g.ref_offsets.push(seen);
        }
        g.refs.push(col);
    } else {
        for (k, stream) in outer.iter().enumerate() {
            let what = Indexed(&"references", k);
            let mut col = new_collector();
            let lens = lengths_at(&ref_lengths, k);
            let count = push_seqs(stream, &what, read, lens, &mut kind, &mut col, &mut buf)?;
            if count != n {
                return Err(rb_err(
                    py,
                    "LengthMismatchError",
                    format!(
                        "{what} has {count} segments but there are {n} hypotheses; every \
                         reference stream needs one sequence per hypothesis"
                    ),
                ));
            }
            g.refs.push(col);
        }
        if g.refs.is_empty() {
            return Err(rb_err(
                py,
                "EmptyInputError",
                "no reference streams given; pass at least one",
            ));
        }
        for i in 0..n {
            g.ref_order.extend((0..g.refs.len()).map(|k| (k, i)));
            g.ref_offsets.push(g.ref_order.len());
        }
    }
    let row_len = 2 + 2 * max_order;
    let (data, name) = match kind {
        Kind::Tokens => {
            let corpus = g.tokens();
            let d = run_detached(py, || token_stats(&corpus, max_order, rule, num_threads))?;
            (d, "tokens")
        }
        Kind::Ids | Kind::Unknown => {
            let corpus = g.ids();
            let d = run_detached(py, || token_stats(&corpus, max_order, rule, num_threads));
            recycle(corpus);
            (d?, if kind == Kind::Ids { "ids" } else { "empty" })
        }
    };
    let rows = data.len() / row_len.max(1);
    Ok((data.into_pyarray(py).reshape([rows, row_len])?, name))
}

/// NLTK's `sentence_bleu` (smoothing `method0`..`method4`) of every statistics row, one
/// column per weight vector.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (stats, weights, is_default, method, epsilon, k, auto_reweigh, num_threads = 0))]
pub fn nltk_sentence_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
    weights: Vec<Vec<f64>>,
    is_default: Vec<bool>,
    method: u8,
    epsilon: f64,
    k: f64,
    auto_reweigh: bool,
    num_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let p = NltkParams::new(method, epsilon, k, auto_reweigh).map_err(|e| core_err(py, e))?;
    let view = stats.as_array();
    let (n, cols) = (view.nrows(), view.ncols());
    if cols < 4 || cols % 2 != 0 {
        return Err(rb_err(
            py,
            "InputError",
            format!("statistics rows need 2 + 2N columns (N >= 1), got {cols}"),
        ));
    }
    let flat: Vec<i64> = view.iter().copied().collect();
    let nw = weights.len();
    let out = run_detached(py, || {
        let mut out = vec![0f64; n * nw];
        sentence_bleu_rows(
            &flat,
            (cols - 2) / 2,
            &weights,
            &is_default,
            &p,
            num_threads,
            &mut out,
        )
        .map(|()| out)
    })?;
    out.into_pyarray(py).reshape([n, nw])
}

/// Registers the functions of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(token_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(nltk_sentence_scores, m)?)?;
    Ok(())
}

//! Glue of `rapidbleu_core::bleu::tokens`: statistics of pre-tokenised input (sequences read by
//! `read.rs`, assembled into a corpus here, counted by the core). A corpus holds token IDs or
//! str tokens, never both (the engine numbers both from 0).

use crate::args::{lengths_arg, pad_arg, ref_lengths_arg};
use crate::arrays::to_2d;
use crate::bleu::options::max_order_arg;
use crate::bleu::options::PyBleuOptions;
use crate::engine::parallel::{int_arg, threads};
use crate::errors::{guard, run_detached, ErrorKind, OrRaise};
use crate::read::{push_seqs, Collector, Indexed, Kind, Read};
use crate::sequence::{is_sequence, not_a_sequence};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidbleu_core::bleu::layout::RowLayout;
use rapidbleu_core::bleu::ref_len::RefLenRule;
use rapidbleu_core::bleu::tokens::token_stats;
use rapidbleu_core::corpus::{Corpus, Groups};
use rapidbleu_core::engine::parallel::lock_briefly;
use std::sync::Mutex;

/// Everything read from Python: hypotheses, reference collectors, and which of their
/// sequences form each segment's references.
struct Gathered<'py> {
    hyps: Collector<'py>,
    refs: Vec<Collector<'py>>,
    /// Per segment, `(collector, sequence)` of each of its references.
    ref_order: Groups<(usize, usize)>,
}

impl<'py> Gathered<'py> {
    /// The corpus of token IDs, borrowing the collected buffers (no copy, whatever the layout).
    fn ids(&self, py: Python<'_>) -> PyResult<Corpus<&[i64]>> {
        let hyps = self.hyps.ids.iter().collect();
        let refs = self
            .ref_order
            .iter()
            .map(|seg| seg.iter().map(|&(k, i)| self.refs[k].ids.get(i)))
            .collect();
        Corpus::new(hyps, refs).or_raise(py)
    }

    /// The tokens of every collector as their UTF-8 bytes (the reader checked that each is
    /// valid text).
    fn token_bytes(&self) -> (Vec<&[u8]>, Vec<Vec<&[u8]>>) {
        fn bytes<'a>(col: &'a Collector<'_>) -> Vec<&'a [u8]> {
            col.toks
                .iter()
                .map(|t| {
                    t.cast::<PyString>()
                        .ok()
                        .and_then(|s| s.to_str().ok())
                        .map(str::as_bytes)
                        .unwrap_or_default()
                })
                .collect()
        }
        (bytes(&self.hyps), self.refs.iter().map(bytes).collect())
    }

    /// The corpus of tokens, borrowing `hyp_bytes` and `ref_bytes` ([`Gathered::token_bytes`]).
    fn tokens<'a>(
        &self,
        py: Python<'_>,
        hyp_bytes: &'a [&'a [u8]],
        ref_bytes: &'a [Vec<&'a [u8]>],
    ) -> PyResult<Corpus<&'a [&'a [u8]]>> {
        let seq = |col: &Collector<'_>, i: usize| col.tok_offsets[i]..col.tok_offsets[i + 1];
        let hyps = (0..self.hyps.tok_offsets.len() - 1)
            .map(|i| &hyp_bytes[seq(&self.hyps, i)])
            .collect();
        let refs = self
            .ref_order
            .iter()
            .map(|seg| {
                seg.iter()
                    .map(|&(k, i)| &ref_bytes[k][seq(&self.refs[k], i)])
            })
            .collect();
        Corpus::new(hyps, refs).or_raise(py)
    }
}

/// Lengths given per reference list (`ref_lengths[k]`), as `i64`s.
fn lengths_at(lengths: &Option<Vec<Option<Vec<i64>>>>, k: usize) -> Option<&[i64]> {
    lengths
        .as_ref()
        .and_then(|l| l.get(k))
        .and_then(|l| l.as_deref())
}

/// Reads `refs` (one list per hypothesis with `per_segment`, else reference streams) into
/// `g` for `n` hypotheses.
fn read_references<'py>(
    g: &mut Gathered<'py>,
    refs: &Bound<'py, PyAny>,
    n: usize,
    per_segment: bool,
    read: Read,
    ref_lengths: &Option<Vec<Option<Vec<i64>>>>,
    kind: &mut Kind,
) -> PyResult<()> {
    let py = refs.py();
    let mut buf = Vec::new();
    let items = if per_segment {
        "reference lists (one per hypothesis)"
    } else {
        "reference streams"
    };
    if refs.is_instance_of::<PyString>() || !is_sequence(refs) {
        return Err(not_a_sequence(refs, &"references", items));
    }
    let outer: Vec<Bound<'py, PyAny>> = refs
        .try_iter()
        .map_err(|_| not_a_sequence(refs, &"references", items))?
        .collect::<PyResult<_>>()?;
    if per_segment {
        if outer.len() != n {
            return Err(ErrorKind::LengthMismatch.err(
                py,
                format!(
                    "{n} hypotheses but {} reference lists; each hypothesis needs its own list \
                     of references (references are read per segment, NLTK's layout: \
                     references[i] lists the references of hypothesis i; for reference \
                     streams, references[k][i], pass per_segment=False)",
                    outer.len()
                ),
            ));
        }
        let mut col = new_collector();
        let mut seen = 0;
        for (i, seg) in outer.iter().enumerate() {
            let what = Indexed(&"references", i);
            let lens = lengths_at(ref_lengths, i);
            let count = push_seqs(
                seg,
                &what,
                read,
                (lens, "ref_lengths"),
                kind,
                &mut col,
                &mut buf,
            )?;
            g.ref_order.push_group((seen..seen + count).map(|j| (0, j)));
            seen += count;
        }
        g.refs.push(col);
        return Ok(());
    }
    for (k, stream) in outer.iter().enumerate() {
        let what = Indexed(&"references", k);
        let mut col = new_collector();
        let lens = lengths_at(ref_lengths, k);
        let count = push_seqs(
            stream,
            &what,
            read,
            (lens, "ref_lengths"),
            kind,
            &mut col,
            &mut buf,
        )?;
        if count != n {
            return Err(ErrorKind::LengthMismatch.err(
                py,
                format!(
                    "{what} has {count} segments but there are {n} hypotheses; every reference \
                     stream needs one sequence per hypothesis (references are read as streams, \
                     sacreBLEU's layout: references[k][i]; for one list of references per \
                     hypothesis, pass per_segment=True)"
                ),
            ));
        }
        g.refs.push(col);
    }
    if g.refs.is_empty() {
        return Err(ErrorKind::EmptyInput.err(py, "no reference streams given; pass at least one"));
    }
    for i in 0..n {
        g.ref_order.push_group((0..g.refs.len()).map(|k| (k, i)));
    }
    Ok(())
}

#[pymethods]
impl PyBleuOptions {
    #[staticmethod]
    /// Per-segment statistics rows of pre-tokenised input and its kind (`"ids"`, `"tokens"`, or
    /// `"empty"` when every sequence is empty). `refs` holds one list of references per
    /// hypothesis (`per_segment`) or reference streams.
    // The Python signature is the API (ten parameters, most with defaults).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (hyps, refs, max_order, ref_len_rule = "closest", per_segment = true, pad_id = None, hyp_lengths = None, ref_lengths = None, num_threads = 0, str_chars = false))]
    fn token_statistics<'py>(
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = max_order_arg)] max_order: i64,
        ref_len_rule: &str,
        per_segment: bool,
        #[pyo3(from_py_with = pad_arg)] pad_id: Option<i64>,
        #[pyo3(from_py_with = lengths_arg)] hyp_lengths: Option<Vec<i64>>,
        #[pyo3(from_py_with = ref_lengths_arg)] ref_lengths: Option<Vec<Option<Vec<i64>>>>,
        #[pyo3(from_py_with = int_arg)] num_threads: i64,
        str_chars: bool,
    ) -> PyResult<(Bound<'py, PyArray2<i64>>, &'static str)> {
        guard(|| {
            let rule = RefLenRule::from_name(ref_len_rule).or_raise(py)?;
            let layout = RowLayout::new(max_order).or_raise(py)?;
            let threads = threads(py, num_threads)?;
            let read = Read {
                pad: pad_id,
                str_chars,
            };
            let mut kind = Kind::Unknown;
            let mut g = Gathered {
                hyps: new_collector(),
                refs: Vec::new(),
                ref_order: Groups::new(),
            };
            let lengths = hyp_lengths.as_deref();
            let what = &"hypotheses";
            let n = push_seqs(
                hyps,
                what,
                read,
                (lengths, "lengths"),
                &mut kind,
                &mut g.hyps,
                &mut Vec::new(),
            )?;
            read_references(&mut g, refs, n, per_segment, read, &ref_lengths, &mut kind)?;
            let (rows, name) = match kind {
                Kind::Tokens => {
                    let (hb, rb) = g.token_bytes();
                    let corpus = g.tokens(py, &hb, &rb)?;
                    let rows = run_detached(py, || token_stats(&corpus, layout, rule, threads))?;
                    (rows, "tokens")
                }
                Kind::Ids | Kind::Unknown => {
                    let rows = g.ids(py).and_then(|corpus| {
                        run_detached(py, || token_stats(&corpus, layout, rule, threads))
                    });
                    recycle(std::iter::once(g.hyps).chain(g.refs));
                    (rows?, if kind == Kind::Ids { "ids" } else { "empty" })
                }
            };
            to_2d(py, rows, layout.row_len()).map(|a| (a, name))
        })
    }
}

fn new_collector<'py>() -> Collector<'py> {
    Collector {
        ids: Groups::with_buffer(id_buffer()),
        tok_offsets: vec![0],
        ..Collector::default()
    }
}

/// ID buffers of earlier calls, kept for the next ones.
///
/// Performance decision: a batch of 256 x 1,024 IDs fills two fresh 2 MiB buffers per call,
/// and faulting their pages in cost a quarter of the call; batches come one call after another
/// (rewards in a training loop), so a few buffers are kept (up to [`KEPT_IDS`] items each).
static ID_BUFFERS: Mutex<Vec<Vec<i64>>> = Mutex::new(Vec::new());

/// The largest buffer kept (in IDs: 64 MiB).
const KEPT_IDS: usize = 1 << 23;

fn id_buffer() -> Vec<i64> {
    lock_briefly(&ID_BUFFERS)
        .and_then(|mut kept| kept.pop())
        .unwrap_or_default()
}

/// Keeps the ID buffers of `collectors` for later calls.
fn recycle<'py>(collectors: impl IntoIterator<Item = Collector<'py>>) {
    let Some(mut kept) = lock_briefly(&ID_BUFFERS) else {
        return;
    };
    for c in collectors {
        let buf = c.ids.into_buffer();
        if kept.len() < 4 && buf.capacity() <= KEPT_IDS {
            kept.push(buf);
        }
    }
}

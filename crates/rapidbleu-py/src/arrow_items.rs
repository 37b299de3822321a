//! Arrow items for the per-item API: a table (or struct array) with a candidate column and a
//! references column, read through the Arrow C data interface without a Python object per
//! item and without pyarrow.
//!
//! Evaluation data that `rapidbleu.items` scores as `{"candidate": str, "references": [str,
//! ...]}` mappings is often a table: a Hugging Face dataset, a polars frame, a pyarrow table
//! with a text column and a list-of-text column. Its candidates become one lines object, and
//! reference `j` of every item becomes stream `j` (`None` where an item has fewer than `j + 1`
//! references). Every metric scores those streams as it scores the items' own lists: a `None`
//! is a missing reference, sacreBLEU's rule, so the numbers and `nrefs` are the same
//! (`tests/io/test_arrow_items.py` checks each metric with `==`). The text stays in the
//! table's buffers, which the candidates and every stream share.

use crate::arrow::{
    chunks, first_invalid, format_of, is_valid, layout_of, malformed, spans_of, Arrays, ArrowText,
    FfiArray, FfiSchema, Layout, Span,
};
use crate::errors::{guard, ErrorKind};
use crate::items::{CANDIDATE_KEYS, REFERENCE_KEYS};
use crate::tokenized_lines::TokenizedLines;
use pyo3::prelude::*;
use std::ffi::CStr;
use std::sync::Arc;

/// How the references column holds an item's references.
enum RefsColumn {
    /// One text per item: one reference.
    Text(Layout),
    /// `list` (int32 offsets) or `large_list` (int64 offsets) of text.
    List { large: bool, values: Layout },
    /// `fixed_size_list` of text: `size` references per item.
    Fixed { size: i64, values: Layout },
}

/// Where item `i`'s references are in the flat list of all references.
#[derive(Clone, Copy)]
struct ItemRefs {
    start: usize,
    count: usize,
}

/// `_core.split_arrow_items(items)`: the candidates and the reference streams of Arrow items,
/// or `None` if `items` does not offer the Arrow PyCapsule interface.
#[pyfunction]
pub fn split_arrow_items(
    items: &Bound<'_, PyAny>,
) -> PyResult<Option<(TokenizedLines, Vec<TokenizedLines>)>> {
    guard(|| read(items))
}

fn read(items: &Bound<'_, PyAny>) -> PyResult<Option<(TokenizedLines, Vec<TokenizedLines>)>> {
    let py = items.py();
    let what = &"the Arrow items";
    let Some((schema, arrays)) = chunks(items, what)? else {
        return Ok(None);
    };
    let (cand_at, refs_at, cand_layout, refs_column) = columns(py, &schema)?;
    let mut candidates: Vec<Span> = Vec::new();
    let mut refs: Vec<Span> = Vec::new();
    let mut per_item: Vec<ItemRefs> = Vec::new();
    for array in &arrays {
        let first = candidates.len();
        let n = array.length;
        let rows = struct_rows(py, array, schema.n_children)?;
        for k in 0..usize::try_from(n).map_err(|_| malformed(py, what))? {
            if !rows.valid(k) {
                return Err(item_error(
                    py,
                    first + k,
                    "is null; expected a candidate and its references",
                ));
            }
        }
        spans_of(
            py,
            cand_layout,
            rows.child(cand_at),
            array.offset,
            n,
            what,
            &mut candidates,
        )?;
        if let Some(k) = candidates[first..].iter().position(|s| s.is_null()) {
            return Err(item_error(
                py,
                first + k,
                ": candidate is null; expected str",
            ));
        }
        item_refs(
            py,
            &refs_column,
            rows.child(refs_at),
            array.offset,
            n,
            first,
            &mut refs,
            &mut per_item,
        )?;
    }
    if candidates.is_empty() {
        return Err(ErrorKind::EmptyInput.err(py, "no items to score"));
    }
    if let Some(i) = first_invalid(py, &candidates) {
        return Err(ErrorKind::InvalidText.err(
            py,
            item_message(
                i,
                ": candidate is not valid UTF-8 (Arrow text must be UTF-8)",
            ),
        ));
    }
    if let Some(r) = first_invalid(py, &refs) {
        // The item whose references hold flat reference `r`.
        let i = per_item.partition_point(|p| p.start + p.count <= r);
        return Err(ErrorKind::InvalidText.err(
            py,
            item_message(
                i,
                &format!(
                    ": references[{}] is not valid UTF-8 (Arrow text must be UTF-8)",
                    r - per_item[i].start
                ),
            ),
        ));
    }
    let num_streams = per_item.iter().map(|p| p.count).max().unwrap_or(0);
    let arrays = Arrays::shared(arrays);
    let streams = (0..num_streams)
        .map(|j| {
            let lines = per_item
                .iter()
                .map(|p| {
                    if j < p.count {
                        refs[p.start + j]
                    } else {
                        Span::NULL
                    }
                })
                .collect();
            TokenizedLines::arrow(ArrowText::new(lines, Arc::clone(&arrays)))
        })
        .collect();
    let candidates = TokenizedLines::arrow(ArrowText::new(candidates, arrays));
    Ok(Some((candidates, streams)))
}

/// An error about item `i` (`rest` follows "item {i}", as in `_core.split_items`'s messages).
fn item_error(py: Python<'_>, i: usize, rest: &str) -> PyErr {
    ErrorKind::Input.err(py, item_message(i, rest))
}

/// "item {i}" and `rest`.
fn item_message(i: usize, rest: &str) -> String {
    let space = if rest.starts_with(':') { "" } else { " " };
    format!("item {i}{space}{rest}")
}

/// The candidate and references columns of the items' schema: their positions and layouts.
fn columns(py: Python<'_>, schema: &FfiSchema) -> PyResult<(usize, usize, Layout, RefsColumn)> {
    let what = &"the Arrow items";
    let format = format_of(py, schema, what)?;
    if format != b"+s" || schema.n_children < 0 || schema.children.is_null() {
        return Err(ErrorKind::InputType.err(
            py,
            format!(
                "Arrow items must be a table or a struct array with a candidate column (text) \
                 and a references column (a list of text, or text); got Arrow format {:?}",
                String::from_utf8_lossy(format)
            ),
        ));
    }
    // SAFETY: a live struct schema has `n_children` live child schemas.
    let children: Vec<&FfiSchema> = (0..schema.n_children as usize)
        .map(|k| unsafe { &**schema.children.add(k) })
        .collect();
    let names: Vec<String> = children
        .iter()
        .map(|c| {
            if c.name.is_null() {
                String::new()
            } else {
                // SAFETY: a non-null name is a NUL-terminated string of the live schema.
                unsafe { CStr::from_ptr(c.name) }
                    .to_string_lossy()
                    .into_owned()
            }
        })
        .collect();
    // The first name present wins, as for mappings.
    let find = |keys: &[&str], role: &str| -> PyResult<usize> {
        keys.iter()
            .find_map(|key| names.iter().position(|n| n == key))
            .ok_or_else(|| {
                ErrorKind::Input.err(
                    py,
                    format!(
                        "the Arrow items lack a '{}' column (or an alias: {}) for the {role}; \
                         their columns: {}",
                        keys[0],
                        keys[1..].join(", "),
                        names.join(", ")
                    ),
                )
            })
    };
    let cand_at = find(&CANDIDATE_KEYS, "candidates")?;
    let refs_at = find(&REFERENCE_KEYS, "references")?;
    let cand_layout = layout_of(
        py,
        children[cand_at],
        &format!("column '{}'", names[cand_at]),
    )?;
    let refs_what = format!("column '{}'", names[refs_at]);
    let refs_schema = children[refs_at];
    let refs_format = format_of(py, refs_schema, &refs_what)?;
    let values = || -> PyResult<Layout> {
        if refs_schema.n_children != 1 || refs_schema.children.is_null() {
            return Err(malformed(py, &refs_what));
        }
        // SAFETY: a live list schema has one live child schema.
        let child = unsafe { &**refs_schema.children };
        layout_of(py, child, &format!("the values of {refs_what}"))
    };
    let refs_column = match refs_format {
        b"+l" => RefsColumn::List {
            large: false,
            values: values()?,
        },
        b"+L" => RefsColumn::List {
            large: true,
            values: values()?,
        },
        f if f.starts_with(b"+w:") => {
            let size = std::str::from_utf8(&f[3..])
                .ok()
                .and_then(|s| s.parse::<i64>().ok())
                .filter(|&s| s >= 0)
                .ok_or_else(|| malformed(py, &refs_what))?;
            RefsColumn::Fixed {
                size,
                values: values()?,
            }
        }
        _ => match layout_of(py, refs_schema, &refs_what) {
            Ok(layout) => RefsColumn::Text(layout),
            Err(_) => {
                return Err(ErrorKind::InputType.err(
                    py,
                    format!(
                        "{refs_what} of the Arrow items has format {:?}; expected a list of \
                         text (list, large_list or fixed_size_list of string, large_string or \
                         string_view) or text (one reference per item)",
                        String::from_utf8_lossy(refs_format)
                    ),
                ))
            }
        },
    };
    Ok((cand_at, refs_at, cand_layout, refs_column))
}

/// A struct array's rows: its validity and its children.
struct StructRows<'a> {
    array: &'a FfiArray,
    validity: *const u8,
}

impl<'a> StructRows<'a> {
    /// Whether row `k` (counted from the array's offset) is not null.
    fn valid(&self, k: usize) -> bool {
        let j = self.array.offset as usize + k;
        // SAFETY: a non-null validity bitmap covers `offset + length` bits.
        unsafe { is_valid(self.validity, j) }
    }

    /// Child array `k` (below the schema's `n_children`, checked by [`struct_rows`]).
    fn child(&self, k: usize) -> &'a FfiArray {
        // SAFETY: a live struct array has `n_children` live children, owned by it.
        unsafe { &**self.array.children.add(k) }
    }
}

/// The rows of a struct array whose schema has `n_children` children.
fn struct_rows<'a>(
    py: Python<'_>,
    array: &'a FfiArray,
    n_children: i64,
) -> PyResult<StructRows<'a>> {
    let what = &"the Arrow items";
    if array.length < 0
        || array.offset < 0
        || array.n_children != n_children
        || array.children.is_null()
        || array.n_buffers < 1
        || array.buffers.is_null()
    {
        return Err(malformed(py, what));
    }
    // SAFETY: a live struct array has one buffer, its validity bitmap (or null).
    let validity = unsafe { *array.buffers }.cast::<u8>();
    Ok(StructRows { array, validity })
}

/// Appends the references of items `start..start + n` of the column `column` to `refs`, and
/// where each item's are to `per_item`; `first` is the first item's number, for messages.
#[allow(clippy::too_many_arguments)]
fn item_refs(
    py: Python<'_>,
    column: &RefsColumn,
    array: &FfiArray,
    start: i64,
    n: i64,
    first: usize,
    refs: &mut Vec<Span>,
    per_item: &mut Vec<ItemRefs>,
) -> PyResult<()> {
    let what = &"the references of the Arrow items";
    let base = refs.len();
    let null_refs = |k: usize| {
        item_error(
            py,
            first + k,
            ": references is null; expected a list of str",
        )
    };
    let none = |k: usize| item_error(py, first + k, "has no reference; give at least one");
    let (values_layout, bounds): (Layout, Vec<(i64, i64)>) = match *column {
        RefsColumn::Text(layout) => {
            spans_of(py, layout, array, start, n, what, refs)?;
            if let Some(k) = refs[base..].iter().position(|s| s.is_null()) {
                return Err(null_refs(k));
            }
            per_item.extend((0..n as usize).map(|k| ItemRefs {
                start: base + k,
                count: 1,
            }));
            return Ok(());
        }
        RefsColumn::List { large, values } => {
            let b = list_buffers(py, array, start, n, what)?;
            if b.offsets.is_null() {
                return Err(malformed(py, what));
            }
            let at = |j: usize| -> i64 {
                // SAFETY: `list_buffers` checked the offsets buffer; it holds `offset + length
                // + 1` entries of the list's width.
                unsafe {
                    if large {
                        *b.offsets.cast::<i64>().add(j)
                    } else {
                        i64::from(*b.offsets.cast::<i32>().add(j))
                    }
                }
            };
            let j0 = (array.offset + start) as usize;
            let mut bounds = Vec::with_capacity(n as usize);
            for k in 0..n as usize {
                if !b.valid(j0 + k) {
                    return Err(null_refs(k));
                }
                bounds.push((at(j0 + k), at(j0 + k + 1)));
            }
            (values, bounds)
        }
        RefsColumn::Fixed { size, values } => {
            let b = list_buffers(py, array, start, n, what)?;
            let j0 = array.offset + start;
            let mut bounds = Vec::with_capacity(n as usize);
            for k in 0..n {
                if !b.valid((j0 + k) as usize) {
                    return Err(null_refs(k as usize));
                }
                let a = (j0 + k)
                    .checked_mul(size)
                    .ok_or_else(|| malformed(py, what))?;
                bounds.push((a, a + size));
            }
            (values, bounds)
        }
    };
    if array.n_children != 1 || array.children.is_null() {
        return Err(malformed(py, what));
    }
    // SAFETY: a live list array has one live child, owned by it.
    let values = unsafe { &**array.children };
    let (lo, hi) = match (bounds.first(), bounds.last()) {
        (Some(&(lo, _)), Some(&(_, hi))) => (lo, hi),
        _ => return Ok(()),
    };
    // Each item's values follow the previous item's: all of them are one run of the child.
    if lo < 0 || bounds.iter().any(|b| b.1 < b.0) {
        return Err(malformed(py, what));
    }
    spans_of(py, values_layout, values, lo, hi - lo, what, refs)?;
    for (k, &(a, b)) in bounds.iter().enumerate() {
        if a == b {
            return Err(none(k));
        }
        per_item.push(ItemRefs {
            start: base + (a - lo) as usize,
            count: (b - a) as usize,
        });
    }
    Ok(())
}

/// A list array's validity bitmap and offsets buffer (null for `fixed_size_list`).
struct ListBuffers {
    validity: *const u8,
    offsets: *const std::ffi::c_void,
}

impl ListBuffers {
    /// Whether list `j` (an index into the buffers, offset included) is not null.
    fn valid(&self, j: usize) -> bool {
        // SAFETY: a non-null validity bitmap covers the array's `offset + length` bits.
        unsafe { is_valid(self.validity, j) }
    }
}

/// The buffers of a list array read at items `start..start + n`, checked to be there.
fn list_buffers(
    py: Python<'_>,
    array: &FfiArray,
    start: i64,
    n: i64,
    what: &dyn std::fmt::Display,
) -> PyResult<ListBuffers> {
    if array.offset < 0
        || start.checked_add(n).is_none_or(|end| end > array.length)
        || array.n_buffers < 1
        || array.buffers.is_null()
    {
        return Err(malformed(py, what));
    }
    // SAFETY: a live array has `n_buffers` buffer pointers: the validity bitmap (or null),
    // then the offsets of a variable-size list.
    let buffers = unsafe { std::slice::from_raw_parts(array.buffers, array.n_buffers as usize) };
    Ok(ListBuffers {
        validity: buffers[0].cast::<u8>(),
        offsets: buffers.get(1).copied().unwrap_or(std::ptr::null()),
    })
}

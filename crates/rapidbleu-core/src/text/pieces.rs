//! SentencePiece ids back to sacreBLEU's `" ".join(sp.EncodeAsPieces(line))`.
//!
//! sacreBLEU's `TokenizerSPM.__call__` joins the pieces of a line with spaces. The sentencepiece
//! package encodes whole batches on its own threads, and ids come out of it several times
//! cheaper than piece strings (no Python string per piece); this table turns them into the
//! joined line. It is exact because `SentencePieceProcessor::Encode(text, &pieces)` and
//! `Encode(text, &ids)` read the same `SentencePieceText`, whose every piece is the vocabulary
//! entry of its id (`PieceToId(piece) == id`, `PopulateSentencePieceText`) except an unknown
//! piece: that one keeps the unknown text itself (runs of unknowns merged). A line with the
//! unknown id is therefore reported, and the caller encodes it as pieces.

/// The vocabulary of a model, piece by id, in one buffer.
#[derive(Clone, Debug, Default)]
pub struct PieceTable {
    text: String,
    ends: Vec<usize>,
    unk: Option<usize>,
}

impl PieceTable {
    /// A table of `pieces` (`pieces[id]`), with `unk` the unknown id (`sp.unk_id()`; negative:
    /// none).
    pub fn new<'a>(pieces: impl IntoIterator<Item = &'a str>, unk: i64) -> PieceTable {
        let mut table = PieceTable {
            unk: usize::try_from(unk).ok(),
            ..PieceTable::default()
        };
        for p in pieces {
            table.text.push_str(p);
            table.ends.push(table.text.len());
        }
        table
    }

    /// Number of pieces.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The piece of `id`, if `id` is in the table.
    pub fn piece(&self, id: usize) -> Option<&str> {
        let end = *self.ends.get(id)?;
        let start = if id == 0 { 0 } else { self.ends[id - 1] };
        self.text.get(start..end)
    }

    /// Appends the pieces of `ids` joined by single spaces to `out` and returns `true`; returns
    /// `false` (with `out` as it was) if an id is the unknown id or not in the table.
    pub fn join_into(&self, ids: impl IntoIterator<Item = i64>, out: &mut String) -> bool {
        let start = out.len();
        for (k, id) in ids.into_iter().enumerate() {
            let piece = usize::try_from(id)
                .ok()
                .filter(|&id| Some(id) != self.unk)
                .and_then(|id| self.piece(id));
            let Some(piece) = piece else {
                out.truncate(start);
                return false;
            };
            if k > 0 {
                out.push(' ');
            }
            out.push_str(piece);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_pieces_and_refuses_unknown_ids() {
        let t = PieceTable::new(["<unk>", "▁the", "▁cat", "s", ""], 0);
        assert_eq!(t.len(), 5);
        assert_eq!(t.piece(2), Some("▁cat"));
        assert_eq!(t.piece(5), None);
        let mut out = String::from("x");
        assert!(t.join_into([1, 2, 3], &mut out));
        assert_eq!(out, "x▁the ▁cat s");
        for bad in [vec![1, 0], vec![7], vec![-1]] {
            let mut out = String::from("kept");
            assert!(!t.join_into(bad, &mut out));
            assert_eq!(out, "kept");
        }
        let mut out = String::new();
        assert!(t.join_into([], &mut out));
        assert_eq!(out, "");
        // No unknown id at all (negative): id 0 is an ordinary piece.
        let t = PieceTable::new(["a", "b"], -1);
        let mut out = String::new();
        assert!(t.join_into([0, 1], &mut out) && out == "a b");
    }
}

//! Reference and system inputs read together, a chunk of aligned lines at a time, as
//! sacreBLEU's `main` (`sacrebleu/sacrebleu.py`) reads them: references first, then systems;
//! one reference file split on tabs into `-nr N` streams; or every system from standard input,
//! one tab-separated column each. Different line counts are an error that names every input
//! and its count.

use crate::io::error::ReadError;
use crate::io::lines::{LineReader, Lines};
use crate::text::whitespace::py_rstrip;

/// Aligned lines of every reference stream and every system: segment `i` of the chunk is
/// `systems[s].get(i)` against `refs[k].get(i)` for every `k`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chunk {
    /// One entry per system.
    pub systems: Vec<Lines>,
    /// One entry per reference stream.
    pub refs: Vec<Lines>,
    /// The 1-based line number of the chunk's first segment.
    pub first_line: u64,
}

impl Chunk {
    /// Number of segments.
    pub fn len(&self) -> usize {
        self.refs.first().map_or(0, Lines::len)
    }

    /// Whether the chunk has no segment.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the systems are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Systems {
    /// One input per system.
    Files,
    /// One input whose tab-separated fields are the systems (sacreBLEU's standard input): the
    /// first line fixes their number.
    Columns,
}

/// Reads reference and system inputs in lockstep (see the module documentation).
pub struct ChunkReader {
    refs: Vec<LineReader>,
    systems: Vec<LineReader>,
    num_refs: usize,
    layout: Systems,
    /// Columns of standard input, fixed by its first line (0 before it).
    columns: usize,
    /// Segments handed out so far.
    segments: u64,
    done: bool,
}

impl ChunkReader {
    /// Reads `refs` and `systems` together. With `num_refs > 1` the one reference input holds
    /// that many tab-separated references a line (sacreBLEU's `-nr`); with
    /// [`Systems::Columns`] `systems` is one input of tab-separated systems.
    ///
    /// # Errors
    /// [`ReadError::Fields`] when `num_refs > 1` with other than one reference input, or
    /// `Columns` with other than one system input.
    pub fn new(
        refs: Vec<LineReader>,
        systems: Vec<LineReader>,
        num_refs: usize,
        layout: Systems,
    ) -> Result<Self, ReadError> {
        if num_refs == 0 || (num_refs > 1 && refs.len() != 1) {
            return Err(ReadError::Fields(format!(
                "{num_refs} references per line need exactly one reference input, got {}",
                refs.len()
            )));
        }
        if layout == Systems::Columns && systems.len() != 1 {
            return Err(ReadError::Fields(format!(
                "systems in columns come from one input, got {}",
                systems.len()
            )));
        }
        let systems = match layout {
            // sacreBLEU's `readline()` of an empty stdin is one empty segment.
            Systems::Columns => systems
                .into_iter()
                .map(LineReader::one_line_when_empty)
                .collect(),
            Systems::Files => systems,
        };
        Ok(ChunkReader {
            refs,
            systems,
            num_refs,
            layout,
            columns: 0,
            segments: 0,
            done: false,
        })
    }

    /// The next chunk of up to `n` segments, or `None` after the last. After an error, `None`.
    ///
    /// # Errors
    /// Any [`ReadError`] of the inputs; [`ReadError::LengthMismatch`] when they have different
    /// numbers of lines; [`ReadError::Fields`] for a line without the expected fields.
    pub fn next_chunk(&mut self, n: usize) -> Result<Option<Chunk>, ReadError> {
        if self.done {
            return Ok(None);
        }
        let result = self.read(n.max(1));
        if !matches!(result, Ok(Some(_))) {
            self.done = true;
        }
        result
    }

    fn read(&mut self, n: usize) -> Result<Option<Chunk>, ReadError> {
        let mut refs = Vec::with_capacity(self.refs.len());
        let mut systems = Vec::with_capacity(self.systems.len());
        for r in &mut self.refs {
            let mut lines = Lines::new();
            r.read_into(n, &mut lines)?;
            refs.push(lines);
        }
        for s in &mut self.systems {
            let mut lines = Lines::new();
            s.read_into(n, &mut lines)?;
            systems.push(lines);
        }
        let len = refs.first().map_or(0, Lines::len);
        if refs.iter().chain(&systems).any(|l| l.len() != len) {
            return Err(self.mismatch());
        }
        if len == 0 {
            return Ok(None);
        }
        let first_line = self.segments + 1;
        self.segments += len as u64;
        if self.num_refs > 1 {
            refs = self.split_refs(&refs[0], first_line)?;
        }
        if self.layout == Systems::Columns {
            systems = self.split_columns(&systems[0], first_line)?;
        }
        Ok(Some(Chunk {
            systems,
            refs,
            first_line,
        }))
    }

    /// sacreBLEU's `-nr N`: `line.split("\t", N - 1)`, exactly `N` fields a line.
    fn split_refs(&self, lines: &Lines, first_line: u64) -> Result<Vec<Lines>, ReadError> {
        let n = self.num_refs;
        let mut streams = vec![Lines::new(); n];
        for (k, line) in lines.iter().enumerate() {
            let mut found = 0;
            for (stream, field) in streams.iter_mut().zip(line.splitn(n, '\t')) {
                stream.push(field);
                found += 1;
            }
            if found != n {
                return Err(ReadError::Fields(format!(
                    "{}: line {}: expected {n} tab-separated references (-nr {n}), found {found}",
                    self.refs[0].name(),
                    first_line + k as u64
                )));
            }
        }
        Ok(streams)
    }

    /// sacreBLEU's systems on standard input: the first line's fields (not stripped one by
    /// one: the line is) fix the number of systems; later fields are `rstrip()`-ed.
    fn split_columns(&mut self, lines: &Lines, first_line: u64) -> Result<Vec<Lines>, ReadError> {
        let mut start = 0;
        if self.columns == 0 {
            let first = lines.get(0);
            self.columns = first.split('\t').count();
            start = 1;
        }
        let mut systems = vec![Lines::new(); self.columns];
        if start == 1 {
            for (out, field) in systems.iter_mut().zip(lines.get(0).split('\t')) {
                out.push(field);
            }
        }
        for k in start..lines.len() {
            let line = lines.get(k);
            let found = line.split('\t').count();
            if found != self.columns {
                return Err(ReadError::Fields(format!(
                    "{}: line {} has {found} tab-separated systems but line 1 has {}; every \
                     line needs one field per system",
                    self.systems[0].name(),
                    first_line + k as u64,
                    self.columns
                )));
            }
            for (out, field) in systems.iter_mut().zip(line.split('\t')) {
                out.push(py_rstrip(field));
            }
        }
        Ok(systems)
    }

    /// Every input's line count, in a message (the rest of each input is counted).
    fn mismatch(&mut self) -> ReadError {
        let mut parts = Vec::new();
        for r in self.refs.iter_mut().chain(self.systems.iter_mut()) {
            let count = match r.count_rest() {
                Ok(c) => c,
                Err(e) => return e,
            };
            let s = if count == 1 { "" } else { "s" };
            parts.push(format!("{} has {count} line{s}", r.name()));
        }
        ReadError::LengthMismatch(format!(
            "line counts differ: {}; references and system outputs need one segment per line \
             each",
            parts.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::decompress::{decoder, Compression};
    use crate::io::lines::Newlines;
    use std::io::Cursor;

    fn input(name: &str, data: &str, newlines: Newlines) -> LineReader {
        let opened = decoder(Compression::None, Cursor::new(data.as_bytes().to_vec()));
        LineReader::new(name, opened, newlines)
    }

    fn file(name: &str, data: &str) -> LineReader {
        input(name, data, Newlines::Lf)
    }

    fn strs(lines: &Lines) -> Vec<&str> {
        lines.iter().collect()
    }

    #[test]
    fn files_in_lockstep() {
        let mut r = ChunkReader::new(
            vec![file("ref", "a\nb\nc\n")],
            vec![file("h1", "x\ny\nz\n"), file("h2", "1\n2\n3")],
            1,
            Systems::Files,
        )
        .unwrap();
        let c = r.next_chunk(2).unwrap().unwrap();
        assert_eq!((c.len(), c.first_line), (2, 1));
        assert_eq!(strs(&c.systems[1]), ["1", "2"]);
        let c = r.next_chunk(2).unwrap().unwrap();
        assert_eq!((strs(&c.refs[0]), c.first_line), (vec!["c"], 3));
        assert!(r.next_chunk(2).unwrap().is_none());
    }

    #[test]
    fn different_line_counts_name_every_input() {
        let mut r = ChunkReader::new(
            vec![file("ref", "a\nb\nc\n")],
            vec![file("short", "x\ny\n"), file("one", "1\n")],
            1,
            Systems::Files,
        )
        .unwrap();
        let e = r.next_chunk(10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line counts differ: ref has 3 lines, short has 2 lines, one has 1 line; \
             references and system outputs need one segment per line each"
        );
        assert!(r.next_chunk(10).unwrap().is_none());
    }

    #[test]
    fn tab_separated_references() {
        let mut r = ChunkReader::new(
            vec![file("refs", "a\tb\tc \nd\te\t\n")],
            vec![file("hyp", "x\ny\n")],
            3,
            Systems::Files,
        )
        .unwrap();
        // The line is stripped, its fields are not ("c " stays); "d\te\t" strips to 2 fields.
        let e = r.next_chunk(10).unwrap_err().to_string();
        assert_eq!(
            e,
            "refs: line 2: expected 3 tab-separated references (-nr 3), found 2"
        );
        let mut r = ChunkReader::new(
            vec![file("refs", "a\tb\tc\td\n")],
            vec![file("hyp", "x\n")],
            3,
            Systems::Files,
        )
        .unwrap();
        let c = r.next_chunk(10).unwrap().unwrap();
        assert_eq!(strs(&c.refs[2]), ["c\td"]);
    }

    #[test]
    fn systems_in_columns() {
        let stdin = input("stdin", "a \tb\rc\t d \n", Newlines::Universal);
        let mut r = ChunkReader::new(
            vec![file("ref", "1\n2\n")],
            vec![stdin],
            1,
            Systems::Columns,
        )
        .unwrap();
        let c = r.next_chunk(1).unwrap().unwrap();
        assert_eq!(
            (strs(&c.systems[0]), strs(&c.systems[1])),
            (vec!["a "], vec!["b"])
        );
        let c = r.next_chunk(1).unwrap().unwrap();
        assert_eq!(
            (strs(&c.systems[0]), strs(&c.systems[1])),
            (vec!["c"], vec![" d"])
        );
        let stdin = input("stdin", "a\tb\nc\n", Newlines::Universal);
        let mut r = ChunkReader::new(
            vec![file("ref", "1\n2\n")],
            vec![stdin],
            1,
            Systems::Columns,
        )
        .unwrap();
        let e = r.next_chunk(5).unwrap_err().to_string();
        assert!(e.starts_with("stdin: line 2 has 1 tab-separated systems but line 1 has 2"));
    }

    #[test]
    fn an_empty_stdin_is_one_empty_segment() {
        // sacreBLEU: `inputfh.readline().rstrip().split("\t")` of an empty stream is [""].
        let stdin = input("stdin", "", Newlines::Universal);
        let mut r =
            ChunkReader::new(vec![file("ref", "a\n")], vec![stdin], 1, Systems::Columns).unwrap();
        let c = r.next_chunk(5).unwrap().unwrap();
        assert_eq!((c.systems.len(), strs(&c.systems[0])), (1, vec![""]));
        assert!(r.next_chunk(5).unwrap().is_none());
        let stdin = input("stdin", "", Newlines::Universal);
        let mut r = ChunkReader::new(
            vec![file("ref", "a\nb\n")],
            vec![stdin],
            1,
            Systems::Columns,
        )
        .unwrap();
        let e = r.next_chunk(5).unwrap_err().to_string();
        assert!(e.contains("ref has 2 lines, stdin has 1 line;"), "{e}");
        // A file named "-" is read as a file: empty is no line.
        let mut r = ChunkReader::new(
            vec![file("ref", "")],
            vec![input("stdin", "", Newlines::Lf)],
            1,
            Systems::Files,
        )
        .unwrap();
        assert!(r.next_chunk(5).unwrap().is_none());
    }
}

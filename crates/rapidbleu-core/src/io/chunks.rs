//! Reference and system inputs read together, a chunk of aligned lines at a time, as
//! sacreBLEU's `main` (`sacrebleu/sacrebleu.py`) reads them: references first, then systems;
//! one reference file split on tabs into `-nr N` streams; or every system from standard input,
//! one tab-separated column each. Different line counts are an error that names every input
//! and its count.

use crate::io::error::ReadError;
use crate::io::line_list::Part;
use crate::io::lines::{LineReader, Lines};
use crate::io::split::map;
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

    /// sacreBLEU's `-nr N`: `line.split("\t", N - 1)`, exactly `N` fields a line; each part of
    /// the lines is split on the reader's threads.
    fn split_refs(&self, lines: &Lines, first_line: u64) -> Result<Vec<Lines>, ReadError> {
        let n = self.num_refs;
        let threads = self.refs[0].threads();
        let split = map(lines.parts(), threads, |part| {
            let mut streams: Vec<Part> = (0..n)
                .map(|_| Part::with_capacity(part.text_len() / n))
                .collect();
            for (k, line) in part.iter().enumerate() {
                let mut found = 0;
                for (stream, field) in streams.iter_mut().zip(line.splitn(n, '\t')) {
                    stream.push(field);
                    found += 1;
                }
                if found != n {
                    return Err((k, found));
                }
            }
            Ok(streams)
        });
        join_fields(split, lines, n, |line, found| {
            ReadError::Fields(format!(
                "{}: line {}: expected {n} tab-separated references (-nr {n}), found {found}",
                self.refs[0].name(),
                first_line + line as u64
            ))
        })
    }

    /// sacreBLEU's systems on standard input: the first line's fields (not stripped one by
    /// one: the line is) fix the number of systems; later fields are `rstrip()`-ed. Each part
    /// of the lines is split on the reader's threads.
    fn split_columns(&mut self, lines: &Lines, first_line: u64) -> Result<Vec<Lines>, ReadError> {
        // The first line of the input: its fields count the systems and are kept as they are.
        let header = self.columns == 0;
        if header {
            self.columns = lines.get(0).split('\t').count();
        }
        let columns = self.columns;
        let parts: Vec<(usize, &Part)> = lines.parts().iter().enumerate().collect();
        let split = map(&parts, self.systems[0].threads(), |&(p, part)| {
            let mut systems: Vec<Part> = (0..columns)
                .map(|_| Part::with_capacity(part.text_len() / columns))
                .collect();
            for (k, line) in part.iter().enumerate() {
                if header && p == 0 && k == 0 {
                    for (out, field) in systems.iter_mut().zip(line.split('\t')) {
                        out.push(field);
                    }
                    continue;
                }
                let found = line.split('\t').count();
                if found != columns {
                    return Err((k, found));
                }
                for (out, field) in systems.iter_mut().zip(line.split('\t')) {
                    out.push(py_rstrip(field));
                }
            }
            Ok(systems)
        });
        join_fields(split, lines, columns, |line, found| {
            ReadError::Fields(format!(
                "{}: line {} has {found} tab-separated systems but line 1 has {columns}; every \
                 line needs one field per system",
                self.systems[0].name(),
                first_line + line as u64
            ))
        })
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

/// The streams of fields split from each part of `lines` (in order), joined into `n` lists;
/// or the error `fail(line, fields found)` for the first line (0-based in `lines`) without
/// the fields asked for.
fn join_fields(
    split: Vec<Result<Vec<Part>, (usize, usize)>>,
    lines: &Lines,
    n: usize,
    fail: impl Fn(usize, usize) -> ReadError,
) -> Result<Vec<Lines>, ReadError> {
    let mut streams = vec![Lines::new(); n];
    let mut before = 0;
    for (result, part) in split.into_iter().zip(lines.parts()) {
        match result {
            Ok(fields) => {
                for (stream, field) in streams.iter_mut().zip(fields) {
                    stream.append_part(field);
                }
            }
            Err((line, found)) => return Err(fail(before + line, found)),
        }
        before += part.len();
    }
    Ok(streams)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::parallel::Threads;
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

    /// Every chunk (or the error) of a reader over `refs` and `sys` on `threads` threads.
    fn read_all(
        refs: &str,
        sys: &str,
        num_refs: usize,
        layout: Systems,
        threads: Threads,
    ) -> Result<Vec<Chunk>, String> {
        let newlines = match layout {
            Systems::Files => Newlines::Lf,
            Systems::Columns => Newlines::Universal,
        };
        let mut r = ChunkReader::new(
            vec![file("refs", refs).with_threads(threads)],
            vec![input("stdin", sys, newlines).with_threads(threads)],
            num_refs,
            layout,
        )
        .unwrap();
        let mut chunks = Vec::new();
        loop {
            match r.next_chunk(30_000) {
                Ok(Some(c)) => chunks.push(c),
                Ok(None) => return Ok(chunks),
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    #[test]
    fn fields_split_alike_on_any_thread_count() {
        let lines = 70_000;
        let refs: String = (0..lines).map(|i| format!("r{i} a\tr{i} b \n")).collect();
        let hyps: String = (0..lines).map(|i| format!("h{i} \tg{i}\r\n")).collect();
        for (num_refs, layout) in [
            (2, Systems::Columns),
            (2, Systems::Files),
            (1, Systems::Columns),
        ] {
            let one = read_all(&refs, &hyps, num_refs, layout, Threads::ONE);
            let all = read_all(&refs, &hyps, num_refs, layout, Threads::ALL);
            assert_eq!(one, all);
            let chunks = all.unwrap();
            assert_eq!(chunks.iter().map(Chunk::len).sum::<usize>(), lines);
            let last = chunks.last().unwrap();
            let want = ["r69999 a\tr69999 b", "r69999 a"][num_refs - 1];
            assert_eq!(last.refs[0].get(last.len() - 1), want);
        }
        let c = &read_all(&refs, &hyps, 2, Systems::Columns, Threads::ALL).unwrap()[1];
        // The first line's fields stay as they are; later ones are stripped.
        assert_eq!(
            (c.refs[1].get(0), c.systems[0].get(0)),
            ("r30000 b", "h30000")
        );
        // A line short of fields, deep in a chunk: the same message on any thread count.
        let bad_refs = refs.replacen("r65432 a\t", "r65432 a ", 1);
        let bad_hyps = hyps.replacen("h54321 \t", "h54321 ", 1);
        for (r, h, layout, want) in [
            (
                &bad_refs,
                &hyps,
                Systems::Files,
                "refs: line 65433: expected 2",
            ),
            (
                &refs,
                &bad_hyps,
                Systems::Columns,
                "stdin: line 54322 has 1 tab-separated",
            ),
        ] {
            let one = read_all(r, h, 2, layout, Threads::ONE).unwrap_err();
            let all = read_all(r, h, 2, layout, Threads::ALL).unwrap_err();
            assert!(one == all && one.starts_with(want), "{one}");
        }
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

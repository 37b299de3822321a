//! The lines of one input, split and stripped as sacreBLEU's command reads them
//! (`sacrebleu/sacrebleu.py`), a chunk at a time.
//!
//! - Files are opened with `newline="\n"`: only `\n` ends a line ([`Newlines::Lf`]).
//! - Standard input goes through `io.TextIOWrapper` with universal newlines: `\r\n`, `\r` and
//!   `\n` each end a line ([`Newlines::Universal`]).
//! - Every line is `rstrip()`-ed with Python's whitespace set ([`py_rstrip`]).
//! - Text must be UTF-8; the first invalid bytes stop reading with the input's name, the line,
//!   the byte offset in the (decompressed) stream and the bytes themselves.
//!
//! Performance decisions: bytes are read in blocks of [`BLOCK`] bytes until they hold the lines
//! asked for (or [`BATCH`] bytes); their line breaks are counted, and the lines checked as
//! UTF-8, split, stripped and copied into [`Lines`], all on the pool of the reader's
//! [`Threads`] ([`split`](crate::io::split)): one allocation per piece of the block, not one per
//! line, and no work per line on one thread. Only the system calls that read the bytes stay on
//! the reader's thread.
//!
//! [`py_rstrip`]: crate::text::whitespace::py_rstrip

use crate::engine::parallel::Threads;
use crate::io::decompress::Opened;
use crate::io::error::ReadError;
use crate::io::split::{count_breaks, nth_break_end, split_lines, BadText};
use std::io::Read;

pub use crate::io::line_list::Lines;

/// Bytes read from the source at a time.
pub const BLOCK: usize = 1 << 20;

/// Bytes that make a batch even when they hold fewer lines than asked for: the lines read so
/// far are handed out, so that the buffer stays this size (plus a block, plus the longest
/// line) however many lines a chunk asks for.
pub const BATCH: usize = 4 << 20;

/// Which bytes end a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Newlines {
    /// Only `\n` (sacreBLEU's files, `open(..., newline="\n")`).
    Lf,
    /// `\r\n`, `\r` and `\n` (sacreBLEU's standard input, `io.TextIOWrapper`).
    Universal,
}

/// One input's lines, read a batch at a time (see the module documentation).
pub struct LineReader {
    name: String,
    src: Box<dyn Read + Send>,
    compressed: bool,
    newlines: Newlines,
    threads: Threads,
    /// Bytes read and not yet handed out are `buf[start..filled]`; `buf[filled..]` is
    /// initialized room for the next block.
    buf: Vec<u8>,
    filled: usize,
    start: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
    /// Lines handed out (or counted) so far.
    lines: u64,
    /// An empty input is one empty line (see [`LineReader::one_line_when_empty`]).
    empty_is_a_line: bool,
}

impl LineReader {
    /// Lines of `opened`, named `name` in messages, split on one thread (see
    /// [`LineReader::with_threads`]).
    pub fn new(name: impl Into<String>, opened: Opened, newlines: Newlines) -> Self {
        LineReader {
            name: name.into(),
            src: opened.reader,
            compressed: opened.compressed,
            newlines,
            threads: Threads::ONE,
            buf: Vec::new(),
            filled: 0,
            start: 0,
            base: 0,
            eof: false,
            lines: 0,
            empty_is_a_line: false,
        }
    }

    /// Splits and checks lines on `threads` threads (0: all cores), on the engine's pool of
    /// that many threads, which the scorer shares.
    pub fn with_threads(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// Reads an empty input as one empty line, as sacreBLEU reads the systems on standard
    /// input: `inputfh.readline().rstrip().split("\t")` of an empty stream is `[""]`.
    pub fn one_line_when_empty(mut self) -> Self {
        self.empty_is_a_line = true;
        self
    }

    /// The threads its lines are split on.
    pub fn threads(&self) -> Threads {
        self.threads
    }

    /// The input's name (a file name, or `stdin`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Lines handed out so far.
    pub fn lines_read(&self) -> u64 {
        self.lines
    }

    /// Reads up to `n` more lines into `out`; fewer only at the end of the input.
    ///
    /// # Errors
    /// [`ReadError::InvalidText`] for bytes that are not UTF-8, [`ReadError::File`] for corrupt
    /// compressed data, [`ReadError::Stream`] when the source fails.
    pub fn read_into(&mut self, n: usize, out: &mut Lines) -> Result<usize, ReadError> {
        let mut got = 0;
        while got < n {
            let (pos, lines) = self.next_batch(n - got)?;
            if lines == 0 {
                break;
            }
            self.take(pos, lines, out)?;
            got += lines;
        }
        if got < n && self.empty_is_a_line && self.lines == 0 && self.base == 0 && self.eof {
            // Nothing was read at all (a last line without a break would have been counted).
            out.push("");
            self.lines = 1;
            got += 1;
        }
        Ok(got)
    }

    /// Where the bytes read so far may be split into lines: all of them, except in universal
    /// newlines a final `\r` before the end of the input (`\r\n` or `\r` is decided by the
    /// next byte).
    fn scan_limit(&self) -> usize {
        let undecided = self.newlines == Newlines::Universal
            && !self.eof
            && self.filled > self.start
            && self.buf[self.filled - 1] == b'\r';
        self.filled - usize::from(undecided)
    }

    /// The next batch of lines: where it ends in `buf` and how many lines it has, `want` or
    /// fewer (at the end of the input, or when [`BATCH`] bytes hold fewer); reads blocks as
    /// needed. Breaks are counted once, as blocks arrive; the offsets are relative to
    /// `start`, which reading a block moves to 0 with the bytes.
    fn next_batch(&mut self, want: usize) -> Result<(usize, usize), ReadError> {
        let mut marks: Vec<(usize, usize)> = Vec::new();
        let (mut counted, mut total) = (0, 0);
        loop {
            let s = &self.buf[self.start..self.scan_limit()];
            if counted < s.len() {
                for (end, breaks) in count_breaks(s, counted, self.newlines, self.threads) {
                    total += breaks;
                    marks.push((end, total));
                }
                counted = s.len();
            }
            let full = self.filled - self.start >= BATCH && total > 0;
            if total >= want || full {
                let k = total.min(want);
                let end = nth_break_end(s, &marks, k, self.newlines).ok_or_else(|| {
                    ReadError::Internal("rapidbleu's reader lost count of lines".into())
                })?;
                return Ok((self.start + end, k));
            }
            if self.eof {
                // Every line left, the last one perhaps without a break.
                let open_line = !s.is_empty() && !ends_with_break(s, self.newlines);
                let lines = total + usize::from(open_line);
                return Ok((self.start + s.len(), lines));
            }
            self.fill()?;
        }
    }

    /// Hands out the `lines` lines of `buf[start..pos]` into `out`, checked as UTF-8.
    fn take(&mut self, pos: usize, lines: usize, out: &mut Lines) -> Result<(), ReadError> {
        let parts = split_lines(&self.buf[self.start..pos], self.newlines, self.threads)
            .map_err(|bad| self.utf8_error(&bad))?;
        let before = out.len();
        for part in parts {
            out.append_part(part);
        }
        if out.len() - before != lines {
            return Err(ReadError::Internal(
                "rapidbleu's reader split a block into another number of lines".into(),
            ));
        }
        self.lines += lines as u64;
        self.start = pos;
        Ok(())
    }

    /// The message for the invalid bytes of the batch at `start`: the line they are on
    /// (1-based), their offset in the stream and their hex (`UnicodeDecodeError`'s
    /// `start:end`).
    fn utf8_error(&self, bad: &BadText) -> ReadError {
        let (at, end) = (self.start + bad.at, self.start + bad.end);
        let line = self.lines + bad.line as u64 + 1;
        let hex: Vec<String> = self.buf[at..end]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        ReadError::InvalidText(format!(
            "{}: line {line}: bytes not valid UTF-8 at byte offset {} ({}); use \
             --encoding-errors replace to go on, or -e to give the encoding",
            self.name,
            self.base + at as u64,
            hex.join(" ")
        ))
    }

    /// Counts the lines left, without decoding them, and returns the input's total number of
    /// lines (for the message about inputs of different lengths).
    ///
    /// # Errors
    /// As [`LineReader::read_into`], except that text is not checked.
    pub fn count_rest(&mut self) -> Result<u64, ReadError> {
        // Whether bytes follow the last break counted (a line not ended yet).
        let mut open_line = false;
        loop {
            let lim = self.scan_limit();
            let s = &self.buf[self.start..lim];
            let breaks: usize = count_breaks(s, 0, self.newlines, self.threads)
                .iter()
                .map(|&(_, breaks)| breaks)
                .sum();
            self.lines += breaks as u64;
            if !s.is_empty() {
                open_line = !ends_with_break(s, self.newlines);
            }
            self.start = lim;
            if self.eof {
                self.lines += u64::from(open_line);
                self.start = self.filled;
                return Ok(self.lines);
            }
            self.fill()?;
        }
    }

    /// Reads the next block (after dropping what was handed out).
    ///
    /// Performance decision: the block is read into room that stays initialized from one
    /// block to the next. `read_to_end` into a `Vec`'s spare capacity zeroed every block first
    /// (a `memset` of every input byte, about a fifth of the reader's instructions).
    fn fill(&mut self) -> Result<(), ReadError> {
        if self.eof {
            return Ok(());
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.filled, 0);
            self.filled -= self.start;
            self.base += self.start as u64;
            self.start = 0;
        }
        let want = self.filled + BLOCK;
        if self.buf.len() < want {
            self.buf.resize(want, 0);
        }
        // Up to BLOCK bytes, as `take(BLOCK).read_to_end` read them: short only at the end.
        while self.filled < want {
            match self.src.read(&mut self.buf[self.filled..want]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(got) => self.filled += got,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::reading(&self.name, e, self.compressed)),
            }
        }
        Ok(())
    }
}

/// Whether `s` (bytes whose last byte is decided, see [`LineReader::scan_limit`]) ends with a
/// line break.
fn ends_with_break(s: &[u8], newlines: Newlines) -> bool {
    match newlines {
        Newlines::Lf => s.last() == Some(&b'\n'),
        Newlines::Universal => matches!(s.last(), Some(b'\n' | b'\r')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::decompress::{decoder, Compression};
    use std::io::Cursor;

    fn reader(data: &[u8], newlines: Newlines) -> LineReader {
        let opened = decoder(Compression::None, Cursor::new(data.to_vec()));
        LineReader::new("f", opened, newlines)
    }

    fn all_on(
        data: &[u8],
        newlines: Newlines,
        n: usize,
        threads: Threads,
    ) -> Result<Vec<String>, ReadError> {
        let mut r = reader(data, newlines).with_threads(threads);
        let mut out = Lines::new();
        while r.read_into(n, &mut out)? > 0 {}
        Ok(out.iter().map(String::from).collect())
    }

    /// The lines (or the error) read on one thread, checked to be those read on every core.
    fn all(data: &[u8], newlines: Newlines, n: usize) -> Result<Vec<String>, ReadError> {
        let one = all_on(data, newlines, n, Threads::ONE);
        let many = all_on(data, newlines, n, Threads::ALL);
        assert_eq!(format!("{one:?}"), format!("{many:?}"));
        one
    }

    /// The lines as Python reads them: `str.splitlines`-free, by the rules of the module doc.
    fn python_lines(text: &str, newlines: Newlines) -> Vec<String> {
        let text = match newlines {
            Newlines::Lf => text.to_string(),
            Newlines::Universal => text.replace("\r\n", "\n").replace('\r', "\n"),
        };
        let mut lines: Vec<&str> = text.split('\n').collect();
        if lines.last() == Some(&"") {
            lines.pop();
        }
        lines
            .iter()
            .map(|l| crate::text::whitespace::py_rstrip(l).to_string())
            .collect()
    }

    #[test]
    fn large_inputs_read_alike_on_any_thread_count() {
        // More than a batch, with every kind of break, a long line and lines across blocks.
        let mut text = String::new();
        let mut i = 0;
        while text.len() < BATCH + 2 * BLOCK {
            text.push_str(&format!("segment {i} ünï \u{3000}"));
            if i % 5000 == 7 {
                text.push_str(&"x".repeat(3 * BLOCK / 2));
            }
            text.push_str(["\n", "\r\n", "\r", " \n", "\n\n"][i % 5]);
            i += 1;
        }
        text.push_str("no break at the end");
        for newlines in [Newlines::Lf, Newlines::Universal] {
            let expected = python_lines(&text, newlines);
            for n in [1_000, 20_000, usize::MAX] {
                let got = all_on(text.as_bytes(), newlines, n, Threads::ALL).unwrap();
                assert!(got == expected, "{newlines:?} n={n}");
            }
            let mut r = reader(text.as_bytes(), newlines).with_threads(Threads::ALL);
            let mut out = Lines::new();
            assert_eq!(r.read_into(12_345, &mut out).unwrap(), 12_345);
            assert_eq!(r.count_rest().unwrap(), expected.len() as u64);
        }
        // Invalid bytes deep in the input: the same message on any thread count.
        let mut bytes = text.into_bytes();
        let at = BATCH + BLOCK / 3;
        let at = at + bytes[at..].iter().position(|&b| b == b's').unwrap();
        bytes[at] = 0xc3;
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let e = all(&bytes, Newlines::Lf, 20_000).unwrap_err().to_string();
        let want = format!("f: line {line}: bytes not valid UTF-8 at byte offset {at} (c3)");
        assert!(e.starts_with(&want), "{e}");
    }

    #[test]
    fn files_split_on_lf_only_and_rstrip() {
        let data = b"a \nb\rc\n\n  \nd\x0c\xc2\x85 e \xe2\x80\xa8";
        for n in [1, 2, 100] {
            let got = all(data, Newlines::Lf, n).unwrap();
            assert_eq!(got, ["a", "b\rc", "", "", "d\x0c\u{85} e"], "n={n}");
        }
        assert!(all(b"", Newlines::Lf, 5).unwrap().is_empty());
        assert_eq!(all(b"\n", Newlines::Lf, 5).unwrap(), [""]);
    }

    #[test]
    fn stdin_splits_on_universal_newlines() {
        let got = all(b"a\r\nb\rc\n\r\rd\r", Newlines::Universal, 2).unwrap();
        assert_eq!(got, ["a", "b", "c", "", "", "d"]);
    }

    #[test]
    fn a_cr_lf_across_blocks_is_one_break() {
        // "\r" is the last byte of the first block, "\n" the first of the next.
        let mut data = vec![b'x'; BLOCK - 1];
        data.extend_from_slice(b"\r\ny\n");
        let got = all(&data, Newlines::Universal, 10).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], "y");
    }

    #[test]
    fn invalid_utf8_names_line_offset_and_bytes() {
        let e = all(b"ok\ncaf\xe9 au lait\n", Newlines::Lf, 10).unwrap_err();
        assert!(matches!(e, ReadError::InvalidText(_)));
        assert_eq!(
            e.to_string(),
            "f: line 2: bytes not valid UTF-8 at byte offset 6 (e9); use --encoding-errors \
             replace to go on, or -e to give the encoding"
        );
        let e = all(b"a\n\xe2\x82\n", Newlines::Lf, 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2:") && e.contains("offset 2 (e2 82)"),
            "{e}"
        );
        let e = all(b"a\n\xe2\x82", Newlines::Lf, 10)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2:") && e.contains("(e2 82)"), "{e}");
        let e = all(b"a\rb\r\xff\n", Newlines::Universal, 10)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3:") && e.contains("offset 4 (ff)"), "{e}");
    }

    #[test]
    fn an_empty_input_can_be_one_empty_line() {
        let mut out = Lines::new();
        let mut r = reader(b"", Newlines::Universal).one_line_when_empty();
        assert_eq!(r.read_into(5, &mut out).unwrap(), 1);
        assert_eq!(r.read_into(5, &mut out).unwrap(), 0);
        assert_eq!(
            (out.iter().collect::<Vec<_>>(), r.count_rest().unwrap()),
            (vec![""], 1)
        );
        let mut r = reader(b"a", Newlines::Universal).one_line_when_empty();
        let mut out = Lines::new();
        assert_eq!(r.read_into(5, &mut out).unwrap(), 1);
        assert_eq!(out.get(0), "a");
    }

    #[test]
    fn counting_the_rest() {
        let mut r = reader(b"a\nb\nc\nd", Newlines::Lf);
        let mut out = Lines::new();
        assert_eq!(r.read_into(1, &mut out).unwrap(), 1);
        assert_eq!(r.count_rest().unwrap(), 4);
        // Counting does not decode.
        let mut r = reader(b"a\r\n\xff\rb", Newlines::Universal);
        assert_eq!(r.count_rest().unwrap(), 3);
    }

    #[test]
    fn long_lines_span_blocks() {
        let long = "é".repeat(BLOCK);
        let data = format!("{long}\nshort\n");
        let got = all(data.as_bytes(), Newlines::Lf, 1).unwrap();
        assert_eq!(got, [long.as_str(), "short"]);
    }
}

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
//! Performance decisions: bytes are read in blocks of [`BLOCK`] bytes; line ends are found with
//! `memchr`, and the lines of a whole batch are validated as UTF-8 in one call (line breaks are
//! ASCII, so a batch is valid exactly when each of its lines is), then copied, stripped, into
//! one [`Lines`] buffer: one allocation per chunk, not one per line.

use crate::io::decompress::Opened;
use crate::io::error::ReadError;
use crate::text::whitespace::py_rstrip;
use std::io::Read;

/// Bytes read from the source at a time.
pub const BLOCK: usize = 1 << 20;

/// Which bytes end a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Newlines {
    /// Only `\n` (sacreBLEU's files, `open(..., newline="\n")`).
    Lf,
    /// `\r\n`, `\r` and `\n` (sacreBLEU's standard input, `io.TextIOWrapper`).
    Universal,
}

/// Lines back to back in one buffer: line `i` is `text[ends[i - 1]..ends[i]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    text: String,
    ends: Vec<usize>,
}

impl Lines {
    /// No line.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no line.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Line `i`.
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// Every line, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// Appends a line.
    pub fn push(&mut self, line: &str) {
        self.text.push_str(line);
        self.ends.push(self.text.len());
    }

    /// Bytes of text held.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }
}

impl<'a> FromIterator<&'a str> for Lines {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut lines = Lines::new();
        for line in iter {
            lines.push(line);
        }
        lines
    }
}

/// One input's lines, read a batch at a time (see the module documentation).
pub struct LineReader {
    name: String,
    src: Box<dyn Read + Send>,
    compressed: bool,
    newlines: Newlines,
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
    /// `(content end, next line's start)` of the lines of a batch, reused.
    spans: Vec<(usize, usize)>,
    /// An empty input is one empty line (see [`LineReader::one_line_when_empty`]).
    empty_is_a_line: bool,
}

impl LineReader {
    /// Lines of `opened`, named `name` in messages.
    pub fn new(name: impl Into<String>, opened: Opened, newlines: Newlines) -> Self {
        LineReader {
            name: name.into(),
            src: opened.reader,
            compressed: opened.compressed,
            newlines,
            buf: Vec::new(),
            filled: 0,
            start: 0,
            base: 0,
            eof: false,
            lines: 0,
            spans: Vec::new(),
            empty_is_a_line: false,
        }
    }

    /// Reads an empty input as one empty line, as sacreBLEU reads the systems on standard
    /// input: `inputfh.readline().rstrip().split("\t")` of an empty stream is `[""]`.
    pub fn one_line_when_empty(mut self) -> Self {
        self.empty_is_a_line = true;
        self
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
            let mut spans = std::mem::take(&mut self.spans);
            spans.clear();
            let mut pos = self.start;
            while got + spans.len() < n {
                match self.next_break(pos) {
                    Some(span) => {
                        spans.push(span);
                        pos = span.1;
                    }
                    None => break,
                }
            }
            if got + spans.len() < n && self.eof && pos < self.filled {
                // The last line, without a line break.
                let end = self.filled;
                spans.push((end, end));
                pos = end;
            }
            let taken = spans.len();
            let done = self.take(&spans, pos, out);
            self.spans = spans;
            done?;
            got += taken;
            if got == n || (self.eof && self.start == self.filled) {
                break;
            }
            self.fill()?;
        }
        if got < n && self.empty_is_a_line && self.lines == 0 && self.base == 0 && self.eof {
            // Nothing was read at all (a last line without a break would have been counted).
            out.push("");
            self.lines = 1;
            got += 1;
        }
        Ok(got)
    }

    /// Hands out the lines `spans` (ending at `pos`) into `out`, checked as UTF-8.
    fn take(
        &mut self,
        spans: &[(usize, usize)],
        pos: usize,
        out: &mut Lines,
    ) -> Result<(), ReadError> {
        if spans.is_empty() {
            return Ok(());
        }
        let region = &self.buf[self.start..pos];
        let text = match std::str::from_utf8(region) {
            Ok(text) => text,
            Err(e) => return Err(self.utf8_error(spans, e)),
        };
        let mut line_start = 0;
        for &(end, next) in spans {
            out.push(py_rstrip(&text[line_start..end - self.start]));
            line_start = next - self.start;
        }
        self.lines += spans.len() as u64;
        self.start = pos;
        Ok(())
    }

    /// The message for the invalid bytes of a batch: the line they are on (1-based), their
    /// offset in the stream and their hex (`UnicodeDecodeError`'s `start:end`).
    fn utf8_error(&self, spans: &[(usize, usize)], e: std::str::Utf8Error) -> ReadError {
        let at = self.start + e.valid_up_to();
        let region_end = spans.last().map_or(at, |&(_, next)| next.max(at));
        let bad_end = e.error_len().map_or(region_end, |len| at + len);
        let line = spans.partition_point(|&(_, next)| next <= at) as u64 + self.lines + 1;
        let hex: Vec<String> = self.buf[at..bad_end]
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
        loop {
            let mut pos = self.start;
            while let Some((_, next)) = self.next_break(pos) {
                self.lines += 1;
                pos = next;
            }
            self.start = pos;
            if self.eof {
                if pos < self.filled {
                    self.lines += 1;
                    self.start = self.filled;
                }
                return Ok(self.lines);
            }
            self.fill()?;
        }
    }

    /// The line starting at `from`: `(end of its text, start of the next line)`, or `None` when
    /// the bytes read so far do not say where it ends.
    fn next_break(&self, from: usize) -> Option<(usize, usize)> {
        let rest = &self.buf[from..self.filled];
        match self.newlines {
            Newlines::Lf => memchr::memchr(b'\n', rest).map(|i| (from + i, from + i + 1)),
            Newlines::Universal => {
                let i = from + memchr::memchr2(b'\n', b'\r', rest)?;
                if self.buf[i] == b'\n' {
                    Some((i, i + 1))
                } else if i + 1 < self.filled {
                    Some((i, i + 1 + usize::from(self.buf[i + 1] == b'\n')))
                } else if self.eof {
                    Some((i, i + 1))
                } else {
                    None // "\r" as the last byte read: "\r\n" or "\r" is decided by the next.
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::decompress::{decoder, Compression};
    use std::io::Cursor;

    fn reader(data: &[u8], newlines: Newlines) -> LineReader {
        let opened = decoder(Compression::None, Cursor::new(data.to_vec()));
        LineReader::new("f", opened, newlines)
    }

    fn all(data: &[u8], newlines: Newlines, n: usize) -> Result<Vec<String>, ReadError> {
        let mut r = reader(data, newlines);
        let mut out = Lines::new();
        while r.read_into(n, &mut out)? > 0 {}
        Ok(out.iter().map(String::from).collect())
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

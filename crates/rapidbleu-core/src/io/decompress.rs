//! Opening an input by its name: `.gz`, `.bz2`, `.xz` and `.lzma` are decompressed, as the
//! Python reader (`gzip.open`, `bz2.open`, `lzma.open`) decompresses them.
//!
//! Files made of several compressed streams one after another (`cat a.gz b.gz`, `pbzip2`,
//! `xz` with several blocks written separately) are read to the end, as Python reads them.
//! What follows the last stream is treated as Python's `_compression.DecompressReader` and
//! `gzip` treat it: for `.bz2` and `.xz`/`.lzma`, bytes that are not the start of another
//! stream are ignored (a stream that starts and is cut short is truncated data); for `.gz`,
//! zero bytes are skipped (tape padding) and anything else must be another gzip member, else
//! the data is corrupt.

use crate::io::error::{open_error, ReadError};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Compressed reads go through buffers of this size (Python's `io.DEFAULT_BUFFER_SIZE` is
/// 8 KiB; larger buffers mean fewer system calls on big files).
const RAW_BUFFER: usize = 256 << 10;

/// How a file is compressed, from its name's ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain bytes.
    None,
    /// `.gz`
    Gzip,
    /// `.bz2`
    Bzip2,
    /// `.xz` or `.lzma` (either format is accepted under either name, as `lzma.open` does).
    Xz,
}

impl Compression {
    /// The compression a file's name says (case matters, as in Python's `str.endswith`).
    pub fn of(path: &Path) -> Self {
        let name = path.as_os_str().as_encoded_bytes();
        if name.ends_with(b".gz") {
            Compression::Gzip
        } else if name.ends_with(b".bz2") {
            Compression::Bzip2
        } else if name.ends_with(b".xz") || name.ends_with(b".lzma") {
            Compression::Xz
        } else {
            Compression::None
        }
    }
}

/// A reader that counts the bytes read through it into a shared counter (the progress bar's
/// position: compressed bytes for compressed files).
pub struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R> Counted<R> {
    /// Counts `inner`'s bytes into `count`.
    pub fn new(inner: R, count: Arc<AtomicU64>) -> Self {
        Counted { inner, count }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// An opened input: its decompressed bytes, and whether a decoder produces them.
pub struct Opened {
    /// The (decompressed) bytes.
    pub reader: Box<dyn Read + Send>,
    /// Whether reading errors mean corrupt data ([`ReadError::reading`]).
    pub compressed: bool,
}

/// Opens the file `path` (named `name` in messages), decompressing it by its name, and
/// counting the bytes read from disk into `count`.
///
/// # Errors
/// [`ReadError::File`] when the file is missing, a directory or cannot be opened.
pub fn open_file(path: &Path, name: &str, count: Arc<AtomicU64>) -> Result<Opened, ReadError> {
    let file = File::open(path).map_err(|e| open_error(name, &e))?;
    // Linux opens a directory for reading; Python's open() refuses it, and so does this.
    match file.metadata() {
        Ok(m) if m.is_dir() => {
            let e = io::Error::from(io::ErrorKind::IsADirectory);
            return Err(open_error(name, &e));
        }
        Ok(_) => {}
        Err(e) => return Err(open_error(name, &e)),
    }
    let raw = Counted::new(file, count);
    Ok(decoder(Compression::of(path), raw))
}

/// `raw` decompressed as `compression` says.
pub fn decoder<R: Read + Send + 'static>(compression: Compression, raw: R) -> Opened {
    let reader: Box<dyn Read + Send> = match compression {
        // The line reader reads large blocks itself: no buffer in between.
        Compression::None => {
            return Opened {
                reader: Box::new(raw),
                compressed: false,
            }
        }
        Compression::Gzip => Box::new(Members::<_, Gzip<_>>::new(buffered(raw))),
        Compression::Bzip2 => Box::new(Members::<_, Bzip2<_>>::new(buffered(raw))),
        Compression::Xz => Box::new(Members::<_, Xz<_>>::new(buffered(raw))),
    };
    Opened {
        reader,
        compressed: true,
    }
}

fn buffered<R: Read>(raw: R) -> BufReader<R> {
    BufReader::with_capacity(RAW_BUFFER, raw)
}

/// One compressed stream's decoder over a buffered reader, handing the reader back at the
/// stream's end (positioned just after it).
trait Member<R: BufRead>: Read + Sized {
    /// `.gz`: only zero bytes may separate members, and other bytes must be another member;
    /// `.bz2`/`.xz`: bytes that do not start a valid stream end the file quietly.
    const STRICT: bool;
    /// A decoder of the stream starting at `r`'s position.
    fn start(r: R) -> io::Result<Self>;
    /// The reader, just after the stream.
    fn finish(self) -> R;
}

struct Gzip<R>(flate2::bufread::GzDecoder<R>);
struct Bzip2<R>(bzip2::bufread::BzDecoder<R>);
struct Xz<R>(liblzma::bufread::XzDecoder<R>);

impl<R: BufRead> Member<R> for Gzip<R> {
    const STRICT: bool = true;
    fn start(r: R) -> io::Result<Self> {
        Ok(Gzip(flate2::bufread::GzDecoder::new(r)))
    }
    fn finish(self) -> R {
        self.0.into_inner()
    }
}

impl<R: BufRead> Read for Gzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: BufRead> Member<R> for Bzip2<R> {
    const STRICT: bool = false;
    fn start(r: R) -> io::Result<Self> {
        Ok(Bzip2(bzip2::bufread::BzDecoder::new(r)))
    }
    fn finish(self) -> R {
        self.0.into_inner()
    }
}

impl<R: BufRead> Read for Bzip2<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: BufRead> Member<R> for Xz<R> {
    const STRICT: bool = false;
    fn start(r: R) -> io::Result<Self> {
        // The auto decoder takes both .xz and legacy .lzma data (lzma.open's FORMAT_AUTO),
        // with no memory limit (Python's default).
        let stream = liblzma::stream::Stream::new_auto_decoder(u64::MAX, 0)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        Ok(Xz(liblzma::bufread::XzDecoder::new_stream(r, stream)))
    }
    fn finish(self) -> R {
        self.0.into_inner()
    }
}

impl<R: BufRead> Read for Xz<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

/// Where a multi-stream reader is.
enum State<R, D> {
    /// Between streams, holding the reader.
    Between(R),
    /// Inside a stream; `fresh` until it has produced its first bytes.
    In {
        decoder: D,
        fresh: bool,
        first: bool,
    },
    /// After the last stream.
    Done,
}

/// Every compressed stream of a file, one after another.
struct Members<R, M> {
    state: State<R, M>,
}

impl<R: BufRead, M: Member<R>> Members<R, M> {
    fn new(r: R) -> Self {
        Members {
            state: State::Between(r),
        }
    }

    /// Starts the next stream if there is one (`first`: the file's first stream, which an
    /// empty `.bz2`/`.xz` file lacks: Python calls that truncated).
    fn next_stream(&mut self, mut r: R, first: bool) -> io::Result<()> {
        if M::STRICT && !first {
            // gzip.py's _read_eof: zero padding after a member is skipped.
            loop {
                let buf = r.fill_buf()?;
                let zeros = buf.iter().take_while(|&&b| b == 0).count();
                if zeros == 0 || zeros < buf.len() {
                    r.consume(zeros);
                    break;
                }
                let n = buf.len();
                r.consume(n);
            }
        }
        if r.fill_buf()?.is_empty() && (M::STRICT || !first) {
            self.state = State::Done;
            return Ok(());
        }
        self.state = State::In {
            decoder: M::start(r)?,
            fresh: true,
            first,
        };
        Ok(())
    }
}

impl<R: BufRead, M: Member<R>> Read for Members<R, M> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Done => return Ok(0),
                State::Between(r) => self.next_stream(r, true)?,
                State::In {
                    mut decoder,
                    fresh,
                    first,
                } => match decoder.read(buf) {
                    Ok(0) => {
                        let r = decoder.finish();
                        self.next_stream(r, false)?;
                    }
                    Ok(n) => {
                        self.state = State::In {
                            decoder,
                            fresh: false,
                            first,
                        };
                        return Ok(n);
                    }
                    // _compression.DecompressReader: a later stream whose first block does not
                    // decode is trailing garbage, ignored; one that starts well and is cut
                    // short (the decoders say UnexpectedEof) is truncated data, an error.
                    Err(e)
                        if !M::STRICT
                            && fresh
                            && !first
                            && e.kind() != io::ErrorKind::UnexpectedEof =>
                    {
                        return Ok(0)
                    }
                    Err(e) => return Err(e),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn bz(data: &[u8]) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn xz(data: &[u8]) -> Vec<u8> {
        let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn read(c: Compression, data: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decoder(c, io::Cursor::new(data))
            .reader
            .read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn names() {
        for (name, c) in [
            ("a.gz", Compression::Gzip),
            ("a.bz2", Compression::Bzip2),
            ("a.xz", Compression::Xz),
            ("a.lzma", Compression::Xz),
            ("a.GZ", Compression::None),
            ("a.txt", Compression::None),
        ] {
            assert_eq!(Compression::of(Path::new(name)), c, "{name}");
        }
    }

    #[test]
    fn concatenated_streams_are_read_to_the_end() {
        for (c, f) in [
            (Compression::Gzip, gz as fn(&[u8]) -> Vec<u8>),
            (Compression::Bzip2, bz),
            (Compression::Xz, xz),
        ] {
            let data = [f(b"one\n"), f(b""), f(b"two\n")].concat();
            assert_eq!(read(c, data).unwrap(), b"one\ntwo\n", "{c:?}");
        }
    }

    #[test]
    fn truncated_or_corrupt_data_is_an_error() {
        for (c, f) in [
            (Compression::Gzip, gz as fn(&[u8]) -> Vec<u8>),
            (Compression::Bzip2, bz),
            (Compression::Xz, xz),
        ] {
            let full = f(&b"a b c\n".repeat(1000));
            assert!(read(c, full[..full.len() / 2].to_vec()).is_err(), "{c:?}");
            assert!(read(c, b"not compressed\n".to_vec()).is_err(), "{c:?}");
        }
    }

    #[test]
    fn what_follows_the_last_stream_as_python_treats_it() {
        // gzip: zero padding skipped, anything else is corrupt.
        let padded = [gz(b"a\n"), vec![0; 10]].concat();
        assert_eq!(read(Compression::Gzip, padded).unwrap(), b"a\n");
        assert!(read(Compression::Gzip, [gz(b"a\n"), b"junk".to_vec()].concat()).is_err());
        // bz2, xz: trailing garbage ignored.
        assert_eq!(
            read(Compression::Bzip2, [bz(b"a\n"), b"junk".to_vec()].concat()).unwrap(),
            b"a\n"
        );
        assert_eq!(
            read(Compression::Xz, [xz(b"a\n"), b"junk".to_vec()].concat()).unwrap(),
            b"a\n"
        );
        // Zero bytes start a legacy .lzma header: a truncated stream, as for Python.
        assert!(read(Compression::Xz, [xz(b"a\n"), vec![0; 4]].concat()).is_err());
        // An empty .gz is empty; an empty .bz2 / .xz is truncated.
        assert_eq!(read(Compression::Gzip, vec![]).unwrap(), b"");
        assert!(read(Compression::Bzip2, vec![]).is_err());
        assert!(read(Compression::Xz, vec![]).is_err());
    }
}

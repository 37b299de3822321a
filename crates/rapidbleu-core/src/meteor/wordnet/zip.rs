//! WordNet's files read from a folder or from a zip archive, as NLTK reads them: NLTK's
//! downloader leaves `corpora/wordnet.zip` zipped and `nltk.data.find` opens it
//! (`ZipFilePathPointer`), so METEOR reads the same archive.
//!
//! A location inside an archive is written as NLTK shows it: the archive's path followed by
//! the folder inside it (`.../corpora/wordnet.zip/wordnet`). The reader handles what zip tools
//! and Python's `zipfile` write for WordNet: stored or deflated members, no zip64, no
//! encryption.

use super::parse::bad;
use crate::error::CoreError;
use rustc_hash::FxHashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where WordNet's files are: a folder, or a folder inside a zip archive.
#[derive(Debug)]
pub(super) enum Files {
    /// A folder of files.
    Dir(PathBuf),
    /// The members `prefix` + name of an archive.
    Zip { archive: Archive, prefix: String },
}

impl Files {
    /// The files at `location`: a folder, or a zip archive's path with an optional folder
    /// inside it appended (`wordnet.zip/wordnet`); an archive given alone is searched for
    /// the folder of `index.noun` ([`Archive::wordnet_prefix`]).
    pub(super) fn open(location: &Path) -> Result<Files, CoreError> {
        if location.is_dir() {
            return Ok(Files::Dir(location.to_path_buf()));
        }
        let Some((zip, inner)) = split_archive(location) else {
            return Err(CoreError::MissingData(format!(
                "WordNet's folder {} does not exist; {}",
                location.display(),
                super::locate::HOW_TO_GET
            )));
        };
        let archive = Archive::open(&zip)?;
        let prefix = if inner.is_empty() {
            archive
                .wordnet_prefix()
                .ok_or_else(|| bad(&zip, "no member named index.noun"))?
        } else {
            format!("{inner}/")
        };
        Ok(Files::Zip { archive, prefix })
    }

    /// The text of file `name` (UTF-8), or an error naming it and how to get WordNet.
    pub(super) fn read(&self, name: &str) -> Result<String, CoreError> {
        match self {
            Files::Dir(dir) => super::parse::read(dir, name),
            Files::Zip { archive, prefix } => {
                let member = format!("{prefix}{name}");
                let bytes = archive.read(&member)?;
                let path = archive.path.join(&member);
                String::from_utf8(bytes).map_err(|e| bad(&path, format!("not UTF-8 ({e})")))
            }
        }
    }

    /// A path for messages about file `name`.
    pub(super) fn path_of(&self, name: &str) -> PathBuf {
        match self {
            Files::Dir(dir) => dir.join(name),
            Files::Zip { archive, prefix } => archive.path.join(format!("{prefix}{name}")),
        }
    }
}

/// `location` split into an existing `.zip` file among its ancestors (itself included) and
/// the folder inside it (`/`-separated, maybe empty).
fn split_archive(location: &Path) -> Option<(PathBuf, String)> {
    let mut inner: Vec<String> = Vec::new();
    let mut p = location;
    loop {
        let is_zip = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("zip"));
        if is_zip && p.is_file() {
            inner.reverse();
            return Some((p.to_path_buf(), inner.join("/")));
        }
        inner.push(p.file_name()?.to_string_lossy().into_owned());
        p = p.parent()?;
    }
}

/// One member's place in the archive.
#[derive(Debug, Clone, Copy)]
struct Member {
    method: u16,
    compressed: usize,
    size: usize,
    local_header: usize,
}

/// A zip archive read whole into memory, with its central directory.
#[derive(Debug)]
pub(super) struct Archive {
    path: PathBuf,
    bytes: Vec<u8>,
    members: FxHashMap<String, Member>,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

impl Archive {
    /// Reads the archive at `path` and its central directory.
    pub(super) fn open(path: &Path) -> Result<Archive, CoreError> {
        let bytes = std::fs::read(path).map_err(|e| {
            CoreError::MissingData(format!(
                "cannot read {} ({e}); {}",
                path.display(),
                super::locate::HOW_TO_GET
            ))
        })?;
        let members = Self::directory(&bytes).ok_or_else(|| {
            bad(
                path,
                "not a zip archive rapidbleu reads (stored or deflated members, no zip64)",
            )
        })?;
        Ok(Archive {
            path: path.to_path_buf(),
            bytes,
            members,
        })
    }

    /// The central directory: the end record is the last `PK\5\6` within the final 64 KiB
    /// (its comment is at most 65,535 bytes).
    fn directory(b: &[u8]) -> Option<FxHashMap<String, Member>> {
        const END: &[u8] = b"PK\x05\x06";
        let from = b.len().saturating_sub(22 + 65_535);
        let end = from + memchr::memmem::rfind(&b[from..], END)?;
        let count = u16_at(b, end + 10)? as usize;
        let mut at = u32_at(b, end + 16)?;
        let mut members = FxHashMap::default();
        for _ in 0..count {
            if b.get(at..at + 4)? != b"PK\x01\x02" {
                return None;
            }
            let flags = u16_at(b, at + 8)?;
            let (name_len, extra, comment) = (
                u16_at(b, at + 28)? as usize,
                u16_at(b, at + 30)? as usize,
                u16_at(b, at + 32)? as usize,
            );
            let member = Member {
                method: u16_at(b, at + 10)?,
                compressed: u32_at(b, at + 20)?,
                size: u32_at(b, at + 24)?,
                local_header: u32_at(b, at + 42)?,
            };
            // Encrypted members and zip64 sizes (0xFFFFFFFF) are not read.
            if flags & 1 != 0 || [member.compressed, member.size].contains(&0xFFFF_FFFF) {
                return None;
            }
            let name = String::from_utf8_lossy(b.get(at + 46..at + 46 + name_len)?).into_owned();
            members.insert(name, member);
            at += 46 + name_len + extra + comment;
        }
        Some(members)
    }

    /// The folder (with its trailing `/`) of the member `index.noun` nearest the top:
    /// `wordnet/` in NLTK's `wordnet.zip`.
    pub(super) fn wordnet_prefix(&self) -> Option<String> {
        self.members
            .keys()
            .filter(|k| *k == "index.noun" || k.ends_with("/index.noun"))
            .min_by_key(|k| (k.matches('/').count(), k.to_string()))
            .map(|k| k[..k.len() - "index.noun".len()].to_string())
    }

    /// Whether the archive holds member `name`.
    pub(super) fn contains(&self, name: &str) -> bool {
        self.members.contains_key(name)
    }

    /// The bytes of member `name`, inflated.
    pub(super) fn read(&self, name: &str) -> Result<Vec<u8>, CoreError> {
        let path = self.path.join(name);
        let m = *self.members.get(name).ok_or_else(|| {
            CoreError::MissingData(format!(
                "{} has no member {name}; {}",
                self.path.display(),
                super::locate::HOW_TO_GET
            ))
        })?;
        let b = &self.bytes;
        let local = m.local_header;
        let corrupt = || bad(&path, "a corrupt zip member");
        if b.get(local..local + 4) != Some(b"PK\x03\x04") {
            return Err(corrupt());
        }
        let name_len = u16_at(b, local + 26).ok_or_else(corrupt)? as usize;
        let extra = u16_at(b, local + 28).ok_or_else(corrupt)? as usize;
        let start = local + 30 + name_len + extra;
        let data = b.get(start..start + m.compressed).ok_or_else(corrupt)?;
        let mut out = Vec::new();
        crate::error::reserve(&mut out, m.size)?;
        match m.method {
            0 => out.extend_from_slice(data),
            8 => {
                flate2::read::DeflateDecoder::new(data)
                    .read_to_end(&mut out)
                    .map_err(|e| bad(&path, format!("cannot inflate ({e})")))?;
            }
            other => return Err(bad(&path, format!("compression method {other}"))),
        }
        if out.len() != m.size {
            return Err(corrupt());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored (uncompressed) archive of `files`, as `zipfile.ZIP_STORED` writes it.
    fn stored_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
        let (mut out, mut dir) = (Vec::new(), Vec::new());
        for (name, data) in files {
            let offset = out.len() as u32;
            let n = name.len() as u16;
            let len = data.len() as u32;
            out.extend_from_slice(b"PK\x03\x04");
            out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&n.to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(data);
            dir.extend_from_slice(b"PK\x01\x02");
            dir.extend_from_slice(&[20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            dir.extend_from_slice(&len.to_le_bytes());
            dir.extend_from_slice(&len.to_le_bytes());
            dir.extend_from_slice(&n.to_le_bytes());
            dir.extend_from_slice(&[0; 12]);
            dir.extend_from_slice(&offset.to_le_bytes());
            dir.extend_from_slice(name.as_bytes());
        }
        let (at, size) = (out.len() as u32, dir.len() as u32);
        out.extend_from_slice(&dir);
        out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
        let count = files.len() as u16;
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out
    }

    #[test]
    fn reads_stored_members_and_finds_the_folder() {
        let dir = std::env::temp_dir().join(format!("rb-zip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let zip = dir.join("wordnet.zip");
        let bytes = stored_zip(&[("wordnet/index.noun", b"abc"), ("wordnet/x", b"")]);
        std::fs::write(&zip, bytes).unwrap();
        let files = Files::open(&zip).unwrap();
        assert_eq!(files.read("index.noun").unwrap(), "abc");
        assert!(files.read("data.noun").is_err());
        let inner = Files::open(&zip.join("wordnet")).unwrap();
        assert_eq!(inner.read("x").unwrap(), "");
        assert!(Files::open(&dir.join("missing")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

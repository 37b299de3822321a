//! Where WordNet's files are found (where NLTK finds them), and the one shared copy per
//! folder and process.

use super::WordNet;
use crate::error::CoreError;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// How to get WordNet, for error messages.
pub const HOW_TO_GET: &str = "get WordNet 3.0 with `python -m nltk.downloader wordnet` \
    (~/nltk_data/corpora/wordnet.zip), or Debian's `wordnet-base` package (/usr/share/wordnet), \
    or give its folder or wordnet.zip as the wordnet path";

/// The folder holding WordNet's files under an NLTK data root `root` (`corpora/wordnet`), or
/// `root` itself when it holds them (Debian's `/usr/share/wordnet`).
fn wordnet_dir(root: &Path) -> Option<PathBuf> {
    [root.join("corpora").join("wordnet"), root.to_path_buf()]
        .into_iter()
        .find(|d| d.join("index.noun").is_file())
}

/// NLTK's default data roots that do not depend on the Python installation (`NLTK_DATA`'s
/// entries, `~/nltk_data`, `/usr/share/nltk_data`, `/usr/local/share/nltk_data`,
/// `/usr/lib/nltk_data`, `/usr/local/lib/nltk_data`), then Debian's `/usr/share/wordnet`.
/// The Python side adds `nltk.data.path` in front.
pub fn default_roots() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = std::env::var_os("NLTK_DATA")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(Path::new(&home).join("nltk_data"));
    }
    for r in [
        "/usr/share/nltk_data",
        "/usr/local/share/nltk_data",
        "/usr/lib/nltk_data",
        "/usr/local/lib/nltk_data",
        "/usr/share/wordnet",
    ] {
        roots.push(PathBuf::from(r));
    }
    roots
}

/// WordNet in NLTK's zipped form under `root`: `root/corpora/wordnet.zip` (or `root` itself,
/// a `.zip` file) holding `wordnet/index.noun` (or `index.noun` in another folder): the
/// archive's path with the folder inside it appended, as [`WordNet::load`] takes it.
fn wordnet_zip(root: &Path) -> Option<PathBuf> {
    let zipped = root.join("corpora").join("wordnet.zip");
    let zip = if zipped.is_file() {
        zipped
    } else if root.is_file() && root.extension().is_some_and(|e| e == "zip") {
        root.to_path_buf()
    } else {
        return None;
    };
    let archive = super::zip::Archive::open(&zip).ok()?;
    let prefix = if archive.contains("wordnet/index.noun") {
        "wordnet/".to_string()
    } else {
        archive.wordnet_prefix()?
    };
    let inner = prefix.trim_end_matches('/');
    Some(if inner.is_empty() {
        zip
    } else {
        zip.join(inner)
    })
}

/// The first of `roots` that holds WordNet (see [`default_roots`]), in `nltk.data.find`'s
/// order as `LazyCorpusLoader` asks it: a `corpora/wordnet` folder under any root first, then
/// a `corpora/wordnet.zip` under any root (`corpora/wordnet.zip/wordnet/`).
///
/// Errors: [`CoreError::MissingData`], listing where it looked and how to get WordNet.
pub fn find(roots: &[PathBuf]) -> Result<PathBuf, CoreError> {
    let mut unique: Vec<&PathBuf> = Vec::new();
    for r in roots {
        if !unique.contains(&r) {
            unique.push(r);
        }
    }
    let roots = unique;
    if let Some(dir) = roots.iter().find_map(|r| wordnet_dir(r)) {
        return Ok(dir);
    }
    if let Some(zip) = roots.iter().find_map(|r| wordnet_zip(r)) {
        return Ok(zip);
    }
    let looked: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    Err(CoreError::MissingData(format!(
        "WordNet (corpora/wordnet with index.noun, data.noun, noun.exc, ..., or \
         corpora/wordnet.zip) was not found under {}; {HOW_TO_GET}",
        looked.join(", ")
    )))
}

/// The WordNet of folder `dir`, read once per process and kept for its life (later calls with
/// the same folder return the same copy; a failed read is tried again next time).
pub fn shared(dir: &Path) -> Result<&'static WordNet, CoreError> {
    type Loaded = Vec<(PathBuf, &'static WordNet)>;
    static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut loaded = LOADED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some((_, wn)) = loaded.iter().find(|(d, _)| *d == dir) {
        return Ok(wn);
    }
    // Kept for the life of the process (a few folders at most): every options value and
    // worker cache refers to it without counting references.
    let wn: &'static WordNet = Box::leak(Box::new(WordNet::load(&dir)?));
    loaded.push((dir, wn));
    Ok(wn)
}

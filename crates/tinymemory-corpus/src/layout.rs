//! Finding the corpus files under a root directory.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::{CorpusError, CorpusWarning, Origin};

/// The directory of dialog files, relative to the root.
pub(crate) const DIALOG_DIR: &str = "chatterbot";
/// The directory of licence texts, relative to the root.
pub(crate) const LICENCE_DIR: &str = "licenses";

/// A corpus file, by kind.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CorpusFile {
    /// `chatterbot/<language>/<topic>.yml` (or `.yaml`).
    Dialog {
        /// Relative to the root.
        path: PathBuf,
        /// The directory name.
        language: String,
        /// The file stem.
        topic: String,
    },
    /// `licenses/<name>.txt`.
    Licence {
        /// Relative to the root.
        path: PathBuf,
        /// The file stem.
        name: String,
    },
}

impl CorpusFile {
    /// The path relative to the root.
    pub(crate) fn path(&self) -> &Path {
        match self {
            Self::Dialog { path, .. } | Self::Licence { path, .. } => path,
        }
    }
}

/// `true` when `full` is a symbolic link that leads to no file: its target
/// is missing, or the links loop.
fn is_broken_link(full: &Path) -> bool {
    fs::symlink_metadata(full).is_ok_and(|m| m.file_type().is_symlink())
        && fs::metadata(full).is_err()
}

/// Lists the corpus files under `root`: the dialogs by language directory
/// then file name, then the licences by file name (byte order throughout).
/// Hidden entries (names starting with `.`) and files with other extensions
/// are ignored; a missing `chatterbot/` or `licenses/` is no error.
///
/// # Errors
///
/// [`CorpusError::Root`] when `root` cannot be listed, [`CorpusError::Io`]
/// when a directory inside it cannot, [`CorpusError::Empty`] when no corpus
/// file is found.
///
/// Also returns a warning for each corpus file name that is a broken
/// symbolic link or leads to a device, a FIFO or a socket (skipped, never
/// silently, and never opened: a FIFO would block the load).
pub(crate) fn discover(root: &Path) -> Result<(Vec<CorpusFile>, Vec<CorpusWarning>), CorpusError> {
    let mut warnings = Vec::new();
    let mut note = |path: &Path| {
        let full = root.join(path);
        let why = if is_broken_link(&full) {
            "a symbolic link whose target is missing or loops; skipped"
        } else if fs::metadata(&full).is_ok_and(|m| !m.is_dir()) {
            "not a regular file (a device, a FIFO or a socket); skipped"
        } else {
            return;
        };
        warnings.push(CorpusWarning::new(Origin::new(path, 1), why));
    };
    fs::read_dir(root).map_err(|source| CorpusError::Root {
        root: root.to_owned(),
        source,
    })?;
    let mut files = Vec::new();
    let dialogs = Path::new(DIALOG_DIR);
    for (language_os, language) in list(root, dialogs)? {
        let dir = dialogs.join(&language_os);
        if !root.join(&dir).is_dir() {
            continue;
        }
        for (name_os, name) in list(root, &dir)? {
            let path = dir.join(&name_os);
            if let Some(topic) = stem_with(&name, &["yml", "yaml"]) {
                if root.join(&path).is_file() {
                    files.push(CorpusFile::Dialog {
                        path,
                        language: language.clone(),
                        topic,
                    });
                } else {
                    note(&path);
                }
            }
        }
    }
    let licences = Path::new(LICENCE_DIR);
    for (name_os, name) in list(root, licences)? {
        let path = licences.join(&name_os);
        if let Some(stem) = stem_with(&name, &["txt"]) {
            if root.join(&path).is_file() {
                files.push(CorpusFile::Licence { path, name: stem });
            } else {
                note(&path);
            }
        }
    }
    if files.is_empty() {
        return Err(CorpusError::Empty {
            root: root.to_owned(),
        });
    }
    Ok((files, warnings))
}

/// The visible entry names of `root/dir`, as given and as (lossy) UTF-8,
/// sorted; empty when `root/dir` is not a directory.
fn list(root: &Path, dir: &Path) -> Result<Vec<(OsString, String)>, CorpusError> {
    let full = root.join(dir);
    if !full.is_dir() {
        return Ok(Vec::new());
    }
    let io = |source| CorpusError::Io {
        file: dir.to_owned(),
        source,
    };
    let mut names = Vec::new();
    for entry in fs::read_dir(&full).map_err(io)? {
        let name = entry.map_err(io)?.file_name();
        let text = name.to_string_lossy().into_owned();
        if !text.starts_with('.') {
            names.push((name, text));
        }
    }
    names.sort();
    Ok(names)
}

/// The stem of `name` when its extension is one of `extensions` (ASCII
/// case-insensitive) and the stem is not empty.
fn stem_with(name: &str, extensions: &[&str]) -> Option<String> {
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty() && extensions.iter().any(|e| ext.eq_ignore_ascii_case(e)))
        .then(|| stem.to_owned())
}

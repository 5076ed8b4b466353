//! Where an output goes, decided once, before a command opens anything,
//! and written exactly there when it ends.
//!
//! An output's path is followed once: `--output out.json`, a symlink to
//! `safe.json` when a run starts, is written to `safe.json` even if the
//! link is pointed at the store while the run goes on (which once made a
//! 22,688-entry SQLite store a 352-byte report). What is held is the
//! directory the file is in, by its resolved path and its identity
//! (device and inode), and the file's final name: the report is written
//! into a temporary file in that directory and renamed onto that name, and
//! the directory's identity is checked again right before the rename. A
//! rename replaces the directory entry and never follows it, so whatever a
//! name has been made to point at since, no other file's bytes change. A
//! FIFO or a device (`/dev/stdout`) is written in place, opened without
//! truncation, and only when it is still the file it was.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::files::{self, FileError};

/// A file's identity: device and inode.
type FileId = (u64, u64);

/// An output file, resolved.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// The path as the user named it, for messages.
    named: PathBuf,
    place: Place,
}

#[derive(Debug, Clone)]
enum Place {
    /// A regular file, or none yet: renamed onto `dir/name`.
    Replace {
        /// The directory, resolved (symlinks followed).
        dir: PathBuf,
        /// Its identity when resolved; `None` where the platform has none.
        dir_id: Option<FileId>,
        /// The final name in it.
        name: OsString,
    },
    /// A FIFO, a device or a socket (or a symlink to one), written in
    /// place through the name given.
    Through {
        /// Its identity when resolved.
        id: Option<FileId>,
    },
    /// This process's standard output or error, named as `/dev/stdout`,
    /// `/dev/fd/1`, `/proc/self/fd/2` and the like: written through the
    /// stream itself, at its offset, whatever it is redirected to (`>>
    /// run.log` appends, never replaces the log).
    Stream(Stream),
    /// Another open file of the process named through `/dev/fd/N` or
    /// `/proc/self/fd/N` that leads to a regular file: appended to,
    /// never replaced or truncated.
    Append {
        /// Its identity when resolved.
        id: Option<FileId>,
    },
}

/// A standard stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Stdout,
    Stderr,
}

/// The standard stream `path` names, spelt as a path (`/dev/stdout`,
/// `/dev/fd/2`, `/proc/self/fd/1`): `Some(Ok(..))`; `Some(Err(()))` for
/// another descriptor of the process (`/dev/fd/5`, `/dev/stdin`); `None`
/// for any other path.
fn named_descriptor(path: &Path) -> Option<Result<Stream, ()>> {
    let text = path.to_str()?;
    let fd = match text {
        "/dev/stdout" => return Some(Ok(Stream::Stdout)),
        "/dev/stderr" => return Some(Ok(Stream::Stderr)),
        // Standard input is another descriptor: a file it reads is
        // appended to (when open for writing too), never replaced.
        "/dev/stdin" => return Some(Err(())),
        _ => text
            .strip_prefix("/dev/fd/")
            .or_else(|| text.strip_prefix("/proc/self/fd/"))
            .or_else(|| text.strip_prefix("/proc/thread-self/fd/"))?,
    };
    match fd {
        "1" => Some(Ok(Stream::Stdout)),
        "2" => Some(Ok(Stream::Stderr)),
        n if n.parse::<u32>().is_ok() => Some(Err(())),
        _ => None,
    }
}

/// The number of the descriptor `path` names (`/dev/fd/N`,
/// `/proc/self/fd/N`, `/dev/stdin`) when this process holds it open for
/// reading only, as `/proc/self/fdinfo/N` says: opening the name for
/// writing would reopen its file with whatever access the file's
/// permissions allow, and write into a file the caller gave only to be
/// read. `None` for any
/// other path, and where `/proc` says nothing.
fn read_only_descriptor(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    let n: u32 = if text == "/dev/stdin" {
        0
    } else {
        text.strip_prefix("/dev/fd/")
            .or_else(|| text.strip_prefix("/proc/self/fd/"))
            .or_else(|| text.strip_prefix("/proc/thread-self/fd/"))?
            .parse()
            .ok()?
    };
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{n}")).ok()?;
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())?;
    // O_ACCMODE is 3 and O_RDONLY 0 on every Linux architecture.
    (flags & 0o3 == 0).then_some(n)
}

impl Target {
    /// Resolves the output `path`: a FIFO, device or socket it is (or
    /// leads to) is written in place; anything else in the directory the
    /// path leads to (through its symlinks, a dangling one included: the
    /// write creates its target), under the name it leads to. The
    /// directory must exist and take a new file; nothing is created.
    ///
    /// # Errors
    ///
    /// A message naming `path` when it is a directory, has no file name,
    /// or its directory is missing or cannot be written to.
    pub(crate) fn resolve(path: &Path) -> Result<Self, FileError> {
        let failed = |why: String| FileError::Write {
            path: path.to_owned(),
            why,
        };
        if path.is_dir() {
            return Err(failed("it is a directory".to_owned()));
        }
        if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
            return Err(failed(
                "a name ending in / names a directory, and an output is a file".to_owned(),
            ));
        }
        if let Some(n) = read_only_descriptor(path) {
            return Err(failed(format!(
                "the descriptor is open for reading only; open it for writing ({n}>FILE, or a \
                 pipe's write end)"
            )));
        }
        match named_descriptor(path) {
            Some(Ok(stream)) => {
                return Ok(Self {
                    named: path.to_owned(),
                    place: Place::Stream(stream),
                })
            }
            Some(Err(())) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => {
                return Ok(Self {
                    named: path.to_owned(),
                    place: Place::Append { id: id_of(path) },
                })
            }
            _ => {}
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => return Err(failed("it is a directory".to_owned())),
            Ok(meta) if !meta.is_file() => {
                return Ok(Self {
                    named: path.to_owned(),
                    place: Place::Through { id: id_of(path) },
                })
            }
            _ => {}
        }
        let leads_to = crate::identity::resolved(path)
            .ok_or_else(|| failed("its directory does not exist".to_owned()))?;
        let (Some(parent), Some(name)) = (leads_to.parent(), leads_to.file_name()) else {
            return Err(failed("it names no file".to_owned()));
        };
        let dir = std::fs::canonicalize(parent).map_err(|e| {
            failed(format!(
                "its directory {} cannot be used: {e}",
                parent.display()
            ))
        })?;
        files::probe_dir(&dir).map_err(|e| {
            failed(format!(
                "its directory {} cannot be written to: {e}",
                dir.display()
            ))
        })?;
        Ok(Self {
            named: path.to_owned(),
            place: Place::Replace {
                dir_id: id_of(&dir),
                name: name.to_owned(),
                dir,
            },
        })
    }

    /// The path as named.
    pub(crate) fn named(&self) -> &Path {
        &self.named
    }

    /// The path the output's bytes end up at: the resolved directory and
    /// final name, or the name given for a file written in place.
    pub(crate) fn path(&self) -> PathBuf {
        match &self.place {
            Place::Replace { dir, name, .. } => dir.join(name),
            Place::Through { .. } | Place::Stream(_) | Place::Append { .. } => self.named.clone(),
        }
    }

    /// A file to write the output into before [`Target::commit`]: a new
    /// temporary file in the resolved directory, or `None` for a file
    /// written in place (opened by [`Target::open_in_place`]).
    ///
    /// # Errors
    ///
    /// A message naming the output when the directory was replaced since
    /// it was resolved, or the file cannot be created.
    pub(crate) fn temporary(&self) -> Result<Option<tempfile::NamedTempFile>, FileError> {
        let Place::Replace { dir, .. } = &self.place else {
            return Ok(None);
        };
        self.same_directory()?;
        let tmp = files::temporary_in(dir).map_err(|e| self.failed(&e))?;
        crate::cleanup::remove_on_signal(tmp.path().to_owned());
        Ok(Some(tmp))
    }

    /// Renames `tmp` (from [`Target::temporary`]) onto the output, once
    /// the directory is checked to be the one resolved: a new file gets
    /// mode 0644, a replaced regular file keeps its permissions.
    ///
    /// # Errors
    ///
    /// A message naming the output when the directory was replaced, or
    /// the rename fails; the temporary file is then removed.
    pub(crate) fn commit(&self, tmp: tempfile::TempPath) -> Result<(), FileError> {
        self.same_directory()?;
        files::persist(tmp, &self.path()).map_err(|e| self.failed(&e))
    }

    /// Opens a file written in place, without creating or truncating it,
    /// once it is checked to be the file it was when resolved.
    ///
    /// # Errors
    ///
    /// A message naming the output when it cannot be opened, or leads to
    /// another file than when it was resolved (nothing is then written).
    pub(crate) fn open_in_place(&self) -> Result<Box<dyn std::io::Write + Send>, FileError> {
        match &self.place {
            Place::Stream(Stream::Stdout) => Ok(Box::new(std::io::stdout())),
            Place::Stream(Stream::Stderr) => Ok(Box::new(std::io::stderr())),
            _ => Ok(Box::new(self.open_file_in_place()?)),
        }
    }

    /// [`Target::open_in_place`] of a file named by its path: a FIFO, a
    /// device, or a regular file through `/dev/fd/N`.
    fn open_file_in_place(&self) -> Result<std::fs::File, FileError> {
        let (id, append) = match &self.place {
            Place::Through { id } => (id, false),
            Place::Append { id } => (id, true),
            Place::Replace { .. } | Place::Stream(_) => {
                return Err(self.failed(&"it is not a file written in place"))
            }
        };
        let file = match self.open_fifo_with_a_reader() {
            Some(file) => file,
            None => std::fs::OpenOptions::new()
                .write(true)
                .append(append)
                .open(&self.named)
                .map_err(|e| self.failed(&e))?,
        };
        let now = file_id(&file);
        let regular = file.metadata().map(|m| m.is_file()).unwrap_or(true);
        if regular != append || now != *id {
            return Err(self.failed(
                &"it led to a FIFO or a device when the command started and leads to another \
                  file now, so nothing was written to it",
            ));
        }
        Ok(file)
    }

    /// The output opened for writing when it is a FIFO a reader already
    /// holds open; `None` otherwise, after telling stderr when it is a
    /// FIFO nobody reads yet: opening it then blocks until a reader comes,
    /// and a run waiting there without a word looks hung.
    #[cfg(unix)]
    fn open_fifo_with_a_reader(&self) -> Option<std::fs::File> {
        use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
        let fifo = std::fs::metadata(&self.named).is_ok_and(|m| m.file_type().is_fifo());
        if !fifo {
            return None;
        }
        // O_NONBLOCK: a FIFO with no reader fails with ENXIO at once.
        let flags = rustix::fs::OFlags::NONBLOCK.bits();
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(flags.cast_signed())
            .open(&self.named)
        {
            Ok(file) => {
                // Writes block again, as on a FIFO opened the usual way.
                let blocking = rustix::fs::fcntl_getfl(&file)
                    .and_then(|f| rustix::fs::fcntl_setfl(&file, f - rustix::fs::OFlags::NONBLOCK));
                blocking.is_ok().then_some(file)
            }
            Err(e) => {
                if e.raw_os_error() == Some(rustix::io::Errno::NXIO.raw_os_error()) {
                    stderr_line!(
                        "waiting for a reader of the FIFO {}: the command goes on once one opens it",
                        self.named.display()
                    );
                }
                None
            }
        }
    }

    /// [`Target::open_fifo_with_a_reader`] where there are no FIFOs.
    #[cfg(not(unix))]
    fn open_fifo_with_a_reader(&self) -> Option<std::fs::File> {
        None
    }

    /// Writes `text` to the output: whole or not at all for a file, in
    /// place for a FIFO or a device. Waits instead when the command was
    /// interrupted (the signal handler ends it).
    ///
    /// # Errors
    ///
    /// A message naming the output (see [`Target::temporary`],
    /// [`Target::commit`], [`Target::open_in_place`]), or the write's.
    pub(crate) fn write(&self, text: &str) -> Result<(), FileError> {
        use std::io::Write;
        crate::cleanup::wait_if_interrupted();
        match self.temporary()? {
            Some(mut tmp) => {
                tmp.write_all(text.as_bytes())
                    .and_then(|()| tmp.as_file().sync_all())
                    .map_err(|e| self.failed(&e))?;
                self.commit(tmp.into_temp_path())
            }
            // Written through a stream or a FIFO, the output is whole only
            // once its reader has read it (`files::read_whole`), as a
            // report on standard output is.
            None => match &self.place {
                Place::Stream(Stream::Stdout) => files::report_stdout(text),
                Place::Stream(Stream::Stderr) => {
                    let mut err = std::io::stderr();
                    err.write_all(text.as_bytes())
                        .and_then(|()| err.flush())
                        .and_then(|()| files::read_whole(&err))
                        .map_err(|e| self.failed_write(e))
                }
                _ => {
                    let mut file = self.open_file_in_place()?;
                    file.write_all(text.as_bytes())
                        .and_then(|()| file.flush())
                        .and_then(|()| files::read_whole(&file))
                        .map_err(|e| self.failed_write(e))
                }
            },
        }
    }

    /// A write's failure, a reader that closed a pipe before reading
    /// every byte said so.
    fn failed_write(&self, e: std::io::Error) -> FileError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            self.failed(&format!(
                "its reader closed the pipe before the output was written whole ({e})"
            ))
        } else {
            self.failed(&e)
        }
    }

    /// Refuses a directory that is no longer the one resolved: one of its
    /// components was replaced (by a symlink elsewhere, say).
    fn same_directory(&self) -> Result<(), FileError> {
        let Place::Replace { dir, dir_id, .. } = &self.place else {
            return Ok(());
        };
        if id_of(dir) == *dir_id {
            return Ok(());
        }
        Err(self.failed(&format!(
            "its directory {} is another directory than when the command started (or is gone), \
             so nothing was written",
            dir.display()
        )))
    }

    fn failed(&self, why: &dyn std::fmt::Display) -> FileError {
        FileError::Write {
            path: self.named.clone(),
            why: why.to_string(),
        }
    }
}

/// A directory an output's files go in (`--bundle DIR`), resolved once:
/// its nearest existing ancestor, by resolved path and identity, and the
/// missing components below it, made only when the files are written;
/// and each of the files it may get that exists when it is resolved,
/// resolved then as [`Target::resolve`] resolves an `--output`.
///
/// A file of it that did not exist then is created by renaming a
/// temporary file onto its name in the directory, never through whatever
/// was put at that name since: a symlink to the store planted at a
/// bundle's name while the run goes on (which once made a 22,688-entry
/// SQLite store a 1,121-byte bundle) is replaced by the bundle, and the
/// store keeps its bytes.
#[derive(Debug, Clone)]
pub(crate) struct DirTarget {
    named: PathBuf,
    base: PathBuf,
    base_id: Option<FileId>,
    rest: PathBuf,
    /// The files named that existed when the directory was resolved, by
    /// name: each resolved then, or why it could not be (said only when
    /// that file is written).
    existing: HashMap<String, Result<Target, String>>,
}

/// A directory of files made by [`DirTarget::create`]: its resolved path
/// and its identity when made (or, for a directory that existed, when
/// resolved).
#[derive(Debug, Clone)]
pub(crate) struct MadeDir {
    dir: PathBuf,
    id: Option<FileId>,
}

impl DirTarget {
    /// Resolves `dir` after [`files::check_writable_dir`], and each file
    /// of `names` that exists in it now (a bundle of an earlier run, a
    /// symlink to where the user keeps them); nothing is created.
    ///
    /// # Errors
    ///
    /// [`files::check_writable_dir`]'s message.
    pub(crate) fn resolve(dir: &Path, names: &[String]) -> Result<Self, FileError> {
        files::check_writable_dir(dir)?;
        // The nearest ancestor that exists: `bundles` alone has the empty
        // path above it, the working directory.
        let existing = dir
            .ancestors()
            .find(|a| a.as_os_str().is_empty() || a.exists())
            .unwrap_or(Path::new(""));
        let rest = dir.strip_prefix(existing).unwrap_or(dir).to_owned();
        let existing = if existing.as_os_str().is_empty() {
            Path::new(".")
        } else {
            existing
        };
        let base =
            std::fs::canonicalize(existing).map_err(|source| FileError::BundleDirUnresolved {
                dir: dir.to_owned(),
                existing: existing.to_owned(),
                source,
            })?;
        let mut existing = HashMap::new();
        if rest.as_os_str().is_empty() {
            for name in names {
                let path = dir.join(name);
                if std::fs::symlink_metadata(&path).is_ok() {
                    let resolved = Target::resolve(&path).map_err(|e| match e {
                        FileError::Write { why, .. } => why,
                        other => other.to_string(),
                    });
                    existing.insert(name.clone(), resolved);
                }
            }
        }
        Ok(Self {
            named: dir.to_owned(),
            base_id: id_of(&base),
            base,
            rest,
            existing,
        })
    }

    /// The file `name` of the directory `made` ([`DirTarget::create`]):
    /// as resolved with the directory when it existed then, else the name
    /// in `made`, renamed onto when written, so nothing put at that name
    /// since is followed.
    ///
    /// # Errors
    ///
    /// A message naming the file when it existed but could not be
    /// resolved (a directory, say).
    pub(crate) fn file(&self, made: &MadeDir, name: &str) -> Result<Target, FileError> {
        let named = self.named.join(name);
        match self.existing.get(name) {
            Some(Ok(target)) => Ok(target.clone()),
            Some(Err(why)) => Err(FileError::Write {
                path: named,
                why: why.clone(),
            }),
            None => Ok(Target {
                named,
                place: Place::Replace {
                    dir: made.dir.clone(),
                    dir_id: made.id,
                    name: name.into(),
                },
            }),
        }
    }

    /// The directory as named.
    pub(crate) fn named(&self) -> &Path {
        &self.named
    }

    /// Makes the directory (and the missing ones above it) under the
    /// ancestor resolved, once it is checked to be the same one; returns
    /// the directory made, resolved, with its identity.
    ///
    /// # Errors
    ///
    /// A message naming the directory when its ancestor was replaced or
    /// the directory cannot be made.
    pub(crate) fn create(&self) -> Result<MadeDir, FileError> {
        let not_made = |why: String| FileError::BundleDirNotMade {
            dir: self.named.clone(),
            why,
        };
        if id_of(&self.base) != self.base_id {
            return Err(not_made(format!(
                "{} is another directory than when the command started (or is gone), so \
                 nothing was written",
                self.base.display()
            )));
        }
        let dir = self.base.join(&self.rest);
        let failed = |e: std::io::Error| not_made(e.to_string());
        std::fs::create_dir_all(&dir).map_err(failed)?;
        let made = std::fs::canonicalize(&dir).map_err(failed)?;
        // The missing directories were made here, so each is a directory,
        // not a link planted since the command started (into the corpus,
        // say): the one made must be the one named below the ancestor.
        let plain = self
            .rest
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if plain && made != self.base.join(&self.rest) {
            return Err(not_made(format!(
                "it leads to {} now, not below {} as when the command started (a directory of \
                 it was replaced by a symlink), so nothing was written",
                made.display(),
                self.base.display()
            )));
        }
        // A directory that existed is held by the identity it had when
        // resolved; one made now, by the identity it was made with.
        let id = if self.rest.as_os_str().is_empty() {
            self.base_id
        } else {
            id_of(&made)
        };
        Ok(MadeDir { dir: made, id })
    }
}

/// The identity of what `path` leads to.
#[cfg(unix)]
fn id_of(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// The identity of an open file.
#[cfg(unix)]
fn file_id(file: &std::fs::File) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    file.metadata().ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn id_of(_path: &Path) -> Option<FileId> {
    None
}

#[cfg(not(unix))]
fn file_id(_file: &std::fs::File) -> Option<FileId> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_link_pointed_at_another_file_after_resolving_writes_the_first_target() {
        let dir = tempfile::tempdir().unwrap();
        let safe = dir.path().join("safe.json");
        let store = dir.path().join("u.db");
        std::fs::write(&safe, b"old report").unwrap();
        std::fs::write(&store, b"the store").unwrap();
        let out = dir.path().join("out.json");
        std::os::unix::fs::symlink(&safe, &out).unwrap();
        let target = Target::resolve(&out).unwrap();
        // Retargeted while the run goes on, as `ln -sfn u.db out.json`.
        std::fs::remove_file(&out).unwrap();
        std::os::unix::fs::symlink(&store, &out).unwrap();
        target.write("the report").unwrap();
        assert_eq!(std::fs::read(&store).unwrap(), b"the store");
        assert_eq!(std::fs::read(&safe).unwrap(), b"the report");
        assert_eq!(std::fs::read_link(&out).unwrap(), store);
    }

    #[test]
    fn a_name_made_a_link_to_the_store_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("u.db");
        std::fs::write(&store, b"the store").unwrap();
        let out = dir.path().join("report.json");
        let target = Target::resolve(&out).unwrap();
        std::os::unix::fs::symlink(&store, &out).unwrap();
        target.write("the report").unwrap();
        assert_eq!(std::fs::read(&store).unwrap(), b"the store");
        assert!(!out.is_symlink());
        assert_eq!(std::fs::read(&out).unwrap(), b"the report");
    }

    #[test]
    fn a_directory_replaced_by_a_link_elsewhere_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let out_dir = root.path().join("reports");
        let store_dir = root.path().join("stores");
        std::fs::create_dir(&out_dir).unwrap();
        std::fs::create_dir(&store_dir).unwrap();
        let store = store_dir.join("u.db");
        std::fs::write(&store, b"the store").unwrap();
        let target = Target::resolve(&out_dir.join("u.db")).unwrap();
        std::fs::remove_dir(&out_dir).unwrap();
        std::os::unix::fs::symlink(&store_dir, &out_dir).unwrap();
        let err = target.write("the report").unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "failed to write {}: its directory {} is another directory than when the \
                 command started (or is gone), so nothing was written",
                out_dir.join("u.db").display(),
                std::fs::canonicalize(root.path())
                    .unwrap()
                    .join("reports")
                    .display()
            )
        );
        assert_eq!(std::fs::read(&store).unwrap(), b"the store");
    }

    #[test]
    fn a_device_link_pointed_at_a_file_is_not_opened_for_writing() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("u.db");
        std::fs::write(&store, b"the store").unwrap();
        let out = dir.path().join("out");
        std::os::unix::fs::symlink("/dev/null", &out).unwrap();
        let target = Target::resolve(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        std::os::unix::fs::symlink(&store, &out).unwrap();
        let err = target.write("the report").unwrap_err().to_string();
        assert!(err.ends_with("so nothing was written to it"), "{err}");
        assert_eq!(std::fs::read(&store).unwrap(), b"the store");
    }

    /// A bundle's name made a link to the store after the directory was
    /// resolved, whether the directory existed then or is made at the
    /// end, is replaced by the bundle; a link there when it was resolved
    /// is followed once, as an `--output`'s is.
    #[test]
    fn a_bundle_name_made_a_link_after_resolving_is_replaced_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let store = root.path().join("u.db");
        std::fs::write(&store, b"the store").unwrap();
        let names = ["a.json".to_owned()];
        let existing = root.path().join("bundles");
        std::fs::create_dir(&existing).unwrap();
        for dir in [existing, root.path().join("new/bundles")] {
            let target = DirTarget::resolve(&dir, &names).unwrap();
            let made = target.create().unwrap();
            std::os::unix::fs::symlink(&store, dir.join("a.json")).unwrap();
            target
                .file(&made, "a.json")
                .and_then(|t| t.write("the bundle"))
                .unwrap();
            assert_eq!(std::fs::read(&store).unwrap(), b"the store");
            assert!(!dir.join("a.json").is_symlink(), "{}", dir.display());
            assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), b"the bundle");
        }
        let kept = root.path().join("kept");
        std::fs::create_dir(&kept).unwrap();
        let safe = root.path().join("safe.json");
        std::os::unix::fs::symlink(&safe, kept.join("a.json")).unwrap();
        let target = DirTarget::resolve(&kept, &names).unwrap();
        std::fs::remove_file(kept.join("a.json")).unwrap();
        std::os::unix::fs::symlink(&store, kept.join("a.json")).unwrap();
        let made = target.create().unwrap();
        target
            .file(&made, "a.json")
            .and_then(|t| t.write("the bundle"))
            .unwrap();
        assert_eq!(std::fs::read(&store).unwrap(), b"the store");
        assert_eq!(std::fs::read(&safe).unwrap(), b"the bundle");
    }

    #[test]
    fn a_directory_or_a_missing_directory_is_refused_when_resolved() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Target::resolve(dir.path()).unwrap_err().to_string(),
            format!(
                "failed to write {}: it is a directory",
                dir.path().display()
            )
        );
        let missing = dir.path().join("no/such/report.json");
        assert!(Target::resolve(&missing)
            .unwrap_err()
            .to_string()
            .starts_with(&format!(
                "failed to write {}: its directory",
                missing.display()
            )));
    }
}

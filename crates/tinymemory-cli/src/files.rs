//! Reading reports and bundles named on the command line, and writing
//! outputs, with errors that name the file.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use tinymemory_conformance::report::ReportError;
use tinymemory_conformance::{Bundle, Report};

/// A file a command names that it cannot read or write: a usage error
/// ([`crate::exit::USAGE`]), each message naming the file.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FileError {
    /// A report or bundle named by a directory.
    #[error("failed to read {}: it is a directory, and a report or a bundle is a file", .0.display())]
    ReadDirectory(PathBuf),
    /// A report or bundle that cannot be read.
    #[error("failed to read {}: {source}", path.display())]
    Read {
        /// As named.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// A report or bundle longer than [`MAX_DOCUMENT_BYTES`]: refused
    /// once that much is read, so a device that never ends (`/dev/zero`)
    /// or a sparse file of gigabytes is not read into memory.
    #[error(
        "failed to read {}: it holds more than {MAX_DOCUMENT_BYTES} bytes ({} MiB), more than any \
         report or bundle this build writes",
        .0.display(),
        MAX_DOCUMENT_BYTES >> 20
    )]
    TooLarge(PathBuf),
    /// A report or bundle that is not one this build reads.
    #[error("{}: {source}", path.display())]
    Malformed {
        /// As named.
        path: PathBuf,
        /// What is wrong in it.
        source: ReportError,
    },
    /// An output file that cannot be written ([`crate::target::Target`]).
    #[error("failed to write {}: {why}", path.display())]
    Write {
        /// As named.
        path: PathBuf,
        /// Why, without the path.
        why: String,
    },
    /// Standard output failed (not a closed pipe).
    #[error("failed to write to standard output: {0}")]
    Stdout(io::Error),
    /// A report's reader closed standard output before the report was
    /// written whole.
    #[error("failed to write the report to standard output: its reader closed the pipe before the report was written whole ({0})")]
    ReportCut(io::Error),
    /// `--bundle DIR` cannot be made or written in.
    #[error("failed to use the bundle directory {}: {why}; --bundle names a directory, which gets one bundle file per failing check", dir.display())]
    BundleDir {
        /// As named.
        dir: PathBuf,
        /// Why, without the directory.
        why: String,
    },
    /// No file can be created in the bundle directory's nearest existing
    /// ancestor.
    #[error("failed to use the bundle directory {}: a file cannot be created in {}: {source}", dir.display(), existing.display())]
    BundleDirNotWritable {
        /// As named.
        dir: PathBuf,
        /// Its nearest existing ancestor.
        existing: PathBuf,
        /// The system's reason.
        source: ProbeError,
    },
    /// The bundle directory's nearest existing ancestor cannot be resolved.
    #[error("failed to use the bundle directory {}: {}: {source}", dir.display(), existing.display())]
    BundleDirUnresolved {
        /// As named.
        dir: PathBuf,
        /// Its nearest existing ancestor.
        existing: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The bundle directory could not be made at the end of the run.
    #[error("failed to create the bundle directory {}: {why}", dir.display())]
    BundleDirNotMade {
        /// As named.
        dir: PathBuf,
        /// Why, without the directory.
        why: String,
    },
}

/// Reads the JSON report at `path`.
///
/// # Errors
///
/// [`FileError::ReadDirectory`], [`FileError::Read`] or
/// [`FileError::Malformed`].
pub(crate) fn read_report(path: &Path) -> Result<Report, FileError> {
    let text = read(path)?;
    Report::from_json(&text).map_err(|source| FileError::Malformed {
        path: path.to_owned(),
        source,
    })
}

/// Reads the regression bundle at `path`.
///
/// # Errors
///
/// As [`read_report`].
pub(crate) fn read_bundle(path: &Path) -> Result<Bundle, FileError> {
    let text = read(path)?;
    Bundle::from_json(&text).map_err(|source| FileError::Malformed {
        path: path.to_owned(),
        source,
    })
}

/// A new temporary file in `dir`, for [`persist`] to rename over a file
/// there.
///
/// # Errors
///
/// The reason, without the path, when the file cannot be created.
pub(crate) fn temporary_in(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(".tinymemory-")
        .suffix(".tmp")
        .tempfile_in(dir)
}

/// Renames `tmp` over `path`: a new file gets mode 0644, a replaced one
/// keeps its permissions.
///
/// # Errors
///
/// The reason, without the path, when the permissions cannot be set or
/// the rename fails.
pub(crate) fn persist(tmp: tempfile::TempPath, path: &Path) -> io::Result<()> {
    // The entry replaced, not what it may lead to: a name made a link to
    // another file since lends that file's permissions to nothing.
    let permissions = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Some(meta.permissions()),
        _ => new_file_permissions(),
    };
    if let Some(p) = permissions {
        std::fs::set_permissions(&tmp, p)?;
    }
    tmp.persist(path).map_err(|e| e.error)
}

#[cfg(unix)]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    None
}

/// The longest file name, in bytes, that common file systems take
/// (Linux's `NAME_MAX`, ext4, APFS, NTFS in UTF-16 units).
const MAX_NAME_BYTES: usize = 255;

/// Checks, before a run, that [`crate::target::DirTarget::create`] can later make `dir` and
/// write in it: `dir` is a directory files can be created in, or is
/// missing and its nearest existing ancestor is such a directory. Nothing
/// is created, so a run refused later leaves no directory behind.
///
/// # Errors
///
/// A [`FileError`] naming `dir` and the reason.
pub(crate) fn check_writable_dir(dir: &Path) -> Result<(), FileError> {
    let refused = |why: &str| {
        Err(FileError::BundleDir {
            dir: dir.to_owned(),
            why: why.to_owned(),
        })
    };
    if let Some(long) = dir
        .components()
        .map(|c| c.as_os_str())
        .find(|c| c.len() > MAX_NAME_BYTES)
    {
        return refused(&format!(
            "its name {} is {} bytes long, and a file system takes at most {MAX_NAME_BYTES}",
            Path::new(long).display(),
            long.len()
        ));
    }
    if let Some(link) = dir
        .ancestors()
        .find(|a| !a.as_os_str().is_empty() && a.is_symlink() && !a.exists())
    {
        return refused(&format!(
            "{} is a symlink that leads to no file (a missing target, or a loop)",
            link.display()
        ));
    }
    let existing = dir
        .ancestors()
        .map(|a| {
            if a.as_os_str().is_empty() {
                Path::new(".")
            } else {
                a
            }
        })
        .find(|a| a.exists())
        .unwrap_or(Path::new("."));
    if !existing.is_dir() {
        return refused(&if existing == dir {
            "it is a file".to_owned()
        } else {
            format!("{} is a file", existing.display())
        });
    }
    probe_dir(existing).map_err(|source| FileError::BundleDirNotWritable {
        dir: dir.to_owned(),
        existing: existing.to_owned(),
        source,
    })
}

/// Why a file cannot be created in a directory: the system's reason,
/// without the temporary file's name.
#[derive(Debug)]
pub(crate) struct ProbeError(io::Error);

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        match text.split_once(" at path ") {
            Some((reason, _)) => f.write_str(reason),
            None => f.write_str(&text),
        }
    }
}

impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// Creates and removes a temporary file in `dir`; the error is the
/// system's reason, without the temporary file's name.
pub(crate) fn probe_dir(dir: &Path) -> Result<(), ProbeError> {
    tempfile::Builder::new()
        .prefix(".tinymemory-probe-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(ProbeError)
}

/// The longest report or bundle a command reads, in bytes. A report holds
/// a few kilobytes per check (messages are cut at 1,000 characters) and a
/// bundle one check's cases, so no file this build writes comes near it.
pub(crate) const MAX_DOCUMENT_BYTES: u64 = 256 * 1024 * 1024;

fn read(path: &Path) -> Result<String, FileError> {
    use std::io::Read as _;

    if path.is_dir() {
        return Err(FileError::ReadDirectory(path.to_owned()));
    }
    let failed = |source| FileError::Read {
        path: path.to_owned(),
        source,
    };
    // Read one byte past the bound to tell a file of exactly the bound
    // from a longer one; a device or FIFO has no length to ask first.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_DOCUMENT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(failed)?;
    if bytes.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(FileError::TooLarge(path.to_owned()));
    }
    String::from_utf8(bytes)
        .map_err(|e| failed(io::Error::new(io::ErrorKind::InvalidData, e.utf8_error())))
}

/// Writes `text`, a document programs read (a JSON answer, a report),
/// to standard output as [`report_stdout`] writes a report when
/// `document`, else as [`stdout`] writes text.
///
/// # Errors
///
/// As [`report_stdout`] or [`stdout`].
pub(crate) fn document_stdout(text: &str, document: bool) -> Result<(), FileError> {
    if document {
        report_stdout(text)
    } else {
        stdout(text)
    }
}

/// Writes `text` to standard output. A closed pipe (`list | head`) is
/// not an error: the reader chose to stop, and the exit code still tells
/// the outcome.
///
/// # Errors
///
/// Any other write failure (a full disk behind `> out.txt`), as a
/// [`FileError::Stdout`].
pub(crate) fn stdout(text: &str) -> Result<(), FileError> {
    match write_stdout(text) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(FileError::Stdout(e)),
        _ => Ok(()),
    }
}

/// Writes the report `text` to standard output, whole or as an error: a
/// reader that closed the pipe before the last byte (`run --format json |
/// head -c 10`) got a cut report, which a program reading it could take
/// for the run's, so it fails the command as a full disk does. A closed
/// pipe is the write's `EPIPE` (Rust ignores `SIGPIPE`) when the reader
/// left first; a report that fit in the pipe's buffer was written whole
/// before the reader left, so on a pipe the command then waits until the
/// buffer is read empty, or its reader is gone with bytes unread.
///
/// # Errors
///
/// [`FileError::ReportCut`] for a closed pipe, [`FileError::Stdout`] for
/// any other write failure.
pub(crate) fn report_stdout(text: &str) -> Result<(), FileError> {
    write_stdout(text)
        .and_then(|()| stdout_read_whole())
        .map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                FileError::ReportCut(e)
            } else {
                FileError::Stdout(e)
            }
        })
}

/// [`read_whole`] of standard output.
fn stdout_read_whole() -> io::Result<()> {
    read_whole(&std::io::stdout())
}

/// Waits, when `out` (standard output or error, a FIFO an output names)
/// is a pipe, until its reader has read every byte in it (or it cannot be
/// told: FIONREAD refused): the one test of a report written whole on a
/// pipe, for every command that writes one (`run`, `merge`, `list` and
/// `hello` JSON), to standard output or through `--output /dev/stdout`.
///
/// # Errors
///
/// A `BrokenPipe` error when the reader closed the pipe with bytes unread.
#[cfg(unix)]
pub(crate) fn read_whole(out: &impl std::os::fd::AsFd) -> io::Result<()> {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    use std::os::unix::fs::FileTypeExt;
    let fd = out.as_fd();
    let is_pipe = fd
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|f| f.metadata())
        .is_ok_and(|m| m.file_type().is_fifo());
    if !is_pipe {
        return Ok(());
    }
    // How often the pipe is looked at while its reader reads.
    let tick = Timespec {
        tv_sec: 0,
        tv_nsec: 20_000_000,
    };
    loop {
        // Linux counts the bytes in a pipe from either end; elsewhere the
        // write end may refuse, and then nothing more can be known.
        match rustix::io::ioctl_fionread(fd) {
            Ok(0) | Err(_) => return Ok(()),
            Ok(_) => {}
        }
        // No event asked: poll wakes at the tick, or at once with POLLERR
        // when the last reader is gone.
        let mut fds = [PollFd::from_borrowed_fd(fd, PollFlags::empty())];
        match poll(&mut fds, Some(&tick)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        if fds[0].revents().contains(PollFlags::ERR) {
            return Err(rustix::io::Errno::PIPE.into());
        }
    }
}

/// Nothing to wait for where a pipe's unread bytes cannot be counted.
#[cfg(not(unix))]
pub(crate) fn read_whole<T>(_out: &T) -> io::Result<()> {
    Ok(())
}

/// Writes `text` to standard output and flushes it, once the signal
/// handler has had its chance to end an interrupted command.
fn write_stdout(text: &str) -> io::Result<()> {
    use std::io::Write;
    crate::cleanup::wait_if_interrupted();
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush())
}

//! Reading reports and bundles named on the command line, and writing
//! outputs, with errors that name the file.

use std::path::Path;

use tinymemory_conformance::{Bundle, Report};

/// Reads the JSON report at `path`.
pub(crate) fn read_report(path: &Path) -> Result<Report, String> {
    let text = read(path)?;
    Report::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the regression bundle at `path`.
pub(crate) fn read_bundle(path: &Path) -> Result<Bundle, String> {
    let text = read(path)?;
    Bundle::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A new temporary file in `dir`, for [`persist`] to rename over a file
/// there.
///
/// # Errors
///
/// The reason, without the path, when the file cannot be created.
pub(crate) fn temporary_in(dir: &Path) -> Result<tempfile::NamedTempFile, String> {
    tempfile::Builder::new()
        .prefix(".tinymemory-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| e.to_string())
}

/// Renames `tmp` over `path`: a new file gets mode 0644, a replaced one
/// keeps its permissions.
///
/// # Errors
///
/// The reason, without the path, when the permissions cannot be set or
/// the rename fails.
pub(crate) fn persist(tmp: tempfile::TempPath, path: &Path) -> Result<(), String> {
    // The entry replaced, not what it may lead to: a name made a link to
    // another file since lends that file's permissions to nothing.
    let permissions = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Some(meta.permissions()),
        _ => new_file_permissions(),
    };
    if let Some(p) = permissions {
        std::fs::set_permissions(&tmp, p).map_err(|e| e.to_string())?;
    }
    tmp.persist(path).map_err(|e| e.error.to_string())
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
/// A message naming `dir` and the reason.
pub(crate) fn check_writable_dir(dir: &Path) -> Result<(), String> {
    let refused = |why: &str| {
        Err(format!(
            "failed to use the bundle directory {}: {why}; --bundle names a directory, \
             which gets one bundle file per failing check",
            dir.display()
        ))
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
    probe_dir(existing).map_err(|e| {
        format!(
            "failed to use the bundle directory {}: a file cannot be created in {}: {e}",
            dir.display(),
            existing.display()
        )
    })
}

/// Creates and removes a temporary file in `dir`; the error is the
/// system's reason, without the temporary file's name.
pub(crate) fn probe_dir(dir: &Path) -> Result<(), String> {
    tempfile::Builder::new()
        .prefix(".tinymemory-probe-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| {
            let text = e.to_string();
            match text.split_once(" at path ") {
                Some((reason, _)) => reason.to_owned(),
                None => text,
            }
        })
}

fn read(path: &Path) -> Result<String, String> {
    if path.is_dir() {
        return Err(format!(
            "failed to read {}: it is a directory, and a report or a bundle is a file",
            path.display()
        ));
    }
    std::fs::read_to_string(path).map_err(|e| format!("failed to read {}: {e}", path.display()))
}

/// Writes `text` to standard output. A closed pipe (`| head`) is not an
/// error: the reader chose to stop, and the exit code still tells the
/// outcome.
///
/// # Errors
///
/// Any other write failure (a full disk behind `> report.json`), as a
/// message naming standard output.
pub(crate) fn stdout(text: &str) -> Result<(), String> {
    use std::io::Write;
    crate::cleanup::wait_if_interrupted();
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("failed to write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}

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

/// Writes `text` to `path` atomically: into a temporary file beside it,
/// then renamed over it, so a reader (or a later run that fails) never
/// sees a half-written file, and a failure leaves the old file as it was.
/// A new file gets mode 0644; a replaced one keeps its permissions.
///
/// # Errors
///
/// A message naming `path` when it is a directory, or the temporary file
/// cannot be created, written or renamed.
pub(crate) fn write(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    crate::cleanup::wait_if_interrupted();
    let failed = |e: &dyn std::fmt::Display| format!("failed to write {}: {e}", path.display());
    if path.is_dir() {
        return Err(failed(&"it is a directory"));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".tinymemory-")
        .suffix(".tmp")
        .tempfile_in(parent_of(path))
        .map_err(|e| failed(&e))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| failed(&e))?;
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => new_file_permissions(),
    };
    if let Some(p) = permissions {
        std::fs::set_permissions(tmp.path(), p).map_err(|e| failed(&e))?;
    }
    tmp.persist(path).map(drop).map_err(|e| failed(&e.error))
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

/// The directory `path` is in (`.` for a bare file name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks, before a run, that [`write`] can later replace `path`: it is
/// not a directory, and a file can be created beside it. The file itself
/// is not touched.
///
/// # Errors
///
/// A message naming `path` and the reason.
pub(crate) fn check_writable_file(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!(
            "failed to write {}: it is a directory",
            path.display()
        ));
    }
    probe_dir(parent_of(path)).map_err(|e| {
        format!(
            "failed to write {}: its directory {} cannot be written to: {e}",
            path.display(),
            parent_of(path).display()
        )
    })
}

/// Checks, before a run, that [`create_dir`] can later make `dir` and
/// write in it: `dir` is a directory files can be created in, or is
/// missing and its nearest existing ancestor is such a directory. Nothing
/// is created, so a run refused later leaves no directory behind.
///
/// # Errors
///
/// A message naming `dir` and the reason.
pub(crate) fn check_writable_dir(dir: &Path) -> Result<(), String> {
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
        let what = if existing == dir {
            "it is a file".to_owned()
        } else {
            format!("{} is a file", existing.display())
        };
        return Err(format!(
            "failed to use the bundle directory {}: {what}; --bundle names a directory, \
             which gets one bundle file per failing check",
            dir.display()
        ));
    }
    probe_dir(existing).map_err(|e| {
        format!(
            "failed to use the bundle directory {}: a file cannot be created in {}: {e}",
            dir.display(),
            existing.display()
        )
    })
}

/// Creates `dir` and its parents if missing, after [`check_writable_dir`].
///
/// # Errors
///
/// A message naming `dir` and the system's reason.
pub(crate) fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| {
        format!(
            "failed to create the bundle directory {}: {e}",
            dir.display()
        )
    })
}

/// Creates and removes a temporary file in `dir`; the error is the
/// system's reason, without the temporary file's name.
fn probe_dir(dir: &Path) -> Result<(), String> {
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

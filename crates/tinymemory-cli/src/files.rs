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

/// Writes `text` to `path`, replacing it.
pub(crate) fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("failed to write {}: {e}", path.display()))
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
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("failed to write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}

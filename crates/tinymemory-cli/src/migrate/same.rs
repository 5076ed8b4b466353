//! Whether `--from` and `--to` name one SQLite file in two spellings
//! (`./a.db` and `a.db`, a symlink, a relative and an absolute path).

use std::path::{Path, PathBuf};

use crate::driver::DriverSpec;

/// The file both specs name, canonicalized, when both are `sqlite:PATH`
/// of the same file; `None` otherwise (or when a path cannot be resolved,
/// which opening the store then reports).
pub(crate) fn same_file(from: &DriverSpec, to: &DriverSpec) -> Option<PathBuf> {
    let (DriverSpec::Sqlite(Some(a)), DriverSpec::Sqlite(Some(b))) = (from, to) else {
        return None;
    };
    let (a, b) = (resolved(a)?, resolved(b)?);
    (a == b).then_some(a)
}

/// `path` canonicalized; for a file that does not exist yet, its
/// canonicalized directory joined with its name.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = std::fs::canonicalize(path) {
        return Some(p);
    }
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_file_are_the_same_and_two_files_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.db");
        std::fs::write(&a, b"x").unwrap();
        let spec = |p: PathBuf| DriverSpec::Sqlite(Some(p));
        let canonical = std::fs::canonicalize(&a).unwrap();
        assert_eq!(
            same_file(&spec(a.clone()), &spec(dir.path().join("./a.db"))),
            Some(canonical.clone())
        );
        assert_eq!(
            same_file(&spec(a.clone()), &spec(dir.path().join("sub/../a.db"))),
            None,
            "sub does not exist, so sub/.. cannot be resolved"
        );
        assert_eq!(
            same_file(&spec(a.clone()), &spec(dir.path().join("b.db"))),
            None
        );
        assert_eq!(
            same_file(
                &spec(dir.path().join("new.db")),
                &spec(dir.path().join("./new.db"))
            ),
            Some(std::fs::canonicalize(dir.path()).unwrap().join("new.db"))
        );
        assert_eq!(same_file(&spec(a), &DriverSpec::Reference), None);
    }
}

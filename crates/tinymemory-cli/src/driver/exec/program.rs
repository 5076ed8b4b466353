//! The file an `exec:` command's program word starts, found as the
//! driver's start finds it: a word without `/` is looked up in `PATH`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The search path when `PATH` is unset: glibc's `execvp` default
/// (`confstr(_CS_PATH)`).
const DEFAULT_PATH: &str = "/bin:/usr/bin";

/// The file `program` starts when it has no `/`: the first executable
/// regular file of that name in a directory of `path` (the `PATH`
/// value; [`DEFAULT_PATH`] when `None`), in order, an empty entry being
/// the working directory, as `execvp` searches (a process is started
/// with `std::process::Command`, which searches the same way). `None`
/// for a program with a `/` (a path, which is a word of its own) or one
/// found nowhere.
pub(super) fn found_on(program: &str, path: Option<OsString>) -> Option<PathBuf> {
    if program.is_empty() || program.contains('/') {
        return None;
    }
    let path = path.unwrap_or_else(|| DEFAULT_PATH.into());
    std::env::split_paths(&path)
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                Path::new(".").join(program)
            } else {
                dir.join(program)
            }
        })
        .find(|file| is_executable_file(file))
}

#[cfg(unix)]
fn is_executable_file(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable_file(file: &Path) -> bool {
    file.is_file()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_first_executable_file_on_the_path_is_the_program() {
        let root = tempfile::tempdir().unwrap();
        let (a, b, c) = (root.path().join("a"), root.path().join("b"), root.path().join("c"));
        for dir in [&a, &b, &c] {
            std::fs::create_dir(dir).unwrap();
        }
        // `a` holds a file that cannot run, `b` a directory of the name:
        // both are passed over, as execvp passes them.
        std::fs::write(a.join("drv"), "").unwrap();
        std::fs::create_dir(b.join("drv")).unwrap();
        std::fs::write(c.join("drv"), "").unwrap();
        std::fs::set_permissions(c.join("drv"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::join_paths([&a, &b, &c]).unwrap();
        assert_eq!(found_on("drv", Some(path.clone())), Some(c.join("drv")));
        assert_eq!(found_on("other", Some(path.clone())), None);
        assert_eq!(found_on("c/drv", Some(path)), None);
        assert_eq!(found_on("drv", Some(OsString::from(":"))), None);
    }
}

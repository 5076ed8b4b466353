//! Whether `--from` and `--to` name one store: one SQLite file in two
//! spellings (`./a.db` and `a.db`, a symlink, a hard link), a file and one
//! of its companions (`a.db` and `a.db-wal`), a file an `exec:` source
//! names, or one PostgreSQL schema reached by two URLs.

use std::any::Any;

use crate::driver::DriverSpec;
use crate::error::CliError;
use crate::identity::{self, Claims};

/// Why `from` and `to` are one store, when their files say so (see
/// [`Claims`]): the target's file, or a companion of it, is the source's
/// file or a companion, or a file named in an `exec:` source's command.
/// `None` otherwise (or when a path cannot be resolved, which opening the
/// store then reports).
pub(crate) fn same_files(from: &DriverSpec, to: &DriverSpec) -> Option<String> {
    // Two exec drivers may share a script (two files of one driver): only
    // a store's files are compared with the other end's.
    if from.command().is_some() && to.command().is_some() {
        return None;
    }
    let mut claims = Claims::default();
    claim(&mut claims, from, "--from", false);
    claim(&mut claims, to, "--to", true);
    let clash = claims.check().err()?;
    if clash.writer == format!("--to {to}") && clash.other == format!("--from {from}") {
        let file = identity::resolved(&clash.other_path).unwrap_or(clash.other_path);
        return Some(format!(
            "--from {from} and --to {to} name the same file {}",
            file.display()
        ));
    }
    Some(clash.to_string())
}

/// The files `spec` owns, as `flag SPEC`: a target's are written (its
/// program writes its files too), a source's read.
fn claim(claims: &mut Claims, spec: &DriverSpec, flag: &str, writes: bool) {
    let role = format!("{flag} {spec}");
    spec.claim_files(claims, (&role, &role), writes, writes);
}

/// The identity both specs reach, when they are of one kind that knows it
/// ([`crate::driver::DriverKind::store_identity`]: two URLs of one
/// PostgreSQL schema) and it is the same. `Ok(None)` for other specs or
/// two stores.
///
/// # Errors
///
/// A set-up error naming the end whose server could not be asked.
pub(crate) async fn same_server(
    from: &DriverSpec,
    to: &DriverSpec,
) -> Result<Option<String>, CliError> {
    if Any::type_id(from.kind().as_any()) != Any::type_id(to.kind().as_any()) {
        return Ok(None);
    }
    let a = from.kind().store_identity("--from").await?;
    let b = to.kind().store_identity("--to").await?;
    Ok(match (a, b) {
        (Some(a_id), Some(b_id)) if a_id == b_id => Some(format!(
            "--from {from} and --to {to} reach the same store, {a_id}"
        )),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::driver::Sqlite;

    #[test]
    fn spellings_links_and_companions_of_one_file_are_the_same_store() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.db");
        std::fs::write(&a, b"x").unwrap();
        let hard = dir.path().join("hard.db");
        std::fs::hard_link(&a, &hard).unwrap();
        let spec = |p: PathBuf| DriverSpec::new(Sqlite(Some(p)));
        let canonical = std::fs::canonicalize(&a).unwrap();
        let same = |to: PathBuf| {
            format!(
                "--from {} and --to {} name the same file {}",
                spec(a.clone()),
                spec(to),
                canonical.display()
            )
        };
        let dotted = dir.path().join("./a.db");
        assert_eq!(
            same_files(&spec(a.clone()), &spec(dotted.clone())),
            Some(same(dotted))
        );
        assert_eq!(
            same_files(&spec(a.clone()), &spec(hard.clone())),
            Some(same(hard))
        );
        let wal = dir.path().join("a.db-wal");
        assert_eq!(
            same_files(&spec(a.clone()), &spec(wal.clone())),
            Some(format!(
                "--to {} names the same file as the -wal companion ({}) of --from {}",
                spec(wal.clone()),
                wal.display(),
                spec(a.clone())
            ))
        );
        assert_eq!(
            same_files(&spec(a.clone()), &spec(dir.path().join("b.db"))),
            None
        );
        assert_eq!(
            same_files(&spec(a), &DriverSpec::parse("reference").unwrap()),
            None
        );
    }

    #[test]
    fn a_file_an_exec_source_names_is_not_a_target() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("my.db");
        std::fs::write(&db, b"x").unwrap();
        let from = DriverSpec::parse(&format!("exec:python3 driver.py {}", db.display())).unwrap();
        let to = DriverSpec::new(Sqlite(Some(db.clone())));
        assert_eq!(
            same_files(&from, &to),
            Some(format!(
                "--to {to} names the same file as {}, named by --from {from}",
                db.display()
            ))
        );
    }
}

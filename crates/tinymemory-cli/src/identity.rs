//! Which files a command reads and writes, compared by what they are, not
//! by how they are spelt, so that no output replaces a file the command
//! also uses: `--trace u.db` beside `--driver sqlite:u.db` once emptied a
//! store of 22,688 entries and exited 0.
//!
//! Two paths name one file when both exist and share a device and an inode
//! (a hard link, a symlink, `./a` and `a`); a file not created yet is named
//! by the identity (device and inode) of the directory it would be created
//! in and its name, so a bind mount or a symlinked directory cannot make
//! two spellings of it look like two files. A SQLite store is its file and its companions (`-wal`, `-shm`,
//! `-journal`, which SQLite writes beside it and deletes or replays on the
//! next open), so a companion named as an output, or as the other store of a
//! migration, is the store itself.

use std::fmt;
use std::path::{Path, PathBuf};

/// The files SQLite keeps beside a database `PATH`: `PATH-wal` and
/// `PATH-shm` in WAL mode, `PATH-journal` in rollback mode (SQLite's
/// "Temporary Files Used By SQLite", sections 2.2 and 2.5).
pub(crate) const SQLITE_COMPANIONS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// The most files of a read tree (the corpus) compared one by one; the
/// bundled corpus has 252.
const MAX_TREE_FILES: usize = 100_000;

/// One file as the command uses it.
#[derive(Debug, Clone)]
struct Claim {
    /// What the command calls it, for the error, path included: `--trace
    /// u.db`, `the store of --driver sqlite:u.db`.
    role: String,
    /// Claims of one family (a store and its companions) never clash with
    /// each other.
    family: usize,
    path: PathBuf,
    writes: bool,
    shape: Shape,
}

/// What a claimed path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A file.
    File,
    /// A directory whose whole tree the command reads (the corpus): a file
    /// inside it is one of its files.
    Tree,
    /// A directory the command makes, if missing, and writes files in
    /// (`--bundle DIR`): a file at its path, or at the path of a directory
    /// it must be made in, cannot be; its files are claimed one by one.
    Dir,
    /// A path a word of a driver's command names, which its program may
    /// read or write as a file or as a directory (`--dir data`): a file
    /// at it or inside it is one of its files. A program may write what
    /// its words name whatever the command takes it to do, so one inside
    /// a tree the command reads (the corpus) clashes with it even when
    /// claimed as read.
    Named,
}

/// The files of one command, checked for clashes before anything is
/// opened.
#[derive(Debug, Default)]
pub(crate) struct Claims {
    claims: Vec<Claim>,
}

/// Two uses of one file where at least one writes it. Displayed as
/// `--trace u.db names the same file as the store of --driver
/// sqlite:u.db`; callers add what follows from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Clash {
    /// The writing use (of two writers, the one claimed last: outputs are
    /// claimed after the stores and inputs, so the output is named first).
    pub(crate) writer: String,
    /// The other use, reading or writing.
    pub(crate) other: String,
    /// The writer's path as given.
    pub(crate) path: PathBuf,
    /// The other's path as given.
    pub(crate) other_path: PathBuf,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} names the same file as {}", self.writer, self.other)
    }
}

impl Claims {
    /// A file the command reads; `role` says which, path included.
    pub(crate) fn read(&mut self, role: impl Into<String>, path: &Path) {
        self.push(role.into(), path, false, Shape::File, None);
    }

    /// A file the command writes; `role` says which, path included.
    pub(crate) fn write(&mut self, role: impl Into<String>, path: &Path) {
        self.push(role.into(), path, true, Shape::File, None);
    }

    /// A directory whose files the command reads.
    pub(crate) fn read_tree(&mut self, role: impl Into<String>, dir: &Path) {
        self.push(role.into(), dir, false, Shape::Tree, None);
    }

    /// A directory the command makes (when missing) and writes files in;
    /// claim those files with [`Claims::write`].
    pub(crate) fn write_dir(&mut self, role: impl Into<String>, dir: &Path) {
        self.push(role.into(), dir, true, Shape::Dir, None);
    }

    /// A SQLite store the command opens (reads and, when `writes`, writes):
    /// its file, as `role`, and its [`SQLITE_COMPANIONS`], as `the -wal
    /// companion (PATH-wal) of ROLE`.
    ///
    /// SQLite opens a symlinked database through its target and keeps the
    /// companions beside the target, so they are claimed beside both the
    /// name given and the file it resolves to.
    pub(crate) fn sqlite_store(&mut self, role: &str, path: &Path, writes: bool) {
        self.sqlite_shaped(role, path, writes, Shape::File);
    }

    /// A path a word of a driver's command names: a SQLite store
    /// ([`Claims::sqlite_store`], the program may open it as one) that may
    /// as well be a directory the program reads or writes files in, and
    /// that the program may write even when `writes` is false, so it
    /// clashes with a tree the command reads when inside it.
    pub(crate) fn named_by_word(&mut self, role: &str, path: &Path, writes: bool) {
        self.sqlite_shaped(role, path, writes, Shape::Named);
    }

    /// [`Claims::sqlite_store`], the store itself claimed as `shape`.
    fn sqlite_shaped(&mut self, role: &str, path: &Path, writes: bool, shape: Shape) {
        let family = self.push(role.to_owned(), path, writes, shape, None);
        let mut bases = vec![path.to_owned()];
        if let Some(target) = resolved(path).filter(|t| t != path) {
            bases.push(target);
        }
        for base in bases {
            for suffix in SQLITE_COMPANIONS {
                let mut companion = base.as_os_str().to_owned();
                companion.push(suffix);
                let companion = PathBuf::from(companion);
                self.push(
                    format!("the {suffix} companion ({}) of {role}", companion.display()),
                    &companion,
                    writes,
                    Shape::File,
                    Some(family),
                );
            }
        }
    }

    /// A directory whose files the command reads ([`Claims::read_tree`]),
    /// and each file in it by identity, so that a hard link or a symlink
    /// elsewhere to one of them is one of them too (at most
    /// [`MAX_TREE_FILES`] files are looked at).
    pub(crate) fn read_tree_files(&mut self, role: &str, dir: &Path) {
        self.read_tree(role.to_owned(), dir);
        let mut stack = vec![dir.to_owned()];
        let mut files = 0;
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for entry in entries.flatten() {
                if files >= MAX_TREE_FILES {
                    return;
                }
                let path = entry.path();
                match std::fs::metadata(&path) {
                    Ok(m) if m.is_dir() => {
                        // Each directory by identity too: a bind mount of
                        // one of them elsewhere is inside the tree.
                        self.read_tree(format!("{}, a directory of {role}", path.display()), &path);
                        stack.push(path);
                    }
                    Ok(m) if m.is_file() => {
                        files += 1;
                        self.read(format!("{}, a file of {role}", path.display()), &path);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Every claim as `(role, path, writes)`, in the order claimed.
    #[cfg(test)]
    pub(crate) fn listed(&self) -> Vec<(String, PathBuf, bool)> {
        self.claims
            .iter()
            .map(|c| (c.role.clone(), c.path.clone(), c.writes))
            .collect()
    }

    /// Adds a claim, of `family` or of a family of its own; returns its
    /// family.
    fn push(
        &mut self,
        role: String,
        path: &Path,
        writes: bool,
        shape: Shape,
        family: Option<usize>,
    ) -> usize {
        let family = family.unwrap_or(self.claims.len());
        self.claims.push(Claim {
            role,
            family,
            path: path.to_owned(),
            writes,
            shape,
        });
        family
    }

    /// The first clash: two claims naming one file (or a file inside a
    /// claimed tree) where at least one writes it.
    ///
    /// # Errors
    ///
    /// The [`Clash`], writer first.
    pub(crate) fn check(&self) -> Result<(), Clash> {
        let ids: Vec<Identity> = self.claims.iter().map(|c| Identity::of(&c.path)).collect();
        for (i, a) in self.claims.iter().enumerate() {
            for (j, b) in self.claims.iter().enumerate().skip(i + 1) {
                if a.family == b.family {
                    continue;
                }
                let (x, y) = (&ids[i], &ids[j]);
                let clash = if a.writes || b.writes {
                    clashes(a.shape, x, b.shape, y)
                } else {
                    // Two reads, unless a program's word lies in a tree
                    // the command reads: the program may write it.
                    match (a.shape, b.shape) {
                        (Shape::Named, Shape::Tree) => x.inside(y),
                        (Shape::Tree, Shape::Named) => y.inside(x),
                        _ => false,
                    }
                };
                if clash {
                    let (writer, other) = if b.writes || (!a.writes && b.shape == Shape::Named) {
                        (b, a)
                    } else {
                        (a, b)
                    };
                    return Err(Clash {
                        writer: writer.role.clone(),
                        other: other.role.clone(),
                        path: writer.path.clone(),
                        other_path: other.path.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// Whether a claim of `a` at `x` and one of `b` at `y`, one of them
/// written, are one file (or one inside the other where a shape holds
/// files).
fn clashes(a: Shape, x: &Identity, b: Shape, y: &Identity) -> bool {
    match (a, b) {
        // A word's path is a file, or a directory holding the other.
        (Shape::Named, Shape::File | Shape::Named) => x.same_file(y) || y.inside(x),
        (Shape::File, Shape::Named) => x.same_file(y) || x.inside(y),
        (Shape::Named, other) => clashes(Shape::File, x, other, y),
        (other, Shape::Named) => clashes(other, x, Shape::File, y),
        (Shape::File, Shape::File) => x.same_file(y),
        (Shape::File, Shape::Tree) => x.inside(y),
        (Shape::Tree, Shape::File) => y.inside(x),
        (Shape::Tree, Shape::Tree) | (Shape::Dir, Shape::Dir) => x.inside(y) || y.inside(x),
        // The directory where a file is, or below one.
        (Shape::Dir, Shape::File) => x.same_file(y) || x.inside(y),
        (Shape::File, Shape::Dir) => x.same_file(y) || y.inside(x),
        // Written inside the tree read.
        (Shape::Dir, Shape::Tree) => x.inside(y),
        (Shape::Tree, Shape::Dir) => y.inside(x),
    }
}

/// What a path names: its device and inode when it exists, the device
/// and inode of the directory it is (or would be created) in with its
/// name, and its absolute resolved path.
///
/// The directory's identity is what makes a file that does not exist yet
/// comparable across spellings a path cannot see through: with `b` a bind
/// mount of `a`, `a/u.db-wal` and `b/u.db-wal` resolve to two paths, but
/// their directories are one inode.
#[derive(Debug, Clone)]
struct Identity {
    inode: Option<(u64, u64)>,
    entry: Option<((u64, u64), std::ffi::OsString)>,
    resolved: Option<PathBuf>,
}

impl Identity {
    fn of(path: &Path) -> Self {
        let resolved = resolved(path);
        let entry = resolved.as_deref().and_then(|r| {
            let name = r.file_name()?.to_owned();
            Some((inode(r.parent()?)?, name))
        });
        Self {
            inode: inode(path),
            entry,
            resolved,
        }
    }

    fn same_file(&self, other: &Self) -> bool {
        match (self.inode, other.inode) {
            (Some(a), Some(b)) => a == b,
            _ => {
                (self.entry.is_some() && self.entry == other.entry)
                    || (self.resolved.is_some() && self.resolved == other.resolved)
            }
        }
    }

    /// `self` is `dir` or lies inside it: by path, or by one of the
    /// directories above `self` being `dir` by identity (a bind mount).
    fn inside(&self, dir: &Self) -> bool {
        let (Some(p), Some(d)) = (&self.resolved, &dir.resolved) else {
            return false;
        };
        if p.starts_with(d) {
            return true;
        }
        let Some(dir_inode) = dir.inode else {
            return false;
        };
        p.ancestors().any(|a| inode(a) == Some(dir_inode))
    }
}

#[cfg(unix)]
fn inode(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn inode(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// `path` canonicalized; for a file that does not exist yet, its
/// directory resolved (so, through missing directories, up to the
/// nearest one that exists) joined with its name. `None` when nothing
/// resolves.
pub(crate) fn resolved(path: &Path) -> Option<PathBuf> {
    resolved_within(path, 0)
}

/// [`resolved`], following at most 40 links (as Linux's `ELOOP` does): a
/// dangling symlink resolves to the file it would create, since writing
/// through it creates that file.
fn resolved_within(path: &Path, links: u32) -> Option<PathBuf> {
    if let Ok(p) = std::fs::canonicalize(path) {
        return Some(p);
    }
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let parent = match std::fs::canonicalize(parent) {
        Ok(p) => p,
        Err(_) => resolved_within(parent, links + 1)?,
    };
    let here = parent.join(name);
    match std::fs::read_link(&here) {
        Ok(target) if links < 40 => resolved_within(&parent.join(target), links + 1),
        _ => Some(here),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clash(claims: &Claims) -> Option<(String, String)> {
        claims.check().err().map(|c| (c.writer, c.other))
    }

    #[test]
    fn an_output_on_the_store_clashes_by_any_spelling_and_by_hard_link() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("u.db");
        std::fs::write(&db, b"x").unwrap();
        let link = dir.path().join("link.db");
        std::fs::hard_link(&db, &link).unwrap();
        for spelling in [db.clone(), dir.path().join("./u.db"), link] {
            let mut c = Claims::default();
            c.sqlite_store("the store", &db, true);
            c.write("--trace", &spelling);
            assert_eq!(
                clash(&c),
                Some(("--trace".to_owned(), "the store".to_owned())),
                "{}",
                spelling.display()
            );
        }
    }

    #[test]
    fn a_companion_of_the_store_is_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("u.db");
        for suffix in SQLITE_COMPANIONS {
            let mut c = Claims::default();
            c.sqlite_store("the store", &db, true);
            c.write("--output", &dir.path().join(format!("u.db{suffix}")));
            assert_eq!(
                clash(&c),
                Some((
                    "--output".to_owned(),
                    format!(
                        "the {suffix} companion ({}{suffix}) of the store",
                        db.display()
                    )
                ))
            );
        }
        // Two stores: the second is the first one's companion.
        let mut c = Claims::default();
        c.sqlite_store("--from", &db, false);
        c.sqlite_store("--to", &dir.path().join("u.db-wal"), true);
        assert_eq!(
            clash(&c),
            Some((
                "--to".to_owned(),
                format!("the -wal companion ({}-wal) of --from", db.display())
            ))
        );
    }

    #[test]
    fn distinct_files_and_two_reads_do_not_clash() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = Claims::default();
        c.sqlite_store("the store", &dir.path().join("u.db"), true);
        c.write("--trace", &dir.path().join("trace.jsonl"));
        c.write("--output", &dir.path().join("report.json"));
        c.read("--baseline", &dir.path().join("base.json"));
        c.read("an argument", &dir.path().join("base.json"));
        assert_eq!(clash(&c), None);
        // A file named like a companion of another name is not one.
        c.write("--output2", &dir.path().join("u.db-walx"));
        assert_eq!(clash(&c), None);
    }

    #[test]
    fn a_file_inside_a_read_tree_clashes_with_a_write() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus");
        std::fs::create_dir_all(corpus.join("dialog")).unwrap();
        let mut c = Claims::default();
        c.read_tree("--corpus", &corpus);
        c.write("--output", &corpus.join("dialog/english.yml"));
        assert_eq!(
            clash(&c),
            Some(("--output".to_owned(), "--corpus".to_owned()))
        );
        let mut c = Claims::default();
        c.read_tree("--corpus", &corpus);
        c.write("--output", &dir.path().join("report.json"));
        assert_eq!(clash(&c), None);
    }

    #[test]
    fn the_message_names_both_uses() {
        let clash = Clash {
            writer: "--trace ./b.json".to_owned(),
            other: "--baseline b.json".to_owned(),
            path: PathBuf::from("./b.json"),
            other_path: PathBuf::from("b.json"),
        };
        assert_eq!(
            clash.to_string(),
            "--trace ./b.json names the same file as --baseline b.json"
        );
    }
}

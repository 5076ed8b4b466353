//! The files a `run` reads and writes, refused before anything is opened
//! when an output would replace one of them.

use std::path::Path;

use tinymemory_conformance::{Bundle, Registry};

use crate::args::RunArgs;
use crate::driver::DriverSpec;
use crate::identity::{Claims, SQLITE_COMPANIONS};

/// Every file `args` names, as the run uses it: the store of
/// `--driver sqlite:PATH` with its companions, the files named in an
/// `exec:` command line (the script, its database), the corpus tree and
/// the baseline, then the outputs: `--trace` (or `TINYMEMORY_TRACE`),
/// `--output` and every bundle `--bundle DIR` could write.
///
/// # Errors
///
/// A message naming the output, the file it shares and why it is refused.
pub(crate) fn check(args: &RunArgs, trace: Option<&Path>) -> Result<(), String> {
    let mut claims = Claims::default();
    match &args.driver {
        DriverSpec::Sqlite(Some(path)) if path.as_os_str() != ":memory:" => {
            companion_of_a_store(path)?;
            claims.sqlite_store(
                &format!("the store of --driver {}", args.driver),
                path,
                true,
            );
        }
        DriverSpec::Exec(command) => {
            // The words of the command that name files (inside a
            // `sh -c '…'` script and after `--db=` too): whatever the
            // program does with them, a report must not replace them.
            claims.command_files(&format!("--driver {}", args.driver), command, false);
        }
        _ => {}
    }
    if !args.no_corpus {
        let root = args.corpus.clone().unwrap_or_else(crate::corpus::bundled);
        claims.read_tree_files(&format!("the corpus {}", root.display()), &root);
    }
    if let Some(baseline) = &args.baseline {
        claims.read(format!("--baseline {}", baseline.display()), baseline);
    }
    if let Some(trace) = trace {
        let role = if args.trace.is_some() {
            "--trace"
        } else {
            "TINYMEMORY_TRACE"
        };
        claims.write(format!("{role} {}", trace.display()), trace);
    }
    if let Some(output) = &args.output {
        claims.write(format!("--output {}", output.display()), output);
    }
    if let Some(dir) = &args.bundle {
        claims.write_dir(format!("--bundle {}", dir.display()), dir);
        let driver = args.driver.to_string();
        for check in Registry::standard().checks() {
            let path = dir.join(Bundle::file_name_for(&driver, check.id));
            claims.write(
                format!("--bundle file {} (of {})", path.display(), check.id),
                &path,
            );
        }
    }
    claims.check().map_err(|clash| {
        format!(
            "{clash}: an output of a run is never a file the run also reads or writes, \
             so nothing was opened or written; name another file"
        )
    })
}

/// Refuses a store named as another store's companion (`w.db-wal` beside
/// `w.db`): SQLite deletes or replays that file when it opens `w.db`, so
/// a store written there is lost.
///
/// # Errors
///
/// The store, its companion name and why.
fn companion_of_a_store(path: &Path) -> Result<(), String> {
    let text = path.as_os_str().to_string_lossy();
    for suffix in SQLITE_COMPANIONS {
        if let Some(base) = text.strip_suffix(suffix) {
            if Path::new(base).is_file() {
                return Err(format!(
                    "--driver sqlite:{text} names the {suffix} companion of the SQLite store \
                     {base}, which SQLite deletes or replays when it opens {base}; name another \
                     file"
                ));
            }
        }
    }
    Ok(())
}

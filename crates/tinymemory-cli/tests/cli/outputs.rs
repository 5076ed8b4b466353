//! No output of a run replaces a file the run also uses: `--trace`,
//! `--output` and `--bundle` files naming the store (by any spelling, a
//! hard link or a SQLite companion), the corpus, the baseline, a file of
//! an `exec:` command or each other are refused with exit 2 before
//! anything is opened, and the file is left byte for byte as it was.

use crate::support;

use std::path::Path;

use support::bin::{repo, run, scratch};
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
use tinymemory_sqlite::SqliteDriver;

/// A SQLite store holding three entries, closed.
fn store_with_entries(path: &Path) {
    let d = SqliteDriver::open(path).unwrap();
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(async {
            for key in ["a", "b", "c"] {
                d.store(
                    "global",
                    key,
                    "kept",
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await
                .unwrap();
            }
        });
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

const REFUSED: &str = ": an output of a run is never a file the run also reads or writes, so \
                       nothing was opened or written; name another file\n";

#[test]
fn a_trace_or_report_on_the_store_is_refused_and_the_store_kept() {
    let dir = scratch();
    let db = dir.path().join("u.db");
    store_with_entries(&db);
    let before = bytes(&db);
    let link = dir.path().join("link.db");
    std::fs::hard_link(&db, &link).unwrap();
    let driver = format!("sqlite:{}", db.display());
    for (flag, path) in [
        ("--trace", db.clone()),
        ("--output", db.clone()),
        ("--trace", dir.path().join(".").join("u.db")),
        ("--output", link.clone()),
    ] {
        let ran = run(&[
            "run",
            "--driver",
            &driver,
            "--check",
            "store.upsert",
            flag,
            path.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 2, "{flag} {}: {}", path.display(), ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: {flag} {} names the same file as the store of --driver {driver}{REFUSED}",
                path.display()
            )
        );
        assert_eq!(ran.stdout, "");
        assert_eq!(bytes(&db), before, "{flag} {}", path.display());
    }
}

#[test]
fn an_output_on_a_sqlite_companion_is_the_store() {
    let dir = scratch();
    let db = dir.path().join("u.db");
    store_with_entries(&db);
    let driver = format!("sqlite:{}", db.display());
    for suffix in ["-wal", "-shm", "-journal"] {
        let companion = dir.path().join(format!("u.db{suffix}"));
        let ran = run(&[
            "run",
            "--driver",
            &driver,
            "--check",
            "store.upsert",
            "--output",
            companion.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: --output {c} names the same file as the {suffix} companion ({c}) of the \
                 store of --driver {driver}{REFUSED}",
                c = companion.display()
            )
        );
        assert!(!companion.exists());
    }
}

#[test]
fn the_trace_is_neither_the_report_nor_the_baseline() {
    let dir = scratch();
    let baseline = dir.path().join("base.json");
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--format",
        "json",
        "--output",
        baseline.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let before = bytes(&baseline);
    let b = baseline.to_str().unwrap();
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--baseline",
        b,
        "--trace",
        b,
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!("error: --trace {b} names the same file as --baseline {b}{REFUSED}")
    );
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--baseline",
        b,
        "--output",
        b,
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!("error: --output {b} names the same file as --baseline {b}{REFUSED}")
    );
    assert_eq!(bytes(&baseline), before);

    let report = dir.path().join("r.txt");
    let r = report.to_str().unwrap();
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--trace",
        r,
        "--output",
        r,
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!("error: --output {r} names the same file as --trace {r}{REFUSED}")
    );
    assert!(!report.exists());
}

#[test]
fn outputs_inside_the_corpus_and_files_of_an_exec_command_are_refused() {
    let dir = scratch();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(corpus.join("licenses")).unwrap();
    std::fs::write(corpus.join("licenses/mit.txt"), "MIT licence").unwrap();
    let inside = corpus.join("licenses/mit.txt");
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        corpus.to_str().unwrap(),
        "--output",
        inside.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --output {} names the same file as the corpus {}{REFUSED}",
            inside.display(),
            corpus.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), "MIT licence");

    let script = dir.path().join("driver.py");
    std::fs::copy(repo("examples/python/memory_driver.py"), &script).unwrap();
    let before = bytes(&script);
    let s = script.to_str().unwrap();
    let driver = format!("exec:python3 {s}");
    let ran = run(&["run", "--driver", &driver, "--no-corpus", "--trace", s]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --trace {s} names the same file as {s}, named by --driver {driver}{REFUSED}"
        )
    );
    assert_eq!(bytes(&script), before);
}

#[test]
fn a_bundle_would_not_replace_the_baseline() {
    let dir = scratch();
    let bundles = dir.path().join("bundles");
    std::fs::create_dir_all(&bundles).unwrap();
    let baseline = bundles.join("mutant_negated-scores--recall.scores_finite_higher_better.json");
    std::fs::write(&baseline, "{}").unwrap();
    let ran = run(&[
        "run",
        "--driver",
        "mutant:negated-scores",
        "--no-corpus",
        "--bundle",
        bundles.to_str().unwrap(),
        "--baseline",
        baseline.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --bundle file {b} (of recall.scores_finite_higher_better) names the same \
             file as --baseline {b}{REFUSED}",
            b = baseline.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&baseline).unwrap(), "{}");
}

#[test]
fn a_link_to_a_corpus_file_is_the_corpus_file() {
    let dir = scratch();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(corpus.join("licenses")).unwrap();
    let file = corpus.join("licenses/mit.txt");
    std::fs::write(&file, "MIT licence").unwrap();
    let hard = dir.path().join("hard.txt");
    std::fs::hard_link(&file, &hard).unwrap();
    // A corpus file that is a symlink to a file outside the corpus.
    let outside = dir.path().join("outside.txt");
    std::fs::write(&outside, "Apache licence").unwrap();
    std::os::unix::fs::symlink(&outside, corpus.join("licenses/apache.txt")).unwrap();
    for (target, named) in [
        (&hard, file.clone()),
        (&outside, corpus.join("licenses/apache.txt")),
    ] {
        let ran = run(&[
            "run",
            "--driver",
            "reference",
            "--corpus",
            corpus.to_str().unwrap(),
            "--trace",
            target.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: --trace {} names the same file as {}, a file of the corpus {}{REFUSED}",
                target.display(),
                named.display(),
                corpus.display()
            )
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "MIT licence");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "Apache licence");
}

#[test]
fn files_inside_a_shell_script_or_after_an_equals_sign_are_the_commands() {
    let dir = scratch();
    let script = dir.path().join("drv.py");
    std::fs::write(&script, "print('driver')\n").unwrap();
    let db = dir.path().join("my.db");
    std::fs::write(&db, "a store").unwrap();
    let (s, d) = (script.to_str().unwrap(), db.to_str().unwrap());
    for (driver, output, named) in [
        (format!("exec:sh -c 'python3 {s}'"), s, s),
        (format!("exec:python3 {s} --db={d}"), d, d),
    ] {
        let ran = run(&[
            "run",
            "--driver",
            &driver,
            "--no-corpus",
            "--output",
            output,
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        // The spec is shown as --driver spells it back (shell-quoted).
        let named_by = format!(
            "error: --output {output} names the same file as {named}, named by --driver exec:"
        );
        assert!(ran.stderr.starts_with(&named_by), "{}", ran.dump());
        assert!(ran.stderr.ends_with(REFUSED), "{}", ran.dump());
    }
    assert_eq!(
        std::fs::read_to_string(&script).unwrap(),
        "print('driver')\n"
    );
    assert_eq!(std::fs::read_to_string(&db).unwrap(), "a store");
}

#[test]
fn a_dangling_symlink_is_the_file_it_would_create() {
    let dir = scratch();
    let store = dir.path().join("nx.db");
    let link = dir.path().join("dangling");
    std::os::unix::fs::symlink(&store, &link).unwrap();
    let driver = format!("sqlite:{}", store.display());
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--check",
        "store.upsert",
        "--trace",
        link.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --trace {} names the same file as the store of --driver {driver}{REFUSED}",
            link.display()
        )
    );
    assert!(!store.exists());
}

#[test]
fn the_companions_of_a_symlinked_store_lie_beside_its_target() {
    let dir = scratch();
    let real = dir.path().join("real.db");
    store_with_entries(&real);
    let link = dir.path().join("rs.db");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let driver = format!("sqlite:{}", link.display());
    let wal = dir.path().join("real.db-wal");
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--check",
        "store.upsert",
        "--output",
        wal.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    let canonical_wal = std::fs::canonicalize(dir.path())
        .unwrap()
        .join("real.db-wal");
    assert_eq!(
        ran.stderr,
        format!(
            "error: --output {} names the same file as the -wal companion ({}) of the store of \
             --driver {driver}{REFUSED}",
            wal.display(),
            canonical_wal.display()
        )
    );
}

/// `run ARGS` in `dir`, so an `exec:` command's words name files
/// relative to it as a user's would.
fn run_in(dir: &Path, args: &[&str]) -> support::bin::Ran {
    let out = crate::support::bin::command()
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("TINYMEMORY_TRACE")
        .output()
        .expect("the binary runs");
    support::bin::Ran {
        code: out.status.code().expect("exited with a code"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

/// A driver's database spelt in a URL, after a short option's letter,
/// after a colon or in a JSON word is the driver's: `--output my.db`
/// would replace it with the report, and `--trace my.db-wal` would be
/// deleted by SQLite as its WAL. Each is refused, naming the word.
#[test]
fn other_spellings_of_a_database_in_an_exec_command_are_its_files() {
    let dir = scratch();
    std::fs::write(dir.path().join("my.db"), "a store").unwrap();
    for word in [
        "--url=sqlite:///my.db",
        "sqlite:///my.db",
        "-dmy.db",
        "--db:my.db",
        "path:my.db",
        r#"{"db":"my.db"}"#,
        r#"{"stores":[{"url":"sqlite:///my.db?mode=rwc"}]}"#,
        "--db=my.db",
    ] {
        let driver = format!("exec:python3 drv.py {}", shlex::try_quote(word).unwrap());
        for (flag, output, named) in [
            ("--output", "my.db", "my.db".to_owned()),
            (
                "--trace",
                "my.db-wal",
                "the -wal companion (my.db-wal) of my.db".to_owned(),
            ),
        ] {
            let ran = run_in(
                dir.path(),
                &["run", "--driver", &driver, "--no-corpus", flag, output],
            );
            assert_eq!(ran.code, 2, "{word}: {}", ran.dump());
            assert_eq!(
                ran.stderr,
                format!(
                    "error: {flag} {output} names the same file as {named}, named by --driver \
                     {driver} in its word {}{REFUSED}",
                    shlex::try_quote(word).unwrap()
                ),
                "{word}"
            );
        }
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("my.db")).unwrap(),
        "a store"
    );
    assert!(!dir.path().join("my.db-wal").exists());
}

/// `run ARGS` in `dir` with the environment `env` added.
fn run_env_in(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> support::bin::Ran {
    let mut command = crate::support::bin::command();
    command
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("TINYMEMORY_TRACE");
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command.output().expect("the binary runs");
    support::bin::Ran {
        code: out.status.code().expect("exited with a code"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

/// A bundle's name made a symlink to the store, or to the run's own
/// baseline, while the run goes on (here by the driver's own start-up,
/// after the outputs were resolved and checked) is replaced by the
/// bundle, never written through: the store and the baseline keep their
/// bytes.
#[test]
fn a_bundle_name_made_a_link_during_the_run_is_replaced_not_followed() {
    let dir = scratch();
    let bundles = dir.path().join("bdl");
    std::fs::create_dir(&bundles).unwrap();
    // The driver plants the link when its first process starts: no word of
    // the command names the link or what it leads to.
    std::fs::write(
        dir.path().join("plant.sh"),
        format!(
            "if [ -n \"$PLANT_AT\" ] && [ ! -L \"$PLANT_AT\" ]; then ln -s \"$PLANT_TO\" \
             \"$PLANT_AT\"; fi\nexec python3 {}\n",
            repo("examples/python/broken_driver.py").display()
        ),
    )
    .unwrap();
    let args = [
        "run",
        "--driver",
        "exec:sh plant.sh",
        "--no-corpus",
        "--check",
        "recall.limit",
        "--no-rerun",
        "--bundle",
        "bdl",
    ];
    // The bundle's name, from a run that plants nothing; its report is
    // the baseline below.
    let first = run_env_in(
        dir.path(),
        &[&args[..], &["--output", "base.json", "--format", "json"]].concat(),
        &[],
    );
    assert_eq!(first.code, 1, "{}", first.dump());
    let name = first
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("bundle: bdl/"))
        .unwrap_or_else(|| panic!("a bundle line: {}", first.dump()))
        .to_owned();
    let planted = bundles.join(&name);
    let store = dir.path().join("u.db");
    store_with_entries(&store);
    let baseline = dir.path().join("base.json");
    for (to, extra, code) in [
        (&store, &[][..], 1),
        (&baseline, &["--baseline", "base.json"][..], 0),
    ] {
        std::fs::remove_file(&planted).unwrap();
        let before = bytes(to);
        let ran = run_env_in(
            dir.path(),
            &[&args[..], extra].concat(),
            &[("PLANT_AT", &planted), ("PLANT_TO", to)],
        );
        assert_eq!(ran.code, code, "{}", ran.dump());
        assert_eq!(bytes(to), before, "{} was written through", to.display());
        assert!(!planted.is_symlink(), "{}", ran.dump());
        let bundle: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&planted).unwrap()).unwrap();
        assert_eq!(bundle["check"], "recall.limit");
    }
}

/// A program named without a `/` is the file `PATH` leads to, as the
/// driver's start finds it: `--output bin/mydrv` with `bin` on `PATH`
/// would replace the driver's own program with the report.
#[test]
fn the_program_found_through_path_is_the_commands() {
    let dir = scratch();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let program = bin.join("mydrv");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\nexec python3 {}\n",
            repo("examples/python/memory_driver.py").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &program,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let before = bytes(&program);
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let path = Path::new(&path);
    for (flag, output) in [("--output", "bin/mydrv"), ("--trace", "bin/./mydrv")] {
        let ran = run_env_in(
            dir.path(),
            &[
                "run",
                "--driver",
                "exec:mydrv",
                "--no-corpus",
                "--check",
                "store.upsert",
                flag,
                output,
            ],
            &[("PATH", path)],
        );
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: {flag} {output} names the same file as {}, the program --driver \
                 exec:mydrv starts (found through PATH){REFUSED}",
                program.display()
            )
        );
        assert_eq!(bytes(&program), before);
    }
    // Found through PATH, the program runs: the claim refused the output,
    // not the driver.
    let ran = run_env_in(
        dir.path(),
        &[
            "run",
            "--driver",
            "exec:mydrv",
            "--no-corpus",
            "--check",
            "store.upsert",
            "--output",
            "report.txt",
        ],
        &[("PATH", path)],
    );
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert_eq!(bytes(&program), before);
}

/// A word of an `exec:` command may name a directory its program reads or
/// writes files in (`--dir data`), whether it exists yet or not: an output
/// inside it, a trace or a bundle directory, is one of its files.
#[test]
fn an_output_inside_a_directory_a_word_names_is_refused() {
    let dir = scratch();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/kept.db"), "a store").unwrap();
    for (driver, flag, output, named, from) in [
        (
            "exec:python3 drv.py --dir data",
            "--output",
            "data/kept.db",
            "data",
            "",
        ),
        (
            "exec:python3 drv.py --dir data",
            "--trace",
            "data/t.jsonl",
            "data",
            "",
        ),
        (
            "exec:python3 drv.py --dir data",
            "--bundle",
            "data/bdl",
            "data",
            "",
        ),
        (
            "exec:python3 drv.py '--dir=new'",
            "--bundle",
            "new/bdl",
            "new",
            " in its word '--dir=new'",
        ),
        // A word of a shell script is a word of its own.
        (
            "exec:sh -c 'cd data && drv'",
            "--output",
            "data/r.json",
            "data",
            "",
        ),
    ] {
        let ran = run_in(
            dir.path(),
            &["run", "--driver", driver, "--no-corpus", flag, output],
        );
        assert_eq!(ran.code, 2, "{driver} {flag} {output}: {}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: {flag} {output} names the same file as {named}, named by --driver \
                 {driver}{from}{REFUSED}"
            ),
            "{driver} {flag} {output}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("data/kept.db")).unwrap(),
        "a store"
    );
    assert!(!dir.path().join("new").exists());
}

/// An `exec:` command whose word names a file or a directory inside the
/// corpus directory is refused as a `sqlite:PATH` store there is: the
/// program may write what its words name, and the corpus is read.
#[test]
fn an_exec_command_naming_a_file_in_the_corpus_is_refused() {
    let dir = scratch();
    std::fs::create_dir_all(dir.path().join("corpus/dialog")).unwrap();
    std::fs::write(dir.path().join("corpus/dialog/a.yml"), "a: b").unwrap();
    for (word, shown) in [
        ("corpus/dialog/s.db", "corpus/dialog/s.db".to_owned()),
        ("corpus/dialog", "corpus/dialog".to_owned()),
        (
            "'--db=corpus/new.db'",
            "corpus/new.db, named by --driver exec:python3 drv.py '--db=corpus/new.db' in its \
             word '--db=corpus/new.db'"
                .to_owned(),
        ),
    ] {
        let driver = format!("exec:python3 drv.py {word}");
        let named = if shown.contains(", named by") {
            shown
        } else {
            format!("{shown}, named by --driver {driver}")
        };
        let ran = run_in(
            dir.path(),
            &["run", "--driver", &driver, "--corpus", "corpus"],
        );
        assert_eq!(ran.code, 2, "{word}: {}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!("error: {named} names the same file as the corpus corpus{REFUSED}"),
            "{word}"
        );
    }
    // Without the corpus, the same command is not refused: its driver is
    // started (and, as drv.py is missing, cannot be opened).
    let ran = run_in(
        dir.path(),
        &[
            "run",
            "--driver",
            "exec:python3 drv.py corpus/dialog/s.db",
            "--no-corpus",
        ],
    );
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert!(!dir.path().join("corpus/dialog/s.db").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("corpus/dialog/a.yml")).unwrap(),
        "a: b"
    );
}

//! Which driver to run against, and fresh stores of it.
//!
//! A `--driver` spec is of one kind, and everything the command knows of
//! a kind (its spellings, how it opens for a run and for `migrate`, the
//! version reports record, the files it owns) is in that kind's module
//! under `driver/`, behind [`DriverKind`]. Adding a kind is its module and
//! its name in the `kinds!` line below (ARCHITECTURE.md, "A driver kind of
//! the CLI").

use std::ffi::OsStr;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use tinymemory_api::MemoryError;
use tinymemory_conformance::DriverFactory;
use tinymemory_exec::{ExecCommand, ExecConfig};

use crate::error::CliError;
use crate::identity::Claims;
use crate::migrate::open::{End, Store};

pub(crate) use self::corpus_store::CorpusStore;
#[cfg(test)]
pub(crate) use self::kind::Owned;
pub(crate) use self::kind::{DriverKind, Named, Registration, Spelling};
#[cfg(test)]
pub(crate) use self::sqlite::Sqlite;

mod corpus_store;
mod kind;
mod memory;

/// Declares each kind's module and registers its [`Registration`]
/// (`KIND`), in the order `unknown driver` lists them.
macro_rules! kinds {
    ($($kind:ident),+ $(,)?) => {
        $(mod $kind;)+
        /// Every driver kind, in the order `unknown driver` lists them.
        const KINDS: &[&Registration] = &[$(&$kind::KIND),+];
    };
}

kinds!(reference, semantic, null, sqlite, postgres, exec, mutant);

/// A `--driver` value: a spec of one of the registered kinds.
#[derive(Clone)]
pub(crate) struct DriverSpec(Arc<dyn DriverKind>);

/// Why a `--driver`, `--from` or `--to` value is not a spec.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SpecError {
    /// Of no registered kind; `expected` lists their spellings.
    #[error("unknown driver {spec:?}; expected {expected}")]
    Unknown {
        /// The value as given.
        spec: String,
        /// The kinds' spellings: `reference, semantic, .. or mutant:NAME`.
        expected: String,
    },
    /// Not UTF-8, and of no kind that takes a path as it is.
    #[error("{lossy:?} is not UTF-8; only the path of sqlite:PATH may be")]
    NotUtf8 {
        /// The value, its bytes that are not UTF-8 replaced.
        lossy: String,
    },
    /// Of a kind, which refuses it: the kind's own error says why.
    #[error(transparent)]
    Kind(Box<dyn std::error::Error + Send + Sync>),
}

impl SpecError {
    /// A kind's refusal of a spec.
    pub(crate) fn kind(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Kind(Box::new(e))
    }
}

impl DriverSpec {
    /// A spec of `kind`.
    pub(crate) fn new(kind: impl DriverKind + 'static) -> Self {
        Self(Arc::new(kind))
    }

    /// Parses a spec of any registered kind: `reference`, `semantic`,
    /// `null`, `sqlite`, `sqlite:PATH`, `postgres:URL`,
    /// `mutant:NAME[+NAME..]` or `exec:COMMAND ARGS`.
    ///
    /// # Errors
    ///
    /// The kind's refusal, or [`SpecError::Unknown`].
    pub(crate) fn parse(s: &str) -> Result<Self, SpecError> {
        KINDS
            .iter()
            .find_map(|kind| (kind.parse)(s))
            .unwrap_or_else(|| {
                Err(SpecError::Unknown {
                    spec: s.to_owned(),
                    expected: expected(),
                })
            })
    }

    /// [`DriverSpec::parse`] of a raw argument: a `sqlite:PATH` whose path
    /// is not UTF-8 is taken as it is (on Unix); anything else must be
    /// UTF-8.
    ///
    /// # Errors
    ///
    /// As [`DriverSpec::parse`], or [`SpecError::NotUtf8`].
    pub(crate) fn parse_os(raw: &OsStr) -> Result<Self, SpecError> {
        if let Some(text) = raw.to_str() {
            return Self::parse(text);
        }
        KINDS
            .iter()
            .find_map(|kind| (kind.parse_os)(raw))
            .ok_or_else(|| SpecError::NotUtf8 {
                lossy: raw.to_string_lossy().into_owned(),
            })
    }

    /// The version reports record for this driver: the crate and version
    /// that implement it (every driver here is built with this binary).
    pub(crate) fn version(&self) -> String {
        self.0.version()
    }

    /// The kind, for what [`DriverKind`] says of it.
    pub(crate) fn kind(&self) -> &dyn DriverKind {
        self.0.as_ref()
    }

    /// [`DriverKind::command`].
    pub(crate) fn command(&self) -> Option<&ExecCommand> {
        self.0.command()
    }

    /// [`DriverKind::open_existing`].
    pub(crate) async fn open_existing(&self, end: End) -> Result<Store, CliError> {
        self.0.open_existing(self, end).await
    }

    /// Claims the files the driver owns ([`DriverKind::owned_files`]) in
    /// `claims`: its store as `store_role`, each file a word of its
    /// command names as `FILE, named by ROLE` (`FILE, named by ROLE in
    /// its word WORD` for a file read from a part of the word), each with
    /// its SQLite companions, and each taken for a directory too, whose
    /// files are its files ([`Claims::named_by_word`]); then the program
    /// an `exec:` command starts when its word is looked up in `PATH`
    /// (`exec:mydrv`), as `FILE, the program ROLE starts (found through
    /// PATH)`, read. The store is claimed written when `store_writes`, the
    /// files of words when `words_write` (a run's program is taken to read
    /// them, a migration target's to write them).
    pub(crate) fn claim_files(
        &self,
        claims: &mut Claims,
        roles: (&str, &str),
        store_writes: bool,
        words_write: bool,
    ) {
        let (store_role, role) = roles;
        for owned in self.0.owned_files() {
            match owned.named {
                Named::Store => claims.sqlite_store(store_role, &owned.path, store_writes),
                Named::Word => claims.named_by_word(
                    &match &owned.word {
                        None => format!("{}, named by {role}", owned.path.display()),
                        Some(word) => format!(
                            "{}, named by {role} in its word {}",
                            owned.path.display(),
                            shlex::try_quote(word).unwrap_or_else(|_| word.into())
                        ),
                    },
                    &owned.path,
                    words_write,
                ),
            }
        }
        // The program found through PATH is claimed here, not among the
        // owned files: which file it is depends on the machine, and the
        // owned files are the command's own words.
        if let Some(program) = self.command().and_then(exec::program_on_path) {
            claims.read(
                format!(
                    "{}, the program {role} starts (found through PATH)",
                    program.display()
                ),
                &program,
            );
        }
    }

    /// [`DriverKind::kept_store`].
    pub(crate) fn kept_store(&self) -> Option<&Path> {
        self.0.kept_store()
    }
}

/// Every kind's spellings, in registration order.
fn spellings() -> impl Iterator<Item = &'static Spelling> {
    KINDS.iter().flat_map(|k| k.spellings.iter())
}

/// The kinds' spellings, as `unknown driver` lists them: `a, b or c`.
fn expected() -> String {
    let all: Vec<&str> = spellings().map(|s| s.form).collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => all.concat(),
    }
}

/// `--driver`'s long help (`--help`): a line per spelling with what it
/// means, from the registrations, so a new kind is described where it is
/// registered.
pub(crate) fn long_help() -> &'static str {
    static HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let mut help = String::from("The driver, one of:");
        for s in spellings() {
            help.push_str(&format!("\n- {}: {}", s.form, s.meaning));
        }
        help
    });
    HELP.as_str()
}

/// docs/cli.md's table of driver kinds (the region `driver-kinds`): a
/// row per spelling, in registration order.
#[cfg(test)]
fn kinds_table() -> String {
    let mut table = String::from("| spec | runs against |\n|---|---|\n");
    for s in spellings() {
        table.push_str(&format!("| `{}` | {} |\n", s.form, s.meaning));
    }
    table
}

/// Equal when of one kind and equal as that kind ([`kind::DynEq`]).
impl PartialEq for DriverSpec {
    fn eq(&self, other: &Self) -> bool {
        self.0.dyn_eq(other.0.as_any())
    }
}

impl Eq for DriverSpec {}

impl fmt::Debug for DriverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The `--driver` spelling: parsing it gives the same spec back.
impl fmt::Display for DriverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.spelling(f)
    }
}

/// The fresh-store factory for the checks, the store the corpus goes into,
/// and a line describing them.
pub(crate) struct Opened {
    pub(crate) factory: Arc<dyn DriverFactory>,
    /// Opened when the corpus is loaded, not before.
    pub(crate) corpus_store: CorpusStore,
    /// What the run's header says it runs against.
    pub(crate) description: String,
    /// The header's text instead of [`Opened::description`] when the run
    /// loads no corpus, for a driver whose description names its corpus
    /// store; `None` when the description holds either way.
    pub(crate) without_corpus: Option<String>,
    /// Kept alive for the run: the temporary files live in it.
    pub(crate) _scratch: Option<tempfile::TempDir>,
}

impl Opened {
    /// A driver whose stores are in memory: `factory`'s, and the corpus
    /// store `corpus`, described as `description` with or without a corpus.
    pub(crate) fn in_memory(
        factory: impl DriverFactory + 'static,
        corpus: Box<dyn tinymemory_api::MemoryProvider>,
        description: impl Into<String>,
    ) -> Self {
        Self {
            factory: Arc::new(factory),
            corpus_store: CorpusStore::Ready(corpus),
            description: description.into(),
            without_corpus: None,
            _scratch: None,
        }
    }
}

/// [`open_with`] under the exec driver's default limits.
pub(crate) fn open(spec: &DriverSpec) -> Result<Opened, MemoryError> {
    open_with(spec, ExecConfig::default())
}

/// Opens `spec` for a run ([`DriverKind::open`]); an `exec:` driver's
/// processes run under `exec` (its request timeout is `run
/// --call-timeout`).
pub(crate) fn open_with(spec: &DriverSpec, exec: ExecConfig) -> Result<Opened, MemoryError> {
    spec.0.open(spec, exec)
}

/// The driver could not be opened: [`CliError::NotOpened`], its message
/// escaped (`run`, `replay`).
pub(crate) fn not_opened(e: &dyn std::fmt::Display) -> CliError {
    CliError::NotOpened(tinymemory_api::shown::visible(&e.to_string()).into_owned())
}

/// Opens one fresh store from the factory and drops it, so a driver that
/// cannot reach its server or start its process is found before any check.
///
/// # Errors
///
/// The driver's error from opening the store.
pub(crate) async fn probe(opened: &Opened) -> Result<(), MemoryError> {
    opened.factory.open().await.map(drop)
}

/// A store in memory opened for `migrate`: refused as a source, which
/// would always be empty; as a target, a migration is a dry run of the
/// copy and its verification.
///
/// # Errors
///
/// A usage error for a source; a set-up error when the store fails to
/// open.
pub(crate) async fn open_in_memory(spec: &DriverSpec, end: End) -> Result<Store, CliError> {
    if end == End::Source {
        return Err(in_memory_source(end, spec));
    }
    let setup = |e: MemoryError| end.not_opened(spec, &e);
    let opened = open(spec).map_err(setup)?;
    Ok(Store {
        provider: opened.corpus_store.open().await.map_err(setup)?,
        in_memory: true,
    })
}

/// A store in memory named as a migration's source.
pub(crate) fn in_memory_source(end: End, spec: &DriverSpec) -> CliError {
    CliError::Usage(format!(
        "{} {spec} is a store in memory, empty when migrate starts: \
         migrate from a store that holds entries (sqlite:PATH, postgres:URL, exec:COMMAND)",
        end.flag()
    ))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use tinymemory_api::RecallProfile;

    use super::*;

    /// The spec `s` parses to, or the message of its refusal.
    fn parse(s: &str) -> Result<DriverSpec, Refusal> {
        DriverSpec::parse(s).map_err(|e| Refusal(e.to_string()))
    }

    /// A refusal's message, compared as text.
    #[derive(Debug, PartialEq, Eq)]
    struct Refusal(String);

    impl Refusal {
        fn starts_with(&self, prefix: &str) -> bool {
            self.0.starts_with(prefix)
        }

        fn contains(&self, part: &str) -> bool {
            self.0.contains(part)
        }
    }

    impl PartialEq<&str> for Refusal {
        fn eq(&self, other: &&str) -> bool {
            self.0 == *other
        }
    }

    fn version(s: &str) -> String {
        parse(s).unwrap().version()
    }

    fn v() -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    #[test]
    fn driver_specs_parse() {
        for word in ["reference", "semantic", "null"] {
            assert_eq!(parse(word).map(|s| s.to_string()), Ok(word.to_owned()));
        }
        assert_eq!(
            version("semantic"),
            format!("tinymemory-reference {} (semantic)", v())
        );
        assert_eq!(parse("null").unwrap().to_string(), "null");
        assert_eq!(parse("sqlite"), Ok(DriverSpec::new(Sqlite(None))));
        assert_eq!(
            parse("sqlite:/tmp/a:b.db"),
            Ok(DriverSpec::new(Sqlite(Some(PathBuf::from("/tmp/a:b.db")))))
        );
        assert_eq!(
            parse("sqlite:").unwrap_err(),
            "sqlite:PATH needs a path after the colon"
        );
        // Every spelling, in registration order, the last after "or".
        let unknown = parse("mongo").unwrap_err().0;
        let listed = unknown
            .strip_prefix("unknown driver \"mongo\"; expected ")
            .unwrap();
        let (rest, last) = listed.rsplit_once(" or ").unwrap();
        let mut listed: Vec<&str> = rest.split(", ").collect();
        listed.push(last);
        let forms: Vec<&str> = spellings().map(|s| s.form).collect();
        assert_eq!(listed, forms);
        for form in ["reference", "sqlite", "sqlite:PATH", "exec:COMMAND"] {
            assert!(forms.contains(&form), "{form} in {forms:?}");
        }
        assert_eq!(
            parse("mutant:limit-plus-one"),
            Ok(DriverSpec::new(mutant::Mutant(vec!["limit-plus-one"])))
        );
        assert_eq!(
            parse("mutant:limit-plus-one+forget-always-true"),
            Ok(DriverSpec::new(mutant::Mutant(vec![
                "limit-plus-one",
                "forget-always-true"
            ])))
        );
        assert!(
            parse("mutant:limit-plus-one+").is_err_and(|e| e.starts_with("unknown mutant \"\"; "))
        );
        assert!(
            parse("mutant:no-such").is_err_and(|e| e.starts_with("unknown mutant \"no-such\"; "))
        );
        // Specs of two kinds are never equal, whatever they hold.
        assert_ne!(parse("reference"), parse("semantic"));
        assert_ne!(parse("sqlite"), parse("reference"));
    }

    #[test]
    fn a_sqlite_uri_is_refused_with_the_file_it_names() {
        assert_eq!(
            parse("sqlite:file:u.db?mode=rwc").unwrap_err(),
            "sqlite:file:u.db?mode=rwc: a SQLite URI is not taken here (SQLite would open the \
             file it names, which the run could not tell from its outputs); name the file \
             itself, sqlite:u.db"
        );
    }

    #[cfg(unix)]
    #[test]
    fn only_a_sqlite_path_may_be_other_than_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let raw = |b: &[u8]| {
            DriverSpec::parse_os(OsStr::from_bytes(b)).map_err(|e| Refusal(e.to_string()))
        };
        assert_eq!(
            raw(b"sqlite:/tmp/\xff.db"),
            Ok(DriverSpec::new(Sqlite(Some(PathBuf::from(
                OsStr::from_bytes(b"/tmp/\xff.db")
            )))))
        );
        assert_eq!(
            raw(b"exec:\xff"),
            Err(Refusal(
                "\"exec:\u{fffd}\" is not UTF-8; only the path of sqlite:PATH may be".to_owned()
            ))
        );
        assert!(raw(b"sqlite:file:\xff").is_err());
    }

    #[test]
    fn a_stack_of_mutants_has_one_profile() {
        use mutant::{stack_profile, Refused};
        let m = |name| tinymemory_doubles::mutant(name).unwrap();
        assert_eq!(
            stack_profile(&[m("limit-plus-one"), m("like-wildcards")]),
            Ok(RecallProfile::Lexical)
        );
        assert_eq!(
            stack_profile(&[m("short-top-k"), m("distance-scores")]),
            Ok(RecallProfile::Semantic)
        );
        assert_eq!(stack_profile(&[]), Err(Refused::Empty));
        assert_eq!(
            Refused::Empty.to_string(),
            "mutant:NAME needs a mutant name"
        );
        assert_eq!(
            parse("mutant:limit-plus-one+short-top-k").unwrap_err(),
            "mutants limit-plus-one (lexical) and short-top-k (semantic) wrap different \
             reference drivers; stack only mutants of one recall profile"
        );
        assert_eq!(
            version("mutant:short-top-k"),
            format!(
                "tinymemory-reference {} (semantic) with mutant short-top-k",
                v()
            )
        );
    }

    #[test]
    fn opened_drivers_declare_their_profile() {
        let profile_of = |s: &str| {
            open(&DriverSpec::parse(s).unwrap())
                .map(|o| {
                    (
                        o.factory.driver_id(),
                        o.factory.recall_profile(),
                        o.description,
                    )
                })
                .unwrap()
        };
        assert_eq!(
            profile_of("reference"),
            (
                "reference".to_owned(),
                RecallProfile::Lexical,
                "reference (in memory)".to_owned()
            )
        );
        assert_eq!(
            profile_of("semantic"),
            (
                "semantic-reference".to_owned(),
                RecallProfile::Semantic,
                "semantic-reference (in memory, cosine of hashed embeddings)".to_owned()
            )
        );
        assert_eq!(
            profile_of("mutant:limit-plus-one"),
            (
                "mutant:limit-plus-one".to_owned(),
                RecallProfile::Lexical,
                "mutant limit-plus-one (the reference driver, in memory)".to_owned()
            )
        );
        assert_eq!(
            profile_of("mutant:short-top-k+distance-scores"),
            (
                "mutant:short-top-k+distance-scores".to_owned(),
                RecallProfile::Semantic,
                "mutant short-top-k+distance-scores (the semantic reference driver, in memory)"
                    .to_owned()
            )
        );
    }

    #[test]
    fn exec_specs_split_like_a_shell() {
        assert_eq!(
            parse("exec:python3 'my driver.py' --db :memory:"),
            Ok(DriverSpec::new(exec::Exec(ExecCommand::new(
                "python3",
                ["my driver.py", "--db", ":memory:"]
            ))))
        );
        assert_eq!(
            parse("exec:").unwrap_err(),
            "failed to read the driver command: it is empty; expected exec:'COMMAND ARGS'"
        );
        assert!(
            parse("exec:python3 'x.py").is_err_and(
                |e| e.starts_with("failed to read the driver command \"python3 'x.py\": ")
            )
        );
    }

    #[test]
    fn postgres_specs_take_a_url_and_never_show_its_password() {
        assert_eq!(
            parse("postgres:postgres://ann@127.0.0.1:5433/mem"),
            Ok(DriverSpec::new(postgres::Postgres(
                "postgres://ann@127.0.0.1:5433/mem".to_owned()
            )))
        );
        assert!(parse("postgres:").is_err_and(|e| e.starts_with("postgres:URL needs")));
        assert_eq!(
            parse("postgresql://ann@h/db").unwrap_err(),
            "\"postgresql://ann@h/db\" is a connection URL without the driver name: the form is \
             postgres:URL, so pass --driver postgres:postgresql://ann@h/db"
        );
        assert!(parse("postgres:postgres://ann:s3cret@h:notaport/db")
            .is_err_and(|e| e.contains("postgres.url") && !e.contains("s3cret")));
        let spec = parse("postgres:postgres://ann:s3cret@127.0.0.1:5433/mem").unwrap();
        assert_eq!(
            spec.to_string(),
            "postgres:postgres://ann@127.0.0.1:5433/mem"
        );
        assert_eq!(spec.version(), format!("tinymemory-postgres {}", v()));
    }

    #[test]
    fn specs_render_back_to_what_parses() {
        for s in [
            "reference",
            "semantic",
            "null",
            "sqlite",
            "sqlite:/tmp/a:b.db",
            "mutant:limit-plus-one",
            "mutant:limit-plus-one+forget-always-true",
            "exec:python3 'my driver.py' --db :memory:",
            "postgres:postgres://ann@127.0.0.1:5433/mem",
        ] {
            let spec = DriverSpec::parse(s).expect("parses");
            assert_eq!(spec.to_string(), s);
        }
    }

    #[test]
    fn every_kind_has_a_version_naming_its_crate() {
        let cases = [
            ("reference", format!("tinymemory-reference {}", v())),
            (
                "semantic",
                format!("tinymemory-reference {} (semantic)", v()),
            ),
            ("null", format!("tinymemory-doubles {} (null driver)", v())),
            ("sqlite:u.db", format!("tinymemory-sqlite {}", v())),
            (
                "postgres:postgres://h/db",
                format!("tinymemory-postgres {}", v()),
            ),
            (
                "exec:python3 d.py",
                format!("`python3 d.py` over tinymemory-exec {}", v()),
            ),
            (
                "mutant:limit-plus-one",
                format!("tinymemory-reference {} with mutant limit-plus-one", v()),
            ),
        ];
        for (spec, expected) in cases {
            assert_eq!(version(spec), expected, "{spec}");
        }
    }

    /// The files each kind owns, for one sample spec of every registered
    /// kind: what an output may never name and the other end of a
    /// migration may never be. A kind registered without a sample here
    /// fails the coverage assertion.
    #[test]
    fn every_kind_lists_the_files_it_owns() {
        for (at, kind) in KINDS.iter().enumerate() {
            let forms: Vec<&str> = kind.spellings.iter().map(|s| s.form).collect();
            assert!(!kind.samples.is_empty(), "{forms:?} has no sample");
            for sample in kind.samples {
                let spec = sample.spec;
                // Of this kind, and of no kind before it (the first that
                // parses a text is the one it is).
                assert_eq!(
                    KINDS.iter().position(|k| (k.parse)(spec).is_some()),
                    Some(at),
                    "{spec} is a sample of {forms:?}"
                );
                let owns: Vec<(PathBuf, Named)> = sample
                    .owns
                    .iter()
                    .map(|&(path, named)| (PathBuf::from(path), named))
                    .collect();
                let owned: Vec<(PathBuf, Named)> = parse(spec)
                    .unwrap()
                    .kind()
                    .owned_files()
                    .into_iter()
                    .map(|o| (o.path, o.named))
                    .collect();
                assert_eq!(owned, owns, "{spec}");
            }
        }
    }

    /// docs/cli.md's table of kinds is what the registrations give, or is
    /// rewritten to it under `TINYMEMORY_BLESS=1`.
    #[test]
    fn docs_cli_lists_every_driver_kind() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md");
        let text = std::fs::read_to_string(&path).unwrap();
        let (before, rest) = text
            .split_once("<!-- BEGIN GENERATED: driver-kinds -->\n")
            .expect("docs/cli.md has the driver-kinds region");
        let (_, after) = rest
            .split_once("<!-- END GENERATED: driver-kinds -->")
            .expect("docs/cli.md ends the driver-kinds region");
        let want = format!(
            "{before}<!-- BEGIN GENERATED: driver-kinds -->\n{}<!-- END GENERATED: driver-kinds -->{after}",
            kinds_table()
        );
        if want != text && std::env::var_os("TINYMEMORY_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
            return;
        }
        assert!(
            want == text,
            "docs/cli.md's table of driver kinds differs from the registrations \
             (crates/tinymemory-cli/src/driver/*.rs): rewrite it with \
             TINYMEMORY_BLESS=1 cargo test -p tinymemory-cli --bin tinymemory-conformance driver"
        );
    }

    #[test]
    fn the_table_of_kinds_has_a_row_per_spelling() {
        let table = kinds_table();
        let mut lines = table.lines();
        assert_eq!(lines.next(), Some("| spec | runs against |"));
        assert_eq!(lines.next(), Some("|---|---|"));
        assert_eq!(
            lines.next(),
            Some("| `reference` | the lexical reference driver, in memory |")
        );
        assert_eq!(lines.count(), spellings().count() - 1);
    }

    /// How a run claims the files a driver owns: the store written, with
    /// its companions; the files of a command's words read, with theirs.
    #[test]
    fn owned_files_are_claimed_with_their_companions() {
        let dir = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(dir.path()).unwrap();
        let claimed = |s: &str| {
            let spec = DriverSpec::parse(s).unwrap();
            let mut claims = Claims::default();
            let role = format!("--driver {spec}");
            spec.claim_files(
                &mut claims,
                (&format!("the store of {role}"), &role),
                true,
                false,
            );
            claims.listed()
        };
        let with_companions = |role: &str, file: &Path, writes: bool| {
            std::iter::once((role.to_owned(), file.to_owned(), writes))
                .chain(
                    crate::identity::SQLITE_COMPANIONS
                        .into_iter()
                        .map(|suffix| {
                            let companion = PathBuf::from(format!("{}{suffix}", file.display()));
                            (
                                format!(
                                    "the {suffix} companion ({}) of {role}",
                                    companion.display()
                                ),
                                companion,
                                writes,
                            )
                        }),
                )
                .collect::<Vec<_>>()
        };
        let db = dir.join("u.db");
        let spec = format!("sqlite:{}", db.display());
        assert_eq!(
            claimed(&spec),
            with_companions(&format!("the store of --driver {spec}"), &db, true)
        );
        let script = dir.join("drv.py");
        let spec = format!("exec:{}", script.display());
        assert_eq!(
            claimed(&spec),
            with_companions(
                &format!("{}, named by --driver {spec}", script.display()),
                &script,
                false
            )
        );
    }

    #[test]
    fn exec_words_name_files_after_eq_redirections_and_uris() {
        let files = |s: &str| {
            DriverSpec::parse(s)
                .unwrap()
                .kind()
                .owned_files()
                .into_iter()
                .map(|o| {
                    assert_eq!(o.named, Named::Word);
                    o.path.display().to_string()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            files("exec:python3 drv.py file:x.db?mode=rwc <in >&out"),
            [
                "python3",
                "drv.py",
                "file:x.db?mode=rwc",
                // After `=`: a word may name a file anywhere in it.
                "rwc",
                // After `:`, before `?`, and both.
                "x.db?mode=rwc",
                "file:x.db",
                "x.db",
                "<in",
                "in",
                ">&out",
                "out"
            ]
        );
        assert_eq!(
            DriverSpec::parse("sqlite:u.db")
                .unwrap()
                .kind()
                .owned_files(),
            [Owned {
                path: PathBuf::from("u.db"),
                named: Named::Store,
                word: None,
            }]
        );
    }
}

//! Which driver to run against, and fresh stores of it.

use std::ffi::OsStr;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider, RecallProfile};
use tinymemory_conformance::{DriverFactory, FnFactory};
use tinymemory_doubles::Mutant;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecFactory};
use tinymemory_postgres::{PostgresConfig, PostgresFactory};
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};

pub(crate) use self::corpus_store::CorpusStore;

mod corpus_store;

/// A `--driver` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DriverSpec {
    /// `tinymemory_reference::ReferenceDriver`, declaring the lexical
    /// recall profile.
    Reference,
    /// `tinymemory_reference::SemanticReferenceDriver` (driver id
    /// `semantic-reference`), declaring the semantic recall profile.
    Semantic,
    /// `tinymemory_doubles::NullDriver`: retains nothing, so the suite
    /// must report it failing (and its properties skipped), never passing.
    Null,
    /// `None`: a temporary file.
    Sqlite(Option<PathBuf>),
    /// The reference driver of the mutants' recall profile
    /// ([`mutant_profile`]) wrapped by these mutants
    /// (`tinymemory_doubles::mutants()`), the first innermost: one mutant
    /// breaks one rule; stacking them breaks several at once. Parsing
    /// refuses a stack of mutants of different profiles.
    Mutant(Vec<&'static str>),
    /// A driver process speaking the exec protocol (docs/protocol.md),
    /// from `exec:COMMAND ARGS`: the words split as a shell would.
    Exec(ExecCommand),
    /// A PostgreSQL server, from `postgres:URL` (the URL as libpq reads
    /// it, checked when parsed). Every check, and the corpus, gets a scratch
    /// schema of its own, dropped at the end of the run.
    Postgres(String),
}

impl DriverSpec {
    /// Parses `reference`, `semantic`, `null`, `sqlite`, `sqlite:PATH`,
    /// `postgres:URL`, `mutant:NAME[+NAME..]` or `exec:COMMAND ARGS`.
    pub(crate) fn parse(s: &str) -> Result<Self, String> {
        match s.split_once(':') {
            None if s == "reference" => Ok(Self::Reference),
            None if s == "semantic" => Ok(Self::Semantic),
            None if s == "null" => Ok(Self::Null),
            None if s == "sqlite" => Ok(Self::Sqlite(None)),
            Some(("sqlite", "")) => Err("sqlite:PATH needs a path after the colon".into()),
            // SQLite opens `file:` names as URIs (`file:u.db` is `u.db`), so
            // the file a URI names could pass every check of the outputs
            // against the store: a path is asked for instead.
            Some(("sqlite", path)) if path.starts_with("file:") => Err(format!(
                "sqlite:{path}: a SQLite URI is not taken here (SQLite would open the file it \
                 names, which the run could not tell from its outputs); name the file itself, \
                 sqlite:{}",
                path.trim_start_matches("file:")
                    .split('?')
                    .next()
                    .unwrap_or_default()
            )),
            Some(("sqlite", path)) => Ok(Self::Sqlite(Some(PathBuf::from(path)))),
            Some(("mutant", names)) => {
                let stack = names
                    .split('+')
                    .map(|name| tinymemory_doubles::mutant(name).ok_or_else(|| unknown_mutant(name)))
                    .collect::<Result<Vec<_>, _>>()?;
                stack_profile(&stack)?;
                Ok(Self::Mutant(stack.iter().map(|m| m.name).collect()))
            }
            Some(("postgres", "")) => Err(
                "postgres:URL needs a connection URL after the colon, such as \
                 postgres:postgres://user@127.0.0.1:5432/db"
                    .into(),
            ),
            Some(("postgres" | "postgresql", url)) if url.starts_with("//") => Err(format!(
                "{s:?} is a connection URL without the driver name: the form is postgres:URL, \
                 so pass --driver postgres:{s}"
            )),
            Some(("postgres", url)) => PostgresConfig::from_url(url)
                .map(|_| Self::Postgres(url.to_owned()))
                .map_err(|e| e.to_string()),
            Some(("exec", line)) => ExecCommand::parse(line)
                .map(Self::Exec)
                .map_err(|e| format!("{e}; expected exec:'COMMAND ARGS'")),
            _ => Err(format!(
                "unknown driver {s:?}; expected reference, semantic, null, sqlite, sqlite:PATH, postgres:URL, exec:COMMAND or mutant:NAME"
            )),
        }
    }

    /// [`DriverSpec::parse`] of a raw argument: a `sqlite:PATH` whose path
    /// is not UTF-8 is taken as it is (on Unix); anything else must be
    /// UTF-8.
    pub(crate) fn parse_os(raw: &OsStr) -> Result<Self, String> {
        if let Some(text) = raw.to_str() {
            return Self::parse(text);
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            if let Some(path) = raw.as_bytes().strip_prefix(b"sqlite:") {
                if !path.is_empty() && !path.starts_with(b"file:") {
                    return Ok(Self::Sqlite(Some(PathBuf::from(OsStr::from_bytes(path)))));
                }
            }
        }
        Err(format!(
            "{:?} is not UTF-8; only the path of sqlite:PATH may be",
            raw.to_string_lossy()
        ))
    }

    /// The version reports record for this driver: the crate and version
    /// that implement it (every driver here is built with this binary).
    pub(crate) fn version(&self) -> String {
        let v = env!("CARGO_PKG_VERSION");
        match self {
            Self::Reference => format!("tinymemory-reference {v}"),
            Self::Semantic => format!("tinymemory-reference {v} (semantic)"),
            Self::Null => format!("tinymemory-doubles {v} (null driver)"),
            Self::Sqlite(_) => format!("tinymemory-sqlite {v}"),
            Self::Mutant(names) => {
                let semantic = match mutants_of(names).and_then(|stack| stack_profile(&stack)) {
                    Ok(RecallProfile::Semantic) => " (semantic)",
                    _ => "",
                };
                format!(
                    "tinymemory-reference {v}{semantic} with mutant {}",
                    names.join("+")
                )
            }
            Self::Exec(command) => format!("`{command}` over tinymemory-exec {v}"),
            Self::Postgres(_) => format!("tinymemory-postgres {v}"),
        }
    }
}

/// The `--driver` spelling: parsing it gives the same spec back.
impl fmt::Display for DriverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Reference => f.write_str("reference"),
            Self::Semantic => f.write_str("semantic"),
            Self::Null => f.write_str("null"),
            Self::Sqlite(None) => f.write_str("sqlite"),
            Self::Sqlite(Some(path)) => write!(f, "sqlite:{}", path.display()),
            Self::Mutant(names) => write!(f, "mutant:{}", names.join("+")),
            Self::Exec(command) => write!(f, "exec:{command}"),
            // Never the password: reports and logs show this.
            Self::Postgres(url) => match PostgresConfig::from_url(url) {
                Ok(config) => write!(f, "postgres:{}", config.redacted_url()),
                Err(_) => f.write_str("postgres:(unreadable URL)"),
            },
        }
    }
}

fn unknown_mutant(name: &str) -> String {
    format!(
        "unknown mutant {name:?}; `tinymemory-conformance mutants` lists them: {}",
        tinymemory_doubles::mutants()
            .iter()
            .map(|m| m.name)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The one recall profile of a stack of mutants ([`Mutant::profile`]):
/// they all wrap the same reference driver ([`Mutant::base`]), whose
/// profile the run declares.
///
/// # Errors
///
/// A usage message when the stack is empty or mixes profiles.
pub(crate) fn stack_profile(stack: &[&Mutant]) -> Result<RecallProfile, String> {
    let Some((first, rest)) = stack.split_first() else {
        return Err("mutant:NAME needs a mutant name".to_owned());
    };
    match rest.iter().find(|m| m.profile != first.profile) {
        None => Ok(first.profile),
        Some(other) => Err(format!(
            "mutants {} ({}) and {} ({}) wrap different reference drivers; \
             stack only mutants of one recall profile",
            first.name, first.profile, other.name, other.profile
        )),
    }
}

/// How descriptions name the reference driver of `profile`, which the
/// mutants of that profile wrap ([`Mutant::base`]).
pub(crate) fn reference_name(profile: RecallProfile) -> &'static str {
    match profile {
        RecallProfile::Lexical => "the reference driver",
        RecallProfile::Semantic => "the semantic reference driver",
    }
}

/// The catalogue entries named `names`.
fn mutants_of(names: &[&str]) -> Result<Vec<&'static Mutant>, String> {
    names
        .iter()
        .map(|name| tinymemory_doubles::mutant(name).ok_or_else(|| unknown_mutant(name)))
        .collect()
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
    _scratch: Option<tempfile::TempDir>,
}

/// [`open_with`] under the exec driver's default limits.
pub(crate) fn open(spec: &DriverSpec) -> Result<Opened, MemoryError> {
    open_with(spec, ExecConfig::default())
}

/// Opens `spec`; an `exec:` driver's processes run under `exec` (its
/// request timeout is `run --call-timeout`).
pub(crate) fn open_with(spec: &DriverSpec, exec: ExecConfig) -> Result<Opened, MemoryError> {
    match spec {
        DriverSpec::Reference => Ok(Opened {
            factory: Arc::new(FnFactory::new("reference", || {
                Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
            })),
            corpus_store: CorpusStore::Ready(Box::new(ReferenceDriver::new())),
            description: "reference (in memory)".to_owned(),
            without_corpus: None,
            _scratch: None,
        }),
        DriverSpec::Semantic => Ok(Opened {
            factory: Arc::new(
                FnFactory::new("semantic-reference", || {
                    Ok(Box::new(SemanticReferenceDriver::new()) as Box<dyn MemoryProvider>)
                })
                .with_profile(RecallProfile::Semantic),
            ),
            corpus_store: CorpusStore::Ready(Box::new(SemanticReferenceDriver::new())),
            description: "semantic-reference (in memory, cosine of hashed embeddings)".to_owned(),
            without_corpus: None,
            _scratch: None,
        }),
        DriverSpec::Null => Ok(Opened {
            factory: Arc::new(FnFactory::new("null", || {
                Ok(Box::new(tinymemory_doubles::NullDriver::new()) as Box<dyn MemoryProvider>)
            })),
            corpus_store: CorpusStore::Ready(Box::new(tinymemory_doubles::NullDriver::new())),
            description: "null (retains nothing)".to_owned(),
            without_corpus: None,
            _scratch: None,
        }),
        DriverSpec::Mutant(names) => {
            let stack = mutants_of(names).map_err(MemoryError::fault)?;
            let profile = stack_profile(&stack).map_err(MemoryError::fault)?;
            // One profile, so one base: the innermost mutant's.
            let base = stack[0];
            let wraps: Vec<_> = stack.iter().map(|m| m.wrap).collect();
            let open = move || wraps.iter().fold(base.base(), |inner, wrap| wrap(inner));
            let corpus_store = CorpusStore::Ready(open());
            Ok(Opened {
                factory: Arc::new(
                    FnFactory::new(spec.to_string(), move || Ok(open())).with_profile(profile),
                ),
                corpus_store,
                description: format!(
                    "mutant {} ({}, in memory)",
                    names.join("+"),
                    reference_name(profile)
                ),
                without_corpus: None,
                _scratch: None,
            })
        }
        DriverSpec::Exec(command) => {
            // Two processes: one reset before every check, one holding the
            // corpus, started when the corpus is loaded. `connect` only asks
            // `hello`, so a run refused before its first check resets
            // nothing. Blocking is fine here: each process is served by a
            // thread of its own, and nothing else runs yet.
            let config = exec;
            let factory = ExecFactory::connect_blocking(command.clone(), config.clone())?;
            let corpus_store = CorpusStore::Exec(command.clone(), config);
            // The id is the driver's own text: escaped, so it cannot drive
            // the terminal.
            let about = format!(
                "exec `{command}` (driver {}, protocol version {}",
                tinymemory_conformance::report::visible(&factory.driver_id()),
                tinymemory_exec::protocol::PROTOCOL_VERSION
            );
            Ok(Opened {
                factory: Arc::new(factory),
                corpus_store,
                description: format!("{about}; the corpus store is a process of its own)"),
                without_corpus: Some(format!("{about})")),
                _scratch: None,
            })
        }
        DriverSpec::Postgres(url) => {
            // No I/O yet: the schemas are created by their first calls, so
            // an unreachable server fails the corpus load (or each check).
            // The corpus store is a scratch schema too, so a run never
            // touches the server's other schemas; all of them are dropped
            // when the factory is, at the end of the run.
            let config = PostgresConfig::from_url(url)?;
            let factory = PostgresFactory::new(&config)?;
            let corpus_store = CorpusStore::Ready(Box::new(factory.scratch()));
            let description = format!(
                "postgres {} (scratch schemas {}_*, dropped at the end of the run)",
                factory.server(),
                factory.prefix()
            );
            Ok(Opened {
                factory: Arc::new(factory),
                corpus_store,
                description,
                without_corpus: None,
                _scratch: None,
            })
        }
        DriverSpec::Sqlite(path) => {
            let scratch = tempfile::Builder::new()
                .prefix("tinymemory-conformance-")
                .tempdir_in(crate::scratch::root())
                .map_err(|e| MemoryError::backend("failed to create a temporary directory", e))?;
            crate::cleanup::remove_on_signal(scratch.path().to_owned());
            let corpus_path = path
                .clone()
                .unwrap_or_else(|| scratch.path().join("corpus.db"));
            let dir = scratch.path().to_owned();
            let next = AtomicU64::new(0);
            let factory = FnFactory::new("sqlite", move || {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let store = crate::scratch::ScratchSqlite::open(dir.join(format!("check-{n}.db")))?;
                Ok(Box::new(store) as Box<dyn MemoryProvider>)
            });
            Ok(Opened {
                factory: Arc::new(factory),
                description: format!("sqlite (corpus store {})", corpus_path.display()),
                corpus_store: CorpusStore::Sqlite(corpus_path),
                without_corpus: Some("sqlite (a fresh file per check)".to_owned()),
                _scratch: Some(scratch),
            })
        }
    }
}

/// The driver could not be opened: [`crate::exit::SETUP`], its message
/// escaped (`run`, `replay`).
pub(crate) fn not_opened(e: &dyn std::fmt::Display) -> crate::error::CliError {
    crate::error::CliError::setup(format!(
        "failed to open the driver: {}",
        tinymemory_api::shown::visible(&e.to_string())
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_specs_parse() {
        assert_eq!(DriverSpec::parse("reference"), Ok(DriverSpec::Reference));
        assert_eq!(DriverSpec::parse("semantic"), Ok(DriverSpec::Semantic));
        assert_eq!(
            DriverSpec::Semantic.version(),
            format!(
                "tinymemory-reference {} (semantic)",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(DriverSpec::parse("null"), Ok(DriverSpec::Null));
        assert_eq!(DriverSpec::Null.to_string(), "null");
        assert_eq!(DriverSpec::parse("sqlite"), Ok(DriverSpec::Sqlite(None)));
        assert_eq!(
            DriverSpec::parse("sqlite:/tmp/a:b.db"),
            Ok(DriverSpec::Sqlite(Some(PathBuf::from("/tmp/a:b.db"))))
        );
        assert!(DriverSpec::parse("sqlite:").is_err());
        assert_eq!(
            DriverSpec::parse("mongo"),
            Err(
                "unknown driver \"mongo\"; expected reference, semantic, null, sqlite, sqlite:PATH, postgres:URL, exec:COMMAND or mutant:NAME"
                    .to_owned()
            )
        );
        assert_eq!(
            DriverSpec::parse("mutant:limit-plus-one"),
            Ok(DriverSpec::Mutant(vec!["limit-plus-one"]))
        );
        assert_eq!(
            DriverSpec::parse("mutant:limit-plus-one+forget-always-true"),
            Ok(DriverSpec::Mutant(vec![
                "limit-plus-one",
                "forget-always-true"
            ]))
        );
        assert!(DriverSpec::parse("mutant:limit-plus-one+")
            .is_err_and(|e| e.starts_with("unknown mutant \"\"; ")));
        assert!(DriverSpec::parse("mutant:no-such")
            .is_err_and(|e| e.starts_with("unknown mutant \"no-such\"; ")));
    }

    #[test]
    fn a_stack_of_mutants_has_one_profile() {
        let m = |name| tinymemory_doubles::mutant(name).unwrap();
        assert_eq!(
            stack_profile(&[m("limit-plus-one"), m("like-wildcards")]),
            Ok(RecallProfile::Lexical)
        );
        assert_eq!(
            stack_profile(&[m("short-top-k"), m("distance-scores")]),
            Ok(RecallProfile::Semantic)
        );
        assert_eq!(
            stack_profile(&[]),
            Err("mutant:NAME needs a mutant name".to_owned())
        );
        assert_eq!(
            DriverSpec::parse("mutant:limit-plus-one+short-top-k"),
            Err(
                "mutants limit-plus-one (lexical) and short-top-k (semantic) wrap different \
                 reference drivers; stack only mutants of one recall profile"
                    .to_owned()
            )
        );
        assert_eq!(
            DriverSpec::parse("mutant:short-top-k").map(|s| s.version()),
            Ok(format!(
                "tinymemory-reference {} (semantic) with mutant short-top-k",
                env!("CARGO_PKG_VERSION")
            ))
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
            DriverSpec::parse("exec:python3 'my driver.py' --db :memory:"),
            Ok(DriverSpec::Exec(ExecCommand::new(
                "python3",
                ["my driver.py", "--db", ":memory:"]
            )))
        );
        assert_eq!(
            DriverSpec::parse("exec:"),
            Err(
                "failed to read the driver command: it is empty; expected exec:'COMMAND ARGS'"
                    .to_owned()
            )
        );
        assert!(
            DriverSpec::parse("exec:python3 'x.py").is_err_and(
                |e| e.starts_with("failed to read the driver command \"python3 'x.py\": ")
            )
        );
    }

    #[test]
    fn postgres_specs_take_a_url_and_never_show_its_password() {
        assert_eq!(
            DriverSpec::parse("postgres:postgres://ann@127.0.0.1:5433/mem"),
            Ok(DriverSpec::Postgres(
                "postgres://ann@127.0.0.1:5433/mem".to_owned()
            ))
        );
        assert!(DriverSpec::parse("postgres:").is_err_and(|e| e.starts_with("postgres:URL needs")));
        assert!(
            DriverSpec::parse("postgres:postgres://ann:s3cret@h:notaport/db")
                .is_err_and(|e| e.contains("postgres.url") && !e.contains("s3cret"))
        );
        let spec = DriverSpec::parse("postgres:postgres://ann:s3cret@127.0.0.1:5433/mem").unwrap();
        assert_eq!(
            spec.to_string(),
            "postgres:postgres://ann@127.0.0.1:5433/mem"
        );
        assert_eq!(
            spec.version(),
            format!("tinymemory-postgres {}", env!("CARGO_PKG_VERSION"))
        );
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
}

//! `exec:COMMAND ARGS`: a driver process speaking the exec protocol
//! (docs/protocol.md, `tinymemory_exec`), the words split as a shell
//! would.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::DriverFactory as _;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver, ExecFactory};

mod program;
mod words;

use super::kind::{text_only, DriverKind, Named, Owned, Registration, Sample, Spelling};
use super::{CorpusStore, DriverSpec, Opened, SpecError};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

pub(super) const KIND: Registration = Registration {
    spellings: &[Spelling {
        form: "exec:COMMAND",
        meaning: "a driver in any language: the program `COMMAND ARGS`, split into words as a shell would but never run by one, speaking the line protocol of docs/protocol.md",
    }],
    parse,
    parse_os: text_only,
    samples: &[
        Sample {
            spec: "exec:python3 drv.py --db=my.db",
            owns: &[
                ("python3", Named::Word),
                ("drv.py", Named::Word),
                ("--db=my.db", Named::Word),
                ("my.db", Named::Word),
            ],
        },
        Sample {
            spec: "exec:sh -c 'drv --db my.db 2>>drv.log'",
            owns: &[
                ("sh", Named::Word),
                ("-c", Named::Word),
                ("drv --db my.db 2>>drv.log", Named::Word),
                ("drv.log", Named::Word),
                ("drv", Named::Word),
                ("--db", Named::Word),
                ("my.db", Named::Word),
                ("2>>drv.log", Named::Word),
            ],
        },
    ],
};

/// An `exec:` spec: the program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Exec(pub(crate) ExecCommand);

/// The command line could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{0}; expected exec:'COMMAND ARGS'")]
struct Unreadable(tinymemory_exec::CommandLineError);

fn parse(s: &str) -> Option<Result<DriverSpec, SpecError>> {
    let line = s.strip_prefix("exec:")?;
    Some(
        ExecCommand::parse(line)
            .map(|command| DriverSpec::new(Exec(command)))
            .map_err(|e| SpecError::kind(Unreadable(e))),
    )
}

#[async_trait::async_trait]
impl DriverKind for Exec {
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exec:{}", self.0)
    }

    fn version(&self) -> String {
        format!("`{}` over tinymemory-exec {}", self.0, env!("CARGO_PKG_VERSION"))
    }

    fn open(&self, _spec: &DriverSpec, exec: ExecConfig) -> Result<Opened, MemoryError> {
        // Two processes: one reset before every check, one holding the
        // corpus, started when the corpus is loaded. `connect` only asks
        // `hello`, so a run refused before its first check resets nothing.
        // Blocking is fine here: each process is served by a thread of its
        // own, and nothing else runs yet.
        let command = &self.0;
        let factory = ExecFactory::connect_blocking(command.clone(), exec.clone())?;
        let corpus_command = command.clone();
        let corpus_store = CorpusStore::later(move || async move {
            let store = ExecDriver::spawn(&corpus_command, exec).await?;
            Ok(Box::new(store) as Box<dyn MemoryProvider>)
        });
        // The id is the driver's own text: escaped, so it cannot drive the
        // terminal.
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

    /// The process, after `hello`, without `reset`.
    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        let provider = ExecDriver::attach(&self.0, ExecConfig::default())
            .await
            .map_err(|e| end.not_opened(spec, &e))?;
        Ok(Store {
            provider: Box::new(provider),
            in_memory: false,
        })
    }

    /// The files the command line names: its program and each argument,
    /// each word of an argument that a shell would split further (the
    /// script of `sh -c '…'`), and whatever any reasonable parse of a word
    /// finds in it (`words::files_named`: after `=`, a short option's
    /// letter, a `:` or a URL's `///`, before a `?`, the target of a
    /// redirection, the string values of a JSON word), whether the files
    /// exist yet or not.
    ///
    /// Which words a program reads as files, and which files it creates,
    /// only the program knows (`sqlite_driver.py my.db` creates `my.db` on
    /// its first store), so every word is taken for one, and every parse
    /// of it too: an output named like a word of the command, or like a
    /// part of one, is refused even when it is not a file, which costs a
    /// user nothing but another name, where a name left out may be a
    /// database a report replaces. Words are read relative to the run's
    /// working directory: a script that changes directory (`cd sub &&
    /// ...`) or builds paths from variables names files no word shows,
    /// which docs/cli.md says.
    fn owned_files(&self) -> Vec<Owned> {
        let command = &self.0;
        let words =
            std::iter::once(command.program()).chain(command.args().iter().map(String::as_str));
        words::files_named(words)
            .into_iter()
            .map(|found| Owned {
                word: (found.word != found.file).then_some(found.word),
                path: PathBuf::from(found.file),
                named: Named::Word,
            })
            .collect()
    }

    fn command(&self) -> Option<&ExecCommand> {
        Some(&self.0)
    }
}

/// The file the program word of `command` starts when it is looked up in
/// `PATH` (`exec:mydrv`), as the driver's start looks it up now; `None`
/// for a program named by a path, which is a word of the command.
pub(super) fn program_on_path(command: &ExecCommand) -> Option<PathBuf> {
    program::found_on(command.program(), std::env::var_os("PATH"))
}

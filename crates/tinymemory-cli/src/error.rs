//! The error a command ends with: its variant decides the exit code, as
//! nextest's `ExpectedError::process_exit_code` does, so a command body
//! returns it with `?` instead of printing and returning a code at every
//! turn, and no helper hands back a bare message whose code a caller must
//! remember.

use crate::driver::SpecError;
use crate::exit;
use crate::files::FileError;
use crate::identity::Clash;
use crate::select::SelectError;

/// A command that ended early: why, as one or more `error: …` lines for
/// stderr, and (by its variant, [`CliError::exit_code`]) the [`exit`]
/// code the process ends with.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The command line, or a file it names, cannot be used: a malformed
    /// report or bundle, an output that would replace a file the command
    /// uses, a selection that matches nothing ([`exit::USAGE`]).
    #[error("{0}")]
    Usage(String),
    /// A `--driver`, `--from` or `--to` spec that names no driver
    /// ([`exit::USAGE`]).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A file the command names that it cannot read or write (a report,
    /// a bundle, an output) ([`exit::USAGE`]).
    #[error(transparent)]
    File(#[from] FileError),
    /// A file the command writes is one it also reads or writes (an
    /// output on the store, a bundle in the corpus), refused before
    /// anything is opened; `why` says what follows ([`exit::USAGE`]).
    #[error("{clash}: {why}")]
    Clash {
        /// The two uses of the file.
        clash: Clash,
        /// What the command never does, and the way out.
        why: &'static str,
    },
    /// A `--check` or `--family` that selects nothing ([`exit::USAGE`]).
    #[error(transparent)]
    Select(#[from] SelectError),
    /// The driver, the corpus or a store could not be set up
    /// ([`exit::SETUP`]).
    #[error("{0}")]
    Setup(String),
    /// The driver of a `run` or a `replay` failed to open; its message,
    /// escaped ([`exit::SETUP`]).
    #[error("failed to open the driver: {0}")]
    NotOpened(String),
    /// The first failing checks of a `run` all failed on the same error
    /// of a broken environment (a missing module, a refused connection, a
    /// missing extension): how many, the error (escaped), what to install
    /// or start, and where the run stopped ([`exit::BROKEN_ENVIRONMENT`];
    /// docs/cli.md, "A broken environment").
    #[error(
        "the driver's environment is broken: the first {failed} checks to fail all failed on the \
         same error: {error}\nremedy: {remedy}\nthe run stopped after {finished} checks ({passed} \
         passed); --keep-going runs every check anyway{detail}"
    )]
    BrokenEnvironment {
        /// How many checks failed on the error.
        failed: usize,
        /// How many checks had finished when the run stopped.
        finished: usize,
        /// Of them, how many passed.
        passed: usize,
        /// The driver's error, escaped.
        error: String,
        /// The driver's stderr quoted by the last failure, each line after
        /// a newline; empty when there is none.
        detail: String,
        /// What to install or start.
        remedy: String,
    },
    /// The async runtime did not start ([`exit::SETUP`]).
    #[error("failed to start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// A command that ran and found a failure it cannot go on from: a
    /// migration whose records failed to import or whose target differs
    /// ([`exit::FAILURES`]).
    #[error("{0}")]
    Failed(String),
    /// `run`: every one of the `total` selected checks was skipped and
    /// `--all-skipped fail` (the default) says such a run fails
    /// ([`exit::NO_CHECKS_RAN`]).
    #[error(
        "every selected check was skipped ({skipped} of {total}), so nothing was verified; \
         --all-skipped warn or pass accepts such a run"
    )]
    NothingVerified {
        /// Checks skipped.
        skipped: usize,
        /// Checks selected.
        total: usize,
    },
    /// Several errors found before the command stopped (`diff` with two
    /// bad reports), in the order found; the first decides the code.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<CliError>),
}

/// What a command returns: the exit code of a command that ran to its
/// end (success, failures, nothing verified), or why it stopped.
pub(crate) type CliResult = Result<u8, CliError>;

impl CliError {
    /// The exit code the process ends with ([`exit`]).
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_)
            | Self::Spec(_)
            | Self::File(_)
            | Self::Clash { .. }
            | Self::Select(_) => exit::USAGE,
            Self::Setup(_) | Self::NotOpened(_) | Self::Runtime(_) => exit::SETUP,
            Self::BrokenEnvironment { .. } => exit::BROKEN_ENVIRONMENT,
            Self::Failed(_) => exit::FAILURES,
            Self::NothingVerified { .. } => exit::NO_CHECKS_RAN,
            Self::Several(errors) => errors.first().map_or(exit::USAGE, Self::exit_code),
        }
    }

    /// This error followed by `other`, with this error's code: a command
    /// that checks two things before it stops says both.
    pub(crate) fn and(self, other: Self) -> Self {
        let mut errors = match self {
            Self::Several(errors) => errors,
            one => vec![one],
        };
        match other {
            Self::Several(more) => errors.extend(more),
            one => errors.push(one),
        }
        Self::Several(errors)
    }

    /// Each message (one, or one of each of [`CliError::Several`]); a
    /// message may span lines of its own (the recorded command of a
    /// bundle).
    fn messages(&self) -> Vec<String> {
        match self {
            Self::Several(errors) => errors.iter().flat_map(Self::messages).collect(),
            one => vec![one.to_string()],
        }
    }

    /// What [`CliError::report`] prints: each message after `error: `, one
    /// to a line.
    pub(crate) fn lines(&self) -> String {
        self.messages()
            .iter()
            .map(|m| format!("error: {m}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Prints every message as an `error: …` line on stderr and returns
    /// the exit code.
    pub(crate) fn report(&self) -> u8 {
        stderr_line!("{}", self.lines());
        self.exit_code()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_keeps_its_code_and_every_message() {
        let e = CliError::Usage("failed to read a.json".into())
            .and(CliError::Setup("failed to read b".into()));
        assert_eq!(e.exit_code(), exit::USAGE);
        assert_eq!(
            e.lines(),
            "error: failed to read a.json\nerror: failed to read b"
        );
        let e = CliError::Setup("a".into())
            .and(CliError::Usage("b".into()).and(CliError::Usage("c".into())));
        assert_eq!(
            (e.exit_code(), e.lines()),
            (exit::SETUP, "error: a\nerror: b\nerror: c".to_owned())
        );
    }

    /// `--output a` refused for being `--baseline a`.
    fn clash() -> CliError {
        CliError::Clash {
            clash: Clash {
                writer: "--output a".into(),
                other: "--baseline a".into(),
                path: "a".into(),
                other_path: "a".into(),
            },
            why: "name another file",
        }
    }

    #[test]
    fn the_variant_decides_the_exit_code() {
        let io = || std::io::Error::other("no threads");
        let cases = [
            (CliError::Usage(String::new()), exit::USAGE),
            (
                CliError::Spec(crate::driver::DriverSpec::parse("mongo").unwrap_err()),
                exit::USAGE,
            ),
            (CliError::File(FileError::Stdout(io())), exit::USAGE),
            (CliError::File(FileError::ReportCut(io())), exit::USAGE),
            (
                CliError::Select(SelectError::NoMatch("x".into())),
                exit::USAGE,
            ),
            (clash(), exit::USAGE),
            (CliError::Setup(String::new()), exit::SETUP),
            (CliError::NotOpened(String::new()), exit::SETUP),
            (
                CliError::BrokenEnvironment {
                    failed: 3,
                    finished: 3,
                    passed: 0,
                    error: String::new(),
                    detail: String::new(),
                    remedy: String::new(),
                },
                exit::BROKEN_ENVIRONMENT,
            ),
            (CliError::Runtime(io()), exit::SETUP),
            (CliError::Failed(String::new()), exit::FAILURES),
            (
                CliError::NothingVerified {
                    skipped: 3,
                    total: 3,
                },
                exit::NO_CHECKS_RAN,
            ),
            (CliError::Several(Vec::new()), exit::USAGE),
        ];
        for (error, code) in cases {
            assert_eq!(error.exit_code(), code, "{error:?}");
        }
        assert_eq!(
            CliError::NothingVerified {
                skipped: 3,
                total: 3
            }
            .to_string(),
            "every selected check was skipped (3 of 3), so nothing was verified; \
             --all-skipped warn or pass accepts such a run"
        );
        assert_eq!(
            clash().to_string(),
            "--output a names the same file as --baseline a: name another file"
        );
        assert_eq!(
            CliError::Runtime(io()).to_string(),
            "failed to start the async runtime: no threads"
        );
    }
}

//! The error a command ends with: the lines it prints on stderr and the
//! exit code that goes with them, so a command body returns it with `?`
//! instead of printing and returning a code at every turn.

use std::fmt;

use crate::exit;

/// A command that ended early: one or more `error: …` lines for stderr,
/// and the [`exit`] code the process ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CliError {
    code: u8,
    messages: Vec<String>,
}

/// What a command returns: the exit code of a command that ran to its
/// end (success, failures, nothing verified), or why it stopped.
pub(crate) type CliResult = Result<u8, CliError>;

impl CliError {
    /// An error with exit `code` and one message.
    pub(crate) fn new(code: u8, message: impl Into<String>) -> Self {
        Self {
            code,
            messages: vec![message.into()],
        }
    }

    /// A usage error ([`exit::USAGE`]): the command line, or a file it
    /// names.
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Self::new(exit::USAGE, message)
    }

    /// A set-up error ([`exit::SETUP`]): the driver, the corpus or the
    /// runtime.
    pub(crate) fn setup(message: impl Into<String>) -> Self {
        Self::new(exit::SETUP, message)
    }

    /// This error followed by `other`'s messages, with this error's code:
    /// a command that checks two things before it stops says both.
    pub(crate) fn and(mut self, other: Self) -> Self {
        self.messages.extend(other.messages);
        self
    }

    /// The exit code.
    #[cfg(test)]
    pub(crate) fn code(&self) -> u8 {
        self.code
    }

    /// Prints every message as an `error: …` line on stderr and returns
    /// the exit code.
    pub(crate) fn report(&self) -> u8 {
        for message in &self.messages {
            stderr_line!("error: {message}");
        }
        self.code
    }
}

/// The messages, one `error: …` line each, as [`CliError::report`]
/// prints them.
impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, message) in self.messages.iter().enumerate() {
            if n > 0 {
                f.write_str("\n")?;
            }
            write!(f, "error: {message}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CliError {}

/// This crate's helpers say why as `Result<_, String>`: `.or_usage()?`
/// or `.or_setup()?` gives the message its exit code.
pub(crate) trait OrExit<T> {
    /// The error as a [`CliError::usage`].
    ///
    /// # Errors
    ///
    /// The message, with [`exit::USAGE`].
    fn or_usage(self) -> Result<T, CliError>;

    /// The error as a [`CliError::setup`].
    ///
    /// # Errors
    ///
    /// The message, with [`exit::SETUP`].
    fn or_setup(self) -> Result<T, CliError>;
}

impl<T> OrExit<T> for Result<T, String> {
    fn or_usage(self) -> Result<T, CliError> {
        self.map_err(CliError::usage)
    }

    fn or_setup(self) -> Result<T, CliError> {
        self.map_err(CliError::setup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_keeps_its_code_and_every_message() {
        let e = CliError::usage("failed to read a.json").and(CliError::setup("failed to read b"));
        assert_eq!(e.code(), exit::USAGE);
        assert_eq!(
            e.to_string(),
            "error: failed to read a.json\nerror: failed to read b"
        );
        assert_eq!(
            Err::<(), _>("no".to_owned()).or_setup().unwrap_err().code(),
            exit::SETUP
        );
    }
}

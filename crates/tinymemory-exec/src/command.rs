//! The command line that starts a driver process.

use std::fmt;

/// Why a command line could not be split into a program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandLineError {
    /// The line holds no word at all.
    #[error("failed to read the driver command: it is empty")]
    Empty,
    /// A quote is never closed, or the line ends in a lone backslash.
    #[error(
        "failed to read the driver command {0:?}: a quote is not closed or a backslash ends it"
    )]
    Unbalanced(String),
}

/// A program and its arguments, started once per driver process.
///
/// The program is looked up on `PATH` as [`std::process::Command`] does, and
/// runs in the caller's working directory with the caller's environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecCommand {
    program: String,
    args: Vec<String>,
}

impl ExecCommand {
    /// A command from a program and its arguments, taken as they are.
    pub fn new(
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        Self {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// Splits `line` into words as a POSIX shell does, without running one:
    /// whitespace separates words, `'…'` and `"…"` group them, and `\`
    /// escapes the next character. Nothing else is interpreted (no `$VAR`,
    /// globs, pipes or redirections); for those, run `sh -c '…'` as the
    /// command.
    ///
    /// ```
    /// use tinymemory_exec::ExecCommand;
    /// let c = ExecCommand::parse("python3 'my driver.py' --db :memory:").unwrap();
    /// assert_eq!(c.program(), "python3");
    /// assert_eq!(c.args(), ["my driver.py", "--db", ":memory:"]);
    /// ```
    ///
    /// # Errors
    ///
    /// [`CommandLineError::Empty`] for a line with no word, and
    /// [`CommandLineError::Unbalanced`] for an unclosed quote or a trailing
    /// backslash.
    pub fn parse(line: &str) -> Result<Self, CommandLineError> {
        let words =
            shlex::split(line).ok_or_else(|| CommandLineError::Unbalanced(line.to_owned()))?;
        let mut words = words.into_iter();
        let program = words.next().ok_or(CommandLineError::Empty)?;
        Ok(Self {
            program,
            args: words.collect(),
        })
    }

    /// The program to run.
    #[must_use]
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Its arguments, in order.
    #[must_use]
    pub fn args(&self) -> &[String] {
        &self.args
    }
}

/// The command quoted so that [`ExecCommand::parse`] gives it back, for
/// messages: `python3 'my driver.py'`.
impl fmt::Display for ExecCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words =
            std::iter::once(self.program.as_str()).chain(self.args.iter().map(String::as_str));
        match shlex::try_join(words) {
            Ok(joined) => f.write_str(&joined),
            // Only a NUL byte cannot be quoted; show the words as a list.
            Err(_) => write!(f, "{:?} {:?}", self.program, self.args),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let c = ExecCommand::parse(r#"  python3 "a b.py"  c\ d 'e"f' "#).unwrap();
        assert_eq!(c, ExecCommand::new("python3", ["a b.py", "c d", "e\"f"]));
        assert_eq!(
            ExecCommand::parse("driver").unwrap(),
            ExecCommand::new("driver", Vec::<String>::new())
        );
    }

    #[test]
    fn refuses_empty_and_unbalanced_lines() {
        assert_eq!(ExecCommand::parse(""), Err(CommandLineError::Empty));
        assert_eq!(ExecCommand::parse("   "), Err(CommandLineError::Empty));
        assert_eq!(
            ExecCommand::parse("python3 'x.py"),
            Err(CommandLineError::Unbalanced("python3 'x.py".into()))
        );
        assert_eq!(
            ExecCommand::parse("python3 x\\"),
            Err(CommandLineError::Unbalanced("python3 x\\".into()))
        );
    }

    #[test]
    fn display_quotes_back() {
        let c = ExecCommand::new("python3", ["my driver.py", "--x"]);
        assert_eq!(c.to_string(), "python3 'my driver.py' --x");
        assert_eq!(ExecCommand::parse(&c.to_string()).unwrap(), c);
    }
}

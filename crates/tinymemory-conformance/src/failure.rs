//! The error type check bodies use internally, turned into an [`Outcome`].

use tinymemory_api::{MemoryError, RecallProfile};

use crate::{Failure, Outcome};

/// Why a check body stopped early.
pub(crate) enum Stop {
    /// Boxed: a [`Failure`] with its driver error is large, and every
    /// check helper returns a `Result<_, Stop>`.
    Fail(Box<Failure>),
    Skip(String),
    /// [`Outcome::NotServed`]: the driver serves not the interface the
    /// check is of.
    NotServed,
}

impl Stop {
    /// [`Stop::Fail`] of a failure or of a message (no driver error).
    pub(crate) fn fail(failure: impl Into<Failure>) -> Self {
        Self::Fail(Box::new(failure.into()))
    }

    /// [`Stop::Fail`] with `message`, caused by the driver error `e`.
    pub(crate) fn caused_by(message: impl Into<String>, e: &MemoryError) -> Self {
        Self::fail(Failure::new(message).caused_by(e))
    }
}

/// Driver errors inside a check body fail the check, naming the error and
/// keeping it as the failure's [`driver_error`](Failure::driver_error).
impl From<MemoryError> for Stop {
    fn from(e: MemoryError) -> Self {
        Stop::caused_by(format!("unexpected driver error: {e}"), &e)
    }
}

/// A failure built elsewhere ([`CheckContext::fresh`](crate::CheckContext::fresh)).
impl From<Failure> for Stop {
    fn from(failure: Failure) -> Self {
        Stop::fail(failure)
    }
}

pub(crate) type Step = Result<(), Stop>;

pub(crate) fn outcome(step: Step) -> Outcome {
    match step {
        Ok(()) => Outcome::Pass,
        Err(Stop::Fail(f)) => Outcome::Fail(*f),
        Err(Stop::Skip(m)) => Outcome::Skip(m),
        Err(Stop::NotServed) => Outcome::NotServed,
    }
}

/// Fails the check with a formatted message unless the condition holds.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            return Err($crate::failure::Stop::fail(format!($($msg)+)));
        }
    };
}

/// Fails the check unless the two values are equal, showing both.
macro_rules! ensure_eq {
    ($got:expr, $want:expr, $($msg:tt)+) => {{
        let (got, want) = (&$got, &$want);
        if got != want {
            return Err($crate::failure::Stop::fail(format!(
                "{}: expected {:?}, got {:?}",
                format!($($msg)+),
                want,
                got
            )));
        }
    }};
}

pub(crate) use {ensure, ensure_eq};

/// The usual cause of a lexical recall that missed hits, to end a
/// message: empty unless `profile` is lexical and some key of `want` is
/// not in `got`.
pub(crate) fn missed_hits_cause(
    profile: RecallProfile,
    want: &[&str],
    got: &[&str],
) -> &'static str {
    if profile != RecallProfile::Lexical || want.iter().all(|w| got.contains(w)) {
        return "";
    }
    " (a lexical recall missed entries holding a query word: the usual causes are words split \
     only at spaces, so that `near(` or `scope,` is not the word `near` or `scope` (split as the \
     contract does: tinymemory.protocol.words, tinymemory_api::text::words), and a BM25 score \
     of 0 or below used as the test for \"shares a word\"; BM25's IDF is 0 or negative for a \
     word held by half the entries of a namespace or more, so a popular BM25 library scores a \
     match -0.27 in a one-entry namespace. Test whether the entry holds a query word, not the \
     sign of its score)"
}

/// Fails the check unless the hit keys `got` are `want`, as
/// [`ensure_eq`] shows them, ending the message with
/// [`missed_hits_cause`].
pub(crate) fn ensure_hits(
    profile: RecallProfile,
    got: &[&str],
    want: &[&str],
    what: impl std::fmt::Display,
) -> Step {
    if got == want {
        return Ok(());
    }
    Err(Stop::fail(format!(
        "{what}: expected {want:?}, got {got:?}{}",
        missed_hits_cause(profile, want, got)
    )))
}

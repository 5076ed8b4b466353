//! The error type check bodies use internally, turned into an [`Outcome`].

use tinymemory_api::MemoryError;

use crate::Outcome;

/// Why a check body stopped early.
pub(crate) enum Stop {
    Fail(String),
    Skip(String),
}

/// Driver errors inside a check body fail the check, naming the error.
impl From<MemoryError> for Stop {
    fn from(e: MemoryError) -> Self {
        Stop::Fail(format!("unexpected driver error: {e}"))
    }
}

pub(crate) type Step = Result<(), Stop>;

pub(crate) fn outcome(step: Step) -> Outcome {
    match step {
        Ok(()) => Outcome::Pass,
        Err(Stop::Fail(m)) => Outcome::fail(m),
        Err(Stop::Skip(m)) => Outcome::Skip(m),
    }
}

/// Fails the check with a formatted message unless the condition holds.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            return Err($crate::failure::Stop::Fail(format!($($msg)+)));
        }
    };
}

/// Fails the check unless the two values are equal, showing both.
macro_rules! ensure_eq {
    ($got:expr, $want:expr, $($msg:tt)+) => {{
        let (got, want) = (&$got, &$want);
        if got != want {
            return Err($crate::failure::Stop::Fail(format!(
                "{}: expected {:?}, got {:?}",
                format!($($msg)+),
                want,
                got
            )));
        }
    }};
}

pub(crate) use {ensure, ensure_eq};

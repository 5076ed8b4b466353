//! What an injected fault does.

use tinymemory_api::MemoryError;

/// What [`Faults`](crate::Faults) does instead of forwarding a call.
///
/// [`MemoryError`] is not `Clone` (it may carry a boxed source), so a fault
/// is specified by this small clonable description and a fresh error is
/// built each time it strikes. The errors built carry no source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// Return [`MemoryError::Invalid`] with this rule and message.
    Invalid {
        /// The rule id carried by the error.
        rule: &'static str,
        /// The error message.
        message: String,
    },
    /// Return [`MemoryError::Unavailable`] with this message.
    Unavailable {
        /// The error message.
        message: String,
    },
    /// Return [`MemoryError::Backend`] with this message.
    Backend {
        /// The error message.
        message: String,
    },
    /// Panic with this message instead of returning, like a driver with a
    /// bug; tests that a host (or the conformance runner) survives it.
    Panic {
        /// The panic message.
        message: String,
    },
}

impl FaultKind {
    /// [`FaultKind::Invalid`].
    pub fn invalid(rule: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid {
            rule,
            message: message.into(),
        }
    }

    /// [`FaultKind::Unavailable`].
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::Unavailable {
            message: message.into(),
        }
    }

    /// [`FaultKind::Backend`].
    pub fn backend(message: impl Into<String>) -> Self {
        Self::Backend {
            message: message.into(),
        }
    }

    /// [`FaultKind::Panic`].
    pub fn panic(message: impl Into<String>) -> Self {
        Self::Panic {
            message: message.into(),
        }
    }

    /// The error this fault returns, or `None` for [`FaultKind::Panic`].
    #[must_use]
    pub fn to_error(&self) -> Option<MemoryError> {
        match self {
            Self::Invalid { rule, message } => Some(MemoryError::invalid(rule, message.clone())),
            Self::Unavailable { message } => Some(MemoryError::unavailable(message.clone())),
            Self::Backend { message } => Some(MemoryError::fault(message.clone())),
            Self::Panic { .. } => None,
        }
    }

    /// The error to return, panicking for [`FaultKind::Panic`].
    pub(crate) fn strike(&self) -> MemoryError {
        match self {
            Self::Panic { message } => panic!("{message}"),
            other => other
                .to_error()
                .unwrap_or_else(|| MemoryError::fault("injected fault")),
        }
    }
}

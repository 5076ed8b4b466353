//! The one error type of the contract.

use std::error::Error as StdError;

/// A boxed error source, as carried by [`MemoryError::Unavailable`] and
/// [`MemoryError::Backend`].
pub type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// Every failure a [`MemoryProvider`](crate::MemoryProvider) may return.
///
/// Bad input is always [`MemoryError::Invalid`], never a panic. Match on the
/// variant and on [`MemoryError::rule`], never on the message text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MemoryError {
    /// The caller's input broke a rule of the contract; retrying the same
    /// input fails the same way.
    #[error("invalid input ({rule}): {message}")]
    Invalid {
        /// The id of the rule broken, one of the constants in
        /// [`rules`](crate::rules) or a crate's own documented id.
        rule: &'static str,
        /// What was wrong with this particular input.
        message: String,
    },
    /// A transient failure (connection lost, timeout, lock contention that
    /// outlived its budget); retrying may succeed.
    #[error("unavailable: {message}")]
    Unavailable {
        /// What could not be reached.
        message: String,
        /// The underlying error, if any.
        #[source]
        source: Option<BoxError>,
    },
    /// The engine failed in a way a retry will not fix (corruption, a schema
    /// from an unknown version, a driver fault).
    #[error("backend failure: {message}")]
    Backend {
        /// What failed.
        message: String,
        /// The underlying error, if any.
        #[source]
        source: Option<BoxError>,
    },
    /// The driver does not provide an optional family of methods (an exec
    /// driver whose program lacks the portability messages). The
    /// conformance suite skips that family's checks with this message
    /// instead of failing them.
    #[error("unsupported ({family}): {message}")]
    Unsupported {
        /// The family, such as [`portability::FAMILY`](crate::portability::FAMILY).
        family: &'static str,
        /// What is missing.
        message: String,
    },
}

impl MemoryError {
    /// The error's message and each of its sources after it, joined by
    /// `": "`, in one line (an exec driver's stderr comes as the message of
    /// a backend error's source): what a comparison or a remedy reads.
    #[must_use]
    pub fn with_sources(&self) -> String {
        let mut text = self.to_string();
        let mut source = std::error::Error::source(self);
        while let Some(s) = source {
            text.push_str(": ");
            text.push_str(&s.to_string());
            source = s.source();
        }
        text
    }

    /// An [`MemoryError::Invalid`] for `rule` with `message`.
    pub fn invalid(rule: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid {
            rule,
            message: message.into(),
        }
    }

    /// An [`MemoryError::Unavailable`] with no source.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::Unavailable {
            message: message.into(),
            source: None,
        }
    }

    /// A [`MemoryError::Backend`] wrapping `source`.
    pub fn backend(message: impl Into<String>, source: impl Into<BoxError>) -> Self {
        Self::Backend {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    /// A [`MemoryError::Backend`] with no source, for driver faults.
    pub fn fault(message: impl Into<String>) -> Self {
        Self::Backend {
            message: message.into(),
            source: None,
        }
    }

    /// An [`MemoryError::Unsupported`] for `family`.
    pub fn unsupported(family: &'static str, message: impl Into<String>) -> Self {
        Self::Unsupported {
            family,
            message: message.into(),
        }
    }

    /// `true` for [`MemoryError::Unsupported`].
    #[must_use]
    pub fn is_unsupported(&self) -> bool {
        matches!(self, Self::Unsupported { .. })
    }

    /// The rule id when this is [`MemoryError::Invalid`], else `None`.
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Self::Invalid { rule, .. } => Some(rule),
            _ => None,
        }
    }

    /// `true` for [`MemoryError::Invalid`].
    #[must_use]
    pub fn is_invalid(&self) -> bool {
        matches!(self, Self::Invalid { .. })
    }

    /// `true` for [`MemoryError::Unavailable`].
    #[must_use]
    pub fn is_unavailable(&self) -> bool {
        matches!(self, Self::Unavailable { .. })
    }

    /// The stable lowercase name of the variant: `invalid`, `unavailable`,
    /// `backend` or `unsupported`. Reports and wire protocols use it.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Invalid { .. } => "invalid",
            Self::Unavailable { .. } => "unavailable",
            Self::Backend { .. } => "backend",
            Self::Unsupported { .. } => "unsupported",
        }
    }
}

/// Equality compares variant, rule and message; sources are ignored, since
/// boxed errors do not compare. Meant for tests.
impl PartialEq for MemoryError {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Self::Invalid {
                    rule: a,
                    message: m,
                },
                Self::Invalid {
                    rule: b,
                    message: n,
                },
            ) => a == b && m == n,
            (Self::Unavailable { message: m, .. }, Self::Unavailable { message: n, .. })
            | (Self::Backend { message: m, .. }, Self::Backend { message: n, .. }) => m == n,
            (
                Self::Unsupported {
                    family: a,
                    message: m,
                },
                Self::Unsupported {
                    family: b,
                    message: n,
                },
            ) => a == b && m == n,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_rule() {
        let e = MemoryError::invalid("namespace.empty", "namespace must not be empty");
        assert_eq!(
            e.to_string(),
            "invalid input (namespace.empty): namespace must not be empty"
        );
        assert_eq!(e.rule(), Some("namespace.empty"));
        assert_eq!(e.kind(), "invalid");
    }

    #[test]
    fn backend_keeps_its_source() {
        let io = std::io::Error::other("disk on fire");
        let e = MemoryError::backend("failed to write", io);
        assert_eq!(e.kind(), "backend");
        assert_eq!(e.rule(), None);
        assert_eq!(
            std::error::Error::source(&e).map(ToString::to_string),
            Some("disk on fire".to_owned())
        );
    }
}

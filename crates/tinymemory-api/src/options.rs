//! Recall options.

use serde::{Deserialize, Serialize};

use crate::{rules, MemoryCategory, MemoryError};

/// Filters for [`MemoryProvider::recall`](crate::MemoryProvider::recall).
///
/// The default searches [`GLOBAL_NAMESPACE`](crate::GLOBAL_NAMESPACE) with no
/// other filter.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RecallOptions {
    /// The one namespace to search; `None` means
    /// [`GLOBAL_NAMESPACE`](crate::GLOBAL_NAMESPACE), never "all namespaces".
    pub namespace: Option<String>,
    /// Only entries of this category.
    pub category: Option<MemoryCategory>,
    /// Only entries of this session.
    pub session_id: Option<String>,
    /// Drop hits scoring below this; hits without a score are dropped too.
    pub min_score: Option<f64>,
}

impl RecallOptions {
    /// Options pinned to `namespace`, no other filter.
    pub fn in_namespace(namespace: impl Into<String>) -> Self {
        Self {
            namespace: Some(namespace.into()),
            ..Self::default()
        }
    }

    /// The namespace to search: the one given, else `global`.
    #[must_use]
    pub fn effective_namespace(&self) -> &str {
        self.namespace.as_deref().unwrap_or(crate::GLOBAL_NAMESPACE)
    }

    /// `true` when a hit with `score` passes [`RecallOptions::min_score`].
    #[must_use]
    pub fn admits(&self, score: Option<f64>) -> bool {
        match (self.min_score, score) {
            (None, _) => true,
            (Some(min), Some(s)) => s >= min,
            (Some(_), None) => false,
        }
    }

    /// Checks the options themselves: `min_score` must be finite.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] with [`rules::MIN_SCORE_NOT_FINITE`].
    pub fn validate(&self) -> Result<(), MemoryError> {
        match self.min_score {
            Some(m) if !m.is_finite() => Err(MemoryError::invalid(
                rules::MIN_SCORE_NOT_FINITE,
                format!("min_score must be finite, got {m}"),
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_means_global() {
        assert_eq!(RecallOptions::default().effective_namespace(), "global");
        assert_eq!(
            RecallOptions::in_namespace("learning:x").effective_namespace(),
            "learning:x"
        );
    }

    #[test]
    fn min_score_drops_unscored_hits() {
        let o = RecallOptions {
            min_score: Some(0.5),
            ..RecallOptions::default()
        };
        assert!(o.admits(Some(0.5)));
        assert!(!o.admits(Some(0.49)));
        assert!(!o.admits(None));
        assert!(RecallOptions::default().admits(None));
        assert!(o.validate().is_ok());
        let nan = RecallOptions {
            min_score: Some(f64::NAN),
            ..RecallOptions::default()
        };
        assert_eq!(
            nan.validate().unwrap_err().rule(),
            Some(rules::MIN_SCORE_NOT_FINITE)
        );
    }

    #[test]
    fn serde_defaults_missing_fields() {
        let o: RecallOptions = serde_json::from_str(r#"{"namespace":"global"}"#).unwrap();
        assert_eq!(o, RecallOptions::in_namespace("global"));
    }
}

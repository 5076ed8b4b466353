//! One call of a model sequence.

use serde::{Deserialize, Serialize};
use tinymemory_api::{MemoryCategory, MemorySection, MemoryTaint};

/// One driver call of a differential sequence, with every argument.
///
/// Serialised as a JSON object tagged by `op` (`store`, `get`, `forget`,
/// `list`, `namespaces`, `recall`, `scopes`, `across_section`), the form
/// regression files use; optional arguments may be left out. Non-exhaustive:
/// a later version may compare more calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Op {
    /// `store(namespace, key, content, category, session_id, taint)`.
    Store {
        /// The namespace.
        namespace: String,
        /// The key.
        key: String,
        /// The content.
        content: String,
        /// The category (default `core`).
        #[serde(default)]
        category: MemoryCategory,
        /// The session (default none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_id: Option<String>,
        /// The taint (default `internal`).
        #[serde(default)]
        taint: MemoryTaint,
    },
    /// `get(namespace, key)`.
    Get {
        /// The namespace.
        namespace: String,
        /// The key.
        key: String,
    },
    /// `forget(namespace, key)`.
    Forget {
        /// The namespace.
        namespace: String,
        /// The key.
        key: String,
    },
    /// `list(namespace, category, session_id)`.
    List {
        /// The namespace filter (`None`: every namespace).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namespace: Option<String>,
        /// The category filter.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<MemoryCategory>,
        /// The session filter.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_id: Option<String>,
    },
    /// `namespaces()`.
    Namespaces,
    /// `recall(query, limit, opts)` with `opts.min_score` unset.
    Recall {
        /// The query.
        query: String,
        /// The limit.
        limit: usize,
        /// `opts.namespace` (`None`: `global`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namespace: Option<String>,
        /// `opts.category`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<MemoryCategory>,
        /// `opts.session_id`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_id: Option<String>,
    },
    /// `Sections::section(section).scopes()`.
    Scopes {
        /// The section, by wire prefix.
        section: MemorySection,
    },
    /// `SectionRecall::with_cap(cap).across_section(section, query, limit,
    /// default options)`.
    AcrossSection {
        /// The section, by wire prefix.
        section: MemorySection,
        /// The query.
        query: String,
        /// The limit.
        limit: usize,
        /// The namespace cap.
        cap: usize,
    },
}

impl Op {
    /// A `store` of `content` at `(namespace, key)` with category `core`,
    /// no session and taint `internal`.
    pub fn store(
        namespace: impl Into<String>,
        key: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self::Store {
            namespace: namespace.into(),
            key: key.into(),
            content: content.into(),
            category: MemoryCategory::Core,
            session_id: None,
            taint: MemoryTaint::Internal,
        }
    }

    /// The method name: `store`, `get`, ..., `across_section`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::Store { .. } => "store",
            Self::Get { .. } => "get",
            Self::Forget { .. } => "forget",
            Self::List { .. } => "list",
            Self::Namespaces => "namespaces",
            Self::Recall { .. } => "recall",
            Self::Scopes { .. } => "scopes",
            Self::AcrossSection { .. } => "across_section",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_form_is_tagged_and_defaults_optional_arguments() {
        let op: Op = serde_json::from_str(
            r#"{"op": "store", "namespace": "learning:a", "key": "k1", "content": "comet"}"#,
        )
        .unwrap();
        assert_eq!(op, Op::store("learning:a", "k1", "comet"));
        assert_eq!(
            serde_json::to_string(&Op::Namespaces).unwrap(),
            r#"{"op":"namespaces"}"#
        );
        let across = Op::AcrossSection {
            section: MemorySection::Custom("notes".into()),
            query: "comet".into(),
            limit: 3,
            cap: 2,
        };
        let json = serde_json::to_string(&across).unwrap();
        assert_eq!(
            json,
            r#"{"op":"across_section","section":"notes","query":"comet","limit":3,"cap":2}"#
        );
        assert_eq!(serde_json::from_str::<Op>(&json).unwrap(), across);
        assert!(serde_json::from_str::<Op>(
            r#"{"op": "get", "namespace": "a", "key": "k", "extra": 1}"#
        )
        .is_err());
        assert!(serde_json::from_str::<Op>(r#"{"op": "truncate"}"#).is_err());
    }
}

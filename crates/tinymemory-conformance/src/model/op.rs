//! One call of a model sequence.

use serde::{Deserialize, Serialize};
use tinymemory_api::{Call, MemoryCategory, MemorySection, MemoryTaint, Method};

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

/// A driver call the model does not compare, so it has no [`Op`]: one of
/// the optional batch and portability methods, or a recall with
/// `min_score` set (the model's recalls compare rankings without a
/// threshold).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("`{method}` {why}: no model operation carries it")]
pub struct NotAnOp {
    /// The method called.
    pub method: Method,
    why: &'static str,
}

/// The operation of a driver call, every argument copied: how a recorded
/// call (a `tinymemory_doubles::Recording`'s, through
/// `tinymemory_api::Call`) becomes a step of a regression file.
impl TryFrom<Call<'_>> for Op {
    type Error = NotAnOp;

    fn try_from(call: Call<'_>) -> Result<Self, NotAnOp> {
        let not = |why| NotAnOp {
            method: call.method(),
            why,
        };
        Ok(match call {
            Call::Store {
                namespace,
                key,
                content,
                category,
                session_id,
                taint,
            } => Self::Store {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                content: content.to_owned(),
                category: category.clone(),
                session_id: session_id.map(str::to_owned),
                taint,
            },
            Call::Get { namespace, key } => Self::Get {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            },
            Call::Forget { namespace, key } => Self::Forget {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            },
            Call::List {
                namespace,
                category,
                session_id,
            } => Self::List {
                namespace: namespace.map(str::to_owned),
                category: category.cloned(),
                session_id: session_id.map(str::to_owned),
            },
            Call::Namespaces => Self::Namespaces,
            Call::Recall { opts, .. } if opts.min_score.is_some() => {
                return Err(not("with a min_score"))
            }
            Call::Recall { query, limit, opts } => Self::Recall {
                query: query.to_owned(),
                limit,
                namespace: opts.namespace.clone(),
                category: opts.category.clone(),
                session_id: opts.session_id.clone(),
            },
            Call::StoreMany { .. }
            | Call::ExportPage { .. }
            | Call::Import { .. }
            | Call::Interface { .. } => return Err(not("is not compared with the model")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_becomes_its_op_unless_the_model_does_not_compare_it() {
        use tinymemory_api::{NewEntry, RecallOptions};

        let core = MemoryCategory::Core;
        let store = Call::Store {
            namespace: "learning:a",
            key: "k1",
            content: "comet",
            category: &core,
            session_id: None,
            taint: MemoryTaint::Internal,
        };
        assert_eq!(
            Op::try_from(store),
            Ok(Op::store("learning:a", "k1", "comet"))
        );
        let opts = RecallOptions {
            category: Some(MemoryCategory::Daily),
            ..RecallOptions::in_namespace("learning:a")
        };
        assert_eq!(
            Op::try_from(Call::Recall {
                query: "comet",
                limit: 3,
                opts: &opts
            }),
            Ok(Op::Recall {
                query: "comet".into(),
                limit: 3,
                namespace: Some("learning:a".into()),
                category: Some(MemoryCategory::Daily),
                session_id: None,
            })
        );
        let thresholded = RecallOptions {
            min_score: Some(0.5),
            ..RecallOptions::default()
        };
        let refused = Op::try_from(Call::Recall {
            query: "comet",
            limit: 3,
            opts: &thresholded,
        })
        .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "`recall` with a min_score: no model operation carries it"
        );
        let batch = [NewEntry::new("global", "k", "x")];
        assert_eq!(
            Op::try_from(Call::StoreMany { entries: &batch })
                .unwrap_err()
                .to_string(),
            "`store_many` is not compared with the model: no model operation carries it"
        );
        assert_eq!(Op::try_from(Call::Namespaces), Ok(Op::Namespaces));
    }

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

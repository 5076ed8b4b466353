//! One call of a [`MemoryProvider`](crate::MemoryProvider) method as a
//! value: [`Call`] (the arguments, borrowed), [`Method`] (which method) and
//! [`Answer`] (the result, borrowed).
//!
//! Every type elsewhere that describes a call (a recording's owned call,
//! the exec protocol's request, the model's operation, a meter's entry) is
//! made from a [`Call`], so the nine storage methods and their arguments
//! are written out here once. [`Hooked`](crate::Hooked) builds one per
//! call and hands it to its [`CallHook`](crate::CallHook).

use std::fmt;

use crate::batch::NewEntry;
use crate::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use crate::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryTaint, NamespaceSummary, RecallOptions,
};

/// The storage method a [`Call`] goes to. `driver_id` is not a storage
/// call and has no variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// `store`.
    Store,
    /// `get`.
    Get,
    /// `forget`.
    Forget,
    /// `list`.
    List,
    /// `namespaces`.
    Namespaces,
    /// `recall`.
    Recall,
    /// `store_many`.
    StoreMany,
    /// `export_page`.
    ExportPage,
    /// `import`.
    Import,
    /// `interface`.
    Interface,
}

impl Method {
    /// Every method, in the trait's order.
    pub const ALL: [Self; 10] = [
        Self::Store,
        Self::Get,
        Self::Forget,
        Self::List,
        Self::Namespaces,
        Self::Recall,
        Self::StoreMany,
        Self::ExportPage,
        Self::Import,
        Self::Interface,
    ];

    /// The method's name as written in the trait and as the exec protocol's
    /// `op` field carries it: `store`, `get`, `forget`, `list`,
    /// `namespaces`, `recall`, `store_many`, `export_page`, `import` or
    /// `interface`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Store => "store",
            Self::Get => "get",
            Self::Forget => "forget",
            Self::List => "list",
            Self::Namespaces => "namespaces",
            Self::Recall => "recall",
            Self::StoreMany => "store_many",
            Self::ExportPage => "export_page",
            Self::Import => "import",
            Self::Interface => "interface",
        }
    }
}

/// Renders [`Method::as_str`].
impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One call of a storage method, every argument borrowed as the method
/// received it: nothing is validated or normalised (a recall with
/// `namespace: None` carries `None`, not `global`).
///
/// `store` takes its category by value; the call borrows it, so a
/// decorator that forwards the call clones the category (free for the
/// built-in categories, one allocation for `custom:<text>`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Call<'a> {
    /// `store(namespace, key, content, category, session_id, taint)`.
    Store {
        /// The namespace passed.
        namespace: &'a str,
        /// The key passed.
        key: &'a str,
        /// The content passed.
        content: &'a str,
        /// The category passed.
        category: &'a MemoryCategory,
        /// The session passed.
        session_id: Option<&'a str>,
        /// The taint passed.
        taint: MemoryTaint,
    },
    /// `get(namespace, key)`.
    Get {
        /// The namespace passed.
        namespace: &'a str,
        /// The key passed.
        key: &'a str,
    },
    /// `forget(namespace, key)`.
    Forget {
        /// The namespace passed.
        namespace: &'a str,
        /// The key passed.
        key: &'a str,
    },
    /// `list(namespace, category, session_id)`.
    List {
        /// The namespace filter passed (`None`: every namespace).
        namespace: Option<&'a str>,
        /// The category filter passed.
        category: Option<&'a MemoryCategory>,
        /// The session filter passed.
        session_id: Option<&'a str>,
    },
    /// `namespaces()`.
    Namespaces,
    /// `recall(query, limit, opts)`.
    Recall {
        /// The query passed.
        query: &'a str,
        /// The limit passed.
        limit: usize,
        /// The options passed.
        opts: &'a RecallOptions,
    },
    /// `store_many(entries)`: the whole batch, in order.
    StoreMany {
        /// The entries passed.
        entries: &'a [NewEntry],
    },
    /// `export_page(cursor, limit)`.
    ExportPage {
        /// The cursor passed (`None`: the start of the export).
        cursor: Option<&'a ExportCursor>,
        /// The limit passed.
        limit: usize,
    },
    /// `import(records)`: the whole batch, in order.
    Import {
        /// The records passed.
        records: &'a [MemoryRecord],
    },
    /// `interface(scenario)`: one scenario of a framework interface, its
    /// [`Scenario`](crate::interface::Scenario)'s fields.
    Interface {
        /// The interface asked (`langchain.vectorstore`).
        interface: &'a str,
        /// The check whose scenario it is.
        check: &'a str,
        /// Through the interface's async methods.
        use_async: bool,
        /// The inputs the suite chose for the scenario (a JSON object).
        inputs: &'a serde_json::Value,
    },
}

impl<'a> Call<'a> {
    /// The method called.
    #[must_use]
    pub fn method(&self) -> Method {
        match self {
            Self::Store { .. } => Method::Store,
            Self::Get { .. } => Method::Get,
            Self::Forget { .. } => Method::Forget,
            Self::List { .. } => Method::List,
            Self::Namespaces => Method::Namespaces,
            Self::Recall { .. } => Method::Recall,
            Self::StoreMany { .. } => Method::StoreMany,
            Self::ExportPage { .. } => Method::ExportPage,
            Self::Import { .. } => Method::Import,
            Self::Interface { .. } => Method::Interface,
        }
    }

    /// The namespace argument as passed: `Some` for `store`, `get` and
    /// `forget`; the filter for `list`; `opts.namespace` for `recall` (so
    /// `None` for an unpinned recall, which the contract reads as
    /// `global`); `None` for `namespaces`, `export_page`, and for
    /// `store_many` and `import`, whose batches may name several
    /// namespaces (see [`Call::addresses`]).
    #[must_use]
    pub fn namespace(&self) -> Option<&'a str> {
        match *self {
            Self::Store { namespace, .. }
            | Self::Get { namespace, .. }
            | Self::Forget { namespace, .. } => Some(namespace),
            Self::List { namespace, .. } => namespace,
            Self::Recall { opts, .. } => opts.namespace.as_deref(),
            Self::Namespaces
            | Self::StoreMany { .. }
            | Self::ExportPage { .. }
            | Self::Import { .. }
            | Self::Interface { .. } => None,
        }
    }

    /// Whether the call is addressed to `namespace` (compared byte for
    /// byte): `store`, `get` or `forget` on it, `list` filtered to it, a
    /// `recall` whose effective namespace it is (an unpinned recall is
    /// addressed to `global`), a `store_many` or `import` with an entry or
    /// record in it. `namespaces()`, `list(None, ..)` and `export_page` are
    /// addressed to no namespace.
    #[must_use]
    pub fn addresses(&self, namespace: &str) -> bool {
        match self {
            Self::Recall { opts, .. } => opts.effective_namespace() == namespace,
            Self::StoreMany { entries } => entries.iter().any(|e| e.namespace == namespace),
            Self::Import { records } => records.iter().any(|r| r.namespace == namespace),
            _ => self.namespace() == Some(namespace),
        }
    }

    /// The key of `store`, `get` and `forget`; `None` for the others.
    #[must_use]
    pub fn key(&self) -> Option<&'a str> {
        match *self {
            Self::Store { key, .. } | Self::Get { key, .. } | Self::Forget { key, .. } => Some(key),
            _ => None,
        }
    }

    /// The limit of `recall` and `export_page`; `None` for the others.
    #[must_use]
    pub fn limit(&self) -> Option<usize> {
        match self {
            Self::Recall { limit, .. } | Self::ExportPage { limit, .. } => Some(*limit),
            _ => None,
        }
    }

    /// The number of entries of a `store_many` or records of an `import`;
    /// `None` for the others.
    #[must_use]
    pub fn batch_len(&self) -> Option<usize> {
        match self {
            Self::StoreMany { entries } => Some(entries.len()),
            Self::Import { records } => Some(records.len()),
            _ => None,
        }
    }
}

/// The result of one [`Call`], borrowed: one variant per method, holding
/// the `Result` the method returns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Answer<'a> {
    /// `store`'s result.
    Store(&'a Result<(), MemoryError>),
    /// `get`'s result.
    Get(&'a Result<Option<MemoryEntry>, MemoryError>),
    /// `forget`'s result.
    Forget(&'a Result<bool, MemoryError>),
    /// `list`'s result.
    List(&'a Result<Vec<MemoryEntry>, MemoryError>),
    /// `namespaces`'s result.
    Namespaces(&'a Result<Vec<NamespaceSummary>, MemoryError>),
    /// `recall`'s result.
    Recall(&'a Result<Vec<MemoryEntry>, MemoryError>),
    /// `store_many`'s result.
    StoreMany(&'a Result<(), MemoryError>),
    /// `export_page`'s result.
    ExportPage(&'a Result<ExportPage, MemoryError>),
    /// `import`'s result.
    Import(&'a Result<ImportOutcome, MemoryError>),
    /// `interface`'s result: the observation's JSON text.
    Interface(&'a Result<String, MemoryError>),
}

impl Answer<'_> {
    /// The method answered.
    #[must_use]
    pub fn method(&self) -> Method {
        match self {
            Self::Store(_) => Method::Store,
            Self::Get(_) => Method::Get,
            Self::Forget(_) => Method::Forget,
            Self::List(_) => Method::List,
            Self::Namespaces(_) => Method::Namespaces,
            Self::Recall(_) => Method::Recall,
            Self::StoreMany(_) => Method::StoreMany,
            Self::ExportPage(_) => Method::ExportPage,
            Self::Import(_) => Method::Import,
            Self::Interface(_) => Method::Interface,
        }
    }

    /// The error, when the call failed.
    #[must_use]
    pub fn error(&self) -> Option<&MemoryError> {
        match self {
            Self::Store(r) | Self::StoreMany(r) => r.as_ref().err(),
            Self::Get(r) => r.as_ref().err(),
            Self::Forget(r) => r.as_ref().err(),
            Self::List(r) | Self::Recall(r) => r.as_ref().err(),
            Self::Namespaces(r) => r.as_ref().err(),
            Self::ExportPage(r) => r.as_ref().err(),
            Self::Import(r) => r.as_ref().err(),
            Self::Interface(r) => r.as_ref().err(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_names_its_method_namespace_key_limit_and_batch() {
        let pinned = RecallOptions::in_namespace("learning:a");
        let unpinned = RecallOptions::default();
        let entries = [
            NewEntry::new("learning:a", "k1", "x"),
            NewEntry::new("learning:b", "k2", "y"),
        ];
        let core = MemoryCategory::Core;
        let store = Call::Store {
            namespace: "learning:a",
            key: "k1",
            content: "comet",
            category: &core,
            session_id: None,
            taint: MemoryTaint::Internal,
        };
        assert_eq!(store.method(), Method::Store);
        assert_eq!(
            (store.namespace(), store.key()),
            (Some("learning:a"), Some("k1"))
        );
        assert_eq!((store.limit(), store.batch_len()), (None, None));

        let recall = Call::Recall {
            query: "comet",
            limit: 5,
            opts: &unpinned,
        };
        assert_eq!(recall.namespace(), None, "as passed, not normalised");
        assert!(recall.addresses("global"), "an unpinned recall is global's");
        assert_eq!(recall.limit(), Some(5));
        let pinned_recall = Call::Recall {
            query: "comet",
            limit: 5,
            opts: &pinned,
        };
        assert_eq!(pinned_recall.namespace(), Some("learning:a"));
        assert!(!pinned_recall.addresses("global"));

        let batch = Call::StoreMany { entries: &entries };
        assert_eq!((batch.namespace(), batch.batch_len()), (None, Some(2)));
        assert!(batch.addresses("learning:b"));
        assert!(!batch.addresses("learning:c"));

        let list_all = Call::List {
            namespace: None,
            category: None,
            session_id: None,
        };
        assert!(!list_all.addresses("global"));
        assert!(!Call::Namespaces.addresses("global"));
        assert_eq!(
            Call::ExportPage {
                cursor: None,
                limit: usize::MAX
            }
            .limit(),
            Some(usize::MAX)
        );
    }

    #[test]
    fn method_names_are_the_trait_s_and_every_method_is_listed_once() {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.as_str()).collect();
        assert_eq!(
            names,
            [
                "store",
                "get",
                "forget",
                "list",
                "namespaces",
                "recall",
                "store_many",
                "export_page",
                "import",
                "interface"
            ]
        );
        assert_eq!(Method::StoreMany.to_string(), "store_many");
    }

    #[test]
    fn an_answer_names_its_method_and_error() {
        let failed: Result<bool, MemoryError> = Err(MemoryError::fault("disk"));
        let answer = Answer::Forget(&failed);
        assert_eq!(answer.method(), Method::Forget);
        assert_eq!(answer.error(), Some(&MemoryError::fault("disk")));
        let ok: Result<Vec<NamespaceSummary>, MemoryError> = Ok(Vec::new());
        assert_eq!(Answer::Namespaces(&ok).error(), None);
    }
}

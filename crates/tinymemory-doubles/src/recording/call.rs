//! One recorded call.

use tinymemory_api::portability::{ExportCursor, MemoryRecord};
pub use tinymemory_api::Method;
use tinymemory_api::{MemoryCategory, MemoryTaint, NewEntry, RecallOptions};

/// One call as the wrapped provider received it: every argument, owned, byte
/// for byte ([`tinymemory_api::Call`], owned: `Call::from(&call)`).
/// Nothing is normalised: a recall with `namespace: None` is recorded with
/// `None`, not `global`.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// `store(namespace, key, content, category, session_id, taint)`.
    Store {
        /// The namespace passed.
        namespace: String,
        /// The key passed.
        key: String,
        /// The content passed.
        content: String,
        /// The category passed.
        category: MemoryCategory,
        /// The session passed.
        session_id: Option<String>,
        /// The taint passed.
        taint: MemoryTaint,
    },
    /// `get(namespace, key)`.
    Get {
        /// The namespace passed.
        namespace: String,
        /// The key passed.
        key: String,
    },
    /// `forget(namespace, key)`.
    Forget {
        /// The namespace passed.
        namespace: String,
        /// The key passed.
        key: String,
    },
    /// `list(namespace, category, session_id)`.
    List {
        /// The namespace filter passed.
        namespace: Option<String>,
        /// The category filter passed.
        category: Option<MemoryCategory>,
        /// The session filter passed.
        session_id: Option<String>,
    },
    /// `namespaces()`.
    Namespaces,
    /// `recall(query, limit, opts)`.
    Recall {
        /// The query passed.
        query: String,
        /// The limit passed.
        limit: usize,
        /// The options passed.
        opts: RecallOptions,
    },
    /// `store_many(entries)`: the whole batch, in order.
    StoreMany {
        /// The entries passed.
        entries: Vec<NewEntry>,
    },
    /// `export_page(cursor, limit)`.
    ExportPage {
        /// The cursor passed (`None`: the start of the export).
        cursor: Option<ExportCursor>,
        /// The limit passed.
        limit: usize,
    },
    /// `import(records)`: the whole batch, in order.
    Import {
        /// The records passed.
        records: Vec<MemoryRecord>,
    },
    /// `interface(scenario)`: the scenario's fields.
    Interface {
        /// The interface asked.
        interface: String,
        /// The check whose scenario it is.
        check: String,
        /// Through the interface's async methods.
        use_async: bool,
        /// The inputs the suite chose for the scenario.
        inputs: serde_json::Value,
    },
}

/// The owned copy of a borrowed call: every argument cloned.
impl From<&tinymemory_api::Call<'_>> for Call {
    fn from(call: &tinymemory_api::Call<'_>) -> Self {
        use tinymemory_api::Call as Borrowed;
        match *call {
            Borrowed::Store {
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
            Borrowed::Get { namespace, key } => Self::Get {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            },
            Borrowed::Forget { namespace, key } => Self::Forget {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            },
            Borrowed::List {
                namespace,
                category,
                session_id,
            } => Self::List {
                namespace: namespace.map(str::to_owned),
                category: category.cloned(),
                session_id: session_id.map(str::to_owned),
            },
            Borrowed::Namespaces => Self::Namespaces,
            Borrowed::Recall { query, limit, opts } => Self::Recall {
                query: query.to_owned(),
                limit,
                opts: opts.clone(),
            },
            Borrowed::StoreMany { entries } => Self::StoreMany {
                entries: entries.to_vec(),
            },
            Borrowed::ExportPage { cursor, limit } => Self::ExportPage {
                cursor: cursor.cloned(),
                limit,
            },
            Borrowed::Import { records } => Self::Import {
                records: records.to_vec(),
            },
            Borrowed::Interface {
                interface,
                check,
                use_async,
                inputs,
            } => Self::Interface {
                interface: interface.to_owned(),
                check: check.to_owned(),
                use_async,
                inputs: inputs.clone(),
            },
        }
    }
}

impl Call {
    /// The call, borrowed: what a [`CallHook`](tinymemory_api::CallHook)
    /// saw.
    #[must_use]
    pub fn as_call(&self) -> tinymemory_api::Call<'_> {
        use tinymemory_api::Call as Borrowed;
        match self {
            Self::Store {
                namespace,
                key,
                content,
                category,
                session_id,
                taint,
            } => Borrowed::Store {
                namespace,
                key,
                content,
                category,
                session_id: session_id.as_deref(),
                taint: *taint,
            },
            Self::Get { namespace, key } => Borrowed::Get { namespace, key },
            Self::Forget { namespace, key } => Borrowed::Forget { namespace, key },
            Self::List {
                namespace,
                category,
                session_id,
            } => Borrowed::List {
                namespace: namespace.as_deref(),
                category: category.as_ref(),
                session_id: session_id.as_deref(),
            },
            Self::Namespaces => Borrowed::Namespaces,
            Self::Recall { query, limit, opts } => Borrowed::Recall {
                query,
                limit: *limit,
                opts,
            },
            Self::StoreMany { entries } => Borrowed::StoreMany { entries },
            Self::ExportPage { cursor, limit } => Borrowed::ExportPage {
                cursor: cursor.as_ref(),
                limit: *limit,
            },
            Self::Import { records } => Borrowed::Import { records },
            Self::Interface {
                interface,
                check,
                use_async,
                inputs,
            } => Borrowed::Interface {
                interface,
                check,
                use_async: *use_async,
                inputs,
            },
        }
    }

    /// The method called.
    #[must_use]
    pub fn method(&self) -> Method {
        self.as_call().method()
    }

    /// The namespace argument as passed ([`tinymemory_api::Call::namespace`]):
    /// `Some` for `store`, `get` and `forget`; the filter for `list`;
    /// `opts.namespace` for `recall` (so `None` for an unpinned recall,
    /// which the contract reads as `global`); `None` for `namespaces`,
    /// `export_page`, and for `store_many` and `import`, whose batches may
    /// name several namespaces (read them from the call's `entries` or
    /// `records`).
    #[must_use]
    pub fn namespace(&self) -> Option<&str> {
        self.as_call().namespace()
    }

    /// The key of `store`, `get` and `forget`; `None` for the others.
    #[must_use]
    pub fn key(&self) -> Option<&str> {
        self.as_call().key()
    }

    /// The limit of `recall` and `export_page`; `None` for the others.
    #[must_use]
    pub fn limit(&self) -> Option<usize> {
        self.as_call().limit()
    }

    /// The query of `recall`; `None` for the others.
    #[must_use]
    pub fn query(&self) -> Option<&str> {
        match self {
            Self::Recall { query, .. } => Some(query),
            _ => None,
        }
    }

    /// The options of `recall`; `None` for the others.
    #[must_use]
    pub fn recall_options(&self) -> Option<&RecallOptions> {
        match self {
            Self::Recall { opts, .. } => Some(opts),
            _ => None,
        }
    }
}

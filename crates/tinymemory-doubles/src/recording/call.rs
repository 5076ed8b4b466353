//! One recorded call.

use std::fmt;

use tinymemory_api::portability::{ExportCursor, MemoryRecord};
use tinymemory_api::{MemoryCategory, MemoryTaint, NewEntry, RecallOptions};

/// The storage method a [`Call`] went to. `driver_id` is not a storage call
/// and is never recorded.
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
}

impl Method {
    /// The method's name as written in the trait: `store`, `get`, `forget`,
    /// `list`, `namespaces`, `recall`, `store_many`, `export_page` or
    /// `import`.
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
        }
    }
}

/// Renders [`Method::as_str`].
impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One call as the wrapped provider received it: every argument, owned, byte
/// for byte. Nothing is normalised: a recall with `namespace: None` is
/// recorded with `None`, not `global`.
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
}

impl Call {
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
        }
    }

    /// The namespace argument as passed: `Some` for `store`, `get` and
    /// `forget`; the filter for `list`; `opts.namespace` for `recall` (so
    /// `None` for an unpinned recall, which the contract reads as `global`);
    /// `None` for `namespaces`, `export_page`, and for `store_many` and
    /// `import`, whose batches may name several namespaces (read them from
    /// the call's `entries` or `records`).
    #[must_use]
    pub fn namespace(&self) -> Option<&str> {
        match self {
            Self::Store { namespace, .. }
            | Self::Get { namespace, .. }
            | Self::Forget { namespace, .. } => Some(namespace),
            Self::List { namespace, .. } => namespace.as_deref(),
            Self::Recall { opts, .. } => opts.namespace.as_deref(),
            Self::Namespaces
            | Self::StoreMany { .. }
            | Self::ExportPage { .. }
            | Self::Import { .. } => None,
        }
    }

    /// The key of `store`, `get` and `forget`; `None` for the others.
    #[must_use]
    pub fn key(&self) -> Option<&str> {
        match self {
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

//! The interface family: a framework interface's own contract (LangChain's
//! `VectorStore`, LangGraph's `BaseStore`), checked through the adapter that
//! serves a store of it.
//!
//! A driver that is an adapter over such an interface runs one scenario per
//! check with the framework's own API on a fresh store and answers with
//! what it observed ([`MemoryProvider::interface`](crate::MemoryProvider::interface));
//! the suite judges the observation against the rule the framework's
//! documentation or standard tests state. Any other driver answers
//! [`MemoryError::Unsupported`](crate::MemoryError::Unsupported) of
//! [`FAMILY`], and the family's checks are skipped.

/// The family name carried by [`MemoryError::Unsupported`](crate::MemoryError::Unsupported)
/// when a driver serves no framework interface, or another one than asked.
pub const FAMILY: &str = "interface";

/// LangChain's `VectorStore`, as a driver declares it.
pub const LANGCHAIN_VECTORSTORE: &str = "langchain.vectorstore";

/// LangGraph's `BaseStore`, as a driver declares it.
pub const LANGGRAPH_BASESTORE: &str = "langgraph.basestore";

/// Every interface the suite has checks of, in the order an error lists
/// them: a driver declaring another one is refused at its start, since
/// its interface family would be skipped without a word.
pub const KNOWN: [&str; 2] = [LANGCHAIN_VECTORSTORE, LANGGRAPH_BASESTORE];

/// One scenario of an interface check, as the suite asks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scenario<'a> {
    /// The interface the check is of, as a driver declares it
    /// (`langchain.vectorstore`, `langgraph.basestore`).
    pub interface: &'a str,
    /// The check's id (`interface.langchain.document_id`): which scenario
    /// to run.
    pub check: &'a str,
    /// `true` to run it through the interface's async methods
    /// (`aadd_documents`, `abatch`), `false` through the sync ones.
    pub use_async: bool,
    /// What the scenario is run with, chosen by the suite from the run's
    /// seed: a JSON object whose fields each check documents
    /// (docs/protocol.md, "The interface op": documents, ids, queries,
    /// namespaces). The adapter runs exactly these, so the suite judges
    /// the answer against what it sent, never against inputs the
    /// adapter says it chose.
    pub inputs: &'a serde_json::Value,
}

/// The [`MemoryError::Unsupported`](crate::MemoryError::Unsupported) of
/// [`FAMILY`] a driver serving no framework interface answers `scenario`
/// with (the default of
/// [`MemoryProvider::interface`](crate::MemoryProvider::interface)).
#[must_use]
pub fn unsupported(driver_id: &str, scenario: &Scenario<'_>) -> crate::MemoryError {
    crate::MemoryError::unsupported(
        FAMILY,
        format!(
            "driver {driver_id:?} serves no framework interface ({} asked)",
            scenario.interface
        ),
    )
}

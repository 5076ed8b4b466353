//! `semantic`: `tinymemory_reference::SemanticReferenceDriver` (driver id
//! `semantic-reference`), in memory, declaring the semantic recall
//! profile.

use std::fmt;

use tinymemory_api::{MemoryError, MemoryProvider, RecallProfile};
use tinymemory_conformance::FnFactory;
use tinymemory_exec::ExecConfig;
use tinymemory_reference::SemanticReferenceDriver;

use super::kind::{text_only, DriverKind, Registration};
use super::{DriverSpec, Opened};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

pub(super) const KIND: Registration = Registration {
    spellings: &["semantic"],
    parse: |s| (s == "semantic").then(|| Ok(DriverSpec::new(Semantic))),
    parse_os: text_only,
};

/// The `semantic` spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Semantic;

#[async_trait::async_trait]
impl DriverKind for Semantic {
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("semantic")
    }

    fn version(&self) -> String {
        format!("tinymemory-reference {} (semantic)", env!("CARGO_PKG_VERSION"))
    }

    fn open(&self, _spec: &DriverSpec, _exec: ExecConfig) -> Result<Opened, MemoryError> {
        Ok(Opened::in_memory(
            FnFactory::new("semantic-reference", || {
                Ok(Box::new(SemanticReferenceDriver::new()) as Box<dyn MemoryProvider>)
            })
            .with_profile(RecallProfile::Semantic),
            Box::new(SemanticReferenceDriver::new()),
            "semantic-reference (in memory, cosine of hashed embeddings)",
        ))
    }

    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        super::open_in_memory(spec, end).await
    }
}

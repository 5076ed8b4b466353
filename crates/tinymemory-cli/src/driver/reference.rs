//! `reference`: `tinymemory_reference::ReferenceDriver`, in memory,
//! declaring the lexical recall profile.

use std::fmt;

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::FnFactory;
use tinymemory_exec::ExecConfig;
use tinymemory_reference::ReferenceDriver;

use super::kind::{text_only, DriverKind, Registration};
use super::{DriverSpec, Opened};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

pub(super) const KIND: Registration = Registration {
    spellings: &["reference"],
    parse: |s| (s == "reference").then(|| Ok(DriverSpec::new(Reference))),
    parse_os: text_only,
};

/// The `reference` spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reference;

#[async_trait::async_trait]
impl DriverKind for Reference {
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("reference")
    }

    fn version(&self) -> String {
        format!("tinymemory-reference {}", env!("CARGO_PKG_VERSION"))
    }

    fn open(&self, _spec: &DriverSpec, _exec: ExecConfig) -> Result<Opened, MemoryError> {
        Ok(Opened::in_memory(
            FnFactory::new("reference", || {
                Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
            }),
            Box::new(ReferenceDriver::new()),
            "reference (in memory)",
        ))
    }

    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        super::open_in_memory(spec, end).await
    }
}

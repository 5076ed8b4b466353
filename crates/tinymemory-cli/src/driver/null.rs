//! `null`: `tinymemory_doubles::NullDriver`, which retains nothing, so the
//! suite must report it failing (and its properties skipped), never
//! passing.

use std::fmt;

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::FnFactory;
use tinymemory_doubles::NullDriver;
use tinymemory_exec::ExecConfig;

use super::kind::{text_only, DriverKind, Registration};
use super::{DriverSpec, Opened};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

pub(super) const KIND: Registration = Registration {
    spellings: &["null"],
    parse: |s| (s == "null").then(|| Ok(DriverSpec::new(Null))),
    parse_os: text_only,
};

/// The `null` spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Null;

#[async_trait::async_trait]
impl DriverKind for Null {
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null")
    }

    fn version(&self) -> String {
        format!("tinymemory-doubles {} (null driver)", env!("CARGO_PKG_VERSION"))
    }

    fn open(&self, _spec: &DriverSpec, _exec: ExecConfig) -> Result<Opened, MemoryError> {
        Ok(Opened::in_memory(
            FnFactory::new("null", || Ok(Box::new(NullDriver::new()) as Box<dyn MemoryProvider>)),
            Box::new(NullDriver::new()),
            "null (retains nothing)",
        ))
    }

    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        super::open_in_memory(spec, end).await
    }
}

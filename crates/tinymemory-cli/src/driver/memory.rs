//! What the one-word drivers whose stores live in this process's memory
//! (`reference`, say) share: each such kind's module gives an
//! [`InMemory`] description, and [`Memory`] is the [`DriverKind`] of them
//! all.

use std::fmt;

use tinymemory_api::{MemoryError, MemoryProvider, RecallProfile};
use tinymemory_conformance::FnFactory;
use tinymemory_exec::ExecConfig;

use super::kind::DriverKind;
use super::{DriverSpec, Opened, SpecError};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

/// A driver kind whose stores are in memory, spelt as one word.
#[derive(Debug)]
pub(super) struct InMemory {
    /// The `--driver` spelling.
    pub(super) spelling: &'static str,
    /// What reports record as its version.
    pub(super) version: &'static str,
    /// The factory's driver id.
    pub(super) driver_id: &'static str,
    /// The recall profile it declares.
    pub(super) profile: RecallProfile,
    /// What the run's header says it runs against.
    pub(super) description: &'static str,
    /// A fresh, empty store.
    pub(super) store: fn() -> Box<dyn MemoryProvider>,
}

impl InMemory {
    /// [`super::Registration::parse`] of this kind: the spelling alone.
    pub(super) fn parse(&'static self, s: &str) -> Option<Result<DriverSpec, SpecError>> {
        (s == self.spelling).then(|| Ok(DriverSpec::new(Memory(self))))
    }
}

/// A spec of one of the [`InMemory`] kinds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Memory(&'static InMemory);

/// One spelling, one kind.
impl PartialEq for Memory {
    fn eq(&self, other: &Self) -> bool {
        self.0.spelling == other.0.spelling
    }
}

impl Eq for Memory {}

#[async_trait::async_trait]
impl DriverKind for Memory {
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.spelling)
    }

    fn version(&self) -> String {
        self.0.version.to_owned()
    }

    fn open(&self, _spec: &DriverSpec, _exec: ExecConfig) -> Result<Opened, MemoryError> {
        let store = self.0.store;
        Ok(Opened::in_memory(
            FnFactory::new(self.0.driver_id, move || Ok(store())).with_profile(self.0.profile),
            store(),
            self.0.description,
        ))
    }

    /// Refused as a source, which would always be empty; as a target, a
    /// migration is a dry run of the copy and its verification.
    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        super::open_in_memory(spec, end).await
    }
}

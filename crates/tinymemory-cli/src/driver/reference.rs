//! `reference`: `tinymemory_reference::ReferenceDriver`, in memory,
//! declaring the lexical recall profile.

use tinymemory_api::RecallProfile;
use tinymemory_reference::ReferenceDriver;

use super::kind::{text_only, Registration, Sample, Spelling};
use super::memory::InMemory;

pub(super) const KIND: Registration = Registration {
    spellings: &[Spelling {
        form: "reference",
        meaning: "the lexical reference driver, in memory",
    }],
    parse: |s| REFERENCE.parse(s),
    parse_os: text_only,
    samples: &[Sample {
        spec: "reference",
        owns: &[],
    }],
};

static REFERENCE: InMemory = InMemory {
    spelling: "reference",
    version: concat!("tinymemory-reference ", env!("CARGO_PKG_VERSION")),
    driver_id: "reference",
    profile: RecallProfile::Lexical,
    description: "reference (in memory)",
    store: || Box::new(ReferenceDriver::new()),
};

//! `null`: `tinymemory_doubles::NullDriver`, which retains nothing, so the
//! suite must report it failing (and its properties skipped), never
//! passing.

use tinymemory_api::RecallProfile;
use tinymemory_doubles::NullDriver;

use super::kind::{text_only, Registration, Sample, Spelling};
use super::memory::InMemory;

pub(super) const KIND: Registration = Registration {
    spellings: &[Spelling {
        form: "null",
        meaning: "retains nothing: the run fails, and the property checks skip saying so",
    }],
    parse: |s| NULL.parse(s),
    parse_os: text_only,
    samples: &[Sample {
        spec: "null",
        owns: &[],
    }],
};

static NULL: InMemory = InMemory {
    spelling: "null",
    version: concat!("tinymemory-doubles ", env!("CARGO_PKG_VERSION"), " (null driver)"),
    driver_id: "null",
    profile: RecallProfile::Lexical,
    description: "null (retains nothing)",
    store: || Box::new(NullDriver::new()),
};

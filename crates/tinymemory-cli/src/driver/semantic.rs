//! `semantic`: `tinymemory_reference::SemanticReferenceDriver` (driver id
//! `semantic-reference`), in memory, declaring the semantic recall
//! profile.

use tinymemory_api::RecallProfile;
use tinymemory_reference::SemanticReferenceDriver;

use super::kind::{text_only, Registration};
use super::memory::InMemory;

pub(super) const KIND: Registration = Registration {
    spellings: &["semantic"],
    parse: |s| SEMANTIC.parse(s),
    parse_os: text_only,
};

static SEMANTIC: InMemory = InMemory {
    spelling: "semantic",
    version: concat!("tinymemory-reference ", env!("CARGO_PKG_VERSION"), " (semantic)"),
    driver_id: "semantic-reference",
    profile: RecallProfile::Semantic,
    description: "semantic-reference (in memory, cosine of hashed embeddings)",
    store: || Box::new(SemanticReferenceDriver::new()),
};

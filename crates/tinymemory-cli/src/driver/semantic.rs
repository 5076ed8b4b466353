//! `semantic`: `tinymemory_reference::SemanticReferenceDriver` (driver id
//! `semantic-reference`), in memory, declaring the semantic recall
//! profile.

use tinymemory_api::RecallProfile;
use tinymemory_reference::SemanticReferenceDriver;

use super::kind::{text_only, Registration, Sample, Spelling};
use super::memory::InMemory;

pub(super) const KIND: Registration = Registration {
    spellings: &[Spelling {
        form: "semantic",
        meaning: "the semantic reference driver, in memory: a ranking engine, cosine of hashed embeddings, declaring the semantic recall profile",
    }],
    parse: |s| SEMANTIC.parse(s),
    parse_os: text_only,
    samples: &[Sample {
        spec: "semantic",
        owns: &[],
    }],
};

static SEMANTIC: InMemory = InMemory {
    spelling: "semantic",
    version: concat!("tinymemory-reference ", env!("CARGO_PKG_VERSION"), " (semantic)"),
    driver_id: "semantic-reference",
    profile: RecallProfile::Semantic,
    description: "semantic-reference (in memory, cosine of hashed embeddings)",
    store: || Box::new(SemanticReferenceDriver::new()),
};

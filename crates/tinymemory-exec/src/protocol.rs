//! The wire format: one JSON object per line, requests on the driver's
//! stdin, answers on its stdout. `docs/protocol.md` is the specification;
//! `fixtures/protocol/*.schema.json` hold a JSON Schema for every message.

mod answer;
mod ops;
mod optional;
mod request;
mod rule;
mod wire;

pub(crate) use answer::quote;
pub use answer::{parse_answer, Answer, AnswerError};
pub(crate) use ops::parse_ops;
pub use ops::OptionalOp;
pub use optional::{WireExportPage, WireImportFailure, WireImportOutcome, WireRecord};
pub(crate) use request::ascii_len;
pub use request::{Request, RequestLine};
pub(crate) use wire::parse_recall_profile;
pub use wire::{HelloResult, WireEntry, WireError, WireErrorKind, WireSummary};

/// The protocol version this crate speaks. The suite sends it in `hello`;
/// a driver answering with any other version is refused at start-up.
pub const PROTOCOL_VERSION: u32 = 1;

/// The suite's release, sent in `hello` as `suite_version`: the
/// workspace's version (Cargo.toml), which the wheel, the npm packages and
/// `tinymemory-conformance --version` carry too (docs/release.md).
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

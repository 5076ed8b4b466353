//! Reports of a run: a serialisable model, renderers (text, JSON, JUnit
//! XML, Markdown), the conformance level, baseline comparison and
//! regression bundles. The formats are documented in `docs/reports.md`.

mod build;
mod bundle;
mod compare;
mod conformance;
mod corpus;
mod error;
mod escape;
mod json;
mod junit;
mod markdown;
mod merge;
mod model;
mod note;
mod replay;
mod seed;
mod shared;
mod text;

pub use build::{TOOL_NAME, TOOL_VERSION};
pub use bundle::{Bundle, BUNDLE_SCHEMA_VERSION, MAX_DRIVER_NAME};
pub use compare::{Compared, Comparison};
pub use conformance::{
    Conformance, FamilyLevel, FamilyStatus, Level, NoiseFigure, LEGACY_NOT_SERVED,
};
pub use corpus::{CorpusFacts, RunCorpus};
pub use error::ReportError;
pub use escape::visible;
pub use json::{to_json_line, to_json_text};
pub use model::{
    CheckEntry, CounterexampleRecord, Counts, OutcomeKind, Report, RunFilter, RunMeta, ShardMeta,
    SCHEMA_VERSION,
};
pub use note::{with_notes, FailureNote, NoteKind, TraceSpan};
pub use replay::{Replay, Verdict};
pub use shared::SharedError;

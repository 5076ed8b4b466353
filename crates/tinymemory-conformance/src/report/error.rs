//! Why a report or a bundle could not be read.

/// A report or bundle file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// Not JSON, or JSON without the fields of the schema.
    #[error("failed to read the {what}: {detail}")]
    Malformed {
        /// `report` or `bundle`.
        what: &'static str,
        /// What serde found wrong, with line and column.
        detail: String,
    },
    /// Written by a newer tinymemory-conformance with a schema this build
    /// does not know.
    #[error(
        "failed to read the {what}: it has schema_version {found}, and this build reads \
         version {supported} at most; use a tinymemory-conformance at least as new as the one \
         that wrote it"
    )]
    UnsupportedVersion {
        /// `report` or `bundle`.
        what: &'static str,
        /// The version in the file.
        found: u64,
        /// The highest version this build reads.
        supported: u32,
    },
    /// A report lists the same check id twice, so no comparison with it
    /// can say whether that check failed.
    #[error(
        "failed to read the report: it lists check {id:?} twice, and a report lists each check once"
    )]
    DuplicateCheck {
        /// The repeated check id (Debug-quoted in the message, so control
        /// characters are escaped).
        id: String,
    },
    /// A bundle names a check this build's registry does not have.
    #[error("failed to replay the bundle: this build has no check {id:?}")]
    UnknownCheck {
        /// The check id in the bundle.
        id: String,
    },
    /// A bundle names a check that does not apply to the recall profile it
    /// records (a hand-edited or inconsistent bundle).
    #[error(
        "failed to replay the bundle: check {id:?} applies to the {applies} recall profile, and the bundle records {profile}"
    )]
    CheckNotInProfile {
        /// The check id in the bundle.
        id: String,
        /// The profiles the check applies to.
        applies: String,
        /// The profile the bundle records.
        profile: tinymemory_api::RecallProfile,
    },
}

//! The JSON form of reports and bundles, with the schema version checked
//! before anything else is read.

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{Report, ReportError, SCHEMA_VERSION};

impl Report {
    /// The report as pretty-printed JSON (two-space indent, fields in
    /// schema order, trailing newline). The schema is in `docs/reports.md`.
    #[must_use]
    pub fn to_json(&self) -> String {
        to_pretty(self)
    }

    /// Reads a report written by [`Report::to_json`].
    ///
    /// # Errors
    ///
    /// [`ReportError::UnsupportedVersion`] when `schema_version` is higher
    /// than [`SCHEMA_VERSION`]; [`ReportError::Malformed`] when the text is
    /// not JSON, has no numeric `schema_version`, or lacks a field;
    /// [`ReportError::DuplicateCheck`] when it lists a check id twice.
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        let report: Self = from_versioned(text, "report", SCHEMA_VERSION)?;
        let mut seen = std::collections::BTreeSet::new();
        if let Some(twice) = report.checks.iter().find(|c| !seen.insert(c.id.as_str())) {
            return Err(ReportError::DuplicateCheck {
                id: twice.id.clone(),
            });
        }
        Ok(report)
    }
}

pub(crate) fn to_pretty<T: Serialize>(value: &T) -> String {
    to_json_text(value)
}

/// `value` as the JSON every file and answer of this suite is written
/// in: pretty-printed (two-space indent), newline-terminated, and with
/// the characters that can reorder or hide how a line displays (C1
/// controls, bidi and other format characters, line and paragraph
/// separators) written as `\uXXXX` escapes
/// ([`tinymemory_api::shown::json_escaped`]; serde_json escapes only the
/// C0 controls). A JSON parser reads back the same strings.
///
/// # Panics
///
/// When `value` cannot be serialised as JSON: a map with keys that are
/// not strings, or a `Serialize` implementation that fails. The report,
/// bundle, `list` and `hello` types always serialise.
#[must_use]
pub fn to_json_text<T: Serialize>(value: &T) -> String {
    // Cannot fail for this crate's types: every field is a string, number,
    // bool, option, vector or struct of those (no maps with non-string
    // keys), which serde_json always serialises; a non-finite f64 becomes
    // null.
    let text = serde_json::to_string_pretty(value).unwrap_or_else(|e| {
        panic!("the value does not serialise as JSON: {e}");
    });
    let mut text = tinymemory_api::shown::json_escaped(&text).into_owned();
    text.push('\n');
    text
}

/// [`to_json_text`] on one line, without a newline: a value inside a
/// larger JSON text written by hand (a regression file's ops).
#[must_use]
pub fn to_json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .map(|text| tinymemory_api::shown::json_escaped(&text).into_owned())
        .unwrap_or_default()
}

/// Parses `text` as a `what` of schema version at most `supported`: the
/// version is read first, so a future file is refused with a version error,
/// not with whatever field happens to differ.
pub(crate) fn from_versioned<T: DeserializeOwned>(
    text: &str,
    what: &'static str,
    supported: u32,
) -> Result<T, ReportError> {
    let malformed = |detail: String| ReportError::Malformed { what, detail };
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| malformed(format!("not JSON: {e}")))?;
    let Some(object) = value.as_object() else {
        return Err(malformed("expected a JSON object".to_owned()));
    };
    let version = match object.get("schema_version") {
        None => return Err(malformed("no schema_version field".to_owned())),
        Some(v) => v.as_u64().ok_or_else(|| {
            malformed(format!(
                "schema_version must be a non-negative integer, found {v}"
            ))
        })?,
    };
    if version > u64::from(supported) {
        return Err(ReportError::UnsupportedVersion {
            what,
            found: version,
            supported,
        });
    }
    if version == 0 {
        return Err(malformed(
            "schema_version 0 does not exist; versions start at 1".to_owned(),
        ));
    }
    // Parsed again from the text (not the value) so errors carry a line
    // and column.
    serde_json::from_str(text).map_err(|e| malformed(e.to_string()))
}

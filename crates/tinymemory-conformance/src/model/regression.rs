//! Regression files: a shrunk failing sequence, kept and replayed.

use serde::{Deserialize, Serialize};

use super::Op;

/// The `format` of the regression files this version reads and writes.
pub const REGRESSION_FORMAT: u32 = 1;

/// A replayable failing sequence: the JSON document of a file in
/// `fixtures/regressions/model/`, and the counterexample `model.differential`
/// reports.
///
/// ```json
/// {
///   "format": 1,
///   "description": "why this sequence is kept",
///   "driver": "reference",
///   "mutant": "duplicates-on-upsert",
///   "seed": 8388357248759721216,
///   "cases": 64,
///   "divergence": "step 3 (list): the driver answered ..., the model ...",
///   "ops": [ { "op": "store", "namespace": "global", "key": "k0", "content": "comet" } ]
/// }
/// ```
///
/// `driver` is the driver the sequence was found on, `mutant` (optional) the
/// name of the [mutant](mod@tinymemory_doubles::mutants) wrapping it, `seed` and
/// `cases` the run that found it, `divergence` what differed then. Replaying
/// `ops` on a conforming driver must show no divergence; on `mutant` it must
/// diverge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Regression {
    /// [`REGRESSION_FORMAT`].
    pub format: u32,
    /// Why the sequence is kept.
    pub description: String,
    /// The driver id of the run that found it.
    pub driver: String,
    /// The name of the mutant (`tinymemory_doubles::mutants::mutant`)
    /// wrapping that driver, when it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutant: Option<String>,
    /// The run seed that found it.
    pub seed: u64,
    /// The cases per property of that run.
    pub cases: u32,
    /// The divergence the shrunk sequence showed.
    pub divergence: String,
    /// The calls, in order, on a fresh driver.
    pub ops: Vec<Op>,
}

/// Why a regression file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegressionError {
    /// Not JSON of the documented shape.
    #[error("failed to read a regression file: {0}")]
    Json(#[from] serde_json::Error),
    /// Written by another version of the format.
    #[error("failed to read a regression file: format {found}, this version reads format {REGRESSION_FORMAT}")]
    Format {
        /// The `format` the file declares.
        found: u32,
    },
    /// A sequence with no call replays nothing.
    #[error("failed to read a regression file: it holds no op")]
    Empty,
}

impl Regression {
    /// Parses a regression file.
    ///
    /// # Errors
    ///
    /// [`RegressionError`] for malformed JSON, an unknown field, an unknown
    /// `op`, another `format`, or an empty `ops`.
    pub fn from_json(text: &str) -> Result<Self, RegressionError> {
        let r: Self = serde_json::from_str(text)?;
        if r.format != REGRESSION_FORMAT {
            return Err(RegressionError::Format { found: r.format });
        }
        if r.ops.is_empty() {
            return Err(RegressionError::Empty);
        }
        Ok(r)
    }

    /// The file's text: pretty JSON, one op per line, newline-terminated.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\n");
        let field = |name: &str, value: String| format!("  {name:?}: {value},\n");
        out.push_str(&field("format", self.format.to_string()));
        out.push_str(&field("description", compact(&self.description)));
        out.push_str(&field("driver", compact(&self.driver)));
        if let Some(m) = &self.mutant {
            out.push_str(&field("mutant", compact(m)));
        }
        out.push_str(&field("seed", self.seed.to_string()));
        out.push_str(&field("cases", self.cases.to_string()));
        out.push_str(&field("divergence", compact(&self.divergence)));
        out.push_str("  \"ops\": [\n");
        let ops: Vec<String> = self
            .ops
            .iter()
            .map(|op| format!("    {}", compact(op)))
            .collect();
        out.push_str(&ops.join(",\n"));
        out.push_str("\n  ]\n}\n");
        out
    }
}

/// Compact JSON of one value, for [`Regression::to_json`].
fn compact<T: Serialize>(value: &T) -> String {
    // Strings, integers and ops always serialise.
    crate::report::to_json_line(value)
}

/// The committed regression files, compiled in: `(file name, text)`, in
/// name order. `model.differential` replays each on every driver before its
/// random sequences; a test checks this list against the directory, so a
/// new file cannot be left out.
///
/// The texts are the crate's own copies (`regressions/model/` beside
/// `src/`), so a packaged crate carries them; a test holds each copy to
/// `fixtures/regressions/model/` byte for byte.
#[must_use]
pub fn bundled() -> &'static [(&'static str, &'static str)] {
    &[
        (
            "forget-then-recall.json",
            include_str!("../../regressions/model/forget-then-recall.json"),
        ),
        (
            "upsert-duplicates.json",
            include_str!("../../regressions/model/upsert-duplicates.json"),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Regression {
        Regression {
            format: REGRESSION_FORMAT,
            description: "kept \"as is\"".into(),
            driver: "reference".into(),
            mutant: Some("duplicates-on-upsert".into()),
            seed: 7,
            cases: 32,
            divergence: "step 1 (get): ...".into(),
            ops: vec![Op::store("global", "k0", "comet"), Op::Namespaces],
        }
    }

    #[test]
    fn json_round_trips_and_puts_one_op_per_line() {
        let text = sample().to_json();
        assert_eq!(Regression::from_json(&text).unwrap(), sample());
        assert!(text.contains(
            "\n    {\"op\":\"store\",\"namespace\":\"global\",\"key\":\"k0\",\"content\":\"comet\",\"category\":\"core\",\"taint\":\"internal\"},\n    {\"op\":\"namespaces\"}\n"
        ), "{text}");
    }

    #[test]
    fn other_formats_and_empty_sequences_are_refused() {
        let mut r = sample();
        r.format = 2;
        assert!(matches!(
            Regression::from_json(&r.to_json()),
            Err(RegressionError::Format { found: 2 })
        ));
        r.format = REGRESSION_FORMAT;
        r.ops.clear();
        assert!(matches!(
            Regression::from_json(&r.to_json()),
            Err(RegressionError::Empty)
        ));
        assert!(matches!(
            Regression::from_json("{}"),
            Err(RegressionError::Json(_))
        ));
    }

    #[test]
    fn every_bundled_file_parses() {
        for (name, text) in bundled() {
            let r = Regression::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!r.description.is_empty(), "{name}");
        }
    }
}

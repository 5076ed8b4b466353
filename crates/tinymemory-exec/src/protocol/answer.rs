//! Reading one answer line.

use std::fmt;

use serde_json::{Map, Value};

use super::WireError;

/// How many characters of an offending line an error quotes.
pub(crate) const QUOTED_CHARS: usize = 200;

/// A well-formed answer to the request it was checked against.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// `{"id":…,"result":…}`: the result, to be decoded by the request's op.
    Result(Value),
    /// `{"id":…,"error":{…}}`: the driver's error.
    Error(WireError),
}

/// Why a line is not a valid answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerError {
    /// The bytes are not UTF-8.
    NotUtf8,
    /// The line is not JSON. `reason` is the parser's message, with a hint
    /// when the line holds `NaN` or `Infinity`.
    NotJson {
        /// The start of the line.
        line: String,
        /// What the JSON parser said.
        reason: String,
    },
    /// The line is JSON but not an object.
    NotAnObject {
        /// The start of the line.
        line: String,
    },
    /// The `id` is missing or is not the id of the request being answered.
    WrongId {
        /// The id of the request being answered.
        expected: u64,
        /// What the line had instead (`missing` when absent).
        found: String,
    },
    /// The object is not `{id, result}` or `{id, error}`.
    Envelope {
        /// What is wrong with it.
        reason: String,
    },
}

impl AnswerError {
    /// `true` when the line cannot be trusted to be the answer at all
    /// (garbage, or another request's answer): the suite then stops the
    /// process, since it can no longer tell which line answers which
    /// request. A line that is an answer but a malformed one leaves the
    /// process running.
    #[must_use]
    pub fn desynchronised(&self) -> bool {
        !matches!(self, Self::Envelope { .. })
    }
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotUtf8 => f.write_str("the line is not UTF-8"),
            Self::NotJson { line, reason } => {
                write!(f, "the line is not JSON ({reason}): {line:?}")
            }
            Self::NotAnObject { line } => write!(f, "the line is JSON but not an object: {line:?}"),
            Self::WrongId { expected, found } => {
                write!(f, "the answer's id is {found}, expected {expected}")
            }
            Self::Envelope { reason } => f.write_str(reason),
        }
    }
}

/// The first [`QUOTED_CHARS`] characters of `line`, with `…` when cut.
#[must_use]
pub(crate) fn quote(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(QUOTED_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// Checks that `line` (without its newline) answers the request numbered
/// `expected_id`: a JSON object holding that `id` and exactly one of
/// `result` and `error`, nothing else.
///
/// # Errors
///
/// [`AnswerError`] saying what is wrong; see
/// [`AnswerError::desynchronised`].
pub fn parse_answer(line: &[u8], expected_id: u64) -> Result<Answer, AnswerError> {
    let text = std::str::from_utf8(line).map_err(|_| AnswerError::NotUtf8)?;
    let value: Value = serde_json::from_str(text).map_err(|e| AnswerError::NotJson {
        line: quote(text),
        reason: json_reason(text, &e),
    })?;
    let Value::Object(mut object) = value else {
        return Err(AnswerError::NotAnObject { line: quote(text) });
    };
    check_id(&object, expected_id)?;
    object.remove("id");
    let result = object.remove("result");
    let error = object.remove("error");
    if let Some(unknown) = object.keys().next() {
        return Err(AnswerError::Envelope {
            reason: format!(
                "the answer has an unknown field {unknown:?} (allowed: id, result, error)"
            ),
        });
    }
    match (result, error) {
        (Some(result), None) => Ok(Answer::Result(result)),
        (None, Some(error)) => serde_json::from_value::<WireError>(error.clone())
            .map(Answer::Error)
            .map_err(|e| AnswerError::Envelope {
                reason: format!("the error {} is malformed: {e}", quote(&error.to_string())),
            }),
        (Some(_), Some(_)) => Err(AnswerError::Envelope {
            reason: "the answer has both result and error".into(),
        }),
        (None, None) => Err(AnswerError::Envelope {
            reason: "the answer has neither result nor error".into(),
        }),
    }
}

fn check_id(object: &Map<String, Value>, expected: u64) -> Result<(), AnswerError> {
    match object.get("id") {
        Some(id) if id.as_u64() == Some(expected) => Ok(()),
        Some(other) => Err(AnswerError::WrongId {
            expected,
            found: quote(&other.to_string()),
        }),
        None => Err(AnswerError::WrongId {
            expected,
            found: "missing".into(),
        }),
    }
}

fn json_reason(text: &str, e: &serde_json::Error) -> String {
    if ["NaN", "Infinity"].iter().any(|t| text.contains(t)) {
        format!(
            "{e}; NaN and Infinity are not JSON: scores must be finite numbers or null \
             (Python: json.dumps(..., allow_nan=False) finds them)"
        )
    } else {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::WireErrorKind;

    #[test]
    fn results_and_errors_are_told_apart() {
        assert_eq!(
            parse_answer(br#"{"id":4,"result":null}"#, 4),
            Ok(Answer::Result(Value::Null))
        );
        assert_eq!(
            parse_answer(br#"{"id":4,"result":[1]}"#, 4),
            Ok(Answer::Result(json!([1])))
        );
        let Ok(Answer::Error(e)) = parse_answer(
            br#"{"id":4,"error":{"kind":"invalid","rule":"key.empty","message":"m"}}"#,
            4,
        ) else {
            panic!("not an error answer");
        };
        assert_eq!(e.kind, WireErrorKind::Invalid);
        assert_eq!(e.rule.as_deref(), Some("key.empty"));
    }

    #[test]
    fn garbage_and_foreign_ids_desynchronise() {
        let e = parse_answer(b"Traceback (most recent call last):", 1).unwrap_err();
        assert!(matches!(e, AnswerError::NotJson { .. }), "{e:?}");
        assert!(e.desynchronised());
        assert!(
            e.to_string()
                .ends_with(": \"Traceback (most recent call last):\""),
            "{e}"
        );

        assert_eq!(
            parse_answer(b"[1]", 1),
            Err(AnswerError::NotAnObject { line: "[1]".into() })
        );
        assert_eq!(parse_answer(b"\xff", 1), Err(AnswerError::NotUtf8));
        assert_eq!(
            parse_answer(br#"{"id":3,"result":null}"#, 4),
            Err(AnswerError::WrongId {
                expected: 4,
                found: "3".into()
            })
        );
        assert_eq!(
            parse_answer(br#"{"result":null}"#, 4),
            Err(AnswerError::WrongId {
                expected: 4,
                found: "missing".into()
            })
        );
    }

    #[test]
    fn malformed_envelopes_keep_the_process() {
        for (line, reason) in [
            (r#"{"id":1}"#, "the answer has neither result nor error"),
            (
                r#"{"id":1,"result":1,"error":{"kind":"backend","message":"m"}}"#,
                "the answer has both result and error",
            ),
            (
                r#"{"id":1,"result":1,"extra":2}"#,
                "the answer has an unknown field \"extra\" (allowed: id, result, error)",
            ),
        ] {
            let e = parse_answer(line.as_bytes(), 1).unwrap_err();
            assert_eq!(
                e,
                AnswerError::Envelope {
                    reason: reason.into()
                }
            );
            assert!(!e.desynchronised());
        }
    }

    #[test]
    fn nan_gets_a_hint_and_long_lines_are_cut() {
        let e = parse_answer(br#"{"id":1,"result":[{"score":NaN}]}"#, 1).unwrap_err();
        assert!(
            e.to_string().contains("NaN and Infinity are not JSON"),
            "{e}"
        );
        let long = "x".repeat(500);
        let AnswerError::NotJson { line, .. } = parse_answer(long.as_bytes(), 1).unwrap_err()
        else {
            panic!("not NotJson");
        };
        assert_eq!(line.chars().count(), QUOTED_CHARS + 1);
        assert!(line.ends_with('…'));
    }
}

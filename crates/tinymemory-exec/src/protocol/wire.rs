//! The results and errors a driver answers with.
//!
//! Decoding is strict: every field is required (optional values are written
//! as `null`), unknown fields are refused, and taint is exactly `internal`
//! or `external_sync`. A validation tool that guessed at a malformed answer
//! would hide the driver's mistake.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryTaint, NamespaceSummary, RecallProfile,
};

use super::ops::{parse_ops, OptionalOp};
use super::rule;
use tinymemory_api::shown::capped;

/// The answer to `hello`: `{"protocol": 1, "driver": "…"}`, optionally
/// with `"recall_profile": "lexical"` or `"semantic"` and with `"ops":
/// [...]`, the optional ops the driver provides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelloResult {
    /// The protocol version the driver speaks; must equal
    /// [`PROTOCOL_VERSION`](crate::protocol::PROTOCOL_VERSION).
    pub protocol: u32,
    /// The driver's id for reports, such as `python-memory`.
    pub driver: String,
    /// The recall profile the driver declares, `None` when the answer has
    /// no `recall_profile` field (which means
    /// [`RecallProfile::Lexical`]; see [`HelloResult::profile`]). Only the
    /// exact texts `lexical` and `semantic` decode: any other value,
    /// `null` included, is a malformed answer.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "declared_profile"
    )]
    pub recall_profile: Option<RecallProfile>,
    /// The optional ops the driver provides, in the order it listed them;
    /// empty when the answer has no `ops` field. Only an array of distinct
    /// known names decodes: an unknown name (a typo would otherwise turn
    /// an op off without a word), a repeated one or `null` is a malformed
    /// answer.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "declared_ops"
    )]
    pub ops: Vec<OptionalOp>,
    /// `true` when the driver declares that two of its processes are two
    /// independent stores (each its own data: an in-memory store, a file
    /// of its own), so the suite may run checks at once, one process each
    /// (`run --jobs`). Absent means `false`: a driver backed by one shared
    /// database must never be run in parallel by surprise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub independent_stores: bool,
    /// The framework interface the driver is an adapter over
    /// (`langchain.vectorstore`, `langgraph.basestore`), whose own
    /// contract the interface family checks through the `interface` op;
    /// `None` when the answer has no `interface` field (the family is then
    /// skipped). Only a string decodes, and the start refuses a name
    /// not in [`tinymemory_api::interface::KNOWN`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interface: Option<String>,
}

impl HelloResult {
    /// The profile the driver is held to: the one it declared, else
    /// [`RecallProfile::Lexical`].
    #[must_use]
    pub fn profile(&self) -> RecallProfile {
        self.recall_profile.unwrap_or_default()
    }

    /// `true` when the driver listed `op` in `ops`.
    #[must_use]
    pub fn provides(&self, op: OptionalOp) -> bool {
        self.ops.contains(&op)
    }
}

fn declared_ops<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<OptionalOp>, D::Error> {
    let value = Value::deserialize(d)?;
    parse_ops(&value).map_err(serde::de::Error::custom)
}

/// Reads a `recall_profile` value: exactly `"lexical"` or `"semantic"`.
///
/// # Errors
///
/// What is wrong, naming the value and the profiles that exist, such as
/// `unknown recall profile "vector": expected "lexical" or "semantic"`.
pub(crate) fn parse_recall_profile(value: &Value) -> Result<RecallProfile, String> {
    match value {
        Value::String(text) => text.parse().map_err(|e| format!("{e}")),
        other => Err(format!(
            "unknown recall profile {other} (not a string): expected \"lexical\" or \"semantic\""
        )),
    }
}

fn declared_profile<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RecallProfile>, D::Error> {
    let value = Value::deserialize(d)?;
    parse_recall_profile(&value)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// One entry, as `get`, `list` and `recall` answer it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireEntry {
    /// Driver-assigned id.
    pub id: String,
    /// The key.
    pub key: String,
    /// The content.
    pub content: String,
    /// The namespace the entry lives in (`null` only from a faulty driver).
    #[serde(deserialize_with = "required")]
    pub namespace: Option<String>,
    /// The category's text form.
    pub category: MemoryCategory,
    /// When it was last stored, RFC 3339.
    pub timestamp: String,
    /// The session, or `null`.
    #[serde(deserialize_with = "required")]
    pub session_id: Option<String>,
    /// The recall score (finite, higher is better), or `null`.
    #[serde(deserialize_with = "required")]
    pub score: Option<f64>,
    /// `internal` or `external_sync`.
    #[serde(deserialize_with = "strict_taint")]
    pub taint: MemoryTaint,
}

impl From<WireEntry> for MemoryEntry {
    fn from(w: WireEntry) -> Self {
        Self {
            id: w.id,
            key: w.key,
            content: w.content,
            namespace: w.namespace,
            category: w.category,
            timestamp: w.timestamp,
            session_id: w.session_id,
            score: w.score,
            taint: w.taint,
        }
    }
}

/// One namespace, as `namespaces` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireSummary {
    /// The namespace.
    pub namespace: String,
    /// Its exact entry count.
    pub count: u64,
    /// Its newest timestamp, or `null`.
    #[serde(deserialize_with = "required")]
    pub last_updated: Option<String>,
}

impl From<WireSummary> for NamespaceSummary {
    fn from(w: WireSummary) -> Self {
        Self {
            namespace: w.namespace,
            count: w.count,
            last_updated: w.last_updated,
        }
    }
}

/// The kind of a driver's error, one per `MemoryError` variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WireErrorKind {
    /// `MemoryError::Invalid`: the input broke a rule; needs `rule`.
    Invalid,
    /// `MemoryError::Unavailable`: transient, a retry may succeed.
    Unavailable,
    /// `MemoryError::Backend`: the engine failed.
    Backend,
}

/// A driver's error answer: `{"kind":"invalid","rule":"namespace.charset","message":"…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireError {
    /// Which `MemoryError` variant.
    pub kind: WireErrorKind,
    /// The rule id; required for `invalid`, ignored otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// What went wrong, for people.
    pub message: String,
}

impl WireError {
    /// The `MemoryError` this answer stands for. Contract rule ids come back
    /// as the constants of `tinymemory_api::rules`; a driver's own ids are
    /// kept as they are.
    ///
    /// # Errors
    ///
    /// Why the answer is not a valid error: `invalid` without a `rule`, or a
    /// malformed rule id. A message longer than
    /// [`MAX_SHOWN_CHARS`](tinymemory_api::shown::MAX_SHOWN_CHARS) is cut
    /// there, saying how many bytes were cut.
    pub fn into_memory_error(self) -> Result<MemoryError, String> {
        self.into_memory_error_quoting("")
    }

    /// [`WireError::into_memory_error`] with `quote` (the driver's stderr
    /// while it failed, a traceback) after the message: the message is cut
    /// at [`MAX_SHOWN_CHARS`](tinymemory_api::shown::MAX_SHOWN_CHARS), the
    /// quote is not, since its own limits cut it by whole lines and its
    /// last lines are the ones that name the fault.
    ///
    /// # Errors
    ///
    /// As [`WireError::into_memory_error`].
    pub fn into_memory_error_quoting(self, quote: &str) -> Result<MemoryError, String> {
        // Only ever shown: a message is cut at MAX_SHOWN_CHARS here, once,
        // for every command and report that prints it.
        let message = capped(&self.message).into_owned() + quote;
        match self.kind {
            WireErrorKind::Invalid => {
                let raw = self
                    .rule
                    .ok_or_else(|| "an error of kind invalid has no rule".to_owned())?;
                Ok(MemoryError::invalid(rule::intern(&raw)?, message))
            }
            WireErrorKind::Unavailable => Ok(MemoryError::unavailable(message)),
            WireErrorKind::Backend => Ok(MemoryError::fault(message)),
        }
    }
}

/// An `Option` field that must be present, as `null` or a value. (Serde
/// treats a missing `Option` field as `None` unless `deserialize_with` is
/// given.)
pub(super) fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

pub(super) fn strict_taint<'de, D: Deserializer<'de>>(d: D) -> Result<MemoryTaint, D::Error> {
    let text = String::deserialize(d)?;
    match text.as_str() {
        "internal" => Ok(MemoryTaint::Internal),
        "external_sync" => Ok(MemoryTaint::ExternalSync),
        other => Err(serde::de::Error::custom(format!(
            "unknown taint {other:?}, expected \"internal\" or \"external_sync\""
        ))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tinymemory_api::rules;

    use super::*;

    fn entry() -> serde_json::Value {
        json!({
            "id": "1", "key": "k", "content": "c", "namespace": "global",
            "category": "custom:x", "timestamp": "2026-01-01T00:00:00.000000Z",
            "session_id": null, "score": 0.5, "taint": "external_sync"
        })
    }

    /// A score read from a driver's line is the driver's double to the bit:
    /// the suite sends it back as `min_score`, and a value one ULP off drops
    /// the driver's own hit (serde_json's default float parser is not
    /// correctly rounded; the workspace enables `float_roundtrip`).
    #[test]
    fn scores_are_read_to_the_bit() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut scores = vec![
            0.931_698_548_021_227_9,
            1.0 - f64::EPSILON / 2.0,
            1e-300,
            0.1,
        ];
        for _ in 0..10_000 {
            // SplitMix64, then 53 bits into [0, 1).
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            #[expect(clippy::cast_precision_loss, reason = "53 bits are exact")]
            scores.push((z >> 11) as f64 / (1_u64 << 53) as f64);
        }
        for score in scores {
            // `{score:?}` is the shortest text that round-trips, as Python's
            // repr and JavaScript's toString write it.
            let line = format!(
                r#"{{"id": "1", "key": "k", "content": "c", "namespace": "global", "category": "core",
                    "timestamp": "2026-01-01T00:00:00Z", "session_id": null, "score": {score:?}, "taint": "internal"}}"#
            );
            let read: WireEntry = serde_json::from_str(&line).unwrap();
            assert_eq!(
                read.score.map(f64::to_bits),
                Some(score.to_bits()),
                "{score:?} read as {:?}",
                read.score
            );
        }
    }

    #[test]
    fn hello_declares_a_recall_profile_or_none() {
        let hello = |v: serde_json::Value| serde_json::from_value::<HelloResult>(v);
        let plain = hello(json!({"protocol": 1, "driver": "d"})).unwrap();
        assert_eq!(plain.recall_profile, None);
        assert_eq!(plain.profile(), RecallProfile::Lexical);
        assert_eq!(
            serde_json::to_value(&plain).unwrap(),
            json!({"protocol": 1, "driver": "d"})
        );
        for (text, profile) in [
            ("lexical", RecallProfile::Lexical),
            ("semantic", RecallProfile::Semantic),
        ] {
            let h = hello(json!({"protocol": 1, "driver": "d", "recall_profile": text})).unwrap();
            assert_eq!(h.recall_profile, Some(profile));
            assert_eq!(h.profile(), profile);
            assert_eq!(
                serde_json::to_value(&h).unwrap()["recall_profile"],
                json!(text)
            );
        }
        for (raw, message) in [
            (
                json!("vector"),
                "unknown recall profile \"vector\": expected \"lexical\" or \"semantic\"",
            ),
            (
                json!("Semantic"),
                "unknown recall profile \"Semantic\": expected \"lexical\" or \"semantic\"",
            ),
            (
                json!(3),
                "unknown recall profile 3 (not a string): expected \"lexical\" or \"semantic\"",
            ),
            (
                json!(null),
                "unknown recall profile null (not a string): expected \"lexical\" or \"semantic\"",
            ),
        ] {
            assert_eq!(parse_recall_profile(&raw), Err(message.to_owned()));
            let err =
                hello(json!({"protocol": 1, "driver": "d", "recall_profile": raw})).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
    }

    #[test]
    fn entries_decode_into_memory_entries() {
        let e: MemoryEntry = serde_json::from_value::<WireEntry>(entry()).unwrap().into();
        assert_eq!(e.category, MemoryCategory::Custom("x".into()));
        assert_eq!(e.taint, MemoryTaint::ExternalSync);
        assert_eq!(e.score, Some(0.5));
        assert_eq!(e.session_id, None);
    }

    #[test]
    fn entries_are_decoded_strictly() {
        let mut missing = entry();
        missing.as_object_mut().unwrap().remove("session_id");
        let err = serde_json::from_value::<WireEntry>(missing).unwrap_err();
        assert_eq!(err.to_string(), "missing field `session_id`");

        let mut extra = entry();
        extra["ns"] = json!("global");
        assert!(serde_json::from_value::<WireEntry>(extra).is_err());

        let mut taint = entry();
        taint["taint"] = json!("Internal");
        let err = serde_json::from_value::<WireEntry>(taint).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown taint \"Internal\", expected \"internal\" or \"external_sync\""
        );

        let mut score = entry();
        score["score"] = json!("0.5");
        assert!(serde_json::from_value::<WireEntry>(score).is_err());
    }

    #[test]
    fn errors_map_onto_memory_error_kinds() {
        let e: WireError = serde_json::from_value(json!({
            "kind": "invalid", "rule": "namespace.charset", "message": "bad"
        }))
        .unwrap();
        let e = e.into_memory_error().unwrap();
        assert_eq!(e.rule(), Some(rules::NAMESPACE_CHARSET));
        assert_eq!(e, MemoryError::invalid(rules::NAMESPACE_CHARSET, "bad"));

        let e: WireError =
            serde_json::from_value(json!({"kind": "unavailable", "message": "busy"})).unwrap();
        assert_eq!(e.into_memory_error().unwrap().kind(), "unavailable");

        let e: WireError =
            serde_json::from_value(json!({"kind": "backend", "message": "disk"})).unwrap();
        assert_eq!(e.into_memory_error().unwrap().kind(), "backend");

        let e: WireError =
            serde_json::from_value(json!({"kind": "invalid", "message": "no rule"})).unwrap();
        assert_eq!(
            e.into_memory_error(),
            Err("an error of kind invalid has no rule".to_owned())
        );
        assert!(
            serde_json::from_value::<WireError>(json!({"kind": "oops", "message": "x"})).is_err()
        );
    }
}

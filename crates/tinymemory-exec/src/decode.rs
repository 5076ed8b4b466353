//! Turning answers into the contract's types, and the start-up handshake.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use tinymemory_api::interface;
use tinymemory_api::shown::capped;
use tinymemory_api::MemoryError;

use crate::process::Connection;
use crate::protocol::{
    parse_ops, parse_recall_profile, quote, HelloResult, Request, PROTOCOL_VERSION, SUITE_VERSION,
};

/// The `hello` request for this suite's version.
pub(crate) fn hello() -> Request {
    Request::Hello {
        protocol: PROTOCOL_VERSION,
        suite_version: SUITE_VERSION.to_owned(),
    }
}

/// Decodes the answer to `op` as `T`.
///
/// # Errors
///
/// `MemoryError::Backend` naming the op, the command and the mismatch.
pub(crate) fn decode<T: DeserializeOwned>(
    conn: &Connection,
    op: &str,
    value: Value,
) -> Result<T, MemoryError> {
    T::deserialize(&value).map_err(|e| {
        MemoryError::fault(format!(
            "failed to read the answer to `{op}` from `{}`: {e}; the result was {}",
            conn.command(),
            quote(&value.to_string())
        ))
    })
}

/// Checks that the answer to `op` is `null`, as `store` and `reset` answer.
///
/// # Errors
///
/// `MemoryError::Backend` when it is anything else.
pub(crate) fn expect_null(conn: &Connection, op: &str, value: &Value) -> Result<(), MemoryError> {
    if value.is_null() {
        Ok(())
    } else {
        Err(MemoryError::fault(format!(
            "failed to read the answer to `{op}` from `{}`: expected a null result, got {}",
            conn.command(),
            quote(&value.to_string())
        )))
    }
}

/// Checks the answer to `hello`: the driver's version must be
/// [`PROTOCOL_VERSION`], its id non-empty, its `recall_profile`, when
/// present, `lexical` or `semantic`, and its `ops`, when present, an array
/// of distinct optional op names. An id longer than
/// [`MAX_SHOWN_CHARS`](tinymemory_api::shown::MAX_SHOWN_CHARS) is cut there
/// ([`capped`]).
///
/// # Errors
///
/// `MemoryError::Backend` starting "failed to start": an error answer, a
/// malformed result, another version, an empty id, an unknown recall
/// profile, an unknown `interface` (not one of
/// [`interface::KNOWN`]) or a malformed `ops` (checked in that order, so a driver of another version is told
/// that first). Errors from the process itself (it could not start, died,
/// hung) are passed on as they are.
pub(crate) fn check_hello(
    conn: &Connection,
    answer: Result<Value, MemoryError>,
) -> Result<HelloResult, MemoryError> {
    let value = answer?;
    // The profile is read last, with a message of its own; the rest of the
    // answer is decoded without it.
    let declared = value.get("recall_profile").cloned();
    let ops = value.get("ops").cloned();
    let mut rest = value.clone();
    if let Some(object) = rest.as_object_mut() {
        object.remove("recall_profile");
        object.remove("ops");
    }
    let mut hello = match HelloResult::deserialize(&rest) {
        Ok(hello) => hello,
        // Quote the whole answer, as the driver wrote it.
        Err(_) => decode::<HelloResult>(conn, "hello", value)?,
    };
    if hello.protocol != PROTOCOL_VERSION {
        return Err(MemoryError::fault(format!(
            "failed to start `{}`: it speaks protocol version {}, this suite speaks version {PROTOCOL_VERSION} \
             (docs/protocol.md)",
            conn.command(),
            hello.protocol
        )));
    }
    if hello.driver.trim().is_empty() {
        return Err(MemoryError::fault(format!(
            "failed to start `{}`: its hello answer has an empty driver id",
            conn.command()
        )));
    }
    // Only ever shown (headers, reports, bundle names): a 50 MB id once
    // printed 52 MB for one check.
    if let Cow::Owned(cut) = capped(&hello.driver) {
        hello.driver = cut;
    }
    if let Some(raw) = declared {
        let profile = parse_recall_profile(&raw).map_err(|why| {
            MemoryError::fault(format!(
                "failed to start `{}`: its hello answer declares an {why} \
                 (leave recall_profile out for lexical; docs/protocol.md)",
                conn.command()
            ))
        })?;
        hello.recall_profile = Some(profile);
    }
    if let Some(name) = &hello.interface {
        if !interface::KNOWN.contains(&name.as_str()) {
            return Err(MemoryError::fault(format!(
                "failed to start `{}`: its hello answer declares an unknown interface {}: \
                 expected {} (leave interface out for none; docs/protocol.md)",
                conn.command(),
                quote(&Value::from(name.as_str()).to_string()),
                interface::KNOWN
                    .iter()
                    .map(|k| Value::from(*k).to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            )));
        }
    }
    if let Some(raw) = ops {
        hello.ops = parse_ops(&raw).map_err(|why| {
            MemoryError::fault(format!(
                "failed to start `{}`: its hello answer lists {why} \
                 (leave ops out for none; docs/protocol.md)",
                conn.command()
            ))
        })?;
    }
    Ok(hello)
}

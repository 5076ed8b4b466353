//! Turning answers into the contract's types, and the start-up handshake.

use serde::de::DeserializeOwned;
use serde_json::Value;
use tinymemory_api::MemoryError;

use crate::process::Connection;
use crate::protocol::{quote, HelloResult, Request, PROTOCOL_VERSION};

/// The `hello` request for this suite's version.
pub(crate) fn hello() -> Request {
    Request::Hello {
        protocol: PROTOCOL_VERSION,
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
/// [`PROTOCOL_VERSION`] and its id non-empty.
///
/// # Errors
///
/// `MemoryError::Backend` starting "failed to start": an error answer, a
/// malformed result, another version or an empty id. Errors from the
/// process itself (it could not start, died, hung) are passed on as they
/// are.
pub(crate) fn check_hello(
    conn: &Connection,
    answer: Result<Value, MemoryError>,
) -> Result<HelloResult, MemoryError> {
    let value = answer?;
    let hello: HelloResult = decode(conn, "hello", value)?;
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
    Ok(hello)
}

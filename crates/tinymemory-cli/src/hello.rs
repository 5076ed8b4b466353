//! `hello`: starts an `exec:` driver, asks its `hello` as a run would
//! (the same checks of the answer: protocol version, recall profile, ops)
//! and prints what it declared, then ends it. The pytest plugin and the
//! TypeScript package ask through it, so neither writes the exchange
//! itself (docs/reports.md, "`hello` JSON"; `fixtures/cli/hello.schema.json`).

use std::time::Duration;

use serde::Serialize;
use tinymemory_conformance::report::visible;
use tinymemory_conformance::DriverFactory as _;
use tinymemory_exec::{ExecConfig, ExecFactory};

use crate::args::{HelloArgs, ListFormat};
use crate::error::{CliError, CliResult};
use crate::{exit, files};

/// The version of the JSON answer's shape, versioned as `list`'s is.
const SCHEMA_VERSION: u32 = 1;

/// What the driver declared.
#[derive(Debug, Serialize)]
struct Declared {
    schema_version: u32,
    /// The suite's release: what `--version` prints, and what the `hello`
    /// request told the driver.
    tool_version: &'static str,
    /// The exec protocol version both speak (the binary refuses any other).
    protocol_version: u32,
    /// The driver's id, as it gave it.
    driver: String,
    /// `lexical` when it declared none.
    recall_profile: String,
    /// The optional ops it provides, in its order.
    ops: Vec<&'static str>,
    independent_stores: bool,
    /// The framework interface it serves (`langchain.vectorstore`,
    /// `langgraph.basestore`), whose family a run then checks; absent
    /// when it declared none.
    #[serde(skip_serializing_if = "Option::is_none")]
    interface: Option<String>,
}

pub(crate) fn main(args: &HelloArgs) -> CliResult {
    let Some(command) = args.driver.command() else {
        return Err(CliError::Usage(format!(
            "`hello` asks an exec: driver, and {} is a driver built into this binary, which answers none; \
             expected --driver exec:'COMMAND ARGS'",
            args.driver
        )));
    };
    let config = ExecConfig::default().with_request_timeout(Duration::from_secs(args.call_timeout));
    // The factory's first process answers `hello` and is then ended by
    // main's wait for every driver process, as a run's are.
    let factory = ExecFactory::connect_blocking(command.clone(), config)
        .map_err(|e| crate::driver::not_opened(&e))?;
    let declared = Declared {
        schema_version: SCHEMA_VERSION,
        tool_version: env!("CARGO_PKG_VERSION"),
        protocol_version: tinymemory_exec::protocol::PROTOCOL_VERSION,
        driver: factory.driver_id(),
        recall_profile: factory.recall_profile().to_string(),
        ops: factory.ops().iter().map(|op| op.as_str()).collect(),
        independent_stores: factory.independent_stores(),
        interface: factory.interface().map(str::to_owned),
    };
    drop(factory);
    files::document_stdout(
        &match args.format {
            ListFormat::Text => text(&declared),
            ListFormat::Json => json(&declared),
        },
        args.format == ListFormat::Json,
    )?;
    Ok(exit::SUCCESS)
}

/// `driver ID: protocol 1, the lexical recall profile, ops store_many,
/// independent stores` (and `, the langchain.vectorstore interface` when
/// it serves one), the id escaped.
fn text(d: &Declared) -> String {
    let ops = if d.ops.is_empty() {
        "no optional ops".to_owned()
    } else {
        format!("ops {}", d.ops.join(", "))
    };
    let stores = if d.independent_stores {
        "independent stores"
    } else {
        "one shared store"
    };
    let interface = d
        .interface
        .as_deref()
        .map(|i| format!(", the {i} interface"))
        .unwrap_or_default();
    format!(
        "driver {}: protocol {}, the {} recall profile, {ops}, {stores}{interface}\n",
        visible(&d.driver),
        d.protocol_version,
        d.recall_profile
    )
}

/// The JSON answer, pretty-printed, with a final newline.
fn json(d: &Declared) -> String {
    tinymemory_conformance::report::to_json_text(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(ops: Vec<&'static str>, independent_stores: bool) -> Declared {
        Declared {
            schema_version: 1,
            tool_version: "0.1.0",
            protocol_version: 1,
            driver: "my\u{1b}[2Jdriver".to_owned(),
            recall_profile: "semantic".to_owned(),
            ops,
            independent_stores,
            interface: None,
        }
    }

    #[test]
    fn the_text_names_what_the_driver_declared_its_id_escaped() {
        assert_eq!(
            text(&declared(vec!["store_many", "import"], true)),
            "driver my\\u{1b}[2Jdriver: protocol 1, the semantic recall profile, ops store_many, import, independent stores\n"
        );
        assert_eq!(
            text(&declared(vec![], false)),
            "driver my\\u{1b}[2Jdriver: protocol 1, the semantic recall profile, no optional ops, one shared store\n"
        );
    }

    #[test]
    fn the_json_keeps_the_id_as_given() {
        let value: serde_json::Value =
            serde_json::from_str(&json(&declared(vec!["store_many"], false))).unwrap();
        assert_eq!(
            value,
            serde_json::json!({
                "schema_version": 1, "tool_version": "0.1.0", "protocol_version": 1,
                "driver": "my\u{1b}[2Jdriver", "recall_profile": "semantic",
                "ops": ["store_many"], "independent_stores": false
            })
        );
    }
}

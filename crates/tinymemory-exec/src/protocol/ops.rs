//! The optional ops' names (`store_many`, `export_page`, `import`), as a
//! driver lists them in its `hello` answer. A module of its own, below both
//! `wire` (which reads `hello`) and `optional` (their answers), so the
//! protocol's files import in one direction only.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An op a driver may provide, and declares in its `hello` answer's `ops`.
/// Without one, the suite falls back (`store_many`: one `store` per entry)
/// or reports the family as not provided (`export_page`, `import`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionalOp {
    /// `store_many`: a batch of entries in one request, all or nothing.
    StoreMany,
    /// `export_page`: one page of an export.
    ExportPage,
    /// `import`: records written back with their timestamps.
    Import,
}

impl OptionalOp {
    /// Every optional op, in the order the protocol lists them.
    pub const ALL: [Self; 3] = [Self::StoreMany, Self::ExportPage, Self::Import];

    /// The op's name on the wire: `store_many`, `export_page` or `import`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::StoreMany => "store_many",
            Self::ExportPage => "export_page",
            Self::Import => "import",
        }
    }
}

impl fmt::Display for OptionalOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads an `ops` value: an array of distinct optional op names.
///
/// # Errors
///
/// What is wrong, naming the value: not an array, an element that is not
/// a string, an unknown name (a core op such as `store` included: core ops
/// are never listed) or a name listed twice.
pub(crate) fn parse_ops(value: &Value) -> Result<Vec<OptionalOp>, String> {
    let known = || {
        OptionalOp::ALL
            .iter()
            .map(|op| format!("{:?}", op.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Value::Array(items) = value else {
        return Err(format!("ops {value} that is not an array of op names"));
    };
    let mut ops = Vec::with_capacity(items.len());
    for item in items {
        let op = match item.as_str() {
            Some("store_many") => OptionalOp::StoreMany,
            Some("export_page") => OptionalOp::ExportPage,
            Some("import") => OptionalOp::Import,
            _ => {
                return Err(format!(
                    "unknown op {item} in ops: the optional ops are {}",
                    known()
                ))
            }
        };
        if ops.contains(&op) {
            return Err(format!("op {item} twice in ops"));
        }
        ops.push(op);
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ops_are_known_distinct_names() {
        assert_eq!(
            parse_ops(&json!(["import", "store_many"])),
            Ok(vec![OptionalOp::Import, OptionalOp::StoreMany])
        );
        assert_eq!(parse_ops(&json!([])), Ok(vec![]));
        for (raw, message) in [
            (
                json!(["export"]),
                "unknown op \"export\" in ops: the optional ops are \"store_many\", \"export_page\", \"import\"",
            ),
            (
                json!(["store"]),
                "unknown op \"store\" in ops: the optional ops are \"store_many\", \"export_page\", \"import\"",
            ),
            (
                json!([1]),
                "unknown op 1 in ops: the optional ops are \"store_many\", \"export_page\", \"import\"",
            ),
            (json!(["import", "import"]), "op \"import\" twice in ops"),
            (json!("import"), "ops \"import\" that is not an array of op names"),
            (json!(null), "ops null that is not an array of op names"),
        ] {
            assert_eq!(parse_ops(&raw), Err(message.to_owned()), "{raw}");
        }
    }
}

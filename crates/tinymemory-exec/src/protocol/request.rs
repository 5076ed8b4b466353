//! Requests, as the suite writes them.

use serde::{Deserialize, Serialize};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{Call, MemoryCategory, MemoryTaint};

/// One request: the `op` field names it, the other fields are its
/// arguments. Optional arguments are always written, as `null` when absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// The first request to every process: the suite's protocol version
    /// and its own release. Answer: [`HelloResult`](crate::protocol::HelloResult).
    Hello {
        /// The version the suite speaks, [`PROTOCOL_VERSION`](crate::protocol::PROTOCOL_VERSION).
        protocol: u32,
        /// The suite's release (`0.1.0`, [`SUITE_VERSION`](crate::protocol::SUITE_VERSION)):
        /// what `tinymemory-conformance --version` prints, for a driver's
        /// logs. A driver must not refuse a suite by it (the protocol
        /// version is what two sides agree on). Empty when read from a
        /// trace written before the field existed.
        #[serde(default)]
        suite_version: String,
    },
    /// Empty the store: every entry of every namespace goes. Sent after
    /// `hello` and before every check. Answer: `null`.
    Reset,
    /// `MemoryProvider::store`. Answer: `null`.
    Store {
        /// The namespace, unvalidated: the driver validates it.
        namespace: String,
        /// The key.
        key: String,
        /// The content.
        content: String,
        /// The category's text form (`core`, `daily`, `conversation`,
        /// `custom:<text>`).
        category: MemoryCategory,
        /// The session, or `null`.
        session_id: Option<String>,
        /// `internal` or `external_sync`.
        taint: MemoryTaint,
    },
    /// `MemoryProvider::get`. Answer: an entry or `null`.
    Get {
        /// The namespace.
        namespace: String,
        /// The key.
        key: String,
    },
    /// `MemoryProvider::forget`. Answer: `true` when an entry was removed.
    Forget {
        /// The namespace.
        namespace: String,
        /// The key.
        key: String,
    },
    /// `MemoryProvider::list`. Answer: entries ordered by `(namespace, key)`.
    List {
        /// One namespace, or `null` for every namespace.
        namespace: Option<String>,
        /// Only this category (text form), or `null`.
        category: Option<MemoryCategory>,
        /// Only this session, or `null`.
        session_id: Option<String>,
    },
    /// `MemoryProvider::namespaces`. Answer: summaries, in any order.
    Namespaces,
    /// `MemoryProvider::recall`. Answer: at most `limit` entries, best first.
    Recall {
        /// The plain-text query.
        query: String,
        /// The most hits wanted; `0` wants none.
        limit: u64,
        /// The one namespace to search; `null` means `global`.
        namespace: Option<String>,
        /// Only this category (text form), or `null`.
        category: Option<MemoryCategory>,
        /// Only this session, or `null`.
        session_id: Option<String>,
        /// Drop hits scoring below this (and unscored hits), or `null`.
        /// Always finite: JSON cannot carry NaN or infinities, so the suite
        /// refuses a non-finite `min_score` itself.
        min_score: Option<f64>,
    },
    /// `MemoryProvider::store_many`, optional (`store_many` in the hello
    /// answer's `ops`). Answer: `null`, once every entry is stored; an
    /// error stores nothing of the request.
    StoreMany {
        /// The entries in order, each with the six fields of `store`
        /// (`session_id` written as `null` when absent).
        entries: Vec<NewEntry>,
    },
    /// `MemoryProvider::export_page`, optional (`export_page` in `ops`).
    /// Answer: [`WireExportPage`](crate::protocol::WireExportPage).
    ExportPage {
        /// A `next_cursor` the driver issued, passed back as it was, or
        /// `null` for the first page.
        cursor: Option<String>,
        /// The most records wanted, up to 2^64 - 1; `0` wants none.
        limit: u64,
    },
    /// `MemoryProvider::import`, optional (`import` in `ops`). Answer:
    /// [`WireImportOutcome`](crate::protocol::WireImportOutcome).
    Import {
        /// The records in order, each with every field (`session_id`
        /// written as `null` when absent).
        records: Vec<MemoryRecord>,
    },
    /// `MemoryProvider::interface`, optional (sent only to a driver whose
    /// hello answer declares an `interface`): run one check's scenario of
    /// that framework interface on the store, which is fresh. Answer: an
    /// object, what the scenario observed (docs/protocol.md, "The
    /// interface op").
    Interface {
        /// The check whose scenario to run (`interface.langchain.document_id`).
        check: String,
        /// `true`: through the interface's async methods.
        #[serde(rename = "async")]
        use_async: bool,
        /// The scenario's inputs, chosen by the suite (a JSON object whose
        /// fields the check names: docs/protocol.md, "The interface op").
        inputs: serde_json::Value,
    },
}

/// The request that carries `call` over the protocol: every argument
/// copied, a recall's options spread into its fields, a `usize` limit
/// written as `u64` (saturating, for a platform wider than 64 bits) and an
/// export cursor as its text.
impl From<Call<'_>> for Request {
    fn from(call: Call<'_>) -> Self {
        let wide = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        match call {
            Call::Store {
                namespace,
                key,
                content,
                category,
                session_id,
                taint,
            } => Self::Store {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                content: content.to_owned(),
                category: category.clone(),
                session_id: session_id.map(str::to_owned),
                taint,
            },
            Call::Get { namespace, key } => Self::Get {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            },
            Call::Forget { namespace, key } => Self::Forget {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            },
            Call::List {
                namespace,
                category,
                session_id,
            } => Self::List {
                namespace: namespace.map(str::to_owned),
                category: category.cloned(),
                session_id: session_id.map(str::to_owned),
            },
            Call::Namespaces => Self::Namespaces,
            Call::Recall { query, limit, opts } => Self::Recall {
                query: query.to_owned(),
                limit: wide(limit),
                namespace: opts.namespace.clone(),
                category: opts.category.clone(),
                session_id: opts.session_id.clone(),
                min_score: opts.min_score,
            },
            Call::StoreMany { entries } => Self::StoreMany {
                entries: entries.to_vec(),
            },
            Call::ExportPage { cursor, limit } => Self::ExportPage {
                cursor: cursor.map(|c| c.as_str().to_owned()),
                limit: wide(limit),
            },
            Call::Import { records } => Self::Import {
                records: records.to_vec(),
            },
            Call::Interface {
                check,
                use_async,
                inputs,
                ..
            } => Self::Interface {
                check: check.to_owned(),
                use_async,
                inputs: inputs.clone(),
            },
        }
    }
}

impl Request {
    /// The `op` name: `hello`, `reset`, `store`, `get`, `forget`, `list`,
    /// `namespaces`, `recall`, `store_many`, `export_page`, `import` or
    /// `interface`.
    #[must_use]
    pub fn op(&self) -> &'static str {
        match self {
            Self::Hello { .. } => "hello",
            Self::Reset => "reset",
            Self::Store { .. } => "store",
            Self::Get { .. } => "get",
            Self::Forget { .. } => "forget",
            Self::List { .. } => "list",
            Self::Namespaces => "namespaces",
            Self::Recall { .. } => "recall",
            Self::StoreMany { .. } => "store_many",
            Self::ExportPage { .. } => "export_page",
            Self::Import { .. } => "import",
            Self::Interface { .. } => "interface",
        }
    }
}

impl Request {
    /// The request as a message names it: the op, then the namespace and
    /// key it addresses, or the size of a batch: `` `get` (namespace
    /// "a:b", key "k") ``, `` `store_many` (120 entries) ``, `` `reset` ``.
    /// Strings are quoted with Rust's escapes, so a control character in a
    /// key cannot reach a terminal.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self {
            Self::Store { namespace, key, .. }
            | Self::Get { namespace, key }
            | Self::Forget { namespace, key } => {
                parts.push(format!("namespace {namespace:?}"));
                parts.push(format!("key {key:?}"));
            }
            Self::List {
                namespace: Some(namespace),
                ..
            }
            | Self::Recall {
                namespace: Some(namespace),
                ..
            } => parts.push(format!("namespace {namespace:?}")),
            Self::StoreMany { entries } => parts.push(format!("{} entries", entries.len())),
            Self::Import { records } => parts.push(format!("{} records", records.len())),
            Self::Interface {
                check, use_async, ..
            } => {
                parts.push(format!("check {check:?}"));
                if *use_async {
                    parts.push("async".to_owned());
                }
            }
            _ => {}
        }
        if parts.is_empty() {
            format!("`{}`", self.op())
        } else {
            format!("`{}` ({})", self.op(), parts.join(", "))
        }
    }
}

/// A request with its id, as one line: `{"id":7,"op":"get",...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestLine {
    /// Numbers the requests to one process, from 1 upwards; the answer
    /// carries the same id.
    pub id: u64,
    /// The request.
    #[serde(flatten)]
    pub request: Request,
}

impl RequestLine {
    /// The line, without its newline. Strings are escaped so the line is
    /// pure ASCII.
    #[must_use]
    pub fn to_line(&self) -> String {
        // Serialising these types cannot fail: every map key is a string
        // and the only float, `min_score`, becomes `null` if not finite.
        let json = serde_json::to_string(self).unwrap_or_default();
        ascii_only(&json)
    }
}

/// The length in bytes of `ascii_only(json)`, without building it.
pub(crate) fn ascii_len(json: &str) -> usize {
    json.chars()
        .map(|c| if c.is_ascii() { 1 } else { 6 * c.len_utf16() })
        .sum()
}

/// `json` with every non-ASCII character written as `\uXXXX` escapes, so a
/// driver reading its stdin in any 8-bit encoding still parses it. Non-ASCII
/// characters only occur inside JSON strings, where the escape is valid.
fn ascii_only(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_carry_id_op_and_every_argument() {
        let line = RequestLine {
            id: 3,
            request: Request::Recall {
                query: "zebra é 🦀".into(),
                limit: 10,
                namespace: None,
                category: Some(MemoryCategory::Custom("x".into())),
                session_id: None,
                min_score: Some(0.5),
            },
        };
        assert_eq!(
            line.to_line(),
            r#"{"id":3,"op":"recall","query":"zebra \u00e9 \ud83e\udd80","limit":10,"namespace":null,"category":"custom:x","session_id":null,"min_score":0.5}"#
        );
        let back: RequestLine = serde_json::from_str(&line.to_line()).unwrap();
        assert_eq!(back, line);
        assert_eq!(
            RequestLine {
                id: 1,
                request: Request::Reset
            }
            .to_line(),
            r#"{"id":1,"op":"reset"}"#
        );
    }

    #[test]
    fn a_request_is_described_by_its_op_and_what_it_addresses() {
        let get = Request::Get {
            namespace: "a:b".into(),
            key: "k\u{1b}".into(),
        };
        assert_eq!(get.describe(), r#"`get` (namespace "a:b", key "k\u{1b}")"#);
        let recall = Request::Recall {
            query: "q".into(),
            limit: 3,
            namespace: Some("learning:x".into()),
            category: None,
            session_id: None,
            min_score: None,
        };
        assert_eq!(recall.describe(), r#"`recall` (namespace "learning:x")"#);
        let many = Request::StoreMany {
            entries: vec![NewEntry::new("global", "a", "x"); 3],
        };
        assert_eq!(many.describe(), "`store_many` (3 entries)");
        assert_eq!(Request::Namespaces.describe(), "`namespaces`");
    }

    #[test]
    fn a_call_becomes_the_request_of_its_op_with_every_argument() {
        use tinymemory_api::portability::ExportCursor;
        use tinymemory_api::RecallOptions;

        let opts = RecallOptions {
            namespace: Some("learning:a".into()),
            category: Some(MemoryCategory::Daily),
            session_id: Some("s".into()),
            min_score: Some(0.25),
        };
        let recall = Request::from(Call::Recall {
            query: "comet",
            limit: 4,
            opts: &opts,
        });
        assert_eq!(
            recall,
            Request::Recall {
                query: "comet".into(),
                limit: 4,
                namespace: Some("learning:a".into()),
                category: Some(MemoryCategory::Daily),
                session_id: Some("s".into()),
                min_score: Some(0.25),
            }
        );
        let custom = MemoryCategory::Custom("x".into());
        let store = Request::from(Call::Store {
            namespace: "global",
            key: "k",
            content: "c",
            category: &custom,
            session_id: None,
            taint: MemoryTaint::ExternalSync,
        });
        assert_eq!(
            RequestLine {
                id: 1,
                request: store
            }
            .to_line(),
            r#"{"id":1,"op":"store","namespace":"global","key":"k","content":"c","category":"custom:x","session_id":null,"taint":"external_sync"}"#
        );
        let cursor = ExportCursor::new("after:k".to_owned());
        assert_eq!(
            Request::from(Call::ExportPage {
                cursor: Some(&cursor),
                limit: usize::MAX
            }),
            Request::ExportPage {
                cursor: Some("after:k".into()),
                limit: u64::MAX
            }
        );
        assert_eq!(
            RequestLine {
                id: 3,
                request: Request::from(Call::Interface {
                    interface: "langchain.vectorstore",
                    check: "interface.langchain.delete_missing",
                    use_async: false,
                    inputs: &serde_json::json!({"missing_ids": ["m"]}),
                })
            }
            .to_line(),
            r#"{"id":3,"op":"interface","check":"interface.langchain.delete_missing","async":false,"inputs":{"missing_ids":["m"]}}"#
        );
        for method in tinymemory_api::Method::ALL {
            let call = match method {
                tinymemory_api::Method::Store => Call::Store {
                    namespace: "global",
                    key: "k",
                    content: "c",
                    category: &custom,
                    session_id: None,
                    taint: MemoryTaint::Internal,
                },
                tinymemory_api::Method::Get => Call::Get {
                    namespace: "g",
                    key: "k",
                },
                tinymemory_api::Method::Forget => Call::Forget {
                    namespace: "g",
                    key: "k",
                },
                tinymemory_api::Method::List => Call::List {
                    namespace: None,
                    category: None,
                    session_id: None,
                },
                tinymemory_api::Method::Namespaces => Call::Namespaces,
                tinymemory_api::Method::Recall => Call::Recall {
                    query: "q",
                    limit: 1,
                    opts: &opts,
                },
                tinymemory_api::Method::StoreMany => Call::StoreMany { entries: &[] },
                tinymemory_api::Method::ExportPage => Call::ExportPage {
                    cursor: None,
                    limit: 0,
                },
                tinymemory_api::Method::Import => Call::Import { records: &[] },
                tinymemory_api::Method::Interface => Call::Interface {
                    interface: "langchain.vectorstore",
                    check: "interface.langchain.document_id",
                    use_async: true,
                    inputs: &serde_json::Value::Null,
                },
            };
            assert_eq!(
                Request::from(call).op(),
                method.as_str(),
                "the op is the method's name"
            );
        }
    }

    #[test]
    fn control_characters_are_escaped() {
        let line = RequestLine {
            id: 2,
            request: Request::Get {
                namespace: "nul\0".into(),
                key: "a\nb".into(),
            },
        };
        assert_eq!(
            line.to_line(),
            r#"{"id":2,"op":"get","namespace":"nul\u0000","key":"a\nb"}"#
        );
    }
}

//! The JSON Schemas of `fixtures/protocol` against both sides of the wire:
//! the requests this crate writes, the answers the Python examples give,
//! and a table of malformed answers that the schemas and the Rust decoder
//! must refuse alike.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryCategory, MemoryTaint};
use tinymemory_exec::protocol::{
    parse_answer, Answer, HelloResult, Request, RequestLine, WireEntry, WireExportPage,
    WireImportOutcome, WireSummary, PROTOCOL_VERSION, SUITE_VERSION,
};

use crate::schema_check::Schemas;
use crate::support::examples_dir;

const OPS: [&str; 12] = [
    "hello",
    "reset",
    "store",
    "get",
    "forget",
    "list",
    "namespaces",
    "recall",
    "store_many",
    "export_page",
    "import",
    "interface",
];

#[test]
fn there_is_a_schema_for_every_message() {
    let mut want: Vec<String> = vec![
        "answer.error.schema.json".into(),
        "entry.schema.json".into(),
        "namespace-summary.schema.json".into(),
        "record.schema.json".into(),
    ];
    for op in OPS {
        want.push(format!("request.{op}.schema.json"));
        want.push(format!("answer.{op}.schema.json"));
    }
    want.sort();
    assert_eq!(Schemas::load().names(), want);
}

#[test]
fn every_schema_opens_with_the_same_header() {
    assert_eq!(Schemas::load().header_problems(), Vec::<String>::new());
}

/// One request of every op, with optional fields both set and unset.
fn requests() -> Vec<Request> {
    let s = |x: &str| x.to_owned();
    vec![
        Request::Hello {
            protocol: PROTOCOL_VERSION,
            suite_version: SUITE_VERSION.to_owned(),
        },
        Request::Reset,
        Request::Store {
            namespace: s("global"),
            key: s("k1"),
            content: s("zebra crossing at dawn"),
            category: MemoryCategory::Core,
            session_id: None,
            taint: MemoryTaint::Internal,
        },
        Request::Store {
            namespace: s("learning:rust"),
            key: s("k2"),
            content: s("zebra é 🦀 with \"quotes\" and \0 NUL"),
            category: MemoryCategory::Custom(s("projects")),
            session_id: Some(s("session-7")),
            taint: MemoryTaint::ExternalSync,
        },
        Request::Get {
            namespace: s("global"),
            key: s("k1"),
        },
        Request::Get {
            namespace: s("global"),
            key: s("missing"),
        },
        Request::Get {
            namespace: s("has space"),
            key: s("k1"),
        },
        Request::List {
            namespace: None,
            category: None,
            session_id: None,
        },
        Request::List {
            namespace: Some(s("learning:rust")),
            category: Some(MemoryCategory::Custom(s("projects"))),
            session_id: Some(s("session-7")),
        },
        Request::Namespaces,
        Request::Recall {
            query: s("zebra"),
            limit: 10,
            namespace: None,
            category: None,
            session_id: None,
            min_score: None,
        },
        Request::Recall {
            query: s("zebra NEAR( \"x"),
            limit: 0,
            namespace: Some(s("learning:rust")),
            category: Some(MemoryCategory::Custom(s("projects"))),
            session_id: Some(s("session-7")),
            min_score: Some(0.25),
        },
        Request::Recall {
            query: s("zebra"),
            limit: 5,
            namespace: Some(s("learning:")),
            category: None,
            session_id: None,
            min_score: None,
        },
        Request::Forget {
            namespace: s("global"),
            key: s("k1"),
        },
        Request::Forget {
            namespace: s("global"),
            key: s("k1"),
        },
        Request::StoreMany {
            entries: vec![
                NewEntry::new("global", "m1", "zebra many"),
                NewEntry::new("learning:rust", "m2", "é 🦀")
                    .with_category(MemoryCategory::Custom(s("projects")))
                    .with_session("session-7")
                    .with_taint(MemoryTaint::ExternalSync),
            ],
        },
        Request::ExportPage {
            cursor: None,
            limit: 1,
        },
        Request::ExportPage {
            cursor: None,
            limit: u64::MAX,
        },
        Request::Import {
            records: vec![
                MemoryRecord {
                    namespace: s("imported"),
                    key: s("r1"),
                    content: s("kept as exported"),
                    category: MemoryCategory::Daily,
                    session_id: Some(s("s")),
                    taint: MemoryTaint::ExternalSync,
                    timestamp: s("2020-02-29T12:00:00.5Z"),
                },
                MemoryRecord {
                    namespace: s("imported"),
                    key: s("r2"),
                    content: s("refused"),
                    category: MemoryCategory::Core,
                    session_id: None,
                    taint: MemoryTaint::Internal,
                    timestamp: s("yesterday"),
                },
            ],
        },
    ]
}

fn lines() -> Vec<(&'static str, String)> {
    requests()
        .into_iter()
        .zip(1..)
        .map(|(request, id)| (request.op(), RequestLine { id, request }.to_line()))
        .collect()
}

#[test]
fn every_request_the_suite_writes_matches_its_schema_only() {
    let schemas = Schemas::load();
    for (op, line) in lines() {
        let value: Value = serde_json::from_str(&line).unwrap();
        schemas
            .validate(&format!("request.{op}.schema.json"), &value)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        for other in OPS.iter().filter(|o| **o != op) {
            assert!(
                schemas
                    .validate(&format!("request.{other}.schema.json"), &value)
                    .is_err(),
                "{line} also matches request.{other}"
            );
        }
    }
}

#[test]
fn the_interface_request_and_its_answer_match_their_schemas_only() {
    let schemas = Schemas::load();
    let line = RequestLine {
        id: 2,
        request: Request::Interface {
            check: "interface.langchain.delete_missing".to_owned(),
            use_async: true,
            inputs: serde_json::json!({"missing_ids": ["7c9e6679-7425-40de-944b-e07fc1f90b01"]}),
        },
    }
    .to_line();
    let value: Value = serde_json::from_str(&line).unwrap();
    schemas
        .validate("request.interface.schema.json", &value)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    for other in OPS.iter().filter(|o| **o != "interface") {
        assert!(
            schemas
                .validate(&format!("request.{other}.schema.json"), &value)
                .is_err(),
            "{line} also matches request.{other}"
        );
    }
    let answer = json!({"id": 2, "result": {"delete_one": {"ok": null}}});
    schemas
        .validate("answer.interface.schema.json", &answer)
        .unwrap();
    assert!(schemas
        .validate(
            "answer.interface.schema.json",
            &json!({"id": 2, "result": []})
        )
        .is_err());
    let hello = json!({"id": 1, "result": {"protocol": 1, "driver": "d", "interface": "langchain.vectorstore"}});
    schemas
        .validate("answer.hello.schema.json", &hello)
        .unwrap();
    let decoded: HelloResult = serde_json::from_value(hello["result"].clone()).unwrap();
    assert_eq!(decoded.interface.as_deref(), Some("langchain.vectorstore"));
}

/// Runs `script` over every request line and returns each answer with the
/// op it answers.
fn transcript(script: &str) -> Vec<(&'static str, Value)> {
    let mut child = Command::new("python3")
        .arg(examples_dir().join(script))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let lines = lines();
    {
        let mut stdin = child.stdin.take().unwrap();
        for (_, line) in &lines {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let answers: Vec<Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).expect("an answer is JSON"))
        .collect();
    assert!(child.wait().unwrap().success());
    assert_eq!(answers.len(), lines.len());
    lines.into_iter().map(|(op, _)| op).zip(answers).collect()
}

#[test]
fn every_answer_of_the_examples_matches_its_schema() {
    let schemas = Schemas::load();
    // A lexical driver leaves recall_profile out (absent means lexical).
    for (script, profile) in [
        ("memory_driver.py", None),
        ("sqlite_driver.py", None),
        ("semantic_driver.py", Some(json!("semantic"))),
    ] {
        let answers = transcript(script);
        assert_eq!(answers[0].0, "hello");
        assert_eq!(
            answers[0].1["result"].get("recall_profile"),
            profile.as_ref(),
            "{script}"
        );
        let mut errors = 0;
        for (op, answer) in &answers {
            let schema = if answer.get("error").is_some() {
                errors += 1;
                "answer.error.schema.json".to_owned()
            } else {
                format!("answer.{op}.schema.json")
            };
            schemas
                .validate(&schema, answer)
                .unwrap_or_else(|e| panic!("{script}: {answer} against {schema}: {e}"));
        }
        // The two invalid namespaces, and nothing else, were refused.
        assert_eq!(errors, 2, "{script}: {answers:?}");
        assert_eq!(
            answers[0].1["result"]["ops"],
            json!(["store_many", "export_page", "import"]),
            "{script}"
        );
        let import = &answers.last().unwrap().1["result"];
        assert_eq!(import["imported"], json!(1), "{script}");
        assert_eq!(
            import["failures"][0]["error"]["rule"],
            json!("import.timestamp"),
            "{script}"
        );
    }
}

/// Whether the Rust side takes `answer` as a valid answer to `op`
/// (request id 1).
fn rust_accepts(op: &str, answer: &Value) -> bool {
    match parse_answer(answer.to_string().as_bytes(), 1) {
        Err(_) => false,
        Ok(Answer::Error(e)) => e.into_memory_error().is_ok(),
        Ok(Answer::Result(v)) => match op {
            "hello" => {
                serde_json::from_value::<HelloResult>(v).is_ok_and(|h| !h.driver.trim().is_empty())
            }
            "reset" | "store" => v.is_null(),
            "get" => serde_json::from_value::<Option<WireEntry>>(v).is_ok(),
            "forget" => serde_json::from_value::<bool>(v).is_ok(),
            "list" | "recall" => serde_json::from_value::<Vec<WireEntry>>(v).is_ok(),
            "namespaces" => serde_json::from_value::<Vec<WireSummary>>(v).is_ok(),
            "store_many" => v.is_null(),
            "export_page" => serde_json::from_value::<WireExportPage>(v).is_ok(),
            "import" => serde_json::from_value::<WireImportOutcome>(v).is_ok(),
            other => panic!("unknown op {other}"),
        },
    }
}

fn entry() -> Value {
    json!({
        "id": "1", "key": "k", "content": "c", "namespace": "global", "category": "core",
        "timestamp": "2026-01-01T00:00:00.000000Z", "session_id": null, "score": null,
        "taint": "internal"
    })
}

fn record() -> Value {
    json!({
        "namespace": "global", "key": "k", "content": "c", "category": "core",
        "session_id": null, "taint": "external_sync", "timestamp": "2026-01-01T00:00:00Z"
    })
}

fn with(mut value: Value, field: &str, new: Option<Value>) -> Value {
    let object = value.as_object_mut().unwrap();
    match new {
        Some(v) => object.insert(field.to_owned(), v),
        None => object.remove(field),
    };
    value
}

#[test]
fn the_schemas_and_the_decoder_accept_and_refuse_alike() {
    let schemas = Schemas::load();
    let ok = |result: Value| json!({"id": 1, "result": result});
    let err = |error: Value| json!({"id": 1, "error": error});
    let cases: Vec<(&str, Value, bool)> = vec![
        ("hello", ok(json!({"protocol": 1, "driver": "d"})), true),
        ("hello", ok(json!({"protocol": 1, "driver": ""})), false),
        ("hello", ok(json!({"protocol": 1})), false),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "recall_profile": "lexical"})),
            true,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "recall_profile": "semantic"})),
            true,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "recall_profile": "vector"})),
            false,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "recall_profile": "Semantic"})),
            false,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "recall_profile": 1})),
            false,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "recall_profile": null})),
            false,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "profile": "semantic"})),
            false,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "ops": ["import", "store_many"]})),
            true,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "ops": []})),
            true,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "ops": ["export"]})),
            false,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "ops": "import"})),
            false,
        ),
        (
            "hello",
            ok(json!({"protocol": 1, "driver": "d", "ops": null})),
            false,
        ),
        ("reset", ok(Value::Null), true),
        ("store_many", ok(Value::Null), true),
        ("store_many", ok(json!([])), false),
        (
            "export_page",
            ok(json!({"records": [record()], "next_cursor": "c"})),
            true,
        ),
        (
            "export_page",
            ok(json!({"records": [], "next_cursor": null})),
            true,
        ),
        ("export_page", ok(json!({"records": []})), false),
        (
            "export_page",
            ok(json!({"records": [], "next_cursor": 3})),
            false,
        ),
        (
            "export_page",
            ok(
                json!({"records": [with(record(), "score", Some(Value::Null))], "next_cursor": null}),
            ),
            false,
        ),
        (
            "export_page",
            ok(json!({"records": [with(record(), "timestamp", None)], "next_cursor": null})),
            false,
        ),
        (
            "export_page",
            ok(
                json!({"records": [with(record(), "taint", Some(json!("Internal")))], "next_cursor": null}),
            ),
            false,
        ),
        ("export_page", ok(json!([record()])), false),
        ("import", ok(json!({"imported": 2, "failures": []})), true),
        (
            "import",
            ok(
                json!({"imported": 0, "failures": [{"index": 0, "namespace": "n", "key": "k",
                "error": {"kind": "invalid", "rule": "import.timestamp", "message": "m"}}]}),
            ),
            true,
        ),
        ("import", ok(json!({"imported": 2})), false),
        ("import", ok(json!({"imported": -1, "failures": []})), false),
        (
            "import",
            ok(json!({"imported": 0, "failures": [{"index": 0, "namespace": "n", "key": "k"}]})),
            false,
        ),
        (
            "import",
            ok(
                json!({"imported": 0, "failures": [{"index": 0, "namespace": "n", "key": "k",
                "error": {"kind": "oops", "message": "m"}}]}),
            ),
            false,
        ),
        ("store", ok(json!(1)), false),
        ("get", ok(entry()), true),
        ("get", ok(Value::Null), true),
        ("get", ok(with(entry(), "timestamp", None)), false),
        ("get", ok(with(entry(), "ns", Some(json!("global")))), false),
        (
            "get",
            ok(with(entry(), "taint", Some(json!("Internal")))),
            false,
        ),
        ("get", ok(with(entry(), "score", Some(json!("0.5")))), false),
        ("get", ok(with(entry(), "session_id", None)), false),
        (
            "recall",
            ok(json!([with(entry(), "score", Some(json!(0.5)))])),
            true,
        ),
        (
            "recall",
            ok(json!([with(entry(), "namespace", Some(Value::Null))])),
            true,
        ),
        ("list", ok(entry()), false),
        ("forget", ok(json!(true)), true),
        ("forget", ok(json!("true")), false),
        (
            "namespaces",
            ok(json!([{"namespace": "global", "count": 2, "last_updated": null}])),
            true,
        ),
        (
            "namespaces",
            ok(json!([{"namespace": "global", "count": 0, "last_updated": null}])),
            true,
        ),
        (
            "namespaces",
            ok(json!([{"namespace": "global", "count": -1, "last_updated": null}])),
            false,
        ),
        (
            "namespaces",
            ok(json!([{"namespace": "global", "count": 1}])),
            false,
        ),
        (
            "get",
            err(json!({"kind": "invalid", "rule": "namespace.charset", "message": "m"})),
            true,
        ),
        (
            "get",
            err(json!({"kind": "invalid", "rule": "mydriver.own-rule", "message": "m"})),
            true,
        ),
        (
            "get",
            err(json!({"kind": "invalid", "message": "m"})),
            false,
        ),
        (
            "get",
            err(json!({"kind": "invalid", "rule": "Bad Rule", "message": "m"})),
            false,
        ),
        ("get", err(json!({"kind": "backend", "message": "m"})), true),
        (
            "get",
            err(json!({"kind": "unavailable", "message": "m", "rule": "x.y"})),
            true,
        ),
        ("get", err(json!({"kind": "oops", "message": "m"})), false),
        ("get", err(json!({"kind": "backend"})), false),
        (
            "get",
            err(json!({"kind": "backend", "message": "m", "trace": "t"})),
            false,
        ),
        (
            "get",
            json!({"id": 1, "result": null, "error": {"kind": "backend", "message": "m"}}),
            false,
        ),
        ("get", json!({"id": 1, "result": null, "extra": 1}), false),
        ("get", json!({"id": 1}), false),
    ];
    for (op, answer, accepted) in cases {
        let schema = if answer.get("error").is_some() && answer.get("result").is_none() {
            "answer.error.schema.json".to_owned()
        } else {
            format!("answer.{op}.schema.json")
        };
        let by_schema = schemas.validate(&schema, &answer);
        assert_eq!(
            by_schema.is_ok(),
            accepted,
            "{schema} on {answer}: {by_schema:?}"
        );
        assert_eq!(
            rust_accepts(op, &answer),
            accepted,
            "the decoder on {op}: {answer}"
        );
    }
}

//! The trace records the optional ops: `Traced` forwards `store_many`,
//! `export_page` and `import` to the driver it wraps and writes each as the
//! exec protocol's request and answer; an exec driver's session writes the
//! lines it sends to the trace of its `ExecConfig`.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::{KeysetCursor, MemoryRecord};
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
use tinymemory_exec::trace::{Trace, Traced};
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver};
use tinymemory_reference::ReferenceDriver;

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn lines(&self) -> Vec<Value> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn record(key: &str, timestamp: &str) -> MemoryRecord {
    MemoryRecord {
        namespace: "global".into(),
        key: key.into(),
        content: "kept".into(),
        category: MemoryCategory::Daily,
        session_id: None,
        taint: MemoryTaint::ExternalSync,
        timestamp: timestamp.into(),
    }
}

/// The `request` or `answer` object of each line, pid null or not.
fn exchanges(lines: &[Value], in_process: bool) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["pid"].is_null() == in_process)
        .map(|l| l.get("request").or(l.get("answer")).unwrap().clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_optional_ops_are_traced_in_process_and_over_the_protocol() {
    let buffer = Buffer::default();
    let trace = Trace::new(Box::new(buffer.clone()));

    let d = Traced::new(ReferenceDriver::new(), trace.clone());
    d.store_many(&[NewEntry::new("global", "a", "zebra")])
        .await
        .unwrap();
    let page = d.export_page(None, 0).await.unwrap();
    assert_eq!(page.next_cursor, Some(KeysetCursor::start().encode()));
    let outcome = d
        .import(&[record("b", "2026-01-01T00:00:00Z"), record("c", "bad")])
        .await
        .unwrap();
    assert_eq!(outcome.imported, 1);
    assert_eq!(
        d.get("global", "b").await.unwrap().unwrap().timestamp,
        "2026-01-01T00:00:00Z"
    );

    let start = KeysetCursor::start().encode().into_string();
    let traced = exchanges(&buffer.lines(), true);
    assert_eq!(
        traced[..6],
        [
            json!({"op": "store_many", "entries": [{"namespace": "global", "key": "a", "content": "zebra",
                   "category": "core", "session_id": null, "taint": "internal"}]}),
            json!({"result": null}),
            json!({"op": "export_page", "cursor": null, "limit": 0}),
            json!({"result": {"records": [], "next_cursor": start}}),
            json!({"op": "import", "records": [
                {"namespace": "global", "key": "b", "content": "kept", "category": "daily",
                 "session_id": null, "taint": "external_sync", "timestamp": "2026-01-01T00:00:00Z"},
                {"namespace": "global", "key": "c", "content": "kept", "category": "daily",
                 "session_id": null, "taint": "external_sync", "timestamp": "bad"}]}),
            json!({"result": {"imported": 1, "failures": [{"index": 1, "namespace": "global", "key": "c",
                   "error": {"kind": "invalid", "rule": "import.timestamp",
                             "message": "invalid input (import.timestamp): timestamp \"bad\" is not RFC 3339"}}]}}),
        ]
    );

    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/python/memory_driver.py"
    );
    let exec = ExecDriver::spawn(
        &ExecCommand::new("python3", [script]),
        ExecConfig::default().with_trace(trace.clone()),
    )
    .await
    .unwrap();
    exec.store_many(&[NewEntry::new("global", "a", "zebra")])
        .await
        .unwrap();
    let sent = exchanges(&buffer.lines(), false);
    // hello, reset, then the store_many request and its answer. hello
    // names the suite's release, the workspace's version (docs/release.md).
    assert_eq!(
        sent[0],
        json!({"id": 1, "op": "hello", "protocol": 1, "suite_version": env!("CARGO_PKG_VERSION")})
    );
    assert_eq!(
        sent[1]["result"]["ops"],
        json!(["store_many", "export_page", "import"])
    );
    assert_eq!(
        sent[4],
        json!({"id": 3, "op": "store_many", "entries": [{"namespace": "global", "key": "a",
               "content": "zebra", "category": "core", "session_id": null, "taint": "internal"}]})
    );
    assert_eq!(sent[5], json!({"id": 3, "result": null}));
}

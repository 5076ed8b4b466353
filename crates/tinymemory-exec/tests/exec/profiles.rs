//! The recall profile a driver declares in its `hello` answer: absent means
//! lexical, `lexical` and `semantic` are taken, anything else fails the
//! start with a message naming the value. Also the Python library's side:
//! the profile a store declares, and panics answered as backend errors.

use tinymemory_api::{MemoryError, MemoryProvider, RecallOptions, RecallProfile};
use tinymemory_conformance::DriverFactory;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver, ExecFactory};

use crate::support::{example, inline, misbehave};

/// A driver whose `hello` result is `result`, the in-memory example
/// otherwise.
fn hello_answering(result: &serde_json::Value) -> ExecCommand {
    misbehave("hello", Some(&result.to_string()))
}

/// The error opening a factory over `command` gives, after checking that
/// the driver and the blocking constructors give the same.
async fn start_error(command: &ExecCommand) -> MemoryError {
    let e = ExecFactory::connect(command.clone(), ExecConfig::default())
        .await
        .unwrap_err();
    let blocking =
        ExecFactory::connect_blocking(command.clone(), ExecConfig::default()).unwrap_err();
    assert_eq!(blocking, e);
    let driver = ExecDriver::spawn(command, ExecConfig::default())
        .await
        .unwrap_err();
    assert_eq!(driver, e);
    e
}

/// The profile of a factory and of a driver over `command`, which must
/// agree.
async fn declared(command: &ExecCommand) -> RecallProfile {
    let f = ExecFactory::connect(command.clone(), ExecConfig::default())
        .await
        .expect("the driver starts");
    assert_eq!(f.recall_profile(), DriverFactory::recall_profile(&f));
    let d = ExecDriver::spawn(command, ExecConfig::default())
        .await
        .expect("the driver starts");
    assert_eq!(d.recall_profile(), f.recall_profile());
    let store = f.open().await.expect("a store opens");
    assert_eq!(store.list(None, None, None).await.unwrap(), Vec::new());
    f.recall_profile()
}

#[tokio::test]
async fn a_hello_without_recall_profile_is_lexical() {
    let command = hello_answering(&serde_json::json!({"protocol": 1, "driver": "plain"}));
    assert_eq!(declared(&command).await, RecallProfile::Lexical);
}

#[tokio::test]
async fn a_declared_profile_is_taken() {
    for (text, profile) in [
        ("lexical", RecallProfile::Lexical),
        ("semantic", RecallProfile::Semantic),
    ] {
        let command = hello_answering(
            &serde_json::json!({"protocol": 1, "driver": "d", "recall_profile": text}),
        );
        assert_eq!(declared(&command).await, profile, "{text}");
    }
}

#[tokio::test]
async fn the_examples_declare_their_profiles() {
    for (script, profile) in [
        ("memory_driver.py", RecallProfile::Lexical),
        ("sqlite_driver.py", RecallProfile::Lexical),
        ("broken_driver.py", RecallProfile::Lexical),
        ("semantic_driver.py", RecallProfile::Semantic),
    ] {
        assert_eq!(declared(&example(script, &[])).await, profile, "{script}");
    }
    let d = ExecDriver::spawn_blocking(&example("semantic_driver.py", &[]), ExecConfig::default())
        .unwrap();
    assert_eq!(
        (d.driver_id(), d.recall_profile()),
        ("python-semantic", RecallProfile::Semantic)
    );
}

#[tokio::test]
async fn an_unknown_profile_fails_the_start_naming_it() {
    for (raw, shown) in [
        (serde_json::json!("vector"), "\"vector\""),
        (serde_json::json!("Semantic"), "\"Semantic\""),
        (serde_json::json!(""), "\"\""),
        (serde_json::json!(3), "3 (not a string)"),
        (serde_json::json!(null), "null (not a string)"),
        (
            serde_json::json!(["semantic"]),
            "[\"semantic\"] (not a string)",
        ),
    ] {
        let command = hello_answering(
            &serde_json::json!({"protocol": 1, "driver": "d", "recall_profile": raw}),
        );
        assert_eq!(
            start_error(&command).await,
            MemoryError::fault(format!(
                "failed to start `{command}`: its hello answer declares an unknown recall profile \
                 {shown}: expected \"lexical\" or \"semantic\" (leave recall_profile out for \
                 lexical; docs/protocol.md)"
            )),
            "{raw}"
        );
    }
}

/// An interface name this suite has no checks of (a typo such as
/// `langchain.vectorstor`, another framework's) fails the start, as an
/// unknown profile does: accepted, it would skip the whole interface
/// family without a word, and the store's own interface would never be
/// checked.
#[tokio::test]
async fn an_unknown_interface_fails_the_start_naming_it() {
    for (raw, shown) in [
        (
            serde_json::json!("langchain.vectorstor"),
            "\"langchain.vectorstor\"",
        ),
        (
            serde_json::json!("LangGraph.BaseStore"),
            "\"LangGraph.BaseStore\"",
        ),
        (serde_json::json!(""), "\"\""),
    ] {
        let command =
            hello_answering(&serde_json::json!({"protocol": 1, "driver": "d", "interface": raw}));
        assert_eq!(
            start_error(&command).await,
            MemoryError::fault(format!(
                "failed to start `{command}`: its hello answer declares an unknown interface \
                 {shown}: expected \"langchain.vectorstore\" or \"langgraph.basestore\" \
                 (leave interface out for none; docs/protocol.md)"
            )),
            "{raw}"
        );
    }
}

#[tokio::test]
async fn a_known_interface_is_kept() {
    for name in ["langchain.vectorstore", "langgraph.basestore"] {
        let command =
            hello_answering(&serde_json::json!({"protocol": 1, "driver": "d", "interface": name}));
        let f = ExecFactory::connect(command.clone(), ExecConfig::default())
            .await
            .unwrap();
        assert_eq!(f.interface(), Some(name));
    }
}

#[tokio::test]
async fn another_version_is_told_before_an_unknown_profile() {
    let command = hello_answering(
        &serde_json::json!({"protocol": 2, "driver": "d", "recall_profile": "vector"}),
    );
    assert_eq!(
        start_error(&command).await,
        MemoryError::fault(format!(
            "failed to start `{command}`: it speaks protocol version 2, this suite speaks \
             version 1 (docs/protocol.md)"
        ))
    );
}

#[tokio::test]
async fn a_malformed_hello_with_a_profile_is_quoted_whole() {
    let command =
        hello_answering(&serde_json::json!({"protocol": 1, "recall_profile": "semantic"}));
    assert_eq!(
        start_error(&command).await,
        MemoryError::fault(format!(
            "failed to read the answer to `hello` from `{command}`: missing field `driver`; \
             the result was {{\"protocol\":1,\"recall_profile\":\"semantic\"}}"
        ))
    );
}

#[tokio::test]
async fn the_python_library_declares_the_store_profile_or_the_serve_argument() {
    let by_attribute = inline(
        "class S(MemoryStore):\n    recall_profile = tp.SEMANTIC\ntp.serve(S(), 'd')\n",
        &[],
    );
    assert_eq!(declared(&by_attribute).await, RecallProfile::Semantic);
    let by_argument = inline(
        "tp.serve(MemoryStore(), 'd', recall_profile=sys.argv[1])\n",
        &["semantic"],
    );
    assert_eq!(declared(&by_argument).await, RecallProfile::Semantic);
}

#[tokio::test]
async fn the_python_library_refuses_an_unknown_profile_before_hello() {
    let command = inline(
        "class S(MemoryStore):\n    recall_profile = 'vector'\ntp.serve(S(), 'd')\n",
        &[],
    );
    let e = ExecFactory::connect(command, ExecConfig::default())
        .await
        .unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    let message = e.to_string();
    for part in [
        "failed to get an answer to `hello`",
        "exit status: 1",
        "| ValueError: unknown recall profile 'vector': expected 'lexical' or 'semantic'",
    ] {
        assert!(message.contains(part), "{part:?} is not in:\n{message}");
    }
}

#[tokio::test]
async fn a_later_process_declaring_another_profile_fails_its_open() {
    assert_eq!(later_process_unlike_the_first(0).await, 2);
}

/// A driver whose first process declares semantic and every later one
/// lexical, after `start_ahead(ahead)`: the second open fails naming both
/// profiles. Returns how many processes the factory started.
pub(crate) async fn later_process_unlike_the_first(ahead: usize) -> u64 {
    let dir = std::env::temp_dir().join(format!(
        "tinymemory-exec-profile-{}-{ahead}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&dir);
    let marker = dir.to_string_lossy().into_owned();
    let command = inline(
        "import os\nfirst = not os.path.exists(sys.argv[1])\nopen(sys.argv[1], 'a').close()\n\
         tp.serve(MemoryStore(), 'd', recall_profile=tp.SEMANTIC if first else tp.LEXICAL)\n",
        &[&marker],
    );
    let f = ExecFactory::connect(command.clone(), ExecConfig::default())
        .await
        .unwrap();
    assert_eq!(f.recall_profile(), RecallProfile::Semantic);
    f.start_ahead(ahead);
    let first = f.open().await.expect("the first process is reused");
    let Err(e) = f.open().await else {
        panic!("a second process declaring lexical was accepted");
    };
    assert_eq!(
        e,
        MemoryError::fault(format!(
            "failed to start `{command}`: this process declares recall profile lexical, the \
             driver's first process declared semantic; every process of a driver must declare \
             the same profile"
        ))
    );
    drop(first);
    let _ = std::fs::remove_file(&dir);
    f.processes_started()
}

#[tokio::test]
async fn a_base_exception_in_the_driver_is_its_backend_error() {
    let d = ExecDriver::spawn(&misbehave("panic", Some("zebra")), ExecConfig::default())
        .await
        .unwrap();
    let e = d
        .recall("zebra", 10, &RecallOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    let message = e.to_string();
    assert!(
        message.starts_with(
            "backend failure: PanicException: called `Option::unwrap()` on a `None` value"
        ),
        "{message}"
    );
    assert!(d.is_usable());
    assert_eq!(
        d.recall("other", 10, &RecallOptions::default())
            .await
            .unwrap(),
        Vec::new()
    );
}

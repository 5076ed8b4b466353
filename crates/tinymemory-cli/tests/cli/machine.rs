//! What the binary prints for programs (docs/reports.md): `list --format
//! json`, held to `fixtures/cli/list.schema.json` and to the human
//! listing.

use std::path::PathBuf;

use serde_json::Value;

use crate::support::bin::run;
use crate::support::schema_check::Schemas;

fn schemas() -> Schemas {
    Schemas::load_from(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/cli"))
}

fn listed(args: &[&str]) -> Value {
    let ran = run(args);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.dump()))
}

/// The ids of the human listing, in its order.
fn text_ids(args: &[&str]) -> Vec<String> {
    let ran = run(args);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    ran.stdout
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(id, _)| id.to_owned()))
        .filter(|id| id.contains('.'))
        .collect()
}

fn ids(listing: &Value) -> Vec<String> {
    listing["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| c["id"].as_str().expect("an id").to_owned())
        .collect()
}

#[test]
fn list_json_matches_its_schema_and_the_human_listing() {
    let schemas = schemas();
    for profile in [None, Some("lexical"), Some("semantic")] {
        let mut args = vec!["list"];
        args.extend(profile.map(|p| ["--profile", p]).into_iter().flatten());
        let listing = listed(&[args.as_slice(), &["--format", "json"]].concat());
        schemas
            .validate("list.schema.json", &listing)
            .unwrap_or_else(|e| panic!("{profile:?}: {e}"));
        assert_eq!(ids(&listing), text_ids(&args), "{profile:?}");
        assert_eq!(listing["profile"], profile.map_or(Value::Null, Value::from));
    }
}

#[test]
fn list_json_gives_every_standard_check_its_mistake_and_a_property_check_its_per_case_time() {
    let listing = listed(&["list", "--format", "json"]);
    let checks = listing["checks"].as_array().expect("checks");
    for c in checks {
        assert!(c["usual_mistake"].is_string(), "{c}");
        let per_case = &c["budget"]["per_case_ms"];
        if c["family"] == "property" {
            assert_eq!(*per_case, Value::from(250), "{c}");
        } else {
            assert!(per_case.is_null(), "{c}");
        }
    }
    assert!(checks.iter().any(|c| c["family"] == "property"));
}

#[test]
fn the_list_schema_refuses_what_it_does_not_describe() {
    let schemas = schemas();
    let mut listing = listed(&["list", "--format", "json"]);
    listing["checks"][0]["budget"]["per_hour_ms"] = Value::from(1);
    assert!(schemas.validate("list.schema.json", &listing).is_err());
    let mut listing = listed(&["list", "--format", "json"]);
    listing.as_object_mut().unwrap().remove("exit_codes");
    assert!(schemas.validate("list.schema.json", &listing).is_err());
}

fn python_driver(script: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(script);
    format!("exec:python3 {}", path.display())
}

#[test]
fn hello_prints_what_the_driver_declared_matching_its_schema() {
    let answer = listed(&[
        "hello",
        "--driver",
        &python_driver("examples/python/memory_driver.py"),
        "--format",
        "json",
    ]);
    schemas()
        .validate("hello.schema.json", &answer)
        .unwrap_or_else(|e| panic!("{e}: {answer}"));
    assert_eq!(
        answer,
        serde_json::json!({
            "schema_version": 1,
            "tool_version": env!("CARGO_PKG_VERSION"),
            "protocol_version": 1,
            "driver": "python-memory",
            "recall_profile": "lexical",
            "ops": ["store_many", "export_page", "import"],
            "independent_stores": true
        })
    );
    let text = run(&[
        "hello",
        "--driver",
        &python_driver("examples/python/memory_driver.py"),
    ]);
    assert_eq!(
        (text.code, text.stdout.as_str()),
        (0, "driver python-memory: protocol 1, the lexical recall profile, ops store_many, export_page, import, independent stores\n"),
        "{}",
        text.dump()
    );
}

#[test]
fn hello_of_a_driver_that_does_not_answer_is_a_setup_error_quoting_its_stderr() {
    let ran = run(&[
        "hello",
        "--driver",
        "exec:sh -c 'echo no such module >&2; exit 7'",
        "--format",
        "json",
    ]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert_eq!(ran.stdout, "");
    assert!(
        ran.stderr.starts_with("error: failed to open the driver: ")
            && ran.stderr.contains("  | no such module\n"),
        "{}",
        ran.dump()
    );
}

/// A driver that declares a framework interface says so in both forms:
/// a host deciding whether the interface family applies reads it here
/// (it was left out, so `hello` of an adapter looked like any driver's).
#[test]
fn hello_names_the_interface_the_driver_declared() {
    let driver = r#"exec:sh -c 'read l; echo "{\"id\":1,\"result\":{\"protocol\":1,\"driver\":\"x\",\"interface\":\"langgraph.basestore\"}}"; sleep 5'"#;
    let answer = listed(&["hello", "--driver", driver, "--format", "json"]);
    schemas()
        .validate("hello.schema.json", &answer)
        .unwrap_or_else(|e| panic!("{e}: {answer}"));
    assert_eq!(answer["interface"], "langgraph.basestore", "{answer}");
    let text = run(&["hello", "--driver", driver]);
    assert_eq!(
        (text.code, text.stdout.as_str()),
        (
            0,
            "driver x: protocol 1, the lexical recall profile, no optional ops, one shared store, \
             the langgraph.basestore interface\n"
        ),
        "{}",
        text.dump()
    );
}

#[test]
fn hello_of_another_protocol_version_names_both() {
    let ran = run(&[
        "hello",
        "--driver",
        r#"exec:sh -c 'read l; echo "{\"id\":1,\"result\":{\"protocol\":2,\"driver\":\"x\"}}"; sleep 5'"#,
    ]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert!(
        ran.stderr
            .contains("it speaks protocol version 2, this suite speaks version 1"),
        "{}",
        ran.dump()
    );
}

#[test]
fn hello_refuses_a_driver_that_is_not_exec() {
    let ran = run(&["hello", "--driver", "sqlite"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (2, ""), "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        "error: `hello` asks an exec: driver, and sqlite is a driver built into this binary, which answers none; \
         expected --driver exec:'COMMAND ARGS'\n"
    );
}

/// Every host file: the pytest plugin's (`python/tinymemory/testing/*.py`)
/// and the TypeScript host's (`js/src/*.ts`), but `js/src/serve-cli.ts`,
/// the driver side (`tinymemory-serve`), whose exit codes are its own.
fn host_files() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for (dir, ext) in [("python/tinymemory/testing", "py"), ("js/src", "ts")] {
        for entry in std::fs::read_dir(root.join(dir)).expect(dir) {
            let path = entry.expect("an entry").path();
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            if path.extension().is_some_and(|e| e == ext) && name != "js/src/serve-cli.ts" {
                files.push((name, std::fs::read_to_string(&path).expect("a host file")));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_hosts_read_the_binarys_json_and_copy_none_of_its_numbers() {
    let files = host_files();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for needed in [
        "python/tinymemory/testing/_binary.py",
        "python/tinymemory/testing/_run.py",
        "python/tinymemory/testing/plugin.py",
        "js/src/binary.ts",
        "js/src/run.ts",
        "js/src/suite.ts",
    ] {
        assert!(names.contains(&needed), "{needed} is read: {names:?}");
    }
    // A regex over `list`'s aligned lines; the hello request written by
    // hand; the binary's budgets, case count and exit codes copied.
    let copies = [
        "lexical|semantic",
        "\"op\": \"hello\"",
        "op: \"hello\"",
        "PROPERTY_SECONDS_PER_CASE",
        "DEFAULT_CASES",
        "CHECK_TIMEOUT",
        "0.25",
        "EXIT_FAILED",
        "EXIT_USAGE",
        "EXIT_OPEN",
    ];
    for (name, text) in &files {
        for copy in copies {
            assert!(!text.contains(copy), "{name} holds {copy:?}");
        }
    }
    // What the binary prints for people, read back: the shared-error
    // lines, the `bundle: ` lines, the conformance line, the corpus
    // load's failure; and any regular expression in the Python host,
    // which reads JSON only (`--version`'s two words are split).
    let human = [
        "failed on the same error",
        "\"bundle: \"",
        "'bundle: '",
        "\"conformance: ",
        "'conformance: ",
        "failed to store the corpus",
        "checks failed",
    ];
    for (name, text) in &files {
        for said in human {
            assert!(
                !text.contains(said),
                "{name} reads the human output {said:?}"
            );
        }
        if name.ends_with(".py") {
            for regex in ["import re\n", "from re import", "re.compile("] {
                assert!(!text.contains(regex), "{name} holds {regex:?}");
            }
        }
    }
    // What they read instead.
    let text = |name: &str| &files.iter().find(|(n, _)| n == name).unwrap().1;
    for (name, reads) in [
        (
            "python/tinymemory/testing/_binary.py",
            r#""list", "--profile", profile, "--format", "json""#,
        ),
        (
            "python/tinymemory/testing/_run.py",
            r#""hello", "--driver""#,
        ),
        ("python/tinymemory/testing/_run.py", r#"["exit_codes"]"#),
        (
            "js/src/binary.ts",
            r#""list", "--profile", profile, "--format", "json""#,
        ),
        ("js/src/run.ts", r#""hello", "--driver""#),
        ("js/src/run.ts", "listing.exit_codes"),
        // The run's progress comes from its event stream.
        ("python/tinymemory/testing/_run.py", r#""--events", f"fd:"#),
        ("js/src/run.ts", r#""--events", events"#),
    ] {
        assert!(text(name).contains(reads), "{name} reads {reads}");
    }
}

//! Processes started ahead (`DriverFactory::start_ahead`): started at
//! once, used by the next opens instead of new ones, and never a way
//! around the checks a process's `hello` gets.

use futures::future::join_all;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
use tinymemory_conformance::DriverFactory;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecFactory};

use crate::support::{example, inline};

async fn keys(d: &dyn MemoryProvider) -> Vec<String> {
    let listed = d.list(None, None, None).await.expect("list");
    listed.into_iter().map(|e| e.key).collect()
}

#[tokio::test]
async fn processes_started_ahead_serve_the_next_opens_and_no_more_start() {
    let f = ExecFactory::connect(example("memory_driver.py", &[]), ExecConfig::default())
        .await
        .unwrap();
    f.start_ahead(3);
    // Counted when started, not when ready: a second hint starts nothing.
    assert_eq!(f.processes_started(), 3);
    f.start_ahead(3);
    assert_eq!(f.processes_started(), 3);
    let stores: Vec<_> = join_all((0..3).map(|_| f.open()))
        .await
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(f.processes_started(), 3);
    // Three processes, three stores.
    for (i, store) in stores.iter().enumerate() {
        store
            .store(
                "global",
                &format!("k{i}"),
                "text",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
    }
    for (i, store) in stores.iter().enumerate() {
        assert_eq!(keys(store.as_ref()).await, vec![format!("k{i}")]);
    }
}

#[tokio::test]
async fn a_process_started_ahead_unlike_the_first_fails_the_open_that_takes_it() {
    // The first process and the one started ahead, whose refusal is the
    // second open's error: no third process hides it.
    assert_eq!(crate::profiles::later_process_unlike_the_first(2).await, 2);
}

/// A driver whose first process starts well and whose later ones behave
/// as `later` says (Python run in place of the serve loop); a marker file
/// in the temporary directory tells the first from the others.
fn first_then(name: &str, later: &str) -> (ExecCommand, std::path::PathBuf) {
    let marker = std::env::temp_dir().join(format!(
        "tinymemory-exec-ahead-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&marker);
    let code = format!(
        "import os, time\nfirst = not os.path.exists(sys.argv[1])\nopen(sys.argv[1], 'a').close()\n\
         class Independent(MemoryStore):\n    independent_stores = True\n\n\
         if not first:\n{later}\n\
         tp.serve(Independent(), 'd')\n"
    );
    let marker_arg = marker.to_string_lossy().into_owned();
    (inline(&code, &[&marker_arg]), marker)
}

/// A process started ahead that hangs before `hello`: the store that takes
/// it fails with the hello's own timeout, quoting what the process wrote,
/// rather than waiting on it past the open's limit or starting another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_started_ahead_that_hangs_in_hello_fails_its_store_saying_so() {
    let (command, marker) = first_then(
        "hang",
        "    sys.stderr.write('hangs before hello\\n'); sys.stderr.flush(); time.sleep(60)",
    );
    let config = ExecConfig::default().with_request_timeout(std::time::Duration::from_secs(2));
    let f = ExecFactory::connect(command, config).await.unwrap();
    f.start_ahead(2);
    let first = f.open().await.expect("the first process is reused");
    let Err(e) = f.open().await else {
        panic!("a store was opened on a process that never answered hello");
    };
    let message = e.to_string();
    assert!(message.contains("`hello`"), "{message}");
    assert!(message.contains("hangs before hello"), "{message}");
    assert_eq!(f.processes_started(), 2);
    drop(first);
    let _ = std::fs::remove_file(&marker);
}

/// A later process that says otherwise of its stores than the first is
/// refused, started ahead or not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_later_process_not_declaring_independent_stores_is_refused() {
    for ahead in [0, 2] {
        let (command, marker) = first_then(
            &format!("shared-{ahead}"),
            "    Independent.independent_stores = False",
        );
        let f = ExecFactory::connect(command.clone(), ExecConfig::default())
            .await
            .unwrap();
        assert!(f.independent_stores());
        f.start_ahead(ahead);
        let first = f.open().await.expect("the first process is reused");
        let Err(e) = f.open().await else {
            panic!("a process not declaring independent stores was used beside another");
        };
        assert_eq!(
            e,
            tinymemory_api::MemoryError::fault(format!(
                "failed to start `{command}`: this process does not declare \
                 `independent_stores`, the driver's first process declares \
                 `independent_stores`; every process of a driver must say the same of its stores"
            )),
            "ahead {ahead}"
        );
        assert_eq!(f.processes_started(), 2, "ahead {ahead}");
        drop(first);
        let _ = std::fs::remove_file(&marker);
    }
}

#[tokio::test]
async fn a_driver_whose_stores_share_a_database_gets_no_process_ahead() {
    let command = inline(
        "class Shared(MemoryStore):\n    independent_stores = False\n\ntp.serve(Shared(), 'd')\n",
        &[],
    );
    let f = ExecFactory::connect(command, ExecConfig::default())
        .await
        .unwrap();
    assert!(!f.independent_stores());
    f.start_ahead(4);
    assert_eq!(f.processes_started(), 1);
}

#[test]
fn outside_a_runtime_no_process_is_started_ahead() {
    let f = ExecFactory::connect_blocking(example("memory_driver.py", &[]), ExecConfig::default())
        .unwrap();
    f.start_ahead(2);
    assert_eq!(f.processes_started(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_started_beside_the_first_serve_the_first_opens() {
    let config = ExecConfig::default().with_started_beside(2);
    let f = ExecFactory::connect_blocking(example("memory_driver.py", &[]), config).unwrap();
    assert_eq!(f.processes_started(), 3);
    // The run's hint counts them: nothing more starts.
    f.start_ahead(3);
    assert_eq!(f.processes_started(), 3);
    let stores: Vec<_> = join_all((0..3).map(|_| f.open()))
        .await
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(stores.len(), 3);
    assert_eq!(f.processes_started(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_started_beside_a_driver_sharing_one_database_are_dropped() {
    let command = inline(
        "class Shared(MemoryStore):\n    independent_stores = False\n\ntp.serve(Shared(), 'd')\n",
        &[],
    );
    let config = ExecConfig::default().with_started_beside(2);
    let f = ExecFactory::connect_blocking(command, config).unwrap();
    assert_eq!(f.processes_started(), 3);
    // The first process serves the first store; the second store gets a
    // process of its own, not one started before its driver was known.
    let first = f.open().await.unwrap();
    let second = f.open().await.unwrap();
    assert_eq!(f.processes_started(), 4);
    drop((first, second));
}

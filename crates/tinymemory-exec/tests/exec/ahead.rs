//! Processes started ahead (`DriverFactory::start_ahead`): started at
//! once, used by the next opens instead of new ones, and never a way
//! around the checks a process's `hello` gets.

use futures::future::join_all;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
use tinymemory_conformance::DriverFactory;
use tinymemory_exec::{ExecConfig, ExecFactory};

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
async fn a_process_started_ahead_unlike_the_first_is_dropped_and_the_open_says_why() {
    // The first process, the one started ahead (dropped), and the one the
    // second open started.
    assert_eq!(crate::profiles::later_process_unlike_the_first(2).await, 3);
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

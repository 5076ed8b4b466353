//! Lost connections are `Unavailable`, and the next call succeeds.

use std::time::Duration;

use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_postgres::{PostgresConfig, PostgresDriver, PostgresFactory};

use crate::common::{admin, config, keys, put};

/// Polls (at most 200 × 50 ms) for the pid of a backend waiting on a lock
/// while running a statement on `schema`.
async fn waiting_backend(admin: &tokio_postgres::Client, schema: &str) -> i32 {
    for _ in 0..200 {
        let rows = admin
            .query(
                "SELECT pid FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND strpos(query, $1::text) > 0",
                &[&schema],
            )
            .await
            .unwrap();
        if let Some(row) = rows.first() {
            return row.get(0);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no backend ever waited on the lock of {schema}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_dropped_mid_call_is_unavailable_and_the_next_call_succeeds() {
    let Some(config) =
        config("connection::connection_dropped_mid_call_is_unavailable_and_the_next_call_succeeds")
    else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    let d = factory.scratch();
    put(&d, "global", "before", "stored before the drop").await;

    // Hold the table so the driver's next statement waits on the server,
    // then terminate the backend running it.
    let mut locker = admin().await;
    let tx = locker.transaction().await.unwrap();
    tx.batch_execute(&format!(
        "LOCK TABLE \"{}\".memory_entries IN ACCESS EXCLUSIVE MODE",
        d.schema()
    ))
    .await
    .unwrap();
    let call = {
        let d = d.clone();
        tokio::spawn(async move { d.recall("stored", 10, &RecallOptions::default()).await })
    };
    let killer = admin().await;
    let pid = waiting_backend(&killer, d.schema()).await;
    let terminated: bool = killer
        .query_one("SELECT pg_terminate_backend($1::integer)", &[&pid])
        .await
        .unwrap()
        .get(0);
    assert!(terminated);
    let err = call.await.unwrap().unwrap_err();
    assert_eq!(err.kind(), "unavailable", "{err}");
    tx.rollback().await.unwrap();

    // The server is there; the next calls get a new connection.
    let hits = d
        .recall("stored", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["before"]);
    put(&d, "global", "after", "stored after the drop").await;
    assert_eq!(d.list(None, None, None).await.unwrap().len(), 2);
    factory.cleanup().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_terminated_between_calls_fail_at_most_one_call() {
    if config("connection::connections_terminated_between_calls_fail_at_most_one_call").is_none() {
        return;
    }
    // A name of its own, so this test terminates only its own backends.
    let app = format!("tm_terminate_{}", std::process::id());
    let config = PostgresConfig::from_url(&url_with_option("application_name", &app))
        .unwrap()
        .with_max_connections(2);
    let factory = PostgresFactory::new(&config).unwrap();
    let d = factory.scratch();
    put(&d, "global", "k", "kept across terminations").await;
    let killer = admin().await;
    for round in 0..3 {
        let n: i64 = killer
            .query_one(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE application_name = $1::text) AS t",
                &[&app],
            )
            .await
            .unwrap()
            .get(0);
        assert!(
            n >= 1,
            "round {round}: no backend of the driver to terminate"
        );
        // The first call may or may not notice the closed connection before
        // using it; if it does not, it fails as Unavailable, never otherwise.
        match d.get("global", "k").await {
            Ok(got) => assert_eq!(
                got.map(|e| e.content).as_deref(),
                Some("kept across terminations")
            ),
            Err(e) => assert_eq!(e.kind(), "unavailable", "round {round}: {e}"),
        }
        let got = d.get("global", "k").await.unwrap();
        assert_eq!(
            got.map(|e| e.content).as_deref(),
            Some("kept across terminations")
        );
    }
    factory.cleanup().await.unwrap();
}

/// The server's URL with one more option, in URL or `key=value` form.
fn url_with_option(key: &str, value: &str) -> String {
    let url = std::env::var(tinymemory_postgres::URL_ENV).unwrap();
    let url = url.trim();
    if !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
        format!("{url} {key}={value}")
    } else if url.contains('?') {
        format!("{url}&{key}={value}")
    } else {
        format!("{url}?{key}={value}")
    }
}

/// Nothing listens on port 1 of the loopback address: connecting is refused
/// at once. Needs no server, so it always runs.
fn unreachable() -> PostgresConfig {
    PostgresConfig::from_url("postgres://nobody@127.0.0.1:1/none")
        .unwrap()
        .with_connect_timeout(Duration::from_secs(2))
}

#[tokio::test]
async fn a_refused_login_names_the_servers_reason() {
    let Some(_) = config("connection::a_refused_login_names_the_servers_reason") else {
        return;
    };
    let url = std::env::var(tinymemory_postgres::URL_ENV).unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    let config =
        PostgresConfig::from_url(&format!("{}{sep}dbname=tinymemory_no_such_db", url.trim()))
            .unwrap();
    let e = PostgresDriver::connect_with(&config).await.unwrap_err();
    assert_eq!(e.kind(), "backend");
    assert!(
        e.to_string().ends_with(
            "failed to get a postgres connection to check the schema: db error (3D000: database \
             \"tinymemory_no_such_db\" does not exist)"
        ),
        "{e}"
    );
}

#[tokio::test]
async fn unreachable_server_is_unavailable() {
    let e = PostgresDriver::connect_with(&unreachable())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "unavailable", "{e}");
    assert!(
        e.to_string()
            .starts_with("unavailable: failed to get a postgres connection"),
        "{e}"
    );
}

#[tokio::test]
async fn input_is_validated_before_any_io() {
    let d = PostgresDriver::connect_lazy(&unreachable()).unwrap();
    let bad = d
        .store(
            "bad namespace",
            "k",
            "v",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap_err();
    assert_eq!(bad.rule(), Some(rules::NAMESPACE_CHARSET));
    let bad = d
        .store(
            "global",
            "",
            "v",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap_err();
    assert_eq!(bad.rule(), Some(rules::KEY_EMPTY));
    let opts = RecallOptions {
        min_score: Some(f64::NAN),
        ..RecallOptions::default()
    };
    assert_eq!(
        d.recall("q", 1, &opts).await.unwrap_err().rule(),
        Some(rules::MIN_SCORE_NOT_FINITE)
    );
    // Answered without the server at all.
    assert_eq!(
        d.recall("q", 0, &RecallOptions::default()).await.unwrap(),
        []
    );
    assert_eq!(
        d.recall(" \"*( ", 5, &RecallOptions::default())
            .await
            .unwrap(),
        []
    );
    // Valid input reaches for the server, which is not there.
    let e = d.get("global", "k").await.unwrap_err();
    assert_eq!(e.kind(), "unavailable", "{e}");
}

//! `migrate --from postgres:URL` on a database holding no tinymemory
//! tables: refused as a set-up error, and the database is left without
//! them (before, connecting created the `tinymemory` schema and the
//! migration copied an empty store). Needs `TINYMEMORY_POSTGRES_URL`; with
//! `CI` set and no server the test fails rather than skips.

use crate::support;

use support::bin::{run, scratch};

/// `url` with its database replaced by `db` (libpq reads a `dbname`
/// parameter over the URL's path).
fn on_database(url: &str, db: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}dbname={db}")
}

async fn admin(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("the server in TINYMEMORY_POSTGRES_URL");
    tokio::spawn(connection);
    client
}

#[test]
fn a_source_without_tinymemory_tables_is_refused_and_left_without_them() {
    let Some(url) = support::server::url("migrate_postgres") else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let db = format!("tinymemory_migrate_empty_{}", std::process::id());
    let empty = on_database(&url, &db);
    rt.block_on(async {
        // Two calls: one string of two statements is one transaction, in
        // which PostgreSQL refuses both.
        let admin = admin(&url).await;
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
            .await
            .unwrap();
        admin
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .await
            .unwrap();
    });

    let dir = scratch();
    let target = dir.path().join("target.db");
    let target_spec = format!("sqlite:{}", target.display());
    let ran = run(&[
        "migrate",
        "--from",
        &format!("postgres:{empty}"),
        "--to",
        &target_spec,
    ]);

    let schemas: i64 = rt.block_on(async {
        admin(&empty)
            .await
            .query_one(
                "SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = 'tinymemory'",
                &[],
            )
            .await
            .unwrap()
            .get(0)
    });
    rt.block_on(async {
        admin(&url)
            .await
            .batch_execute(&format!("DROP DATABASE {db} WITH (FORCE)"))
            .await
            .unwrap();
    });

    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert!(
        ran.stderr
            .starts_with("error: failed to open --from postgres:"),
        "{}",
        ran.dump()
    );
    assert!(
        ran.stderr.ends_with(
            ": schema \"tinymemory\" is not usable: it holds no tinymemory tables, and an \
             existing store is never created (is this the right server and schema?)\n"
        ),
        "{}",
        ran.dump()
    );
    assert_eq!(schemas, 0, "the refused source got a tinymemory schema");
    assert!(
        !target.exists(),
        "the target was created for a refused source"
    );
}

/// One server reached by two spellings of its URL (`127.0.0.1` and
/// `localhost`, an extra parameter) is one store: refused before anything
/// is written, where the URLs' texts differ and were taken for two stores.
#[test]
fn one_server_under_two_urls_is_one_store() {
    let Some(url) = support::server::url("migrate_postgres") else {
        return;
    };
    let other = {
        let spelled = url.replacen("127.0.0.1", "localhost", 1);
        let sep = if spelled.contains('?') { '&' } else { '?' };
        format!("{spelled}{sep}application_name=tinymemory-twice")
    };
    assert_ne!(url, other);
    let (from, to) = (format!("postgres:{url}"), format!("postgres:{other}"));
    let ran = run(&["migrate", "--from", &from, "--to", &to, "--overwrite"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    // The spec shows the URL without its parameters (no password either).
    let shown_to = format!("postgres:{}", url.replacen("127.0.0.1", "localhost", 1));
    let prefix = format!(
        "error: --from {from} and --to {shown_to} reach the same store, schema tinymemory of \
         database oid "
    );
    assert!(ran.stderr.starts_with(&prefix), "{}", ran.dump());
    assert!(
        ran.stderr
            .ends_with(": a store cannot be migrated into itself\n"),
        "{}",
        ran.dump()
    );
    assert_eq!(ran.stdout, "");
}

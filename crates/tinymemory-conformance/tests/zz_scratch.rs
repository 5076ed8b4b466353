use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tinymemory_api::MemoryProvider;
use tinymemory_conformance::{Family, FnFactory, Registry, RunConfig, Runner};
use tinymemory_sqlite::SqliteDriver;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn measure() {
    let cases: u32 = std::env::var("CASES").unwrap().parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_owned();
    let next = AtomicU64::new(0);
    let factory = Arc::new(FnFactory::new("sqlite", move || {
        let n = next.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(SqliteDriver::open(path.join(format!("check-{n}.db")))?) as Box<dyn MemoryProvider>)
    }));
    let t = std::time::Instant::now();
    let s = Runner::new(Registry::standard().family(Family::Property)).with_config(RunConfig { cases, ..RunConfig::default() })
        .run(factory, None, |r| println!("{r}")).await;
    println!("total {:?} {}", t.elapsed(), s.closing_line());
}

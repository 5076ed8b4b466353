//! Latency, under Tokio's paused clock: no wall-clock time is measured.

use std::time::Duration;

use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_doubles::{Delay, Latency, Pause};
use tinymemory_reference::ReferenceDriver;
use tokio::time::Instant;

use crate::support::{keys, put};

const MS: Duration = Duration::from_millis(1);

#[tokio::test(start_paused = true)]
async fn a_fixed_delay_precedes_every_call() {
    let d = Latency::new(ReferenceDriver::new(), Pause::fixed(25 * MS));
    assert_eq!(d.hook().delay(), Delay::Fixed(25 * MS));
    let start = Instant::now();
    put(&d, "global", "k", "rust").await;
    assert_eq!(start.elapsed(), 25 * MS);
    let hits = d
        .recall("rust", 5, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["k"]);
    d.get("global", "k").await.unwrap();
    d.list(None, None, None).await.unwrap();
    d.namespaces().await.unwrap();
    d.forget("global", "k").await.unwrap();
    assert_eq!(start.elapsed(), 6 * 25 * MS);
    assert_eq!(d.driver_id(), "reference");
}

#[tokio::test(start_paused = true)]
async fn concurrent_calls_overlap_their_delays() {
    let d = Latency::new(ReferenceDriver::new(), Pause::fixed(30 * MS));
    let start = Instant::now();
    let (a, b) = tokio::join!(d.namespaces(), d.get("global", "k"));
    assert!(a.is_ok() && b.is_ok());
    assert_eq!(start.elapsed(), 30 * MS);
}

#[tokio::test(start_paused = true)]
async fn a_seeded_uniform_delay_is_reproducible() {
    async fn delays(seed: u64) -> Vec<u128> {
        let d = Latency::new(
            ReferenceDriver::new(),
            Pause::uniform(10 * MS, 20 * MS, seed),
        );
        let mut out = Vec::new();
        for _ in 0..6 {
            let start = Instant::now();
            d.namespaces().await.unwrap();
            out.push(start.elapsed().as_millis());
        }
        out
    }
    let seven = delays(7).await;
    assert_eq!(seven, [14, 10, 19, 16, 14, 12]);
    assert_eq!(delays(7).await, seven);
    assert_ne!(delays(8).await, seven);
}

#[test]
#[should_panic(expected = "min <= max")]
fn a_uniform_range_must_not_be_inverted() {
    let _ = Latency::new(ReferenceDriver::new(), Pause::uniform(20 * MS, 10 * MS, 0));
}

/// The keys of eight concurrent stores through `Delay::Yields`, in the
/// order the stores finished.
async fn finish_order(seed: u64) -> Vec<String> {
    let d = Latency::new(
        ReferenceDriver::new(),
        Pause::new(Delay::Yields { max: 16, seed }),
    );
    let done = std::sync::Mutex::new(Vec::new());
    let calls = (0..8).map(|i| {
        let (d, done) = (&d, &done);
        async move {
            let key = format!("k{i}");
            put(d, "global", &key, "rust").await;
            done.lock().unwrap().push(key);
        }
    });
    futures::future::join_all(calls).await;
    done.into_inner().unwrap()
}

#[tokio::test(start_paused = true)]
async fn yields_shuffle_concurrent_completions_without_time() {
    let start = Instant::now();
    let order = finish_order(7).await;
    assert_eq!(start.elapsed(), Duration::ZERO, "yields take no time");
    assert_eq!(order, finish_order(7).await, "the seed fixes the order");
    let started: Vec<String> = (0..8).map(|i| format!("k{i}")).collect();
    assert_ne!(order, started, "seed 7 reorders eight stores");
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, started, "every store finished once");
}

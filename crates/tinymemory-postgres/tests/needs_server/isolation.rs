//! Contract sentence 11 (`recall.namespace_isolation`): `ts_rank` reads
//! only the entry's own vector and the query, so what other namespaces
//! hold changes neither the hits nor a bit of their scores.

use tinymemory_api::batch::NewEntry;
use tinymemory_api::{MemoryEntry, MemoryProvider, RecallOptions};

use crate::common::{factory_or_skip, fresh, keys, put};

fn bits(hits: &[MemoryEntry]) -> Vec<u64> {
    hits.iter()
        .map(|h| h.score.expect("every hit is scored").to_bits())
        .collect()
}

#[tokio::test]
async fn other_namespaces_change_no_hit_and_no_score_bit() {
    let factory = factory_or_skip!("isolation::other_namespaces_change_no_hit_and_no_score_bit");
    let d = fresh(&factory).await;
    for (key, text) in [
        ("both", "alpha beta gamma"),
        ("alpha-only", "alpha delta"),
        ("beta-twice", "beta beta epsilon"),
        ("neither", "zeta"),
    ] {
        put(&d, "learning:iso", key, text).await;
    }
    let opts = RecallOptions {
        namespace: Some("learning:iso".into()),
        ..RecallOptions::default()
    };
    let all_before = d.recall("alpha beta", 10, &opts).await.unwrap();
    let cut_before = d.recall("alpha beta", 2, &opts).await.unwrap();
    assert_eq!(keys(&all_before), ["both", "beta-twice", "alpha-only"]);
    assert_eq!(keys(&cut_before), ["both", "beta-twice"]);
    // Competitors sharing the query's words, in namespaces around it:
    // ones that make "alpha" common and "beta" rare, namespaces whose names
    // start like it, and the global namespace.
    let competitors: Vec<NewEntry> = (0..300)
        .flat_map(|i| {
            [
                NewEntry::new("global", format!("g{i}"), "alpha alpha alpha"),
                NewEntry::new("learning:iso2", format!("a{i}"), "alpha beta alpha beta"),
                NewEntry::new("learning:is", format!("b{i}"), format!("beta {i} delta")),
            ]
        })
        .collect();
    d.store_many(&competitors).await.unwrap();
    put(&d, "learning:other", "both", "alpha beta gamma").await;
    let all_after = d.recall("alpha beta", 10, &opts).await.unwrap();
    let cut_after = d.recall("alpha beta", 2, &opts).await.unwrap();
    assert_eq!(keys(&all_after), keys(&all_before));
    assert_eq!(bits(&all_after), bits(&all_before));
    assert_eq!(keys(&cut_after), keys(&cut_before));
    assert_eq!(bits(&cut_after), bits(&cut_before));
    // The same entry in another namespace scores the same bits: nothing of
    // a namespace enters its score.
    let other = RecallOptions {
        namespace: Some("learning:other".into()),
        ..RecallOptions::default()
    };
    let twin = d.recall("alpha beta", 10, &other).await.unwrap();
    assert_eq!(keys(&twin), ["both"]);
    assert_eq!(bits(&twin), bits(&all_before[..1]));
    factory.cleanup().await.unwrap();
}

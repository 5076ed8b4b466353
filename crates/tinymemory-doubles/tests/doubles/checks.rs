//! Ten straightforward checks, one per contract sentence, named by the
//! conformance check ids. They are deliberately simple: the mutant
//! catalogue must be caught by checks this plain, each mutant by its own
//! check only.

use tinymemory_api::{
    MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, RecallOptions, GLOBAL_NAMESPACE,
};

use crate::support::keys;

/// `Err` says what the check saw.
pub type Outcome = Result<(), String>;

/// The check ids, in the order of the contract sentences.
pub const CHECK_IDS: [&str; 10] = [
    "store.upsert",
    "recall.none_means_global",
    "recall.hit_namespace",
    "recall.scores_finite_higher_better",
    "recall.limit",
    "recall.plain_text_query",
    "recall.min_score",
    "namespaces.exact_counts",
    "namespace.invalid_refused",
    "forget.idempotent",
];

macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        let holds: bool = $cond;
        if !holds {
            return Err(format!($($arg)*));
        }
    };
}

fn failed(what: &str) -> impl FnOnce(MemoryError) -> String + '_ {
    move |e| format!("failed to {what}: {e}")
}

async fn put(d: &dyn MemoryProvider, ns: &str, key: &str, content: &str) -> Outcome {
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .map_err(failed("store"))
}

/// Runs check `id` against `d`, which must be empty.
pub async fn run(id: &str, d: &dyn MemoryProvider) -> Outcome {
    match id {
        "store.upsert" => store_upsert(d).await,
        "recall.none_means_global" => none_means_global(d).await,
        "recall.hit_namespace" => hit_namespace(d).await,
        "recall.scores_finite_higher_better" => scores(d).await,
        "recall.limit" => limit(d).await,
        "recall.plain_text_query" => plain_text_query(d).await,
        "recall.min_score" => min_score(d).await,
        "namespaces.exact_counts" => exact_counts(d).await,
        "namespace.invalid_refused" => invalid_refused(d).await,
        "forget.idempotent" => forget_idempotent(d).await,
        other => Err(format!("no check {other}")),
    }
}

async fn store_upsert(d: &dyn MemoryProvider) -> Outcome {
    put(d, "global", "k", "alpha").await?;
    d.store(
        "global",
        "k",
        "beta",
        MemoryCategory::Daily,
        Some("s1"),
        MemoryTaint::ExternalSync,
    )
    .await
    .map_err(failed("store"))?;
    let list = d
        .list(Some("global"), None, None)
        .await
        .map_err(failed("list"))?;
    ensure!(
        list.len() == 1,
        "list has {} entries for one key",
        list.len()
    );
    let e = &list[0];
    ensure!(
        (
            e.content.as_str(),
            &e.category,
            e.session_id.as_deref(),
            e.taint
        ) == (
            "beta",
            &MemoryCategory::Daily,
            Some("s1"),
            MemoryTaint::ExternalSync
        ),
        "stored entry is {e:?}"
    );
    let got = d.get("global", "k").await.map_err(failed("get"))?;
    ensure!(
        got.as_ref().map(|e| e.content.as_str()) == Some("beta"),
        "get gave {got:?}"
    );
    Ok(())
}

async fn none_means_global(d: &dyn MemoryProvider) -> Outcome {
    put(d, GLOBAL_NAMESPACE, "g", "shared word").await?;
    put(d, "learning:x", "l", "shared word").await?;
    let hits = d
        .recall("shared", 10, &RecallOptions::default())
        .await
        .map_err(failed("recall"))?;
    ensure!(
        keys(&hits) == ["g"],
        "unpinned recall found {:?}",
        keys(&hits)
    );
    Ok(())
}

async fn hit_namespace(d: &dyn MemoryProvider) -> Outcome {
    put(d, "learning:x", "x", "rust").await?;
    put(d, "global", "g", "rust").await?;
    let home = |key: &str| if key == "x" { "learning:x" } else { "global" };
    for opts in [
        RecallOptions::in_namespace("learning:x"),
        RecallOptions::in_namespace("global"),
        RecallOptions::default(),
    ] {
        let hits = d
            .recall("rust", 10, &opts)
            .await
            .map_err(failed("recall"))?;
        ensure!(!hits.is_empty(), "no hit for {opts:?}");
        for h in &hits {
            ensure!(
                h.namespace.as_deref() == Some(home(&h.key)),
                "hit {} carries namespace {:?}",
                h.key,
                h.namespace
            );
        }
    }
    Ok(())
}

async fn scores(d: &dyn MemoryProvider) -> Outcome {
    put(d, "global", "full", "rust async").await?;
    put(d, "global", "half", "rust tokio").await?;
    let hits = d
        .recall("rust async", 10, &RecallOptions::default())
        .await
        .map_err(failed("recall"))?;
    ensure!(
        keys(&hits) == ["full", "half"],
        "hits are {:?}",
        keys(&hits)
    );
    ensure!(
        hits.iter().all(|h| h.score.is_none_or(f64::is_finite)),
        "a score is not finite: {hits:?}"
    );
    if let (Some(full), Some(half)) = (hits[0].score, hits[1].score) {
        ensure!(
            full > half,
            "the better hit scores {full}, the worse {half}"
        );
    }
    Ok(())
}

async fn limit(d: &dyn MemoryProvider) -> Outcome {
    for i in 0..5 {
        put(d, "global", &format!("k{i}"), "rust").await?;
    }
    let hits = d
        .recall("rust", 3, &RecallOptions::default())
        .await
        .map_err(failed("recall"))?;
    ensure!(hits.len() == 3, "limit 3 gave {} hits", hits.len());
    let none = d
        .recall("rust", 0, &RecallOptions::default())
        .await
        .map_err(failed("recall"))?;
    ensure!(none.is_empty(), "limit 0 gave {} hits", none.len());
    Ok(())
}

async fn plain_text_query(d: &dyn MemoryProvider) -> Outcome {
    put(d, "global", "k", "read and write lock").await?;
    for q in [
        "\"read\"",
        "read AND write",
        "read OR",
        "NOT",
        "rust*",
        "(read",
        "-read",
        "NEAR(read write)",
        "col:read",
        "don't",
    ] {
        d.recall(q, 10, &RecallOptions::default())
            .await
            .map_err(|e| format!("query {q:?} failed: {e}"))?;
    }
    for q in ["", "   ", "\t\n"] {
        let hits = d
            .recall(q, 10, &RecallOptions::default())
            .await
            .map_err(|e| format!("blank query {q:?} failed: {e}"))?;
        ensure!(hits.is_empty(), "blank query {q:?} gave {hits:?}");
    }
    Ok(())
}

async fn min_score(d: &dyn MemoryProvider) -> Outcome {
    put(d, "global", "full", "rust async").await?;
    put(d, "global", "half", "rust tokio").await?;
    let all = d
        .recall("rust async", 10, &RecallOptions::default())
        .await
        .map_err(failed("recall"))?;
    let top = all
        .iter()
        .filter_map(|h| h.score)
        .fold(f64::NEG_INFINITY, f64::max);
    ensure!(top.is_finite(), "no finite score among {all:?}");
    let opts = RecallOptions {
        min_score: Some(top),
        ..RecallOptions::default()
    };
    let kept = d
        .recall("rust async", 10, &opts)
        .await
        .map_err(failed("recall"))?;
    ensure!(
        kept.iter().all(|h| h.score.is_some_and(|s| s >= top)),
        "min_score {top} kept {kept:?}"
    );
    let expected: Vec<&str> = all
        .iter()
        .filter(|h| h.score.is_some_and(|s| s >= top))
        .map(|h| h.key.as_str())
        .collect();
    ensure!(
        keys(&kept) == expected,
        "min_score {top} kept {:?}",
        keys(&kept)
    );
    Ok(())
}

async fn exact_counts(d: &dyn MemoryProvider) -> Outcome {
    for k in ["k1", "k2", "k3"] {
        put(d, "learning:a", k, "x").await?;
    }
    put(d, "global", "k1", "x").await?;
    let mut got: Vec<(String, u64)> = d
        .namespaces()
        .await
        .map_err(failed("list namespaces"))?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    got.sort();
    ensure!(
        got == [("global".to_owned(), 1), ("learning:a".to_owned(), 3)],
        "namespaces() gave {got:?}"
    );
    Ok(())
}

async fn invalid_refused(d: &dyn MemoryProvider) -> Outcome {
    fn refused<T: std::fmt::Debug>(what: &str, ns: &str, r: Result<T, MemoryError>) -> Outcome {
        match r {
            Err(e) if e.is_invalid() => Ok(()),
            other => Err(format!("{what} on {ns:?} gave {other:?}")),
        }
    }
    for ns in ["", "a b", "/x", "a/../b", "learning:", "é"] {
        let store = d
            .store(
                ns,
                "k",
                "c",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await;
        refused("store", ns, store)?;
        refused("get", ns, d.get(ns, "k").await)?;
        refused("forget", ns, d.forget(ns, "k").await)?;
        refused("list", ns, d.list(Some(ns), None, None).await)?;
        let opts = RecallOptions::in_namespace(ns);
        refused("recall", ns, d.recall("c", 10, &opts).await)?;
    }
    Ok(())
}

async fn forget_idempotent(d: &dyn MemoryProvider) -> Outcome {
    put(d, "learning:f", "k", "rust").await?;
    let first = d
        .forget("learning:f", "k")
        .await
        .map_err(failed("forget"))?;
    let second = d
        .forget("learning:f", "k")
        .await
        .map_err(failed("forget"))?;
    ensure!(
        (first, second) == (true, false),
        "forget gave {first} then {second}"
    );
    let got = d.get("learning:f", "k").await.map_err(failed("get"))?;
    ensure!(got.is_none(), "get still finds {got:?}");
    let list = d.list(None, None, None).await.map_err(failed("list"))?;
    ensure!(list.is_empty(), "list still finds {list:?}");
    let spaces = d.namespaces().await.map_err(failed("list namespaces"))?;
    ensure!(spaces.is_empty(), "namespaces() still lists {spaces:?}");
    let hits = d
        .recall("rust", 10, &RecallOptions::in_namespace("learning:f"))
        .await
        .map_err(failed("recall"))?;
    ensure!(hits.is_empty(), "recall still finds {hits:?}");
    Ok(())
}

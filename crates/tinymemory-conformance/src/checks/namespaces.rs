//! Contract sentences 8 and 9: namespace enumeration and validation.

use std::collections::BTreeMap;

use tinymemory_api::{MemoryCategory, MemoryError, MemoryTaint, RecallOptions};

use super::support::{fresh, put};
use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::CheckContext;

pub(crate) async fn exact_counts(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for (ns, key) in [
        ("learning:a", "k1"),
        ("learning:a", "k2"),
        ("learning:a", "k3"),
        ("document:b", "k1"),
        ("document:b", "k2"),
        ("global", "k1"),
        ("learning:a", "k1"),
    ] {
        put(d.as_ref(), ns, key, "counted entry").await?;
    }
    d.forget("document:b", "k2").await?;
    let listed = d.namespaces().await?;
    let mut counts = BTreeMap::new();
    for s in &listed {
        ensure!(
            counts.insert(s.namespace.clone(), s.count).is_none(),
            "namespaces() listed {:?} more than once",
            s.namespace
        );
    }
    let want: BTreeMap<String, u64> = [("document:b", 1), ("global", 1), ("learning:a", 3)]
        .into_iter()
        .map(|(n, c)| (n.to_owned(), c))
        .collect();
    ensure_eq!(counts, want, "namespaces() after 7 stores, 1 upsert and 1 forget");
    Ok(())
}

fn invalid_names() -> Vec<String> {
    let mut v: Vec<String> = [
        "", "has space", "/lead", "trail/", "a/../b", "learning:", "é", "semi;colon", "quote'",
        "nul\0", "percent%",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    v.push("x".repeat(201));
    v
}

fn expect_invalid<T: std::fmt::Debug>(
    method: &str,
    ns: &str,
    r: Result<T, MemoryError>,
) -> Result<(), Stop> {
    match r {
        Err(e) if e.is_invalid() => Ok(()),
        Err(e) => Err(Stop::Fail(format!(
            "{method} with invalid namespace {ns:?} returned a {} error, expected invalid: {e}",
            e.kind()
        ))),
        Ok(v) => Err(Stop::Fail(format!(
            "{method} with invalid namespace {ns:?} returned Ok({v:?}), expected MemoryError::Invalid"
        ))),
    }
}

pub(crate) async fn invalid_refused(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for ns in invalid_names() {
        let n = ns.as_str();
        let stored = d
            .store(n, "k", "text", MemoryCategory::Core, None, MemoryTaint::Internal)
            .await;
        expect_invalid("store", n, stored)?;
        expect_invalid("get", n, d.get(n, "k").await)?;
        expect_invalid("forget", n, d.forget(n, "k").await)?;
        expect_invalid("list", n, d.list(Some(n), None, None).await)?;
        expect_invalid(
            "recall",
            n,
            d.recall("text", 5, &RecallOptions::in_namespace(n)).await,
        )?;
    }
    ensure_eq!(d.namespaces().await?, Vec::new(), "namespaces() after only invalid stores");
    ensure_eq!(d.list(None, None, None).await?, Vec::new(), "list(None) after only invalid stores");
    Ok(())
}

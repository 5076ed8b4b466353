//! Contract sentence 8: namespace enumeration. (Sentence 9 runs the
//! hostile-input table: `checks/hostile.rs`.)

use std::collections::BTreeMap;

use super::support::{fresh, put};
use crate::failure::{ensure, ensure_eq, Step};
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
    ensure_eq!(
        counts,
        want,
        "namespaces() after 7 stores, 1 upsert and 1 forget"
    );
    Ok(())
}

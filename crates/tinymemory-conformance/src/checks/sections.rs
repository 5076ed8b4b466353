//! The section API over the driver.

use tinymemory_api::{
    rules, MemoryCategory, MemorySection, MemoryTaint, RecallOptions, RecallProfile,
};
use tinymemory_sections::{compare_hits, Sections, NAMESPACE_FILTER_CONFLICT};

use super::support::{fresh, put};
use crate::failure::{ensure, ensure_eq, Step};
use crate::CheckContext;

pub(crate) async fn custom_spelling(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let sections = Sections::new(d.as_ref());
    for known in MemorySection::KNOWN {
        let custom = MemorySection::Custom(known.prefix().to_owned());
        let a = sections.section(&custom).namespace("scope-1")?;
        let b = sections.section(&known).namespace("scope-1")?;
        ensure_eq!(a, b, "namespace of Custom({:?}) view", known.prefix());
    }
    sections
        .section(&MemorySection::Custom("learning".into()))
        .put(
            "topic",
            "k",
            "custom spelled",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await?;
    ensure!(
        d.get("learning:topic", "k").await?.is_some(),
        "a put through Custom(\"learning\") did not land in learning:topic"
    );
    let scopes: Vec<_> = sections
        .learnings()
        .scopes()
        .await?
        .into_iter()
        .map(|s| (s.scope, s.count))
        .collect();
    ensure_eq!(scopes, [("topic".to_owned(), 1)], "learnings().scopes()");
    Ok(())
}

pub(crate) async fn invalid_section_refused(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    put(d.as_ref(), "learning:x", "k", "present").await?;
    let sections = Sections::new(d.as_ref());
    let opts = RecallOptions::default();
    for bad in ["Bad Prefix", "", "a:b"] {
        let view = sections.section(&MemorySection::Custom(bad.into()));
        let got = [
            view.put(
                "s",
                "k",
                "c",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .err()
            .and_then(|e| e.rule()),
            view.get("s", "k").await.err().and_then(|e| e.rule()),
            view.forget("s", "k").await.err().and_then(|e| e.rule()),
            view.list("s", None, None)
                .await
                .err()
                .and_then(|e| e.rule()),
            view.recall("s", "present", 5, &opts)
                .await
                .err()
                .and_then(|e| e.rule()),
            view.scopes().await.err().and_then(|e| e.rule()),
            view.list_section(None, None)
                .await
                .err()
                .and_then(|e| e.rule()),
            view.across("present", 5, &opts)
                .await
                .err()
                .and_then(|e| e.rule()),
        ];
        ensure_eq!(
            got,
            [Some(rules::SECTION_PREFIX); 8],
            "rules of put/get/forget/list/recall/scopes/list_section/across on Custom({bad:?})"
        );
    }
    Ok(())
}

pub(crate) async fn across_merge_order(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let data = [
        ("learning:a", "a1", "comet tail over the hills"),
        ("learning:a", "a2", "comet comet bright comet"),
        ("learning:b", "b1", "a comet was seen"),
        ("learning:b", "b2", "nothing to see"),
        ("learning:c", "c1", "comet dust"),
        ("document:x", "x1", "comet in another section"),
    ];
    for (ns, key, text) in data {
        put(d.as_ref(), ns, key, text).await?;
    }
    let recall = Sections::new(d.as_ref()).recall();
    let opts = RecallOptions::default();
    let searched = ["learning:a", "learning:b", "learning:c"];
    for limit in [1, 2, 4, 10] {
        let got = recall
            .across_section(&MemorySection::Learning, "comet", limit, &opts)
            .await?;
        ensure_eq!(got.searched, searched, "namespaces searched");
        for pair in got.hits.windows(2) {
            ensure!(
                compare_hits(&pair[0], &pair[1]).is_lt(),
                "hits out of merge order: {:?} ({:?}) before {:?} ({:?})",
                pair[0].key,
                pair[0].score,
                pair[1].key,
                pair[1].score
            );
        }
        // The driver's own pinned recalls say how many hits there are: 4
        // entries hold "comet" (all a lexical engine returns), 5 are in the
        // section (all a ranking engine may return).
        let mut total = 0;
        for ns in searched {
            let direct = d
                .recall("comet", limit, &RecallOptions::in_namespace(ns))
                .await?;
            total += direct.len();
            for h in got
                .hits
                .iter()
                .filter(|h| h.namespace.as_deref() == Some(ns))
            {
                ensure!(
                    direct.iter().any(|x| x.key == h.key),
                    "merged hit {:?} is not among the direct recall of {ns} with limit {limit}",
                    h.key
                );
            }
        }
        if ctx.profile == RecallProfile::Lexical {
            ensure_eq!(
                total,
                limit.min(2) + 1 + 1,
                "matches of \"comet\" in the section's direct recalls with limit {limit}"
            );
        }
        ensure_eq!(
            got.hits.len(),
            limit.min(total),
            "hits with limit {limit}, of {total} in the direct recalls of the searched namespaces"
        );
    }
    Ok(())
}

pub(crate) async fn cap_and_truncation(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for (scope, n) in [("c", 2), ("a", 1), ("b", 2), ("d", 3)] {
        for i in 0..n {
            put(
                d.as_ref(),
                &format!("learning:{scope}"),
                &format!("k{i}"),
                "shared words",
            )
            .await?;
        }
    }
    let recall = Sections::new(d.as_ref()).recall();
    let opts = RecallOptions::default();
    for (cap, want, truncated) in [
        (2, vec!["learning:d", "learning:b"], true),
        (3, vec!["learning:d", "learning:b", "learning:c"], true),
        (
            4,
            vec!["learning:d", "learning:b", "learning:c", "learning:a"],
            false,
        ),
        (
            64,
            vec!["learning:d", "learning:b", "learning:c", "learning:a"],
            false,
        ),
    ] {
        let got = recall
            .with_cap(cap)
            .across_section(&MemorySection::Learning, "shared", 1, &opts)
            .await?;
        ensure_eq!(got.searched, want, "namespaces searched with cap {cap}");
        ensure_eq!(got.truncated, truncated, "truncated with cap {cap}");
        ensure_eq!(got.hits.len(), 1, "hits with limit 1 and cap {cap}");
    }
    Ok(())
}

pub(crate) async fn namespace_filter_conflict(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    put(d.as_ref(), "learning:a", "k", "text").await?;
    let got = Sections::new(d.as_ref())
        .recall()
        .across_section(
            &MemorySection::Learning,
            "text",
            5,
            &RecallOptions::in_namespace("learning:a"),
        )
        .await;
    ensure_eq!(
        got.err().and_then(|e| e.rule()),
        Some(NAMESPACE_FILTER_CONFLICT),
        "rule of across_section with opts.namespace set"
    );
    Ok(())
}

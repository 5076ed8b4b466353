//! What a store keeps besides the content: metadata replaced on upsert,
//! timestamps, `last_updated`, identities that never collide, and the
//! category and session filters of `list` and `recall`.

use std::time::{Duration, SystemTime};

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint, NewEntry, RecallOptions,
};

use super::support::{fresh, keys, put};
use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::CheckContext;

/// How far a timestamp may stray from the call that wrote it: room for a
/// server whose clock is a little off, nowhere near 1970.
pub(crate) const CLOCK_SKEW: Duration = Duration::from_secs(60);

fn entry_or_fail(got: Option<MemoryEntry>, what: &str) -> Result<MemoryEntry, Stop> {
    got.ok_or_else(|| Stop::fail(format!("{what} returned None")))
}

pub(crate) async fn upsert_replaces_metadata(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:meta";
    d.store(
        ns,
        "k",
        "first",
        MemoryCategory::Custom("projects".into()),
        Some("session-1"),
        MemoryTaint::ExternalSync,
    )
    .await?;
    // Every field given anew, each to a value the first store did not have:
    // a store that merges metadata (keeping the old session when the new
    // one is None) keeps the old values.
    d.store(
        ns,
        "k",
        "second",
        MemoryCategory::Daily,
        None,
        MemoryTaint::Internal,
    )
    .await?;
    let e = entry_or_fail(d.get(ns, "k").await?, "get after two stores")?;
    ensure_eq!(
        (e.content.as_str(), &e.category, e.session_id.as_deref(), e.taint),
        ("second", &MemoryCategory::Daily, None, MemoryTaint::Internal),
        "(content, category, session, taint) of get({ns:?}, \"k\") after storing \
         (\"first\", custom:projects, session-1, external_sync) then (\"second\", daily, None, internal)"
    );
    let listed = d.list(Some(ns), None, None).await?;
    ensure_eq!(
        listed
            .iter()
            .map(|e| (e.category.clone(), e.session_id.clone(), e.taint))
            .collect::<Vec<_>>(),
        [(MemoryCategory::Daily, None, MemoryTaint::Internal)],
        "(category, session, taint) listed in {ns} after the upsert"
    );
    let old_session = RecallOptions {
        session_id: Some("session-1".into()),
        ..RecallOptions::in_namespace(ns)
    };
    let by_old_session = d.list(Some(ns), None, Some("session-1")).await?;
    ensure_eq!(
        keys(&by_old_session),
        Vec::<&str>::new(),
        "list({ns:?}, session session-1) after an upsert without a session"
    );
    let recalled = d.recall("second", 10, &old_session).await?;
    ensure_eq!(
        keys(&recalled),
        Vec::<&str>::new(),
        "recall(\"second\") in {ns} with session session-1 after an upsert without a session"
    );
    defaults_replace(d.as_ref()).await?;
    same_content_replaces(d.as_ref()).await
}

/// An upsert whose content is the stored content replaces the metadata
/// too: a store that skips a write when the content (or its hash, or its
/// embedding) is unchanged keeps the old category, session and taint.
async fn same_content_replaces(d: &dyn MemoryProvider) -> Step {
    let ns = "learning:same";
    d.store(
        ns,
        "k",
        "unchanged",
        MemoryCategory::Custom("projects".into()),
        Some("session-1"),
        MemoryTaint::ExternalSync,
    )
    .await?;
    d.store(
        ns,
        "k",
        "unchanged",
        MemoryCategory::Daily,
        Some("session-2"),
        MemoryTaint::Internal,
    )
    .await?;
    let e = entry_or_fail(d.get(ns, "k").await?, "get after two stores of one content")?;
    ensure_eq!(
        (&e.category, e.session_id.as_deref(), e.taint),
        (
            &MemoryCategory::Daily,
            Some("session-2"),
            MemoryTaint::Internal
        ),
        "(category, session, taint) of get({ns:?}, \"k\") after storing \"unchanged\" with \
         (custom:projects, session-1, external_sync) then the same content with (daily, session-2, \
         internal): an upsert replaces the metadata whether or not the content changed"
    );
    Ok(())
}

/// `(category, session, taint)` an upsert of the defaults must leave, and
/// what the entry held before: each field to its default over another
/// value.
pub(crate) const DEFAULTS: (MemoryCategory, Option<&str>, MemoryTaint) =
    (MemoryCategory::Core, None, MemoryTaint::Internal);

/// The message for an entry whose metadata after an upsert of the
/// defaults through `path` is `got`, or `None` when it is the defaults.
pub(crate) fn defaults_kept(
    path: &str,
    at: &str,
    before: &str,
    got: (&MemoryCategory, Option<&str>, MemoryTaint),
) -> Option<String> {
    let (category, session, taint) = &DEFAULTS;
    if got == (category, *session, *taint) {
        return None;
    }
    let mut kept = Vec::new();
    if got.0 != category {
        kept.push(format!("category {}", got.0));
    }
    if got.1.is_some() {
        kept.push(format!("session {:?}", got.1));
    }
    if got.2 != *taint {
        kept.push(format!("taint {}", got.2));
    }
    Some(format!(
        "{path} of {at} with category core, no session and taint internal over an entry of \
         {before} kept {}: a field holding its default is a value given, not a field left out \
         (an update with patch semantics keeps the old value)",
        kept.join(", ")
    ))
}

/// Every field with a default written through `store` and `store_many`
/// over an entry holding other values: the defaults replace them.
async fn defaults_replace(d: &dyn MemoryProvider) -> Step {
    let ns = "learning:defaults";
    let before = "custom:projects, session-1, external_sync";
    for (path, key) in [("store", "by-store"), ("store_many", "by-store-many")] {
        d.store(
            ns,
            key,
            "first",
            MemoryCategory::Custom("projects".into()),
            Some("session-1"),
            MemoryTaint::ExternalSync,
        )
        .await?;
        let (category, session, taint) = DEFAULTS;
        if path == "store" {
            d.store(ns, key, "second", category, session, taint).await?;
        } else {
            d.store_many(&[NewEntry::new(ns, key, "second")]).await?;
        }
        let e = entry_or_fail(d.get(ns, key).await?, "get after an upsert of the defaults")?;
        if let Some(m) = defaults_kept(
            path,
            &format!("({ns}, {key:?})"),
            before,
            (&e.category, e.session_id.as_deref(), e.taint),
        ) {
            return Err(Stop::fail(m));
        }
    }
    Ok(())
}

pub(crate) fn parse(what: &str, text: &str) -> Result<SystemTime, Stop> {
    tinymemory_api::parse_rfc3339(text)
        .ok_or_else(|| Stop::fail(format!("{what} is {text:?}, not an RFC 3339 timestamp")))
}

pub(crate) async fn timestamps(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:time";
    let before = SystemTime::now();
    put(d.as_ref(), ns, "k", "first").await?;
    let after = SystemTime::now();
    let first = entry_or_fail(d.get(ns, "k").await?, "get after a store")?;
    let t1 = parse(&format!("the timestamp of {ns}/k"), &first.timestamp)?;
    ensure!(
        t1 + CLOCK_SKEW >= before && t1 <= after + CLOCK_SKEW,
        "the timestamp of {ns}/k is {:?}, but the store ran between {} and {}: a timestamp is the time of the store",
        first.timestamp,
        humantime::format_rfc3339_micros(before),
        humantime::format_rfc3339_micros(after)
    );
    tokio::time::sleep(Duration::from_millis(5)).await;
    put(d.as_ref(), ns, "k", "second").await?;
    let second = entry_or_fail(d.get(ns, "k").await?, "get after an upsert")?;
    let t2 = parse(
        &format!("the timestamp of {ns}/k after an upsert"),
        &second.timestamp,
    )?;
    ensure!(
        t2 >= t1,
        "the timestamp of {ns}/k went back from {:?} to {:?} on an upsert: an upsert is a new write",
        first.timestamp,
        second.timestamp
    );
    for (what, entries) in [
        ("list", d.list(Some(ns), None, None).await?),
        (
            "recall",
            d.recall("second", 10, &RecallOptions::in_namespace(ns))
                .await?,
        ),
    ] {
        for e in &entries {
            ensure!(
                parse(&format!("the timestamp {what} gave {ns}/k"), &e.timestamp)? == t2,
                "{what} gave {ns}/k the timestamp {:?}, get gave {:?}",
                e.timestamp,
                second.timestamp
            );
        }
    }
    Ok(())
}

/// The `last_updated` `namespaces()` gives `ns`, and the newest timestamp
/// `list` gives its entries.
async fn last_and_newest(
    d: &dyn MemoryProvider,
    ns: &str,
) -> Result<(Option<String>, Option<String>), Stop> {
    let summary = d
        .namespaces()
        .await?
        .into_iter()
        .find(|s| s.namespace == ns)
        .ok_or_else(|| Stop::fail(format!("namespaces() does not list {ns}")))?;
    let mut newest: Option<(SystemTime, String)> = None;
    for e in d.list(Some(ns), None, None).await? {
        let t = parse(&format!("the timestamp of {ns}/{}", e.key), &e.timestamp)?;
        if newest.as_ref().is_none_or(|(n, _)| t > *n) {
            newest = Some((t, e.timestamp.clone()));
        }
    }
    Ok((summary.last_updated, newest.map(|(_, text)| text)))
}

pub(crate) async fn last_updated(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:updates";
    for key in ["a", "b", "c"] {
        put(d.as_ref(), ns, key, "an update").await?;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    put(d.as_ref(), "learning:other", "z", "elsewhere, later").await?;
    tokio::time::sleep(Duration::from_millis(5)).await;
    // Upserting the oldest makes it the newest; forgetting the newest
    // leaves the one before.
    put(d.as_ref(), ns, "a", "an update, again").await?;
    for step in [
        "after three stores and an upsert of the first",
        "after forgetting it",
    ] {
        let (last, newest) = last_and_newest(d.as_ref(), ns).await?;
        if let Some(last) = &last {
            let shown = newest.clone().unwrap_or_default();
            ensure!(
                parse(&format!("last_updated of {ns}"), last)?
                    == parse(&format!("the newest timestamp in {ns}"), &shown)?,
                "namespaces() gives {ns} last_updated {last:?} {step}, but its newest entry was written at {shown:?}: \
                 last_updated is the newest timestamp of the namespace's entries"
            );
        }
        d.forget(ns, "a").await?;
    }
    newest_of_imported_spellings(d.as_ref()).await
}

/// Timestamps spelt otherwise than the driver spells them, whose byte
/// order is not their time order. Only an import can bring them (a store
/// stamps its own), so a driver that does not import cannot hold them and
/// this part passes at once for it. By key, newest first: two pairs a
/// nanosecond apart below the microsecond (the older first in key order in
/// one, the newer in the other, so a microsecond clock picks the older
/// whichever of a tie it keeps), fractions of
/// one and two digits (`.5` is newer than `.25`), lowercase, `Z` without a
/// fraction, an offset, a date before 1970 and one in the year 0099 (which
/// JavaScript's `Date.UTC` reads as 1999). The newest of all is spelt
/// as a store spells timestamps (six digits, `Z`), so a driver that takes
/// the bytewise greatest of its own spelling apart from the others must
/// still compare the two by instant: a lowercase `t` sorts above it.
const SPELT: [(&str, &str); 12] = [
    ("0-canonical-newest", "2020-01-01T00:00:01.000000Z"),
    ("a-older-by-a-nanosecond", "2020-01-01T00:00:00.999999701Z"),
    ("b-newest", "2020-01-01T00:00:00.999999702Z"),
    // The other way round in key order, for a clock that keeps the later.
    ("b2-newer-by-a-nanosecond", "2020-01-01T00:00:00.700000002Z"),
    ("b3-older-by-a-nanosecond", "2020-01-01T00:00:00.700000001Z"),
    ("c-half", "2020-01-01T00:00:00.5Z"),
    ("d-quarter", "2020-01-01T00:00:00.25Z"),
    ("e-lowercase", "2020-01-01t00:00:00.1z"),
    ("f-utc", "2020-01-01T00:00:00Z"),
    ("g-offset", "2020-01-01T01:00:00+02:00"),
    ("h-before-1970", "1969-07-20T20:17:00Z"),
    ("i-year-99", "0099-12-31T23:59:59Z"),
];

/// The keys of [`SPELT`], newest first.
const NEWEST_FIRST: [&str; 12] = [
    "0-canonical-newest",
    "b-newest",
    "a-older-by-a-nanosecond",
    "b2-newer-by-a-nanosecond",
    "b3-older-by-a-nanosecond",
    "c-half",
    "d-quarter",
    "e-lowercase",
    "f-utc",
    "g-offset",
    "h-before-1970",
    "i-year-99",
];

/// `last_updated` after importing [`SPELT`], then after forgetting the
/// newest, again and again: by bytes the newest would be `e-lowercase`
/// until it is forgotten; by instant it is each of [`NEWEST_FIRST`] in
/// turn.
async fn newest_of_imported_spellings(d: &dyn MemoryProvider) -> Step {
    let ns = "learning:spellings";
    let records: Vec<MemoryRecord> = SPELT
        .iter()
        .map(|(key, timestamp)| MemoryRecord {
            namespace: ns.to_owned(),
            key: (*key).to_owned(),
            content: format!("imported with the timestamp {timestamp}"),
            category: MemoryCategory::Core,
            session_id: None,
            taint: MemoryTaint::Internal,
            timestamp: (*timestamp).to_owned(),
        })
        .collect();
    let outcome = match d.import(&records).await {
        Err(e) if e.is_unsupported() => return Ok(()),
        other => other?,
    };
    ensure!(
        outcome.failures.is_empty() && outcome.imported == records.len(),
        "import of {} records with valid RFC 3339 timestamps spelt eleven ways reported {} \
         imported and failures {:?}",
        records.len(),
        outcome.imported,
        outcome.failures
    );
    let mut left: Vec<(&str, &str)> = SPELT.to_vec();
    for newest in NEWEST_FIRST {
        let (last, _) = last_and_newest(d, ns).await?;
        let Some(last) = last else {
            return Ok(());
        };
        let want = left
            .iter()
            .find(|(key, _)| *key == newest)
            .map_or("", |(_, t)| *t);
        let spelt: Vec<&str> = left.iter().map(|(_, t)| *t).collect();
        ensure!(
            parse(&format!("last_updated of {ns}"), &last)? == parse("a timestamp", want)?,
            "namespaces() gives {ns} last_updated {last:?} when its entries were imported with \
             the timestamps {spelt:?}: the newest of those is {want:?}. last_updated is the \
             newest by the instant a timestamp names, not by its bytes (an import keeps any \
             RFC 3339 spelling; tinymemory.protocol.timestamp_key and \
             tinymemory_api::timestamp_order compare by instant)"
        );
        d.forget(ns, newest).await?;
        left.retain(|(key, _)| *key != newest);
    }
    Ok(())
}

/// A store, written and read (so that any cache holds its answers), then
/// closed; the next store of the driver (an exec driver: the same process,
/// after `reset`) must hold nothing of it, whatever it is asked first.
pub(crate) async fn opens_empty(ctx: CheckContext) -> Step {
    let ns = "learning:reopened";
    let opts = RecallOptions::in_namespace(ns);
    {
        let d = fresh(&ctx).await?;
        put(d.as_ref(), ns, "lantern", "a lantern by the door").await?;
        d.recall("lantern", 10, &opts).await?;
        d.get(ns, "lantern").await?;
        d.list(Some(ns), None, None).await?;
        d.list(None, None, None).await?;
        d.namespaces().await?;
    }
    let d = fresh(&ctx).await?;
    let cause = "a store opened after another is closed must be empty: a cache that reset \
                 does not clear answers with the closed store's entries (an exec driver's \
                 process serves store after store)";
    let hits = d.recall("lantern", 10, &opts).await?;
    ensure!(
        hits.is_empty(),
        "recall(\"lantern\") in {ns} of a new store found {:?}, which only the closed store held: \
         {cause}",
        hits.iter().map(|h| h.key.as_str()).collect::<Vec<_>>()
    );
    let got = d.get(ns, "lantern").await?;
    ensure!(
        got.is_none(),
        "get({ns}, \"lantern\") of a new store found the closed store's entry: {cause}"
    );
    let listed = d.list(Some(ns), None, None).await?;
    ensure!(
        listed.is_empty(),
        "list({ns}) of a new store gave {} entries: {cause}",
        listed.len()
    );
    let all = d.list(None, None, None).await?;
    ensure!(
        all.is_empty(),
        "list(None) of a new store gave {} entries: {cause}",
        all.len()
    );
    let namespaces = d.namespaces().await?;
    ensure!(
        namespaces.is_empty(),
        "namespaces() of a new store gave {:?}: {cause}",
        namespaces
            .iter()
            .map(|n| n.namespace.as_str())
            .collect::<Vec<_>>()
    );
    Ok(())
}

pub(crate) async fn distinct_identities(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    // Joined as namespace + "/" + key, both pairs are "learning:a/b/c".
    let data = [
        ("learning:a/b", "c", "the key c in learning:a/b"),
        ("learning:a", "b/c", "the key b/c in learning:a"),
        ("learning:a", "b:c", "the key b:c in learning:a"),
        ("learning:a:b", "c", "the key c in learning:a:b"),
    ];
    for (ns, key, text) in data {
        put(d.as_ref(), ns, key, text).await?;
    }
    for (ns, key, text) in data {
        let got = d.get(ns, key).await?;
        ensure_eq!(
            got.map(|e| (e.namespace, e.key, e.content)),
            Some((Some(ns.to_owned()), key.to_owned(), text.to_owned())),
            "get({ns:?}, {key:?}) after storing (learning:a/b, c), (learning:a, b/c), (learning:a, b:c) \
             and (learning:a:b, c), whose joined ids collide"
        );
    }
    let mut counts: Vec<(String, u64)> = d
        .namespaces()
        .await?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    counts.sort();
    ensure_eq!(
        counts,
        [
            ("learning:a".to_owned(), 2),
            ("learning:a/b".to_owned(), 1),
            ("learning:a:b".to_owned(), 1),
        ],
        "namespaces() after four stores whose joined ids collide"
    );
    d.forget("learning:a", "b/c").await?;
    ensure!(
        d.get("learning:a/b", "c").await?.is_some(),
        "forget(\"learning:a\", \"b/c\") also removed (learning:a/b, c)"
    );
    Ok(())
}

/// A custom category spelt `name`.
fn custom(name: &str) -> MemoryCategory {
    MemoryCategory::Custom(name.to_owned())
}

/// Entries of `learning:filters` with every combination of two categories
/// and three sessions, then two whose category and session differ from
/// others only by case (`custom:Work`, `S1`) or by being empty (the
/// session `""`): filters compare exactly, so a filter folding case, or
/// taking the empty session for none, keeps the wrong entries.
fn filtered() -> [(&'static str, MemoryCategory, Option<&'static str>); 8] {
    [
        ("core-none", MemoryCategory::Core, None),
        ("core-s1", MemoryCategory::Core, Some("s1")),
        ("core-s2", MemoryCategory::Core, Some("s2")),
        ("daily-none", MemoryCategory::Daily, None),
        ("daily-s1", MemoryCategory::Daily, Some("s1")),
        ("daily-s2", MemoryCategory::Daily, Some("s2")),
        ("work-empty", custom("work"), Some("")),
        ("work-upper", custom("Work"), Some("S1")),
    ]
}

async fn store_filtered(d: &dyn MemoryProvider) -> Step {
    for (key, category, session) in filtered() {
        d.store(
            "learning:filters",
            key,
            "a filtered lantern",
            category,
            session,
            MemoryTaint::Internal,
        )
        .await?;
    }
    put(
        d,
        "learning:other",
        "elsewhere",
        "a filtered lantern elsewhere",
    )
    .await
}

/// `(category, session)` filters and the keys of [`filtered`] they keep.
fn filter_cases() -> Vec<(
    Option<MemoryCategory>,
    Option<&'static str>,
    Vec<&'static str>,
)> {
    let keep = |c: &Option<MemoryCategory>, s: Option<&str>| -> Vec<&'static str> {
        filtered()
            .into_iter()
            .filter(|(_, ec, es)| {
                c.as_ref().is_none_or(|c| c == ec) && s.is_none_or(|s| *es == Some(s))
            })
            .map(|(k, _, _)| k)
            .collect()
    };
    let mut cases = Vec::new();
    for c in [
        None,
        Some(MemoryCategory::Core),
        Some(MemoryCategory::Daily),
        Some(MemoryCategory::Conversation),
        Some(custom("work")),
        Some(custom("Work")),
    ] {
        for s in [
            None,
            Some("s1"),
            Some("s2"),
            Some("s3"),
            Some(""),
            Some("S1"),
        ] {
            let want = keep(&c, s);
            cases.push((c.clone(), s, want));
        }
    }
    cases
}

fn sorted(hits: &[MemoryEntry]) -> Vec<&str> {
    let mut k = keys(hits);
    k.sort_unstable();
    k
}

pub(crate) async fn list_filters(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    store_filtered(d.as_ref()).await?;
    for (category, session, want) in filter_cases() {
        let got = d
            .list(Some("learning:filters"), category.as_ref(), session)
            .await?;
        ensure_eq!(
            sorted(&got),
            want,
            "keys of list(learning:filters, category {category:?}, session {session:?})"
        );
    }
    let everywhere = d.list(None, Some(&MemoryCategory::Core), None).await?;
    ensure_eq!(
        sorted(&everywhere),
        ["core-none", "core-s1", "core-s2", "elsewhere"],
        "keys of list(every namespace, category Core)"
    );
    Ok(())
}

pub(crate) async fn recall_filters(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    store_filtered(d.as_ref()).await?;
    for (category, session, want) in filter_cases() {
        let opts = RecallOptions {
            namespace: Some("learning:filters".into()),
            category: category.clone(),
            session_id: session.map(str::to_owned),
            min_score: None,
        };
        let got = d.recall("lantern", 10, &opts).await?;
        ensure_eq!(
            sorted(&got),
            want,
            "keys of recall(\"lantern\") in learning:filters with category {category:?}, session {session:?}"
        );
    }
    Ok(())
}

pub(crate) async fn huge_limit(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for key in ["a", "b", "c"] {
        put(d.as_ref(), "learning:limits", key, "a lantern").await?;
    }
    let opts = RecallOptions::in_namespace("learning:limits");
    // The protocol carries limits up to 2^64 - 1; engines bind them as
    // i64, add one to them, or allocate them.
    for limit in [
        usize::MAX,
        usize::MAX - 1,
        usize::try_from(i64::MAX).unwrap_or(usize::MAX),
        usize::try_from(u64::from(u32::MAX) + 1).unwrap_or(usize::MAX),
    ] {
        let got = d.recall("lantern", limit, &opts).await.map_err(|e| {
            Stop::caused_by(format!(
                "recall(\"lantern\", limit {limit}) failed: a limit above the number of hits is no error: {e}"
            ), &e)
        })?;
        ensure_eq!(
            sorted(&got),
            ["a", "b", "c"],
            "keys of recall(\"lantern\", limit {limit}) in learning:limits"
        );
    }
    Ok(())
}

pub(crate) async fn view_recall_pinned(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    put(d.as_ref(), "global", "g", "a lantern in global").await?;
    put(d.as_ref(), "learning:lights", "l", "a lantern in learning").await?;
    put(
        d.as_ref(),
        "document:lights",
        "x",
        "a lantern in a document",
    )
    .await?;
    let sections = tinymemory_sections::Sections::new(d.as_ref());
    let got = sections
        .learnings()
        .recall("lights", "lantern", 10, &RecallOptions::default())
        .await?;
    ensure_eq!(
        got.iter()
            .map(|h| (h.namespace.as_deref(), h.key.as_str()))
            .collect::<Vec<_>>(),
        [(Some("learning:lights"), "l")],
        "learnings().recall(\"lights\", \"lantern\"): a view's recall searches <section>:<scope>"
    );
    Ok(())
}

//! Namespace matching: byte for byte, no case folding, no wildcards.

use tinymemory_api::{MemoryEntry, MemoryProvider, RecallOptions, RecallProfile};

use super::support::{fresh, put};
use crate::failure::{ensure_eq, missed_hits_cause, Step, Stop};
use crate::CheckContext;

/// `(key, content)` of each entry, in the order given. The hit namespace
/// is `recall.hit_namespace`'s business, so it is not compared here.
fn pairs(entries: &[MemoryEntry]) -> Vec<(String, String)> {
    entries
        .iter()
        .map(|e| (e.key.clone(), e.content.clone()))
        .collect()
}

fn pair(key: &str, content: &str) -> (String, String) {
    (key.to_owned(), content.to_owned())
}

/// `namespaces()` as `(namespace, count)`, sorted (its order is
/// unspecified).
async fn sorted_counts(d: &dyn MemoryProvider) -> Result<Vec<(String, u64)>, crate::failure::Stop> {
    let mut counts: Vec<_> = d
        .namespaces()
        .await?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    counts.sort();
    Ok(counts)
}

/// Each namespace of `data` holds exactly its own entry, through `get`,
/// Ends the message of a pinned recall that found nothing where `get`
/// and `list` found the entry: the name was kept, and the fault is the
/// recall's (a first attempt's word splitting, or a filter applied to the
/// engine's top hits), not the namespace's.
fn recall_missed(profile: RecallProfile, word: &str, got: &[&str]) -> String {
    if !got.is_empty() {
        return String::new();
    }
    format!(
        "; get and list found the entry, so the name was kept: it is the recall of {word:?} \
         that missed it{}, or a filter (the namespace too) applied to the engine's top hits \
         instead of before the limit",
        missed_hits_cause(profile, &[word], got)
    )
}

/// `list` and a pinned `recall` of `word` (which every content holds).
async fn each_sees_only_itself(
    d: &dyn MemoryProvider,
    profile: RecallProfile,
    data: &[(&str, &str, &str)],
    word: &str,
) -> Step {
    for &(ns, key, text) in data {
        let got = d.get(ns, key).await?;
        ensure_eq!(
            got.map(|e| e.content),
            Some(text.to_owned()),
            "content of get({ns:?}, {key:?})"
        );
        let listed = d.list(Some(ns), None, None).await?;
        ensure_eq!(pairs(&listed), [pair(key, text)], "list(Some({ns:?}))");
        let hits = d.recall(word, 10, &RecallOptions::in_namespace(ns)).await?;
        let keys: Vec<&str> = hits.iter().map(|h| h.key.as_str()).collect();
        let missed = recall_missed(profile, word, &keys);
        ensure_eq!(
            pairs(&hits),
            [pair(key, text)],
            "recall({word:?}) pinned to {ns:?}{missed}"
        );
    }
    Ok(())
}

pub(crate) async fn case_sensitive(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    // The same key in each, so a driver folding case overwrites one with
    // another instead of keeping both.
    let data = [
        ("learning:Rust", "k", "upper case scope"),
        ("learning:rust", "k", "lower case scope"),
        ("learning:RUST", "k", "shouting scope"),
        ("Global", "k", "the Global scope, unsectioned"),
        ("global", "k", "the global scope"),
    ];
    for (ns, key, text) in data {
        put(d.as_ref(), ns, key, text).await?;
    }
    each_sees_only_itself(d.as_ref(), ctx.profile, &data, "scope").await?;
    ensure_eq!(
        sorted_counts(d.as_ref()).await?,
        [
            ("Global".to_owned(), 1),
            ("global".to_owned(), 1),
            ("learning:RUST".to_owned(), 1),
            ("learning:Rust".to_owned(), 1),
            ("learning:rust".to_owned(), 1),
        ],
        "namespaces() after one store in each of five names differing in case"
    );
    // Forgetting in a spelling never written touches nothing.
    d.forget("learning:rUST", "k").await?;
    each_sees_only_itself(d.as_ref(), ctx.profile, &data, "scope").await?;
    Ok(())
}

pub(crate) async fn no_wildcards(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    // `_` is SQL LIKE's any-character, `.` a regex's; both are valid in a
    // namespace and must match only themselves.
    let data = [
        (
            "learning:a_b",
            "underscore",
            "name with a literal underscore",
        ),
        (
            "learning:axb",
            "letter",
            "name with a letter where the underscore was",
        ),
        ("learning:a.b", "dot", "name with a literal dot"),
        ("learning:a-b", "dash", "name with a dash where the dot was"),
        ("learning:a__", "two", "name with two underscores"),
    ];
    for (ns, key, text) in data {
        put(d.as_ref(), ns, key, text).await?;
    }
    each_sees_only_itself(d.as_ref(), ctx.profile, &data, "name").await?;
    ensure_eq!(
        sorted_counts(d.as_ref()).await?,
        [
            ("learning:a-b".to_owned(), 1),
            ("learning:a.b".to_owned(), 1),
            ("learning:a__".to_owned(), 1),
            ("learning:a_b".to_owned(), 1),
            ("learning:axb".to_owned(), 1),
        ],
        "namespaces() after one store in each of five names"
    );
    // Forgetting a neighbour's key through a pattern-like name touches
    // nothing.
    d.forget("learning:a_b", "letter").await?;
    d.forget("learning:a.b", "dash").await?;
    each_sees_only_itself(d.as_ref(), ctx.profile, &data, "name").await?;
    Ok(())
}

/// Why a reserved-looking name failed, for every message of
/// `namespace.reserved_words`.
const RESERVED_HINT: &str = "a valid name is an ordinary namespace (or key) whatever word it \
     is: an engine that reserves the word (a root label, a table, schema or collection name, \
     an SQL keyword) must map names so that none collides with it (quote identifiers, or \
     prefix them)";

pub(crate) async fn reserved_words(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let keys_ns = "learning:reserved-keys";
    let mut want: Vec<(String, u64)> = Vec::new();
    for word in crate::hostile::RESERVED_WORDS {
        for ns in crate::hostile::reserved_namespaces(word) {
            let text = format!("kept under the name {word}");
            d.store(
                &ns,
                word,
                &text,
                tinymemory_api::MemoryCategory::Core,
                None,
                tinymemory_api::MemoryTaint::Internal,
            )
            .await
            .map_err(|e| {
                Stop::caused_by(
                    format!("store({ns:?}, {word:?}) failed: {e}; {RESERVED_HINT}"),
                    &e,
                )
            })?;
            want.push((ns, 1));
        }
        put(d.as_ref(), keys_ns, word, &format!("the key {word}")).await?;
    }
    want.push((
        keys_ns.to_owned(),
        crate::hostile::RESERVED_WORDS.len() as u64,
    ));
    want.sort();
    for word in crate::hostile::RESERVED_WORDS {
        for ns in crate::hostile::reserved_namespaces(word) {
            let got = d.get(&ns, word).await.map_err(|e| {
                Stop::caused_by(
                    format!("get({ns:?}, {word:?}) failed: {e}; {RESERVED_HINT}"),
                    &e,
                )
            })?;
            ensure_eq!(
                got.map(|e| e.content),
                Some(format!("kept under the name {word}")),
                "content of get({ns:?}, {word:?}); {RESERVED_HINT}"
            );
            let hits = d
                .recall("kept", 10, &RecallOptions::in_namespace(&ns))
                .await
                .map_err(|e| {
                    Stop::caused_by(
                        format!("recall(\"kept\") in {ns:?} failed: {e}; {RESERVED_HINT}"),
                        &e,
                    )
                })?;
            let keys: Vec<&str> = hits.iter().map(|h| h.key.as_str()).collect();
            let hint = match recall_missed(ctx.profile, "kept", &keys) {
                missed if missed.is_empty() => format!("; {RESERVED_HINT}"),
                missed => missed,
            };
            ensure_eq!(
                keys,
                [*word],
                "keys of recall(\"kept\") pinned to {ns:?}, which holds one entry with that \
                 word{hint}"
            );
        }
        let got = d.get(keys_ns, word).await?;
        ensure_eq!(
            got.map(|e| e.content),
            Some(format!("the key {word}")),
            "content of get({keys_ns:?}, {word:?}); {RESERVED_HINT}"
        );
    }
    ensure_eq!(
        sorted_counts(d.as_ref()).await?,
        want,
        "namespaces() after storing under reserved-looking names; {RESERVED_HINT}"
    );
    Ok(())
}

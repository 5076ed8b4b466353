//! Cap determinism: which namespaces are visited, and what is found, is a
//! function of the stored data alone.

use proptest::prelude::any;
use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_doubles::ShuffledNamespaces;
use tinymemory_sections::Sections;

use super::data::{dataset, open_with, section_query, Across, Dataset, Hit, SectionQuery};
use super::engine::{CaseFailure, CaseResult};
use super::memo::Memo;
use super::run::{property, require_eq, Needs};
use crate::noise;
use crate::{Check, CheckContext, Family, Profiles, ScoreNoise};

pub(crate) const CHECK: Check = Check {
    id: "properties.cap_determinism",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "for any data and cap, the visited namespaces and the hits do not depend on namespaces() order, \
                  on insertion order or on repetition",
    run: |ctx| {
        Box::pin(property(
            ctx,
            CHECK.id,
            Needs::StoredData,
            (dataset(), section_query(1..=8), any::<u64>(), any::<u64>()),
            case,
        ))
    },
};

/// What separates two answers to one call, said before they are shown:
/// hits one has and the other lacks (a recall that lost them, which no
/// order explains), or the same hits in another order or with other
/// scores.
fn what_differs(first: &Across, other: &Across) -> String {
    let keys = |a: &Across| -> Vec<String> {
        let mut k: Vec<String> = a
            .hits
            .iter()
            .map(|h| format!("{}/{}", h.namespace.as_deref().unwrap_or("?"), h.key))
            .collect();
        k.sort_unstable();
        k
    };
    let (a, b) = (keys(first), keys(other));
    let missing: Vec<&String> = a.iter().filter(|k| !b.contains(k)).collect();
    let extra: Vec<&String> = b.iter().filter(|k| !a.contains(k)).collect();
    if missing.is_empty() && extra.is_empty() {
        if first.hits.len() == other.hits.len() && first.searched == other.searched {
            return ": the same hits in another order or with other scores".to_owned();
        }
        return String::new();
    }
    let mut out = String::from(": hits differ, not only their order");
    if !missing.is_empty() {
        out.push_str(&format!(" (missing {missing:?})"));
    }
    if !extra.is_empty() {
        out.push_str(&format!(" (not in the first answer {extra:?})"));
    }
    if let Some(score) = one_tied_score(first, &missing, other, &extra) {
        out.push_str(&format!(
            "; each of them scores {score}: the limit cut entries tied at one score by the \
             order they were stored in, where which of them it keeps must follow from the data \
             (equal scores ordered by namespace and key, say, as the reference driver does)"
        ));
    }
    out
}

/// The one score every hit `missing` from `first` and every `extra` hit
/// of `other` has, when there is one: a cut through a tie.
fn one_tied_score(
    first: &Across,
    missing: &[&String],
    other: &Across,
    extra: &[&String],
) -> Option<f64> {
    if missing.len() != extra.len() {
        return None;
    }
    let score_of = |a: &Across, id: &String| {
        a.hits
            .iter()
            .find(|h| format!("{}/{}", h.namespace.as_deref().unwrap_or("?"), h.key) == **id)
            .and_then(|h| h.score)
    };
    let mut scores = missing
        .iter()
        .map(|id| score_of(first, id))
        .chain(extra.iter().map(|id| score_of(other, id)));
    let score = scores.next()??;
    scores.all(|s| s == Some(score)).then_some(score)
}

/// The generated case: data, call and two `namespaces()` shuffle seeds.
type Input = (Dataset, SectionQuery, u64, u64);

async fn across(d: &dyn MemoryProvider, q: &SectionQuery) -> Result<Across, CaseFailure> {
    Sections::new(d)
        .recall()
        .with_cap(q.cap)
        .across_section(&q.section, &q.query, q.limit, &RecallOptions::default())
        .await
        .map(|h| Across::from(&h))
        .map_err(|e| CaseFailure::caused_by(format!("{q:?} failed: {e}"), &e))
}

async fn case(ctx: CheckContext, (data, q, shuffle_a, shuffle_b): Input) -> CaseResult {
    let (want_searched, want_truncated) = data.expected_visit(&q.section, q.cap);
    let first_store = open_with(&ctx, &data.entries).await?;
    // Reversed rather than shuffled: every pair of entries is stored in the
    // other order, and dropping an entry while shrinking keeps that true.
    let order: Vec<_> = data.entries.iter().rev().cloned().collect();
    let second_store = open_with(&ctx, &order).await?;
    // The data does not change after the writes: each store's
    // `namespaces()` is asked once and shuffled anew on every call, so each
    // repetition still sees another order; every recall is sent.
    let (memo_a, memo_b) = (
        Memo::new(first_store.as_ref()),
        Memo::new(second_store.as_ref()),
    );
    let shuffled_a = ShuffledNamespaces::new(&memo_a, shuffle_a);
    let shuffled_b = ShuffledNamespaces::new(&memo_b, shuffle_b);
    // The generated limit, and the small limits that cut ties most often,
    // each once (a generated 2 was asked twice).
    let mut limits = vec![q.limit];
    for small in [1, 2] {
        if !limits.contains(&small) {
            limits.push(small);
        }
    }
    for limit in limits {
        let q = SectionQuery { limit, ..q.clone() };
        let first = across(&shuffled_a, &q).await?;
        require_eq!(
            first.searched,
            want_searched,
            "namespaces {q:?} visited (count descending, then name, the first {})",
            q.cap
        );
        require_eq!(first.truncated, want_truncated, "truncated of {q:?}");
        // The shuffle generator advances, so the repetition sees another order.
        let again = across(&shuffled_a, &q).await?;
        require_eq!(
            again,
            first,
            "{q:?} repeated on the same store{}",
            what_differs(&first, &again)
        );
        // Another store, so another layout: scores may differ by noise.
        let other = across(&shuffled_b, &q).await?;
        let verdict = if cut_elsewhere(&first, &other, &q) {
            // The limit cut through hits within noise of each other (or
            // through a tie, which noise does not explain): both stores'
            // whole rankings say which.
            let all = SectionQuery {
                limit: data.entries.len().max(1),
                ..q.clone()
            };
            let (a, b) = (
                across(&shuffled_a, &all).await?,
                across(&shuffled_b, &all).await?,
            );
            same_up_to_noise(&a, &b, &all)
                .and_then(|()| cut_explained(&first, &other, (&a, &b)))
                .map_err(|why| format!("; over the whole ranking of both stores{why}"))
        } else {
            same_up_to_noise(&first, &other, &q)
        };
        if let Err(beyond) = verdict {
            return Err(format!(
                "{q:?} on the same data stored in reverse order ({:?}){}{beyond}: expected \
                 {first:?}, got {other:?}",
                order
                    .iter()
                    .map(|e| format!("{}/{}", e.namespace, e.key))
                    .collect::<Vec<_>>(),
                what_differs(&first, &other)
            )
            .into());
        }
    }
    Ok(())
}

/// Whether `first` and `other`, both full at the limit of `q`, visited the
/// same namespaces but hold other hits: the limit may have cut through
/// hits within noise of each other.
fn cut_elsewhere(first: &Across, other: &Across, q: &SectionQuery) -> bool {
    let ids = |a: &Across| {
        let mut v: Vec<(Option<String>, String)> = a
            .hits
            .iter()
            .map(|h| (h.namespace.clone(), h.key.clone()))
            .collect();
        v.sort_unstable();
        v
    };
    first.hits.len() == q.limit
        && other.hits.len() == q.limit
        && (&first.searched, first.truncated) == (&other.searched, other.truncated)
        && ids(first) != ids(other)
}

/// `Ok` when every hit `first` kept and `other` cut (p) and every hit
/// `other` kept and `first` cut (q) changed places because their scores
/// did, in the whole rankings `a` (of `first`'s store) and `b` (of
/// `other`'s): p scores at least q in `a`, q at least p in `b`, and they
/// are not tied in both (which of tied entries a limit keeps follows from
/// the data, not from where they are stored). `Err` says which pair, after
/// a `; `.
fn cut_explained(first: &Across, other: &Across, (a, b): (&Across, &Across)) -> Result<(), String> {
    let id = |h: &Hit| (h.namespace.clone(), h.key.clone());
    let only = |x: &Across, y: &Across| -> Vec<(Option<String>, String)> {
        x.hits
            .iter()
            .map(id)
            .filter(|i| y.hits.iter().all(|h| id(h) != *i))
            .collect()
    };
    let score = |r: &Across, i: &(Option<String>, String)| {
        r.hits.iter().find(|h| id(h) == *i).and_then(|h| h.score)
    };
    let name = |i: &(Option<String>, String)| format!("{}/{}", i.0.as_deref().unwrap_or("?"), i.1);
    for p in only(first, other) {
        for q in only(other, first) {
            let explained =
                noise::swap_explained((score(a, &p), score(a, &q)), (score(b, &p), score(b, &q)));
            if !explained {
                return Err(format!("; {}", noise::Beyond::Order(name(&p), name(&q))));
            }
        }
    }
    Ok(())
}

/// `Ok` when `other` is `first` up to score noise ([`noise::compare`]):
/// the same namespaces searched and truncation, the same hits with the
/// same content, scores within noise. The largest difference is recorded
/// as the check's noise. `Err` says, after a `; `, what goes beyond noise
/// (empty when the visit differs, which the message shows).
fn same_up_to_noise(first: &Across, other: &Across, q: &SectionQuery) -> Result<(), String> {
    if (&first.searched, first.truncated) != (&other.searched, other.truncated) {
        return Err(String::new());
    }
    let id = |h: &Hit| format!("{}/{}", h.namespace.as_deref().unwrap_or("?"), h.key);
    let ids = |a: &Across| a.hits.iter().map(id).collect::<Vec<_>>();
    let (first_ids, other_ids) = (ids(first), ids(other));
    let scored = |ids: &[String], a: &Across| -> Vec<(String, Option<f64>)> {
        ids.iter()
            .cloned()
            .zip(a.hits.iter().map(|h| h.score))
            .collect()
    };
    let (f, o) = (scored(&first_ids, first), scored(&other_ids, other));
    let largest = noise::compare(&f, &o).map_err(|b| format!("; {b}"))?;
    for h in &first.hits {
        if let Some(o) = other.hits.iter().find(|o| id(o) == id(h)) {
            if o.content != h.content {
                return Err(format!("; the content of {} differs", id(h)));
            }
        }
    }
    if let Some((difference, hit, a, b)) = largest {
        noise::record(ScoreNoise {
            difference,
            at: format!(
                "{q:?}, hit {hit}: {a:?} on one store, {b:?} on the same data stored in reverse \
                 order"
            ),
        });
    }
    Ok(())
}

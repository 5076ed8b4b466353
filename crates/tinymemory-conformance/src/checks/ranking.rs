//! Rules that hold for any ranking engine, lexical or semantic: the same
//! question gets the same answer, an entry's own text finds it first, and
//! higher scores rank higher.

use tinymemory_api::{MemoryEntry, MemoryProvider, RecallOptions};

use super::support::{fresh, put};
use crate::failure::{ensure, ensure_eq, Step};
use crate::CheckContext;

/// Entries no one of which holds every word of another, so that under any
/// profile an entry's own content ranks it strictly first: for a lexical
/// engine no other entry holds all its words, for an embedding no other
/// entry has its features. Lengths differ (10 to 39 characters), so a
/// driver whose scores grow with an entry's length (an inner product over
/// unnormalised vectors) ranks a longer neighbour above the entry itself.
const DISTINCT: [(&str, &str); 5] = [
    ("short", "comet tail"),
    ("long", "comet dust over northern hills at dusk"),
    ("lights", "tail lights on the night road"),
    ("valley", "northern hills river valley"),
    ("dusk", "river valley at dusk with comet dust"),
];

/// A hit as compared for determinism: where it lives, its key and its
/// score's bits (so `-0.0` differs from `0.0`, and NaN from itself only by
/// payload).
pub(crate) fn fingerprint(hits: &[MemoryEntry]) -> Vec<(Option<String>, String, Option<u64>)> {
    hits.iter()
        .map(|h| {
            (
                h.namespace.clone(),
                h.key.clone(),
                h.score.map(f64::to_bits),
            )
        })
        .collect()
}

/// `[k1 (0.5), k2 (none)]`, for messages.
fn shown(hits: &[MemoryEntry]) -> String {
    shown_in(hits, None)
}

/// As [`shown`], but a hit outside the `pinned` namespace (when given) is
/// named `namespace/key`: `[k1 (0.5), other:ns/k2 (no score)]`.
pub(crate) fn shown_in(hits: &[MemoryEntry], pinned: Option<&str>) -> String {
    let items: Vec<String> = hits
        .iter()
        .map(|h| {
            let name = match (pinned, h.namespace.as_deref()) {
                (None, _) => h.key.clone(),
                (Some(p), Some(ns)) if ns == p => h.key.clone(),
                (Some(_), Some(ns)) => format!("{ns}/{}", h.key),
                (Some(_), None) => format!("<no namespace>/{}", h.key),
            };
            match h.score {
                Some(s) => format!("{name} ({s:?})"),
                None => format!("{name} (no score)"),
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

async fn store_distinct(d: &dyn MemoryProvider, namespace: &str) -> Step {
    for (key, text) in DISTINCT {
        put(d, namespace, key, text).await?;
    }
    Ok(())
}

pub(crate) async fn deterministic(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:determinism";
    store_distinct(d.as_ref(), ns).await?;
    store_distinct(d.as_ref(), "learning:other").await?;
    let pinned = RecallOptions::in_namespace(ns);
    let questions: Vec<(&str, usize, RecallOptions)> = vec![
        ("comet dust", 10, pinned.clone()),
        ("comet dust", 2, pinned.clone()),
        ("river valley at dusk", 3, pinned.clone()),
        ("northern", 1, pinned.clone()),
        ("zebra quartz", 10, pinned.clone()),
        ("comet tail lights", 10, RecallOptions::default()),
    ];
    // Each question twice in a row, then again after all the others, so
    // that no pattern of calls (alternating, per question, per round)
    // hides a change.
    let mut first = Vec::new();
    for (query, limit, opts) in &questions {
        let once = d.recall(query, *limit, opts).await?;
        let twice = d.recall(query, *limit, opts).await?;
        ensure!(
            fingerprint(&once) == fingerprint(&twice),
            "recall({query:?}, limit {limit}) in {} asked twice in a row answered {} then {}: \
             the same recall must return the same hits with the same score bits",
            opts.effective_namespace(),
            shown(&once),
            shown(&twice)
        );
        first.push(once);
    }
    // Reads in between change nothing that a recall may depend on.
    for round in 2..=3 {
        d.get(ns, "short").await?;
        d.list(Some(ns), None, None).await?;
        d.namespaces().await?;
        for ((query, limit, opts), before) in questions.iter().zip(&first) {
            let again = d.recall(query, *limit, opts).await?;
            ensure!(
                fingerprint(&again) == fingerprint(before),
                "recall({query:?}, limit {limit}) in {} on unchanged data answered {} the first time \
                 and {} the time {round}: the same recall must return the same hits with the same score bits",
                opts.effective_namespace(),
                shown(before),
                shown(&again)
            );
        }
    }
    Ok(())
}

pub(crate) async fn self_retrieval(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:self";
    store_distinct(d.as_ref(), ns).await?;
    // The same texts elsewhere must not compete: the recall is pinned.
    put(d.as_ref(), "learning:elsewhere", "short", "comet tail").await?;
    let opts = RecallOptions::in_namespace(ns);
    retrieves_each(d.as_ref(), ns, &opts, &DISTINCT).await?;
    // After recalls: a new entry, and an upsert to a new text, must be
    // found by their own text too (an index built at the first recall, or
    // a vector kept from the old content, is not).
    put(d.as_ref(), ns, "fresh", "harbour lights at dawn").await?;
    put(d.as_ref(), ns, "valley", "granite quarry beneath the ridge").await?;
    retrieves_each(
        d.as_ref(),
        ns,
        &opts,
        &[
            ("fresh", "harbour lights at dawn"),
            ("valley", "granite quarry beneath the ridge"),
        ],
    )
    .await
}

async fn retrieves_each(
    d: &dyn MemoryProvider,
    ns: &str,
    opts: &RecallOptions,
    entries: &[(&str, &str)],
) -> Step {
    for &(key, text) in entries {
        let hits = d.recall(text, 10, opts).await?;
        ensure!(
            hits.first().is_some_and(|h| h.key == key),
            "recall({text:?}) in {ns}, the content of {key:?} itself, must rank {key:?} first; got {}",
            shown(&hits)
        );
        if let Some(top) = hits[0].score {
            for h in &hits[1..] {
                ensure!(
                    h.score.is_none_or(|s| s < top),
                    "recall({text:?}) in {ns}: {:?} scored {:?}, not below the entry's own {top:?} \
                     although its content differs",
                    h.key,
                    h.score
                );
            }
        }
    }
    Ok(())
}

pub(crate) async fn ranking_higher_better(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:ranking";
    // Every entry shares a word with the query, so a lexical ranking
    // returns them all too; the nearer an entry, the more it shares.
    let query = "alpha beta gamma delta";
    let data = [
        ("exact", "alpha beta gamma delta"),
        ("three", "alpha beta gamma river"),
        ("two", "alpha beta stone river"),
        ("one", "alpha cloud stone river"),
    ];
    for (key, text) in data {
        put(d.as_ref(), ns, key, text).await?;
    }
    let hits = d
        .recall(query, 10, &RecallOptions::in_namespace(ns))
        .await?;
    ensure_eq!(
        hits.len(),
        4,
        "hits for {query:?} in {ns} of 4 entries sharing its words"
    );
    for h in &hits {
        if let Some(s) = h.score {
            ensure!(
                s.is_finite(),
                "hit {:?} has the non-finite score {s:?}",
                h.key
            );
        }
    }
    for pair in hits.windows(2) {
        if let (Some(a), Some(b)) = (pair[0].score, pair[1].score) {
            ensure!(
                a >= b,
                "hits for {query:?} are {}: a score rises down the list, so scores are not \
                 higher-is-better best first (a distance, lower = nearer, must be converted, e.g. 1 - d)",
                shown(&hits)
            );
        }
    }
    ensure!(
        hits[0].key == "exact",
        "the entry whose content is the query, \"exact\", must rank first with the highest score; got {}",
        shown(&hits)
    );
    if let (Some(best), Some(worst)) = (hits[0].score, hits[3].score) {
        ensure!(
            best > worst,
            "\"exact\" scored {best:?}, not above the farthest hit {:?} ({worst:?}): higher must be better",
            hits[3].key
        );
    }
    Ok(())
}

/// The lowercased distinct words of `text`.
fn word_set(text: &str) -> std::collections::BTreeSet<String> {
    tinymemory_api::text::words(text)
        .map(str::to_lowercase)
        .collect()
}

/// `Ok(())` when `hits` of a recall by `query` (the content of `key`) rank
/// `key` first, or only behind hits that are as good a match by any
/// profile's rule: a hit with the same score bits (a tie, which the engine
/// breaks by its own rule), or one holding every word of the query (a
/// repeated text such as `سلام سلام` for `سلام`, which BM25's term
/// frequency ranks higher, or the same text under another key, which an
/// unscored engine cannot show as a tie), or one made only of words of the
/// query (a shorter text: BM25's length normalisation, Robertson and
/// Zaragoza 2009, can rank `Piacere di conoscerti.` above the entry
/// `Ciao, piacere di conoscerti.` itself, when `piacere` and `conoscerti`
/// are rare in the namespace and `ciao` is not).
pub(crate) fn ranks_first(hits: &[MemoryEntry], key: &str, query: &str) -> Result<(), String> {
    let Some(at) = hits.iter().position(|h| h.key == key) else {
        return Err(format!("not among the hits {}", shown(hits)));
    };
    let own = hits[at].score.map(f64::to_bits);
    let asked = word_set(query);
    let as_good = |h: &MemoryEntry| {
        (own.is_some() && h.score.map(f64::to_bits) == own) || {
            let held = word_set(&h.content);
            held.is_superset(&asked) || held.is_subset(&asked)
        }
    };
    match hits[..at].iter().find(|h| !as_good(h)) {
        None => Ok(()),
        Some(above) => Err(format!(
            "ranked {} after {:?} ({:?} against its own {:?}), which lacks some of its words and holds others",
            at + 1,
            above.key,
            above.score,
            hits[at].score
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(key: &str, score: Option<f64>, content: &str) -> MemoryEntry {
        MemoryEntry {
            id: key.to_owned(),
            key: key.to_owned(),
            content: content.to_owned(),
            namespace: Some("global".to_owned()),
            category: tinymemory_api::MemoryCategory::Core,
            timestamp: String::new(),
            session_id: None,
            score,
            taint: tinymemory_api::MemoryTaint::Internal,
        }
    }

    #[test]
    fn first_or_behind_ties_and_hits_holding_every_word() {
        let hits = [
            hit("a", Some(1.0), "x"),
            hit("b", Some(1.0), "y"),
            hit("c", Some(0.5), "hello there"),
            hit("d", Some(0.4), "hello"),
        ];
        assert_eq!(ranks_first(&hits, "a", "x"), Ok(()));
        assert_eq!(ranks_first(&hits, "b", "y"), Ok(()));
        assert_eq!(
            ranks_first(&hits, "c", "hello there"),
            Err("ranked 3 after \"a\" (Some(1.0) against its own Some(0.5)), which lacks some of its words and holds others".to_owned())
        );
        assert_eq!(
            ranks_first(&hits, "z", "z"),
            Err("not among the hits [a (1.0), b (1.0), c (0.5), d (0.4)]".to_owned())
        );
        let repeated = [
            hit("twice", Some(10.6), "Salam salam"),
            hit("once", Some(9.5), "salam"),
        ];
        assert_eq!(ranks_first(&repeated, "once", "salam"), Ok(()));
        let unscored = [
            hit("a", None, "hi there"),
            hit("b", None, "hi there"),
            hit("c", None, "bye"),
        ];
        assert_eq!(ranks_first(&unscored, "b", "hi there"), Ok(()));
        assert!(ranks_first(&[hit("c", None, "bye"), hit("b", None, "hi")], "b", "hi").is_err());
        // A shorter entry made only of the query's words may rank above,
        // as BM25's length normalisation ranks it; one with another word
        // may not.
        let shorter = [
            hit("short", Some(7.6), "Piacere di conoscerti."),
            hit("own", Some(7.4), "Ciao, piacere di conoscerti."),
        ];
        assert_eq!(
            ranks_first(&shorter, "own", "Ciao, piacere di conoscerti."),
            Ok(())
        );
        let other = [
            hit("short", Some(7.6), "Piacere, amico."),
            hit("own", Some(7.4), "Ciao, piacere di conoscerti."),
        ];
        assert!(ranks_first(&other, "own", "Ciao, piacere di conoscerti.").is_err());
    }
}

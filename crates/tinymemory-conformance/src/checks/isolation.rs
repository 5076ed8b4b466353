//! Contract sentence 11: a recall pinned to one namespace is not shaped by
//! any other namespace.
//!
//! Full-text engines keep statistics per index: SQLite FTS5's `bm25()`
//! weighs a word by how many rows of the whole table hold it, and by the
//! table's average row length (Robertson and Zaragoza, "The Probabilistic
//! Relevance Framework: BM25 and Beyond", 2009). When one index holds every
//! namespace, a write in namespace B changes the scores, and at the
//! `limit` cut-off the hits, of a recall pinned to A: a tenant's results
//! then reveal how common a word is in another tenant's memories.

use tinymemory_api::{MemoryProvider, NewEntry, RecallOptions, RecallProfile};

use super::ranking::{fingerprint, shown_in};
use super::setup::{noted, store_batch};
use super::support::{fresh, put};
use crate::failure::{ensure, Step};
use crate::noise;
use crate::{CheckContext, ScoreNoise};

/// The pinned namespace's entries: words of the questions at different
/// frequencies and lengths, so that any statistic of the collection (a
/// document frequency, a document count, an average length) moves at
/// least one score.
const TENANT: [(&str, &str); 10] = [
    ("a1", "comet tail over the harbour"),
    ("a2", "comet dust and comet light"),
    ("a3", "harbour lights at dawn"),
    (
        "a4",
        "a long walk along the northern harbour wall past the comet museum at dusk",
    ),
    ("a5", "granite quarry"),
    ("a6", "dawn chorus in the valley"),
    ("a7", "comet"),
    ("a8", "light rain on the quarry road"),
    ("a9", "彗星 over the 港口"),
    ("a10", "港口 港口 dawn"),
];

/// How many entries the bulk round stores elsewhere in one `store_many`.
const BULK: usize = 3_000;

/// Questions asked in the pinned namespaces: common and rare words, a
/// limit that cuts ties and near-ties, and a limit that covers everything.
const QUESTIONS: [(&str, usize); 7] = [
    ("comet", 10),
    ("comet", 2),
    ("harbour dawn", 3),
    ("quarry light", 10),
    ("comet harbour lights dawn", 4),
    ("museum", 10),
    ("港口 彗星", 5),
];

/// What is written elsewhere between the rounds: floods of the questions'
/// words, long entries, entries in neighbouring names (`learning:tenant-a`
/// next to `learning:tenant-a-2` and `learning:tenant-a/x`).
fn competitors(round: usize) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let spaces = [
        "learning:tenant-b",
        "learning:tenant-a-2",
        "learning:tenant-a/x",
        "conversation:other",
    ];
    for (i, ns) in spaces.iter().enumerate() {
        for j in 0..(3 + 4 * round) {
            let text = match (i + j) % 4 {
                0 => "comet comet comet".to_owned(),
                1 => format!("harbour dawn {}", "word ".repeat(20 * (round + 1))),
                2 => "quarry light museum comet harbour".to_owned(),
                _ => format!("unrelated text number {j}"),
            };
            out.push(((*ns).to_owned(), format!("r{round}-{j}"), text));
        }
    }
    out
}

pub(crate) async fn namespace_isolation(ctx: CheckContext) -> Step {
    let mut batched = false;
    let step = isolation(ctx, &mut batched).await;
    noted(step, batched)
}

/// The check's body; `batched` says whether any of its set-up data went
/// in by an accepted `store_many` (the tenants and each round elsewhere
/// are one batch each: the check compares only after a whole round).
async fn isolation(ctx: CheckContext, batched: &mut bool) -> Step {
    let d = fresh(&ctx).await?;
    // Two pinned namespaces: a sectioned one, and `global` through
    // `namespace: None`, each with the same entries.
    let pinned = [
        (
            "learning:tenant-a",
            RecallOptions::in_namespace("learning:tenant-a"),
        ),
        ("global", RecallOptions::default()),
    ];
    let tenants: Vec<NewEntry> = pinned
        .iter()
        .flat_map(|(ns, _)| TENANT.map(|(key, text)| NewEntry::new(*ns, key, text)))
        .collect();
    *batched |= store_batch(d.as_ref(), &tenants).await?;
    let before = answers(d.as_ref(), &pinned).await?;
    let mut written: Vec<(String, String)> = Vec::new();
    for round in 0..3 {
        let round: Vec<NewEntry> = competitors(round)
            .into_iter()
            .map(|(ns, key, text)| NewEntry::new(ns, key, text))
            .collect();
        *batched |= store_batch(d.as_ref(), &round).await?;
        written.extend(round.into_iter().map(|e| (e.namespace, e.key)));
        let what = format!(
            "after storing {} entries in other namespaces",
            written.len()
        );
        compare(d.as_ref(), ctx.profile, &pinned, &before, &what).await?;
    }
    // A bulk write of thousands elsewhere: an engine that refreshes
    // collection-wide statistics every so many writes shows it here.
    let bulk: Vec<NewEntry> = (0..BULK)
        .map(|i| {
            let text = match i % 3 {
                0 => "comet harbour dawn",
                1 => "彗星 港口 quarry light",
                _ => "museum of the northern valley",
            };
            NewEntry::new(format!("learning:bulk-{}", i % 10), format!("b{i}"), text)
        })
        .collect();
    d.store_many(&bulk).await?;
    compare(
        d.as_ref(),
        ctx.profile,
        &pinned,
        &before,
        &format!("after a bulk store of {BULK} entries in other namespaces"),
    )
    .await?;
    // Upserts and forgets elsewhere move the statistics back and forth.
    for (ns, key) in written.iter().step_by(2) {
        put(d.as_ref(), ns, key, "comet").await?;
    }
    compare(
        d.as_ref(),
        ctx.profile,
        &pinned,
        &before,
        "after upserting entries in other namespaces",
    )
    .await?;
    for (ns, key) in &written {
        d.forget(ns, key).await?;
    }
    compare(
        d.as_ref(),
        ctx.profile,
        &pinned,
        &before,
        "after forgetting every entry of the other namespaces",
    )
    .await
}

type Answer = Vec<(Option<String>, String, Option<u64>)>;

/// How two answers of one recall differ when they differ only among
/// entries of equal score: the score bits position by position the same,
/// and each group of equal scores holding the same entries, but for the
/// last group when the limit cut it (it may keep others).
#[derive(Debug, PartialEq)]
enum TieDifference {
    /// Tied entries come in another order: the score they tie at.
    Order(f64),
    /// The limit keeps other entries of the group it cuts: its score.
    Cut(f64),
}

/// The [`TieDifference`] of `was` and `is`, two answers of one recall
/// with `limit`; `None` when they are the same or differ otherwise.
fn tie_difference(was: &Answer, is: &Answer, limit: usize) -> Option<TieDifference> {
    let bits = |v: &Answer| v.iter().map(|h| h.2).collect::<Vec<_>>();
    if was == is || bits(was) != bits(is) || was.iter().any(|h| h.2.is_none()) {
        return None;
    }
    let cut = was.len() == limit;
    let mut start = 0;
    let mut found = None;
    while start < was.len() {
        let tie = was[start].2;
        let end = start + was[start..].iter().take_while(|h| h.2 == tie).count();
        let sorted = |v: &Answer| {
            let mut g = v[start..end].to_vec();
            g.sort();
            g
        };
        let score = f64::from_bits(tie.unwrap_or_default());
        if was[start..end] != is[start..end] && found.is_none() {
            found = Some(if end == was.len() && cut && sorted(was) != sorted(is) {
                TieDifference::Cut(score)
            } else {
                TieDifference::Order(score)
            });
        }
        if sorted(was) != sorted(is) && !(end == was.len() && cut) {
            return None;
        }
        start = end;
    }
    found
}

async fn answers(
    d: &dyn MemoryProvider,
    pinned: &[(&str, RecallOptions)],
) -> Result<Vec<(Answer, String)>, crate::failure::Stop> {
    let mut out = Vec::new();
    for (ns, opts) in pinned {
        for (query, limit) in QUESTIONS {
            let hits = d.recall(query, limit, opts).await?;
            out.push((fingerprint(&hits), shown_in(&hits, Some(ns))));
        }
    }
    Ok(out)
}

/// What usually makes other namespaces shape a pinned recall, in the
/// words of the run's profile: a lexical engine's collection-wide
/// statistics, a ranking engine's shared index.
fn shared_state_cause(profile: RecallProfile) -> &'static str {
    match profile {
        RecallProfile::Lexical => {
            "statistics such as bm25's document frequency and average length must be per \
             namespace"
        }
        RecallProfile::Semantic => {
            "a ranking must not depend on other namespaces' entries: an approximate index \
             shared by every namespace that visits other tenants' vectors before the filter, or \
             a normalisation, quantisation or score scaling fitted on the whole collection, \
             changes a pinned answer"
        }
    }
}

async fn compare(
    d: &dyn MemoryProvider,
    profile: RecallProfile,
    pinned: &[(&str, RecallOptions)],
    before: &[(Answer, String)],
    what: &str,
) -> Step {
    let now = answers(d, pinned).await?;
    let asked = pinned
        .iter()
        .flat_map(|(ns, _)| QUESTIONS.iter().map(move |q| (*ns, q)));
    for (((ns, (query, limit)), (was, was_shown)), (is, is_shown)) in asked.zip(before).zip(&now) {
        if was != is && within_noise(ns, (query, *limit), (was, is), what) {
            continue;
        }
        if let Some(tie) = tie_difference(was, is, *limit) {
            let how = match tie {
                TieDifference::Cut(score) => {
                    format!("in which of the entries tied at score {score:?} the limit keeps")
                }
                TieDifference::Order(score) => {
                    format!("in the order of the entries tied at score {score:?}")
                }
            };
            return Err(crate::failure::Stop::fail(format!(
                "recall({query:?}, limit {limit}) pinned to {ns} answered {was_shown} at first and \
                 {is_shown} {what}: the two answers differ only {how}. The scores are the same, \
                 so the statistics are not the cause: the engine breaks ties by something \
                 writes elsewhere change (an internal id, insertion or segment order). Break \
                 ties by the entries' own data (key ascending is the simple rule: \
                 docs/profiles.md, \"equal scores in an order independent of insertion \
                 order\"), so a pinned recall returns the same hits whatever other namespaces \
                 hold (contract sentence 11)"
            )));
        }
        ensure!(
            was == is,
            "recall({query:?}, limit {limit}) pinned to {ns} answered {was_shown} at first and \
             {is_shown} {what}: a pinned recall must return the same hits with the same scores \
             (bit for bit, or within the summation noise of docs/profiles.md, \"Score noise\") \
             whatever other namespaces hold (contract sentence 11; {})",
            shared_state_cause(profile)
        );
    }
    Ok(())
}

/// `true` when `is` is `was` up to score noise ([`noise::compare`]): the
/// writes elsewhere moved where the pinned entries are stored, and with it
/// the order a score's terms are summed in, not what they score. The
/// difference is recorded as the check's noise.
fn within_noise(
    ns: &str,
    (query, limit): (&str, usize),
    (was, is): (&Answer, &Answer),
    what: &str,
) -> bool {
    let id = |h: &(Option<String>, String, Option<u64>)| {
        format!("{}/{}", h.0.as_deref().unwrap_or("?"), h.1)
    };
    let scored = |a: &Answer| -> Vec<(String, Option<f64>)> {
        a.iter().map(|h| (id(h), h.2.map(f64::from_bits))).collect()
    };
    let (was, is) = (scored(was), scored(is));
    match noise::compare(&was, &is) {
        Ok(largest) => {
            if let Some((difference, hit, a, b)) = largest {
                noise::record(ScoreNoise {
                    difference,
                    at: format!(
                        "recall({query:?}, limit {limit}) pinned to {ns}, hit {hit}: {a:?} at \
                         first, {b:?} {what}"
                    ),
                });
            }
            true
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(hits: &[(&str, f64)]) -> Answer {
        hits.iter()
            .map(|(k, s)| {
                (
                    Some("global".to_owned()),
                    (*k).to_owned(),
                    Some(s.to_bits()),
                )
            })
            .collect()
    }

    #[tokio::test]
    async fn scores_one_ulp_apart_are_recorded_noise_a_thousandth_apart_fail() {
        // InMemoryVectorStore's two scores of one document, by its row.
        let (row_a, row_b) = (0.732_932_522_572_595_3, 0.732_932_522_572_595_1);
        let was = answer(&[("a", 0.9), ("b", row_a)]);
        let is = answer(&[("a", 0.9), ("b", row_b)]);
        let after = "after storing 12 entries in other namespaces";
        let log = crate::noise::NoiseLog::new();
        let within = crate::noise::scope(log.clone(), async {
            within_noise("global", ("comet", 10), (&was, &is), after)
        })
        .await;
        assert!(within);
        assert_eq!(
            log.largest(),
            Some(ScoreNoise {
                difference: row_a - row_b,
                at: "recall(\"comet\", limit 10) pinned to global, hit global/b: \
                     0.7329325225725953 at first, 0.7329325225725951 after storing 12 entries \
                     in other namespaces"
                    .to_owned(),
            })
        );
        let moved = answer(&[("a", 0.9), ("b", row_a + 1e-3)]);
        assert!(!within_noise(
            "global",
            ("comet", 10),
            (&was, &moved),
            after
        ));
    }

    #[test]
    fn a_tie_cut_by_the_limit_is_told_from_moved_scores() {
        let was = answer(&[("a", 0.9), ("b", 0.316_228), ("c", 0.316_228)]);
        let other_tie = answer(&[("a", 0.9), ("b", 0.316_228), ("d", 0.316_228)]);
        let reordered = answer(&[("a", 0.9), ("c", 0.316_228), ("b", 0.316_228)]);
        let cut = Some(TieDifference::Cut(0.316_228));
        let order = Some(TieDifference::Order(0.316_228));
        assert_eq!(tie_difference(&was, &other_tie, 3), cut);
        assert_eq!(tie_difference(&was, &reordered, 3), order);
        assert_eq!(tie_difference(&was, &reordered, 10), order);
        // Not cut by the limit, the same, or scores that moved.
        assert_eq!(tie_difference(&was, &other_tie, 4), None);
        assert_eq!(tie_difference(&was, &was, 3), None);
        let moved = answer(&[("a", 0.9), ("b", 0.316_228), ("d", 0.3)]);
        assert_eq!(tie_difference(&was, &moved, 3), None);
        let first_moved = answer(&[("a", 0.8), ("b", 0.316_228), ("c", 0.316_228)]);
        assert_eq!(tie_difference(&was, &first_moved, 3), None);
        // An earlier group holding another entry is not a tie difference.
        let two = answer(&[("a", 0.9), ("x", 0.9), ("b", 0.5)]);
        let other_first = answer(&[("a", 0.9), ("y", 0.9), ("b", 0.5)]);
        assert_eq!(tie_difference(&two, &other_first, 3), None);
    }
}

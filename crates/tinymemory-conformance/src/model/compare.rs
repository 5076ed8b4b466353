//! One step of a sequence: the same call on the driver and on the model,
//! the answers compared as [`replay`](super::replay) documents.

use std::collections::BTreeSet;
use std::fmt;

use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemorySection, MemoryTaint,
    RecallOptions, RecallProfile,
};
use tinymemory_sections::{compare_hits, SectionHits, SectionRecall, Sections};

use super::Op;
use crate::properties::engine::CaseFailure;
use crate::DriverError;

type Step = Result<(), CaseFailure>;

/// An error as compared: its kind and rule, never its message (which is
/// kept for the divergence report only).
struct ErrorShape {
    kind: &'static str,
    rule: Option<&'static str>,
    message: String,
    /// The error as data, for the failure when it is the driver's (boxed:
    /// every comparison returns a `Result<_, ErrorShape>`).
    error: Box<DriverError>,
}

impl PartialEq for ErrorShape {
    fn eq(&self, other: &Self) -> bool {
        (self.kind, self.rule) == (other.kind, other.rule)
    }
}

/// `invalid (namespace.charset)` (the rule says it all), or the kind with
/// the error's own text: `backend ("backend failure: disk I/O error")`, so
/// a driver's failure is quoted (an exec driver's stderr included).
impl fmt::Debug for ErrorShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            Some(rule) => write!(f, "{} ({rule})", self.kind),
            None => write!(f, "{} ({:?})", self.kind, self.message),
        }
    }
}

fn shape<T>(r: Result<T, MemoryError>) -> Result<T, ErrorShape> {
    r.map_err(|e| ErrorShape {
        kind: e.kind(),
        rule: e.rule(),
        message: e.with_sources(),
        error: Box::new(DriverError::from(&e)),
    })
}

/// An entry as compared: everything but the driver's id and timestamp.
/// The score is kept as its `{:?}` text, so that NaN equals NaN.
#[derive(Debug, PartialEq, Eq)]
struct Stored {
    namespace: Option<String>,
    key: String,
    content: String,
    category: MemoryCategory,
    session_id: Option<String>,
    taint: MemoryTaint,
    score: Option<String>,
}

impl Stored {
    fn of(e: &MemoryEntry) -> Self {
        Self {
            namespace: e.namespace.clone(),
            key: e.key.clone(),
            content: e.content.clone(),
            category: e.category.clone(),
            session_id: e.session_id.clone(),
            taint: e.taint,
            score: e.score.map(|s| format!("{s:?}")),
        }
    }

    /// The same entry with its score dropped: recall scores are the
    /// driver's own formula.
    fn unscored(e: &MemoryEntry) -> Self {
        Self {
            score: None,
            ..Self::of(e)
        }
    }
}

/// `Ok(())` when the answers are equal, else both.
fn same<T: PartialEq + fmt::Debug>(got: T, want: T) -> Step {
    if got == want {
        Ok(())
    } else {
        Err(format!("the driver answered {got:?}, the model {want:?}").into())
    }
}

/// [`same`] for two results, the driver's first: when they differ and
/// the driver failed, its error is the failure's driver error.
fn same_result<T: PartialEq + fmt::Debug>(
    got: Result<T, ErrorShape>,
    want: Result<T, ErrorShape>,
) -> Step {
    same(&got, &want).map_err(|f| CaseFailure {
        driver_error: got.as_ref().err().map(|g| (*g.error).clone()),
        ..f
    })
}

/// Compares the outcome kinds when either side failed; `None` when both
/// succeeded and the answers need comparing. A failure where the driver
/// failed (and the model did not, or with another kind or rule) carries
/// the driver's error.
fn both_ok<T, U>(
    got: Result<T, ErrorShape>,
    want: Result<U, ErrorShape>,
) -> Result<Option<(T, U)>, CaseFailure> {
    match (got, want) {
        (Ok(g), Ok(w)) => Ok(Some((g, w))),
        (Err(g), Err(w)) if g == w => Ok(None),
        (Err(g), Err(w)) => Err(CaseFailure {
            message: format!("the driver failed with {g:?}, the model with {w:?}"),
            driver_error: Some(*g.error),
        }),
        (Ok(_), Err(w)) => Err(format!("the driver succeeded, the model failed with {w:?}").into()),
        (Err(g), Ok(_)) => Err(CaseFailure {
            message: format!("the driver failed with {g:?}, the model succeeded"),
            driver_error: Some(*g.error),
        }),
    }
}

/// Applies `op` to both and compares the answers, recall and
/// `across_section` by what `profile` guarantees.
pub(crate) async fn step(
    driver: &dyn MemoryProvider,
    model: &dyn MemoryProvider,
    op: &Op,
    profile: RecallProfile,
) -> Step {
    match op {
        Op::Store {
            namespace,
            key,
            content,
            category,
            session_id,
            taint,
        } => {
            let session = session_id.as_deref();
            same_result(
                shape(
                    driver
                        .store(namespace, key, content, category.clone(), session, *taint)
                        .await,
                ),
                shape(
                    model
                        .store(namespace, key, content, category.clone(), session, *taint)
                        .await,
                ),
            )
        }
        Op::Get { namespace, key } => {
            let of = |r: Option<MemoryEntry>| r.as_ref().map(Stored::of);
            same_result(
                shape(driver.get(namespace, key).await).map(of),
                shape(model.get(namespace, key).await).map(of),
            )
        }
        Op::Forget { namespace, key } => same_result(
            shape(driver.forget(namespace, key).await),
            shape(model.forget(namespace, key).await),
        ),
        Op::List {
            namespace,
            category,
            session_id,
        } => {
            let (ns, cat, session) = (
                namespace.as_deref(),
                category.as_ref(),
                session_id.as_deref(),
            );
            let of = |v: Vec<MemoryEntry>| v.iter().map(Stored::of).collect::<Vec<_>>();
            same_result(
                shape(driver.list(ns, cat, session).await).map(of),
                shape(model.list(ns, cat, session).await).map(of),
            )
        }
        Op::Namespaces => {
            let of = |v: Vec<tinymemory_api::NamespaceSummary>| {
                let mut pairs: Vec<(String, u64)> =
                    v.into_iter().map(|s| (s.namespace, s.count)).collect();
                pairs.sort();
                pairs
            };
            same_result(
                shape(driver.namespaces().await).map(of),
                shape(model.namespaces().await).map(of),
            )
        }
        Op::Scopes { section } => {
            let of = |v: Vec<tinymemory_sections::SectionScope>| {
                v.into_iter()
                    .map(|s| (s.scope, s.namespace, s.count))
                    .collect::<Vec<_>>()
            };
            same_result(
                shape(Sections::new(driver).section(section).scopes().await).map(of),
                shape(Sections::new(model).section(section).scopes().await).map(of),
            )
        }
        Op::Recall {
            query,
            limit,
            namespace,
            category,
            session_id,
        } => {
            let opts = RecallOptions {
                namespace: namespace.clone(),
                category: category.clone(),
                session_id: session_id.clone(),
                min_score: None,
            };
            recall(driver, model, query, *limit, &opts, profile).await
        }
        Op::AcrossSection {
            section,
            query,
            limit,
            cap,
        } => across(driver, model, section, query, *limit, *cap, profile).await,
    }
}

/// A hit for messages: `learning:a/k1 (score 0.5)`.
fn show(h: &MemoryEntry) -> String {
    let ns = h.namespace.as_deref().unwrap_or("<no namespace>");
    match h.score {
        Some(s) => format!("{ns}/{} (score {s:?})", h.key),
        None => format!("{ns}/{} (no score)", h.key),
    }
}

/// What a recall may return, by the model: under the lexical profile the
/// model's own matches (entries sharing a word with the query), under the
/// semantic one every entry of the namespace passing the filters.
async fn candidates(
    model: &dyn MemoryProvider,
    query: &str,
    opts: &RecallOptions,
    profile: RecallProfile,
) -> Result<Vec<MemoryEntry>, ErrorShape> {
    match profile {
        RecallProfile::Lexical => shape(model.recall(query, usize::MAX, opts).await),
        RecallProfile::Semantic => {
            shape(model.recall(query, 0, opts).await)?;
            shape(
                model
                    .list(
                        Some(opts.effective_namespace()),
                        opts.category.as_ref(),
                        opts.session_id.as_deref(),
                    )
                    .await,
            )
        }
    }
}

async fn recall(
    driver: &dyn MemoryProvider,
    model: &dyn MemoryProvider,
    query: &str,
    limit: usize,
    opts: &RecallOptions,
    profile: RecallProfile,
) -> Step {
    let Some((got, matches)) = both_ok(
        shape(driver.recall(query, limit, opts).await),
        candidates(model, query, opts, profile).await,
    )?
    else {
        return Ok(());
    };
    let searched = opts.effective_namespace();
    let shown: Vec<String> = got.iter().map(show).collect();
    let want_keys: Vec<&str> = matches.iter().map(|m| m.key.as_str()).collect();
    let again = driver.recall(query, limit, opts).await.map_err(|e| {
        CaseFailure::caused_by(format!("the same recall asked again failed: {e}"), &e)
    })?;
    let bits = |v: &[MemoryEntry]| -> Vec<(String, Option<u64>)> {
        v.iter()
            .map(|h| (h.key.clone(), h.score.map(f64::to_bits)))
            .collect()
    };
    if bits(&again) != bits(&got) {
        return Err(format!(
            "the same recall on unchanged data answered {shown:?}, then {:?}: hits and score bits must not change",
            again.iter().map(show).collect::<Vec<_>>()
        ).into());
    }
    if profile == RecallProfile::Semantic {
        let sharing = model
            .recall(query, usize::MAX, opts)
            .await
            .map_err(|e| format!("the model failed to recall: {e}"))?;
        return ranked(driver, query, limit, opts, &got, &matches, &sharing).await;
    }
    if got.len() != limit.min(matches.len()) {
        return Err(format!(
            "the driver returned {} hits {shown:?}, expected min(limit {limit}, {} matches {want_keys:?})",
            got.len(),
            matches.len()
        ).into());
    }
    stored_best_first(&got, &matches, searched, |h| {
        format!(
            "hit {} is not a match: the model matches {want_keys:?}",
            show(h)
        )
    })?;
    if limit < matches.len() {
        top_of_all(driver, query, opts, &got, matches.len()).await?;
    }
    // The same question with limit 1, whatever the limit asked: whenever
    // two entries match, the driver must pick its best one. A top-k fault
    // thus shows on every recall with two matches of different scores, not
    // only on those whose generated limit happened to cut.
    if limit != 1 && matches.len() >= 2 {
        let best = driver.recall(query, 1, opts).await.map_err(|e| {
            CaseFailure::caused_by(format!("the same recall with limit 1 failed: {e}"), &e)
        })?;
        if best.len() != 1 {
            return Err(format!(
                "the same recall with limit 1 returned {} hits, expected 1 of {} matches",
                best.len(),
                matches.len()
            )
            .into());
        }
        top_of_all(driver, query, opts, &best, matches.len())
            .await
            .map_err(|mut e| {
                e.message = format!(
                    "the same recall asked again with limit 1 (the model asks every recall of two or more \
                     matches so): {}",
                    e.message
                );
                e
            })?;
    }
    Ok(())
}

/// Every hit of `got` is a distinct entry of `candidates` with its stored
/// fields, carrying the namespace searched, its score (if any) finite, the
/// scores non-increasing down the list; `stray` words the failure of a hit
/// that is no candidate.
fn stored_best_first(
    got: &[MemoryEntry],
    candidates: &[MemoryEntry],
    searched: &str,
    stray: impl Fn(&MemoryEntry) -> String,
) -> Step {
    let shown: Vec<String> = got.iter().map(show).collect();
    let mut seen = BTreeSet::new();
    for h in got {
        if h.namespace.as_deref() != Some(searched) {
            return Err(format!(
                "hit {} does not carry the namespace searched, {searched:?}",
                show(h)
            )
            .into());
        }
        if !seen.insert(h.key.as_str()) {
            return Err(format!("the driver returned key {:?} twice: {shown:?}", h.key).into());
        }
        let Some(m) = candidates.iter().find(|m| m.key == h.key) else {
            return Err(stray(h).into());
        };
        same(Stored::unscored(h), Stored::unscored(m))
            .map_err(|e| format!("hit {}: {e}", show(h)))?;
        if h.score.is_some_and(|s| !s.is_finite()) {
            return Err(format!("hit {} has a non-finite score", show(h)).into());
        }
    }
    for pair in got.windows(2) {
        if let (Some(a), Some(b)) = (pair[0].score, pair[1].score) {
            if a < b {
                return Err(format!("hits are not best first: {shown:?}").into());
            }
        }
    }
    Ok(())
}

/// The semantic rules for one recall: `got` holds distinct entries of
/// `pool` (the namespace's entries passing the filters) as stored, carrying
/// the namespace searched, with finite, non-increasing scores; at least
/// `min(limit, |sharing|)` of them, `sharing` being the pool's entries that
/// share a word with the query (what a lexical engine returns, and a
/// ranking engine returns more), and all of `sharing` when the limit
/// covers the pool; a recall of the whole pool ranks `got` first, so `got`
/// is `min(limit, its length)` of it and scores at least every entry it
/// left out.
async fn ranked(
    driver: &dyn MemoryProvider,
    query: &str,
    limit: usize,
    opts: &RecallOptions,
    got: &[MemoryEntry],
    pool: &[MemoryEntry],
    sharing: &[MemoryEntry],
) -> Step {
    let searched = opts.effective_namespace();
    let shown: Vec<String> = got.iter().map(show).collect();
    let pool_keys: Vec<&str> = pool.iter().map(|m| m.key.as_str()).collect();
    let sharing_keys: Vec<&str> = sharing.iter().map(|m| m.key.as_str()).collect();
    if got.len() > limit.min(pool.len()) {
        return Err(format!(
            "the driver returned {} hits {shown:?}, more than min(limit {limit}, {} entries passing the filters {pool_keys:?})",
            got.len(),
            pool.len()
        ).into());
    }
    if got.len() < limit.min(sharing.len()) {
        return Err(format!(
            "the driver returned {} hits {shown:?}, fewer than min(limit {limit}, {} entries sharing a word with the query \
             {sharing_keys:?}): a ranking returns at least what a word match would",
            got.len(),
            sharing.len()
        ).into());
    }
    if limit >= pool.len() {
        if let Some(missing) = sharing.iter().find(|m| got.iter().all(|h| h.key != m.key)) {
            return Err(format!(
                "with limit {limit} covering all {} entries passing the filters, the driver left out {:?}, \
                 which shares a word with the query: {shown:?}",
                pool.len(),
                missing.key
            ).into());
        }
    }
    stored_best_first(got, pool, searched, |h| {
        format!(
            "hit {} is not an entry of {searched:?} passing the filters: those are {pool_keys:?}",
            show(h)
        )
    })?;
    if pool.is_empty() {
        return Ok(());
    }
    let everything = driver.recall(query, pool.len(), opts).await.map_err(|e| {
        CaseFailure::caused_by(
            format!("the same recall with limit {} failed: {e}", pool.len()),
            &e,
        )
    })?;
    if got.len() != limit.min(everything.len()) {
        return Err(format!(
            "with limit {limit} the driver returned {} hits {shown:?}, but with limit {} it returned {}: \
             a smaller limit must cut the same ranking",
            got.len(),
            pool.len(),
            everything.len()
        ).into());
    }
    none_left_out_above(got, &everything)
}

/// With `limit` below the number of matches, the hits returned must score
/// at least every match left out, by the driver's own scores (read from an
/// unlimited recall).
async fn top_of_all(
    driver: &dyn MemoryProvider,
    query: &str,
    opts: &RecallOptions,
    got: &[MemoryEntry],
    all: usize,
) -> Step {
    let everything = driver.recall(query, all, opts).await.map_err(|e| {
        CaseFailure::caused_by(format!("a second recall with limit {all} failed: {e}"), &e)
    })?;
    if everything.len() != all {
        return Err(format!(
            "a second recall with limit {all} returned {} hits, expected all {all} matches",
            everything.len()
        )
        .into());
    }
    none_left_out_above(got, &everything)
}

/// No entry of `everything` (the driver's own longer ranking) that `got`
/// left out scores above the lowest hit `got` kept.
fn none_left_out_above(got: &[MemoryEntry], everything: &[MemoryEntry]) -> Step {
    let lowest_kept = got
        .iter()
        .filter_map(|h| h.score)
        .fold(f64::INFINITY, f64::min);
    for left_out in everything
        .iter()
        .filter(|e| got.iter().all(|h| h.key != e.key))
    {
        if left_out.score.is_some_and(|s| s > lowest_kept) {
            return Err(format!(
                "with limit {}, the driver left out {} although it scores above the lowest hit kept ({lowest_kept:?})",
                got.len(),
                show(left_out)
            ).into());
        }
    }
    Ok(())
}

async fn across_of(
    provider: &dyn MemoryProvider,
    section: &MemorySection,
    query: &str,
    limit: usize,
    cap: usize,
) -> Result<SectionHits, ErrorShape> {
    shape(
        SectionRecall::new(provider)
            .with_cap(cap)
            .across_section(section, query, limit, &RecallOptions::default())
            .await,
    )
}

async fn across(
    driver: &dyn MemoryProvider,
    model: &dyn MemoryProvider,
    section: &MemorySection,
    query: &str,
    limit: usize,
    cap: usize,
    profile: RecallProfile,
) -> Step {
    let Some((got, want)) = both_ok(
        across_of(driver, section, query, limit, cap).await,
        across_of(model, section, query, limit, cap).await,
    )?
    else {
        return Ok(());
    };
    same(&got.searched, &want.searched).map_err(|e| format!("namespaces searched: {e}"))?;
    same(got.truncated, want.truncated).map_err(|e| format!("truncated: {e}"))?;
    let shown: Vec<String> = got.hits.iter().map(show).collect();
    for pair in got.hits.windows(2) {
        if !compare_hits(&pair[0], &pair[1]).is_lt() {
            return Err(format!("hits are not in the merge order: {shown:?}").into());
        }
    }
    let mut total = 0;
    let mut matches: Vec<MemoryEntry> = Vec::new();
    for ns in &want.searched {
        let pinned = RecallOptions::in_namespace(ns.as_str());
        let m = candidates(model, query, &pinned, profile)
            .await
            .map_err(|e| format!("the model failed to recall in {ns:?}: {e:?}"))?;
        total += match profile {
            RecallProfile::Lexical => limit.min(m.len()),
            // What the driver's own pinned recall returns, the ranking's
            // business; `recall` steps check that recall itself.
            RecallProfile::Semantic => driver
                .recall(query, limit, &pinned)
                .await
                .map_err(|e| {
                    CaseFailure::caused_by(format!("the pinned recall in {ns:?} failed: {e}"), &e)
                })?
                .len(),
        };
        matches.extend(m.into_iter().map(|mut e| {
            e.namespace.get_or_insert_with(|| ns.clone());
            e
        }));
    }
    if got.hits.len() != limit.min(total) {
        return Err(format!(
            "the driver returned {} hits {shown:?}, expected min(limit {limit}, {total})",
            got.hits.len()
        )
        .into());
    }
    for h in &got.hits {
        let Some(m) = matches
            .iter()
            .find(|m| m.namespace == h.namespace && m.key == h.key)
        else {
            return Err(
                format!("hit {} is not a match in the namespaces searched", show(h)).into(),
            );
        };
        same(Stored::unscored(h), Stored::unscored(m))
            .map_err(|e| format!("hit {}: {e}", show(h)))?;
    }
    Ok(())
}

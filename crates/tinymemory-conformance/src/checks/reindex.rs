//! An upsert re-indexes: after `store`, `store_many` or `import` over an
//! existing key, recall ranks the entry by its new content, never by the
//! embedding (or the full-text terms) of the content it replaced.

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{
    now_rfc3339, MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint, NewEntry, RecallOptions,
    RecallProfile,
};

use super::ranking::{ranks_first, shown_in};
use super::support::{fresh, put};
use crate::failure::{Step, Stop};
use crate::CheckContext;

/// The content the upserted entry first held, and its twin keeps.
const OLD: &str = "comet tail over northern harbour lights";
/// The content it is upserted to: no word of [`OLD`].
const NEW: &str = "granite quarry beneath windswept ridge";
/// The entry that is upserted; it sorts before [`TWIN`], so a driver
/// breaking a tie by key or by insertion order shows a stale entry first.
const UPSERTED: &str = "a-upserted";
/// The entry that keeps [`OLD`].
const TWIN: &str = "b-twin";
/// Entries near [`NEW`], none holding all its words nor made only of them:
/// a stale vector of [`OLD`] ranks below them on [`NEW`].
const NEAR: [(&str, &str); 2] = [
    ("c-quarry", "granite quarry by river road"),
    ("d-ridge", "windswept ridge at dusk"),
];

/// How the upsert is written.
#[derive(Clone, Copy)]
enum Path {
    Store,
    StoreMany,
    Import,
}

impl Path {
    fn name(self) -> &'static str {
        match self {
            Self::Store => "store",
            Self::StoreMany => "store_many",
            Self::Import => "import",
        }
    }
}

pub(crate) async fn reindexed_on_upsert(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for path in [Path::Store, Path::StoreMany, Path::Import] {
        let ns = format!("learning:reindex-{}", path.name().replace('_', "-"));
        put(d.as_ref(), &ns, UPSERTED, OLD).await?;
        put(d.as_ref(), &ns, TWIN, OLD).await?;
        for (key, text) in NEAR {
            put(d.as_ref(), &ns, key, text).await?;
        }
        // A recall before the upsert, so an index built lazily at the first
        // recall exists when the upsert comes.
        d.recall(OLD, 10, &RecallOptions::in_namespace(&ns)).await?;
        if !upsert(d.as_ref(), path, &ns).await? {
            continue;
        }
        ranks_by_new_content(d.as_ref(), ctx.profile, path, &ns).await?;
    }
    Ok(())
}

/// Writes [`NEW`] over [`UPSERTED`] through `path`; `false` when the
/// driver does not import (that part then does not apply).
async fn upsert(d: &dyn MemoryProvider, path: Path, ns: &str) -> Result<bool, Stop> {
    match path {
        Path::Store => put(d, ns, UPSERTED, NEW).await?,
        Path::StoreMany => d.store_many(&[NewEntry::new(ns, UPSERTED, NEW)]).await?,
        Path::Import => {
            let record = MemoryRecord {
                namespace: ns.to_owned(),
                key: UPSERTED.to_owned(),
                content: NEW.to_owned(),
                category: MemoryCategory::Core,
                session_id: None,
                taint: MemoryTaint::Internal,
                timestamp: now_rfc3339(),
            };
            match d.import(std::slice::from_ref(&record)).await {
                Err(e) if e.is_unsupported() => return Ok(false),
                Err(e) => return Err(e.into()),
                Ok(outcome) => {
                    if let Some(f) = outcome.failures.first() {
                        return Err(Stop::fail(format!(
                            "import of one valid record ({ns}, {UPSERTED:?}) over an existing \
                             key refused it: {}",
                            f.error
                        )));
                    }
                }
            }
        }
    }
    Ok(true)
}

fn position(hits: &[MemoryEntry], key: &str) -> Option<usize> {
    hits.iter().position(|h| h.key == key)
}

async fn ranks_by_new_content(
    d: &dyn MemoryProvider,
    profile: RecallProfile,
    path: Path,
    ns: &str,
) -> Step {
    let opts = RecallOptions::in_namespace(ns);
    let what = format!(
        "after {} of {NEW:?} over ({ns}, {UPSERTED:?}), which held {OLD:?} as {TWIN:?} still does",
        path.name()
    );
    let stale = match profile {
        RecallProfile::Semantic => {
            "the index still holds the content the upsert replaced: an upsert must re-embed \
             the new content, not keep the first one's vector"
        }
        RecallProfile::Lexical => {
            "the index still holds the content the upsert replaced: an upsert must re-index \
             the new content, not keep the first one's terms"
        }
    };
    let by_new = d.recall(NEW, 10, &opts).await?;
    if let Err(why) = ranks_first(&by_new, UPSERTED, NEW) {
        return Err(Stop::fail(format!(
            "{what}, recall({NEW:?}) (its new content itself) must rank {UPSERTED:?} first; it \
             {why} (hits {}): {stale}",
            shown_in(&by_new, Some(ns))
        )));
    }
    let by_old = d.recall(OLD, 10, &opts).await?;
    let twin = position(&by_old, TWIN).ok_or_else(|| {
        Stop::fail(format!(
            "{what}, recall({OLD:?}) does not find {TWIN:?}, whose content it is (hits {})",
            shown_in(&by_old, Some(ns))
        ))
    })?;
    if let Some(up) = position(&by_old, UPSERTED) {
        let (t, u) = (by_old[twin].score, by_old[up].score);
        let below = match (t, u) {
            (Some(t), Some(u)) => t > u && twin < up,
            _ => twin < up,
        };
        if !below {
            return Err(Stop::fail(format!(
                "{what}, recall({OLD:?}) must rank {TWIN:?}, which holds that text exactly, \
                 strictly above {UPSERTED:?}, which no longer does; got {}: {stale}",
                shown_in(&by_old, Some(ns))
            )));
        }
    }
    Ok(())
}

//! Export and import over random stores: the pages of any page size
//! partition the store, and an export imported into a fresh store gives
//! the same store.

use std::fmt;

use proptest::collection::vec;
use proptest::prop_oneof;
use proptest::sample::select;
use proptest::strategy::Strategy;
use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, NewEntry};

use super::data::words;
use super::engine::{CaseFailure, CaseResult};
use super::run::{property, require_eq, Needs};
use crate::checks::portability::support::{
    differences, listed, summaries, summary_difference, walk, WalkError,
};
use crate::{Check, CheckContext, Failure, Family, Outcome, Profiles};

pub(crate) const PARTITION: Check = Check {
    id: "properties.export_partition",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "for random stores (upserts included) and page sizes 1..=12, the export's pages \
                  hold every entry of list(None, ..) exactly once, in order, every field kept",
    run: |ctx| {
        Box::pin(async move {
            if let Err(skip) = provides_family(&ctx).await {
                return skip;
            }
            property(ctx, PARTITION.id, Needs::StoredData, case(), partition).await
        })
    },
};

pub(crate) const ROUND_TRIP: Check = Check {
    id: "properties.export_round_trip",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "for random stores and page sizes, export then import page by page into a fresh \
                  store gives the same list(None, ..) (every field but id) and namespaces()",
    run: |ctx| {
        Box::pin(async move {
            if let Err(skip) = provides_family(&ctx).await {
                return skip;
            }
            property(ctx, ROUND_TRIP.id, Needs::StoredData, case(), round_trip).await
        })
    },
};

/// A skip when the driver answers `Unsupported` to a first page or to an
/// empty import.
async fn provides_family(ctx: &CheckContext) -> Result<(), Outcome> {
    let d = ctx.fresh().await.map_err(Outcome::fail)?;
    let first = d.export_page(None, 1).await.map(drop);
    let import = d.import(&[]).await.map(drop);
    for r in [first, import] {
        match r {
            Err(e) if e.is_unsupported() => {
                return Err(Outcome::Skip(format!(
                    "the driver does not provide the portability family: {e}"
                )))
            }
            Err(e) => {
                return Err(Outcome::fail(
                    Failure::new(format!("unexpected driver error: {e}")).caused_by(&e),
                ))
            }
            Ok(()) => {}
        }
    }
    Ok(())
}

/// Names that sort next to each other.
const NAMESPACES: [&str; 5] = [
    "global",
    "learning:a",
    "learning:a-b",
    "learning:a/b",
    "learning:ab",
];
/// Keys whose byte order is not a case-insensitive or numeric order.
const KEYS: [&str; 6] = ["K", "k", "k ", "10", "9", "ä"];

/// One store call of a case.
#[derive(Clone)]
struct Put {
    namespace: String,
    key: &'static str,
    content: String,
    category: u8,
    session: Option<u8>,
    external: bool,
}

impl Put {
    /// The put as a batch entry: its category, session and taint spelt out.
    fn entry(&self) -> NewEntry {
        let category = match self.category {
            0 => MemoryCategory::Core,
            1 => MemoryCategory::Daily,
            2 => MemoryCategory::Conversation,
            _ => MemoryCategory::Custom("projects".into()),
        };
        let taint = if self.external {
            MemoryTaint::ExternalSync
        } else {
            MemoryTaint::Internal
        };
        NewEntry {
            namespace: self.namespace.clone(),
            key: self.key.to_owned(),
            content: self.content.clone(),
            category,
            session_id: self.session.map(|s| format!("session-{s}")),
            taint,
        }
    }
}

impl fmt::Debug for Put {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{:?} = {:?} (category {}, session {:?}, {})",
            self.namespace,
            self.key,
            self.content,
            self.category,
            self.session,
            if self.external {
                "external_sync"
            } else {
                "internal"
            }
        )
    }
}

/// Up to 40 stores (repeats of a `(namespace, key)` are upserts) and a
/// page size.
#[derive(Clone, Debug)]
struct Case {
    puts: Vec<Put>,
    page: usize,
}

fn case() -> impl Strategy<Value = Case, Tree: Send> {
    let put = (
        // Names sorting next to each other, and one time in six a
        // reserved-looking one.
        prop_oneof![
            5 => select(NAMESPACES.to_vec()).prop_map(str::to_owned),
            1 => super::data::reserved_namespace(),
        ],
        select(KEYS.to_vec()),
        words(1..=3),
        0..4_u8,
        proptest::option::of(0..3_u8),
        proptest::bool::ANY,
    )
        .prop_map(
            |(namespace, key, content, category, session, external)| Put {
                namespace,
                key,
                content,
                category,
                session,
                external,
            },
        );
    (vec(put, 0..=40), 1..=12_usize).prop_map(|(puts, page)| Case { puts, page })
}

/// A fresh store holding `puts`, in order (repeats are upserts, the last
/// one kept), by one `store_many` per run without a repeated `(namespace,
/// key)`, so that each repeat is written over a stored entry, or one
/// `store` each ([`batch::write`](super::batch::write)).
async fn open(ctx: &CheckContext, puts: &[Put]) -> Result<Box<dyn MemoryProvider>, CaseFailure> {
    let batch: Vec<NewEntry> = puts.iter().map(Put::entry).collect();
    super::batch::write(ctx, &batch).await
}

async fn export(
    d: &dyn MemoryProvider,
    page: usize,
    size: usize,
) -> Result<Vec<Vec<MemoryRecord>>, CaseFailure> {
    match walk(d, None, page, size).await {
        Ok(e) => Ok(e.pages),
        Err(WalkError::Driver(e)) => Err(CaseFailure::caused_by(
            format!("export_page failed: {e}"),
            &e,
        )),
        Err(WalkError::Broken(m)) => Err(m.into()),
    }
}

async fn partition(ctx: CheckContext, case: Case) -> CaseResult {
    let d = open(&ctx, &case.puts).await?;
    let want = listed(d.as_ref())
        .await
        .map_err(|e| CaseFailure::caused_by(format!("list failed: {e}"), &e))?;
    let pages = export(d.as_ref(), case.page, want.len()).await?;
    let got: Vec<MemoryRecord> = pages.iter().flatten().cloned().collect();
    if let Some(diff) = differences(&want, &got) {
        let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
        return Err(format!(
            "the export in pages of {} (page sizes {sizes:?}) is not list(None, ..): {diff}",
            case.page
        )
        .into());
    }
    Ok(())
}

async fn round_trip(ctx: CheckContext, case: Case) -> CaseResult {
    let source = open(&ctx, &case.puts).await?;
    let want = listed(source.as_ref())
        .await
        .map_err(|e| CaseFailure::caused_by(format!("list failed: {e}"), &e))?;
    let pages = export(source.as_ref(), case.page, want.len()).await?;
    let target = open(&ctx, &[]).await?;
    for (i, page) in pages.iter().enumerate() {
        let outcome = target.import(page).await.map_err(|e| {
            CaseFailure::caused_by(format!("import of page {} failed: {e}", i + 1), &e)
        })?;
        if let Some(f) = outcome.failures.first() {
            return Err(format!(
                "import refused the exported record {} ({}, {:?}) of page {}: {}",
                f.index,
                f.namespace,
                f.key,
                i + 1,
                f.error
            )
            .into());
        }
        require_eq!(
            outcome.imported,
            page.len(),
            "records imported from page {}",
            i + 1
        );
    }
    let got = listed(target.as_ref())
        .await
        .map_err(|e| CaseFailure::caused_by(format!("list failed: {e}"), &e))?;
    if let Some(diff) = differences(&want, &got) {
        return Err(format!("after export and import, list(None, ..) differs: {diff}").into());
    }
    let spaces = |r: Result<_, tinymemory_api::MemoryError>| {
        r.map_err(|e| CaseFailure::caused_by(format!("namespaces failed: {e}"), &e))
    };
    if let Some(diff) = summary_difference(
        &spaces(summaries(target.as_ref()).await)?,
        &spaces(summaries(source.as_ref()).await)?,
    ) {
        return Err(
            format!("namespaces() of the imported store against the source's: {diff}").into(),
        );
    }
    Ok(())
}

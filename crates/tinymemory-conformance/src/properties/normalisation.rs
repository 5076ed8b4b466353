//! Normalisation: a known section spelled as `Custom` is that section, on
//! every call of the section API.

use std::fmt;

use proptest::collection::vec;
use proptest::prelude::any;
use proptest::strategy::Strategy;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemorySection, MemoryTaint,
    RecallOptions,
};
use tinymemory_sections::{SectionScope, SectionView, Sections};

use super::data::{hits, open_with, query, words, Across, Hit};
use super::engine::{CaseFailure, CaseResult};
use super::memo::Memo;
use super::run::{property, require, require_eq, Needs};
use crate::{Check, CheckContext, Family, Profiles};

pub(crate) const CHECK: Check = Check {
    id: "properties.custom_spelling",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description:
        "for every known section, its Custom spelling behaves identically on every section call, \
                  whichever spelling wrote the data",
    run: |ctx| Box::pin(property(ctx, CHECK.id, Needs::StoredData, input(), case)),
};

/// Scopes written to; one holds a slash and a colon, both valid in a scope.
const SCOPES: [&str; 3] = ["s1", "s2", "team/alpha:x"];

/// One `put`, through the `Custom` spelling or the known one.
#[derive(Clone, PartialEq, Eq)]
struct Put {
    scope: &'static str,
    key: String,
    content: String,
    via_custom: bool,
}

impl fmt::Debug for Put {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let via = if self.via_custom { "Custom" } else { "known" };
        write!(
            f,
            "put via {via}: {}/{} = {:?}",
            self.scope, self.key, self.content
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Input {
    section: MemorySection,
    puts: Vec<Put>,
    query: String,
    limit: usize,
}

fn input() -> impl Strategy<Value = Input, Tree: Send> {
    let put = (0..SCOPES.len(), 0..4_usize, words(1..=3), any::<bool>()).prop_map(
        |(scope, key, content, via_custom)| Put {
            scope: SCOPES[scope],
            key: format!("k{key}"),
            content,
            via_custom,
        },
    );
    (
        0..MemorySection::KNOWN.len(),
        vec(put, 1..=10),
        query(),
        1..=8_usize,
    )
        .prop_map(|(section, puts, query, limit)| Input {
            section: MemorySection::KNOWN[section].clone(),
            puts,
            query,
            limit,
        })
}

/// What a call returned, comparable across the two spellings: errors by
/// kind and rule, entries by [`Hit`].
fn shape<T, U>(
    r: Result<T, MemoryError>,
    f: impl FnOnce(T) -> U,
) -> Result<U, (&'static str, Option<&'static str>)> {
    r.map(f).map_err(|e| (e.kind(), e.rule()))
}

fn scopes_of(v: Vec<SectionScope>) -> Vec<(String, String, u64)> {
    v.into_iter()
        .map(|s| (s.scope, s.namespace, s.count))
        .collect()
}

fn entries_of(v: Vec<MemoryEntry>) -> Vec<Hit> {
    hits(&v)
}

async fn compare_reads(
    known: &SectionView<'_>,
    custom: &SectionView<'_>,
    input: &Input,
) -> CaseResult {
    let prefix = input.section.prefix();
    require_eq!(
        shape(custom.scopes().await, scopes_of),
        shape(known.scopes().await, scopes_of),
        "scopes() through Custom({prefix:?}) and through {prefix}"
    );
    require_eq!(
        shape(custom.list_section(None, None).await, entries_of),
        shape(known.list_section(None, None).await, entries_of),
        "list_section() through Custom({prefix:?}) and through {prefix}"
    );
    let opts = RecallOptions::default();
    require_eq!(
        shape(custom.across(&input.query, input.limit, &opts).await, |h| {
            Across::from(&h)
        }),
        shape(known.across(&input.query, input.limit, &opts).await, |h| {
            Across::from(&h)
        }),
        "across({:?}, {}) through Custom({prefix:?}) and through {prefix}",
        input.query,
        input.limit
    );
    for scope in SCOPES {
        require_eq!(
            custom.namespace(scope).map_err(|e| e.kind()),
            known.namespace(scope).map_err(|e| e.kind()),
            "namespace({scope:?}) through Custom({prefix:?}) and through {prefix}"
        );
        require_eq!(
            shape(custom.list(scope, None, None).await, entries_of),
            shape(known.list(scope, None, None).await, entries_of),
            "list({scope:?}) through Custom({prefix:?}) and through {prefix}"
        );
        require_eq!(
            shape(
                custom.recall(scope, &input.query, input.limit, &opts).await,
                entries_of
            ),
            shape(
                known.recall(scope, &input.query, input.limit, &opts).await,
                entries_of
            ),
            "recall({scope:?}, {:?}, {}) through Custom({prefix:?}) and through {prefix}",
            input.query,
            input.limit
        );
    }
    for put in &input.puts {
        require_eq!(
            shape(custom.get(put.scope, &put.key).await, |e| e
                .as_ref()
                .map(Hit::of)),
            shape(known.get(put.scope, &put.key).await, |e| e
                .as_ref()
                .map(Hit::of)),
            "get({:?}, {:?}) through Custom({prefix:?}) and through {prefix}",
            put.scope,
            put.key
        );
    }
    Ok(())
}

async fn case(ctx: CheckContext, input: Input) -> CaseResult {
    let d = open_with(&ctx, []).await?;
    // Both spellings' reads reach the driver as the same requests: each
    // distinct one is asked once per state of the data (recalls always).
    let d = Memo::new(d.as_ref());
    let sections = Sections::new(&d);
    let prefix = input.section.prefix().to_owned();
    let known = sections.section(&input.section);
    let custom = sections.section(&MemorySection::Custom(prefix.clone()));
    require!(
        !matches!(custom.section(), MemorySection::Custom(_)),
        "the view of Custom({prefix:?}) kept the Custom spelling: {:?}",
        custom.section()
    );
    for put in &input.puts {
        let view = if put.via_custom { &custom } else { &known };
        view.put(
            put.scope,
            &put.key,
            &put.content,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .map_err(|e| {
            CaseFailure::caused_by(format!("{put:?} in section {prefix} failed: {e}"), &e)
        })?;
    }
    for listed in d
        .namespaces()
        .await
        .map_err(|e| CaseFailure::caused_by(format!("namespaces() failed: {e}"), &e))?
    {
        require!(
            listed.namespace.starts_with(&format!("{prefix}:")),
            "puts through section {prefix} created namespace {:?}",
            listed.namespace
        );
    }
    compare_reads(&known, &custom, &input).await?;
    // A forget through one spelling is seen through the other.
    let first = &input.puts[0];
    let (by, seen_by) = if first.via_custom {
        (&known, &custom)
    } else {
        (&custom, &known)
    };
    require_eq!(
        by.forget(first.scope, &first.key)
            .await
            .map_err(|e| e.kind()),
        Ok(true),
        "forget({:?}, {:?}) through the spelling that did not write it",
        first.scope,
        first.key
    );
    require_eq!(
        shape(seen_by.get(first.scope, &first.key).await, |e| e
            .as_ref()
            .map(Hit::of)),
        Ok(None),
        "get({:?}, {:?}) after the forget, through the other spelling",
        first.scope,
        first.key
    );
    compare_reads(&known, &custom, &input).await
}

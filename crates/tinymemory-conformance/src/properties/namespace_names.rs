//! Namespace names: parse and render round-trip for any valid string, and
//! every invalid string is refused by the driver with `Invalid`.

use proptest::collection::vec;
use proptest::prop_oneof;
use proptest::sample::select;
use proptest::strategy::Strategy;
use tinymemory_api::{
    MemoryCategory, MemoryError, MemoryProvider, MemorySection, MemoryTaint, Namespace,
    RecallOptions,
};

use super::engine::CaseResult;
use super::run::{property, require, require_eq, Needs};
use crate::{Check, CheckContext, Family, Profiles};

pub(crate) const CHECK: Check = Check {
    id: "properties.namespace_round_trip",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description:
        "Namespace parse/render round-trips for any valid string, which the driver accepts; \
                  every invalid string is refused with MemoryError::Invalid on every method",
    run: |ctx| Box::pin(property(ctx, CHECK.id, Needs::Nothing, name(), case)),
};

/// Every character a namespace may hold.
const ALLOWED: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+";

/// Characters of a valid section prefix.
const PREFIX: &str = "abcdefghijklmnopqrstuvwxyz0123456789_-";

/// Characters no namespace may hold, mixed into the "anything" names.
const FORBIDDEN: [char; 12] = [
    ' ', 'é', '\0', '%', '"', '\'', ';', '*', '\\', '\n', '🦀', '\u{200b}',
];

fn chars(set: &str) -> Vec<char> {
    set.chars().collect()
}

fn text(
    set: Vec<char>,
    len: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = String, Tree: Send> {
    vec(select(set), len).prop_map(|c| c.into_iter().collect())
}

/// Names valid and invalid in about equal measure: sectioned names built
/// from valid parts, known sections with any scope (empty included), any
/// string of allowed characters, any string with forbidden ones, slash
/// paths with `.`/`..` segments, lengths around the 200-byte limit, and
/// reserved-looking words (`select`, `langgraph:notes`, `learning:users`).
fn name() -> impl Strategy<Value = String, Tree: Send> {
    let mut anything = chars(ALLOWED);
    anything.extend(FORBIDDEN);
    let known: Vec<String> = MemorySection::KNOWN
        .iter()
        .map(|s| s.prefix().to_owned())
        .collect();
    prop_oneof![
        (text(chars(PREFIX), 1..=8), text(chars(ALLOWED), 1..=16))
            .prop_map(|(p, s)| format!("{p}:{s}")),
        (select(known), text(chars(ALLOWED), 0..=16)).prop_map(|(p, s)| format!("{p}:{s}")),
        text(chars(ALLOWED), 0..=24),
        text(anything, 1..=24),
        vec(
            select(vec!["a", "..", ".", "", "b.c", "..x", "learning:x"]),
            1..=4
        )
        .prop_map(|segments| segments.join("/")),
        (select(chars(ALLOWED)), 195..=205_usize).prop_map(|(c, n)| c.to_string().repeat(n)),
        super::data::reserved_namespace(),
    ]
}

fn kind_of<T>(r: &Result<T, MemoryError>) -> String {
    match r {
        Ok(_) => "Ok".to_owned(),
        Err(e) => match e.rule() {
            Some(rule) => format!("{} ({rule})", e.kind()),
            None => format!("{}: {e}", e.kind()),
        },
    }
}

/// The five namespace-taking methods with `name`, as `(method, result)`.
async fn every_method(d: &dyn MemoryProvider, name: &str) -> Vec<(&'static str, String, bool)> {
    let store = d
        .store(
            name,
            "k",
            "round trip text",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await;
    let get = d.get(name, "k").await;
    let list = d.list(Some(name), None, None).await;
    let recall = d
        .recall("round", 5, &RecallOptions::in_namespace(name))
        .await;
    let forget = d.forget(name, "k").await;
    vec![
        (
            "store",
            kind_of(&store),
            store.as_ref().is_err_and(MemoryError::is_invalid),
        ),
        (
            "get",
            kind_of(&get),
            get.as_ref().is_err_and(MemoryError::is_invalid),
        ),
        (
            "list",
            kind_of(&list),
            list.as_ref().is_err_and(MemoryError::is_invalid),
        ),
        (
            "recall",
            kind_of(&recall),
            recall.as_ref().is_err_and(MemoryError::is_invalid),
        ),
        (
            "forget",
            kind_of(&forget),
            forget.as_ref().is_err_and(MemoryError::is_invalid),
        ),
    ]
}

fn round_trips(name: &str, ns: &Namespace) -> CaseResult {
    require_eq!(ns.as_str(), name, "Namespace::parse({name:?}).as_str()");
    require_eq!(ns.to_string(), name, "Namespace::parse({name:?}) rendered");
    require_eq!(
        Namespace::parse(ns.as_str()).ok().as_ref(),
        Some(ns),
        "parse of the rendering of {name:?}"
    );
    if let Some(section) = ns.section() {
        require!(
            ns.is_in(&section),
            "{name:?} is not in its own section {section}"
        );
        require_eq!(
            Namespace::new(&section, ns.scope()).ok().as_ref(),
            Some(ns),
            "Namespace::new({section}, {:?}) against the parse of {name:?}",
            ns.scope()
        );
        require_eq!(
            Namespace::new(
                &MemorySection::Custom(section.prefix().to_owned()),
                ns.scope()
            )
            .ok()
            .as_ref(),
            Some(ns),
            "Namespace::new(Custom({:?}), {:?}) against the parse of {name:?}",
            section.prefix(),
            ns.scope()
        );
    } else {
        require_eq!(ns.scope(), name, "scope of the unsectioned name {name:?}");
    }
    Ok(())
}

async fn case(ctx: CheckContext, name: String) -> CaseResult {
    let d = ctx.fresh().await?;
    let results = every_method(d.as_ref(), &name).await;
    match Namespace::parse(&name) {
        Ok(ns) => {
            round_trips(&name, &ns)?;
            for (method, got, _) in results {
                require_eq!(
                    got.as_str(),
                    "Ok",
                    "{method} with the valid namespace {name:?}"
                );
            }
        }
        Err(e) => {
            require!(
                e.is_invalid(),
                "Namespace::parse({name:?}) failed with a {} error",
                e.kind()
            );
            for (method, got, invalid) in results {
                require!(
                    invalid,
                    "{method} with the invalid namespace {name:?} (breaks {}) returned {got}, expected MemoryError::Invalid",
                    e.rule().unwrap_or("?")
                );
            }
        }
    }
    Ok(())
}

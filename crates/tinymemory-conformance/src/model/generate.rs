//! Random sequences of calls, over a small world so that calls collide:
//! few namespaces and keys, drawn by weight (upserts, forgets of stored
//! keys, non-empty lists), and a five-word vocabulary (recalls that hit,
//! often partially, so the hits of one recall score differently). Half the
//! calls aim at an entry stored earlier in the sequence, so that namespaces
//! fill up and store-forget-recall and store-store-count chains are common.

use proptest::collection::vec;
use proptest::option;
use proptest::prop_oneof;
use proptest::sample::Index;
use proptest::strategy::{Just, Strategy};
use tinymemory_api::{MemoryCategory, MemorySection, MemoryTaint};

use super::Op;
use crate::properties::data::{reserved_namespace, weighted, PUNCTUATION, VOCAB};

/// The longest generated sequence.
pub(crate) const MAX_OPS: usize = 24;

/// Namespaces of the sequences, each with its weight: most calls land in a
/// few namespaces, so they meet stored entries. Beside plain names: names
/// that differ only in case (`learning:A`), that extend another
/// (`learning:ab` starts with `learning:a`) and that a SQL `LIKE` pattern
/// confuses (`learning:a_b` matches `learning:a-b`), so drivers that fold
/// case, match prefixes or use wildcards diverge. The last two are invalid
/// (a forbidden character, an empty scope), so refusals are compared too.
const NAMESPACES: [(&str, u32); 10] = [
    ("learning:a", 8),
    ("global", 4),
    ("learning:a_b", 4),
    ("learning:a-b", 4),
    ("learning:ab", 2),
    ("learning:A", 2),
    ("document:a", 2),
    ("notes:x", 1),
    ("bad name", 1),
    ("learning:", 1),
];

/// Keys, each with its weight.
const KEYS: [(&str, u32); 3] = [("k0", 3), ("k1", 2), ("k2", 1)];

/// A namespace of [`NAMESPACES`] by weight, and one time in seven a
/// reserved-looking one (`select`, `langgraph:notes`, `learning:users`):
/// calls aimed at stored entries then meet it again.
fn namespace() -> impl Strategy<Value = String, Tree: Send> {
    prop_oneof![
        6 => weighted(&NAMESPACES).prop_map(str::to_owned),
        1 => reserved_namespace(),
    ]
}

fn key() -> impl Strategy<Value = String, Tree: Send> {
    weighted(&KEYS).prop_map(str::to_owned)
}

/// One to three words of [`VOCAB`].
fn words() -> impl Strategy<Value = String, Tree: Send> {
    vec(0..VOCAB.len(), 1..=3).prop_map(|ix| {
        ix.into_iter()
            .map(|i| VOCAB[i])
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// One to three tokens: mostly [`VOCAB`] words, sometimes punctuation.
fn query() -> impl Strategy<Value = String, Tree: Send> {
    vec(0..VOCAB.len() + PUNCTUATION.len(), 1..=3).prop_map(|ix| {
        ix.into_iter()
            .map(|i| {
                VOCAB
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| PUNCTUATION[i - VOCAB.len()])
            })
            .collect::<Vec<_>>()
            .join(" ")
    })
}

fn category() -> impl Strategy<Value = MemoryCategory, Tree: Send> {
    (0..3_usize).prop_map(|i| {
        [
            MemoryCategory::Core,
            MemoryCategory::Daily,
            MemoryCategory::Custom("project".into()),
        ][i]
            .clone()
    })
}

fn session() -> impl Strategy<Value = Option<String>, Tree: Send> {
    option::of((1..=2_u8).prop_map(|i| format!("session-{i}")))
}

fn section() -> impl Strategy<Value = MemorySection, Tree: Send> {
    (0..4_usize).prop_map(|i| {
        [
            MemorySection::Learning,
            MemorySection::Document,
            MemorySection::Custom("notes".into()),
            MemorySection::Entity,
        ][i]
            .clone()
    })
}

fn store() -> impl Strategy<Value = Op, Tree: Send> {
    (
        namespace(),
        key(),
        words(),
        category(),
        session(),
        proptest::bool::weighted(0.2),
    )
        .prop_map(
            |(namespace, key, content, category, session_id, external)| Op::Store {
                namespace,
                key,
                content,
                category,
                session_id,
                taint: if external {
                    MemoryTaint::ExternalSync
                } else {
                    MemoryTaint::Internal
                },
            },
        )
}

/// A recall limit: mostly 1 or 2, below the matches of a filled namespace,
/// where a driver must keep its best hits; sometimes 0 or up to 6.
fn limit() -> impl Strategy<Value = usize, Tree: Send> {
    prop_oneof![1 => Just(0_usize), 3 => Just(1_usize), 2 => Just(2_usize), 2 => 3..=6_usize]
}

fn recall() -> impl Strategy<Value = Op, Tree: Send> {
    (
        query(),
        limit(),
        option::weighted(0.75, namespace()),
        option::weighted(0.2, category()),
        option::weighted(0.2, session()),
    )
        .prop_map(
            |(query, limit, namespace, category, session_id)| Op::Recall {
                query,
                limit,
                namespace,
                category,
                session_id: session_id.flatten(),
            },
        )
}

fn list() -> impl Strategy<Value = Op, Tree: Send> {
    (
        option::of(namespace()),
        option::weighted(0.3, category()),
        option::weighted(0.3, session()),
    )
        .prop_map(|(namespace, category, session_id)| Op::List {
            namespace,
            category,
            session_id: session_id.flatten(),
        })
}

/// One call: stores most often, then recalls, then the rest.
pub(crate) fn op() -> impl Strategy<Value = Op, Tree: Send> {
    prop_oneof![
        5 => store(),
        2 => (namespace(), key()).prop_map(|(namespace, key)| Op::Get { namespace, key }),
        2 => (namespace(), key()).prop_map(|(namespace, key)| Op::Forget { namespace, key }),
        2 => list(),
        2 => Just(Op::Namespaces),
        6 => recall(),
        1 => section().prop_map(|section| Op::Scopes { section }),
        2 => (section(), query(), 0..=6_usize, 0..=4_usize)
            .prop_map(|(section, query, limit, cap)| Op::AcrossSection { section, query, limit, cap }),
    ]
}

/// A sequence of 1 to [`MAX_OPS`] calls. Shrinking drops calls first, then
/// simplifies the ones left (a call aiming at an earlier store falls back
/// to its own drawn arguments).
pub(crate) fn sequence() -> impl Strategy<Value = Vec<Op>, Tree: Send> {
    vec(
        (
            op(),
            proptest::bool::ANY,
            proptest::arbitrary::any::<Index>(),
        ),
        1..=MAX_OPS,
    )
    .prop_map(aim)
}

/// Points each call flagged to aim at an earlier `store` (chosen by its
/// index) at that store's namespace: a `store` keeps its own key (filling
/// the namespace, or upserting), a `get` or `forget` takes the key too, a
/// `list` with a namespace filter takes the namespace. An aimed recall's
/// query starts with that store's content, so it hits that entry fully and
/// its neighbours in part: hits of one recall with different scores.
fn aim(raw: Vec<(Op, bool, Index)>) -> Vec<Op> {
    let mut stored: Vec<(String, String, String)> = Vec::new();
    let mut out = Vec::with_capacity(raw.len());
    for (op, aimed, index) in raw {
        let target = (aimed && !stored.is_empty()).then(|| index.get(&stored).clone());
        let op = match (op, target) {
            (Op::Get { .. }, Some((namespace, key, _))) => Op::Get { namespace, key },
            (Op::Forget { .. }, Some((namespace, key, _))) => Op::Forget { namespace, key },
            (
                Op::List {
                    namespace: Some(_),
                    category,
                    session_id,
                },
                Some((namespace, _, _)),
            ) => Op::List {
                namespace: Some(namespace),
                category,
                session_id,
            },
            (
                Op::Recall {
                    query,
                    limit,
                    category,
                    session_id,
                    ..
                },
                Some((namespace, _, content)),
            ) => Op::Recall {
                query: format!("{content} {query}"),
                limit,
                namespace: Some(namespace),
                category,
                session_id,
            },
            (
                Op::Store {
                    key,
                    content,
                    category,
                    session_id,
                    taint,
                    ..
                },
                Some((namespace, _, _)),
            ) => Op::Store {
                namespace,
                key,
                content,
                category,
                session_id,
                taint,
            },
            (op, _) => op,
        };
        if let Op::Store {
            namespace,
            key,
            content,
            ..
        } = &op
        {
            stored.push((namespace.clone(), key.clone(), content.clone()));
        }
        out.push(op);
    }
    out
}

//! `merge_hits` against the merge it replaced (`tests/oracle`), byte for
//! byte: every field of every hit, scores compared by `f64::to_bits`, so a
//! NaN's sign and payload and the sign of a zero count.
//!
//! Inputs hold distinct `(namespace, key)` pairs, the domain on which
//! `compare_hits` is a total order and so on which the old merge's output
//! is defined (a driver returns each key of a namespace once, and
//! `across_section` checks every hit's namespace). Keys repeat across
//! namespaces, a namespace may be split over several lists, and `None`
//! namespaces occur.

use crate::oracle;

use proptest::prelude::*;
use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryTaint};
use tinymemory_sections::{merge_hits, MergeStrategy};

/// Every field of a hit, the score as its bits.
type Fingerprint = (
    String,
    String,
    String,
    Option<String>,
    MemoryCategory,
    String,
    Option<String>,
    Option<u64>,
    MemoryTaint,
);

fn fingerprint(hits: &[MemoryEntry]) -> Vec<Fingerprint> {
    hits.iter()
        .map(|h| {
            (
                h.id.clone(),
                h.key.clone(),
                h.content.clone(),
                h.namespace.clone(),
                h.category.clone(),
                h.timestamp.clone(),
                h.session_id.clone(),
                h.score.map(f64::to_bits),
                h.taint,
            )
        })
        .collect()
}

/// Scores the merge must order: NaN of both signs and several payloads
/// (quiet and signalling), infinities, `None`, both zeros, extremes,
/// subnormals and values that tie.
const SPECIAL: [Option<u64>; 17] = [
    None,
    Some(0x7ff8_0000_0000_0000), // NaN
    Some(0xfff8_0000_0000_0000), // -NaN
    Some(0x7ff8_0000_0000_0001), // NaN, payload 1
    Some(0xfff0_0000_0000_0001), // -NaN, signalling
    Some(0x7ff0_0000_0000_0000), // +inf
    Some(0xfff0_0000_0000_0000), // -inf
    Some(0x0000_0000_0000_0000), // +0.0
    Some(0x8000_0000_0000_0000), // -0.0
    Some(0x0000_0000_0000_0001), // smallest subnormal
    Some(0x8000_0000_0000_0001), // its negative
    Some(0x7fef_ffff_ffff_ffff), // f64::MAX
    Some(0xffef_ffff_ffff_ffff), // f64::MIN
    Some(0x3ff0_0000_0000_0000), // 1.0
    Some(0xbff0_0000_0000_0000), // -1.0
    Some(0x3fd5_5555_5555_5555), // 1/3
    Some(0x3fe5_5555_5555_5555), // 2/3
];

fn score() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        3 => proptest::sample::select(&SPECIAL[..]).prop_map(|b| b.map(f64::from_bits)),
        1 => (-4i32..4).prop_map(|i| Some(f64::from(i) / 2.0)),
        1 => any::<u64>().prop_map(|b| Some(f64::from_bits(b))),
    ]
}

const NAMESPACES: [Option<&str>; 6] = [
    None,
    Some(""),
    Some("n:a"),
    Some("n:a:b"),
    Some("n:b"),
    Some("N:a"),
];
const KEYS: [&str; 6] = ["", "a", "b", "k1", "k10", "k2"];

/// One raw hit: namespace and key choices, score, and whether it takes its
/// list's namespace (as a fan-out's hits do) or one of its own.
fn raw_hit() -> impl Strategy<Value = (bool, usize, usize, Option<f64>)> {
    (
        proptest::bool::weighted(0.8),
        0..NAMESPACES.len(),
        0..KEYS.len(),
        score(),
    )
}

fn lists() -> impl Strategy<Value = Vec<Vec<MemoryEntry>>> {
    let list = (0..NAMESPACES.len(), prop::collection::vec(raw_hit(), 0..12));
    prop::collection::vec(list, 0..8).prop_map(|raw| {
        let mut seen = std::collections::HashSet::new();
        let mut id = 0;
        raw.into_iter()
            .map(|(list_ns, hits)| {
                hits.into_iter()
                    .filter_map(|(own, ns, key, score)| {
                        let ns = NAMESPACES[if own { list_ns } else { ns }];
                        // Extra keys keep long lists possible with few key names.
                        let key = format!("{}{}", KEYS[key], id % 3);
                        if !seen.insert((ns, key.clone())) {
                            return None;
                        }
                        id += 1;
                        Some(MemoryEntry {
                            id: format!("id{id}"),
                            key,
                            content: format!("content {id}"),
                            namespace: ns.map(str::to_owned),
                            category: if id % 2 == 0 {
                                MemoryCategory::Core
                            } else {
                                MemoryCategory::Custom(format!("c{id}"))
                            },
                            timestamp: format!("2025-01-01T00:00:{:02}.000000Z", id % 60),
                            session_id: (id % 3 == 0).then(|| format!("s{id}")),
                            score,
                            taint: if id % 5 == 0 {
                                MemoryTaint::ExternalSync
                            } else {
                                MemoryTaint::Internal
                            },
                        })
                    })
                    .collect()
            })
            .collect()
    })
}

/// Limits around the total: 0, 1, one below, at and above it, random, and
/// `usize::MAX`.
fn limit_for(total: usize, pick: u8, random: usize) -> usize {
    match pick % 7 {
        0 => 0,
        1 => 1,
        2 => total.saturating_sub(1),
        3 => total,
        4 => total + 1,
        5 => usize::MAX,
        _ => random,
    }
}

fn check(lists: Vec<Vec<MemoryEntry>>, limit: usize, strategy: MergeStrategy) {
    let want = oracle::merge_hits(lists.clone(), limit, strategy);
    let got = merge_hits(lists, limit, strategy);
    assert_eq!(
        fingerprint(&got),
        fingerprint(&want),
        "limit {limit}, {strategy:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn score_merge_is_byte_identical_to_the_old_one(
        lists in lists(),
        pick in any::<u8>(),
        random in 0usize..40,
    ) {
        let total = lists.iter().map(Vec::len).sum();
        check(lists, limit_for(total, pick, random), MergeStrategy::Score);
    }

    #[test]
    fn reciprocal_rank_merge_is_byte_identical_to_the_old_one(
        lists in lists(),
        pick in any::<u8>(),
        random in 0usize..40,
        k in prop_oneof![Just(0u32), Just(60), Just(u32::MAX), any::<u32>()],
    ) {
        let total = lists.iter().map(Vec::len).sum();
        check(lists, limit_for(total, pick, random), MergeStrategy::ReciprocalRank { k });
    }
}

/// The generator reaches what it claims to: ties on score, every special
/// score, repeated keys across namespaces and empty lists.
#[test]
fn inputs_cover_the_hard_cases() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut nan_neg, mut none, mut zero_neg, mut shared_key, mut empty) = (0, 0, 0, 0, 0);
    for _ in 0..500 {
        let lists = lists().new_tree(&mut runner).unwrap().current();
        let hits: Vec<&MemoryEntry> = lists.iter().flatten().collect();
        empty += lists.iter().filter(|l| l.is_empty()).count();
        for h in &hits {
            match h.score {
                None => none += 1,
                Some(s) if s.is_nan() && s.is_sign_negative() => nan_neg += 1,
                Some(s) if s == 0.0 && s.is_sign_negative() => zero_neg += 1,
                Some(_) => {}
            }
        }
        let keys: std::collections::HashSet<&str> = hits.iter().map(|h| h.key.as_str()).collect();
        shared_key += hits.len() - keys.len();
    }
    for (what, n) in [
        ("-NaN", nan_neg),
        ("None", none),
        ("-0.0", zero_neg),
        ("a key in two namespaces", shared_key),
        ("an empty list", empty),
    ] {
        assert!(n > 20, "{what}: {n}");
    }
}

//! The score merge of `across_section` by total hits (10 to 100,000), for
//! three score mixes (distinct finite, heavy ties, half NaN/±inf/None),
//! against sorting the same scores as plain `f64` (the floor).
//!
//! Inputs are shaped as a fan-out at the default cap returns them
//! (`tinymemory_benches::fan_out_shape`): 10 hits per namespace up to 64
//! namespaces, then longer lists and a larger `limit`, so 100,000 hits are
//! 64 lists of 1,563 merged down to 1,563.
//!
//! - `merge` is `tinymemory_sections::merge_hits` itself, the default
//!   merge of `across_section`.
//! - `full_sort` is the merge as first written: flatten the lists, sort by
//!   `tinymemory_sections::compare_hits`, keep the first `limit`.
//! - `floor` sorts the scores, `None` as NaN, descending by
//!   `f64::total_cmp`.
//!
//! Inputs are cloned outside the timing; the hits cut by the limit are
//! dropped inside it, as in the merge. The ratios of `merge` and `select`
//! are paired: the floor sort and the merge alternate in the same samples
//! (`tinymemory_benches::Paired`), in batches of about 10,000 hits (1,000
//! inputs of 10 hits, one input of 10,000 or more).
//!
//! `merge_candidates/<mix>` times every candidate merge
//! (`tinymemory_benches::CANDIDATES`) side by side at the two shapes issue
//! 16 names, 64 lists x 10 -> 10 (640 hits) and 64 x 1,563 -> 1,563
//! (100,000 hits): `before` (the merge before issue 16, the baseline),
//! `full_sort`, `keyed_select`, `keyed_refs`, `kway` and `merge` (the real
//! `merge_hits`). Each is checked byte for byte against `before` on the
//! bench's input first. Floor: dropping the input lists unmerged, the cost
//! every merge that takes its input by value pays; each candidate is paired
//! with it, so `merge`'s ratio over the best candidate's is a ratio of
//! paired ratios from one run.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use tinymemory_api::MemoryEntry;
use tinymemory_benches::{
    criterion_config, criterion_home, fan_out_shape, fingerprint, flatten_floats, hit_lists,
    merge_before, merge_by_full_sort, merge_by_score, scores, sizes, Paired, ScoreMix, CANDIDATES,
};
use tinymemory_sections::{compare_hits, MAX_SECTION_NAMESPACES};

const HITS: [usize; 5] = [10, 100, 1_000, 10_000, 100_000];
const SEED: u64 = 0x7e57_5eed;

/// A merge: per-namespace hit lists and a limit in, merged hits out.
type Merge = fn(Vec<Vec<MemoryEntry>>, usize) -> Vec<MemoryEntry>;

/// The floor: the scores as plain floats, sorted best first.
fn sort_floats(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(|a, b| b.total_cmp(a));
    v
}

fn merge(c: &mut Criterion) {
    for mix in ScoreMix::ALL {
        let mut group = c.benchmark_group(format!("merge/{}", mix.name()));
        for n in sizes(&HITS, 100_000) {
            let (_, limit) = fan_out_shape(n, MAX_SECTION_NAMESPACES);
            let lists = hit_lists(&scores(mix, n, SEED), limit);
            let floats = flatten_floats(&lists);
            // Timed in batches of about 10,000 hits, so the clock's own cost
            // does not count for small inputs while a batch stays in cache.
            let batch = (10_000 / n).max(1);
            let criterion_batch = BatchSize::NumIterations(batch as u64);

            // Checked once: the full sort gives the merge's exact output,
            // and that output is in merge order.
            let merged = merge_by_score(lists.clone(), limit);
            let key = |h: &MemoryEntry| (h.namespace.clone(), h.key.clone());
            let full_sort = merge_by_full_sort(lists.clone(), limit);
            assert_eq!(
                merged.iter().map(key).collect::<Vec<_>>(),
                full_sort.iter().map(key).collect::<Vec<_>>()
            );
            assert_eq!(merged.len(), limit.min(n));
            assert!(merged
                .windows(2)
                .all(|w| compare_hits(&w[0], &w[1]).is_lt()));

            group.bench_function(BenchmarkId::new("floor", n), |b| {
                b.iter_batched(|| floats.clone(), sort_floats, criterion_batch);
            });
            let group_id = format!("merge/{}", mix.name());
            let home = criterion_home();
            let candidates: [(&str, Merge); 2] =
                [("merge", merge_by_score), ("full_sort", merge_by_full_sort)];
            for (name, merge) in candidates {
                let paired = Paired::new();
                group.bench_function(BenchmarkId::new(name, n), |b| {
                    paired.iter_batched(
                        b,
                        batch,
                        || floats.clone(),
                        sort_floats,
                        || lists.clone(),
                        |l| merge(l, limit),
                    );
                });
                paired
                    .save(&home, &group_id, name, &n.to_string())
                    .expect("failed to write the paired ratio");
            }
        }
        group.finish();
    }
}

/// The two shapes of issue 16: 64 x 10 -> 10 and 64 x 1,563 -> 1,563.
const CANDIDATE_HITS: [usize; 2] = [640, 100_000];

fn candidates(c: &mut Criterion) {
    for mix in ScoreMix::ALL {
        let group_id = format!("merge_candidates/{}", mix.name());
        let mut group = c.benchmark_group(&group_id);
        for n in sizes(&CANDIDATE_HITS, 1_000) {
            let (lists_n, limit) = fan_out_shape(n, MAX_SECTION_NAMESPACES);
            let lists = hit_lists(&scores(mix, n, SEED), limit);
            assert_eq!(lists.len(), lists_n);
            let want = fingerprint(&merge_before(lists.clone(), limit));
            assert_eq!(want.len(), limit);
            for (name, merge) in CANDIDATES {
                assert_eq!(
                    fingerprint(&merge(lists.clone(), limit)),
                    want,
                    "{name} differs from the baseline on {group_id}/{n}"
                );
            }
            // One input per timing: 640 hits (about 300 KB) stay in cache
            // as a fan-out's freshly recalled hits would.
            let batch = 1;
            group.bench_function(BenchmarkId::new("floor", n), |b| {
                b.iter_batched(|| lists.clone(), drop, BatchSize::PerIteration);
            });
            let home = criterion_home();
            for (name, merge) in CANDIDATES {
                let paired = Paired::new();
                group.bench_function(BenchmarkId::new(name, n), |b| {
                    paired.iter_batched(
                        b,
                        batch,
                        || lists.clone(),
                        drop,
                        || lists.clone(),
                        |l| merge(l, limit),
                    );
                });
                paired
                    .save(&home, &group_id, name, &n.to_string())
                    .expect("failed to write the paired ratio");
            }
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = merge, candidates
}
criterion_main!(benches);

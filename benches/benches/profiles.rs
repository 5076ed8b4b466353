//! The semantic reference driver's recall against the lexical reference
//! driver's, on the same stores: what a brute-force cosine over hashed
//! embeddings costs next to a word-overlap scan.
//!
//! - `profiles_recall`: a recall of [`QUERY`] pinned to one namespace of
//!   100, `limit` 10, at 1,000 and 10,000 entries of real corpus text in
//!   every language. The floor is the lexical [`ReferenceDriver`]; the
//!   subject the [`SemanticReferenceDriver`] over the same entries. Both
//!   scan the whole store to find the namespace (by design: obvious by
//!   inspection), then score its entries; the semantic one embeds each
//!   entry's text per recall.
//! - `profiles_self`: the same, querying by an entry's own full text (as
//!   `corpus.self_retrieval` does).
//!
//! Each ratio is paired: floor and subject alternate in the same samples
//! (`tinymemory_benches::Paired`).
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use criterion::{criterion_group, criterion_main, Criterion};
use tinymemory_api::{MemoryProvider, MemorySection, RecallOptions};
use tinymemory_benches::{
    bench_paired_async, corpus_texts, criterion_config, fill_section, runtime, shuffled, sizes,
    QUERY,
};
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};

const ENTRIES: [usize; 2] = [1_000, 10_000];
const NAMESPACES: usize = 100;
const LIMIT: usize = 10;

fn bench(c: &mut Criterion) {
    let rt = runtime();
    let texts = shuffled(corpus_texts(), 0x5eed);
    for n in sizes(&ENTRIES, 1_000) {
        let lexical = ReferenceDriver::new();
        let semantic = SemanticReferenceDriver::new();
        let mut names = Vec::new();
        for d in [&lexical as &dyn MemoryProvider, &semantic] {
            names = rt
                .block_on(fill_section(
                    d,
                    &MemorySection::Conversation,
                    NAMESPACES,
                    n / NAMESPACES,
                    &texts,
                ))
                .expect("fill the store");
        }
        let opts = RecallOptions::in_namespace(names[0].clone());
        let own = rt
            .block_on(lexical.list(Some(&names[0]), None, None))
            .expect("list")[0]
            .content
            .clone();
        for (group_id, query) in [("profiles_recall", QUERY), ("profiles_self", own.as_str())] {
            let hits = rt
                .block_on(semantic.recall(query, LIMIT, &opts))
                .expect("semantic recall");
            assert_eq!(hits.len(), LIMIT, "a ranking returns the limit");
            let mut group = c.benchmark_group(group_id);
            bench_paired_async(
                &mut group,
                group_id,
                "semantic",
                n,
                &rt,
                || lexical.recall(query, LIMIT, &opts),
                || semantic.recall(query, LIMIT, &opts),
            );
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = bench
}
criterion_main!(benches);

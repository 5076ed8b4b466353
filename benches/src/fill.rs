//! Filling a store with a section of equal namespaces.

use tinymemory_api::{
    MemoryCategory, MemoryError, MemoryProvider, MemorySection, MemoryTaint, Namespace,
};

/// Hits per namespace in the fan-out benches: every entry
/// [`fill_section`] stores from [`texts_with_word`](crate::texts_with_word)
/// is a hit, and this many are stored per namespace.
pub const HITS_PER_NAMESPACE: usize = 10;

/// The scope of the `i`-th bench namespace: `topic-000042`. Zero-padded,
/// so name order is index order.
#[must_use]
pub fn scope_name(i: usize) -> String {
    format!("topic-{i:06}")
}

/// Stores `per_namespace` entries in each of `namespaces` namespaces of
/// `section` (scopes [`scope_name`]`(0..namespaces)`), keys `k000000`,
/// `k000001`, ..., contents taken from `texts` in turn (cycling), category
/// `Core`, no session. Returns the namespaces in name order, which is the
/// fan-out's visit order since every count is equal.
///
/// # Errors
///
/// The first error of `store`, or of building a namespace (a section whose
/// prefix is unusable).
///
/// # Panics
///
/// When `texts` is empty.
pub async fn fill_section(
    provider: &dyn MemoryProvider,
    section: &MemorySection,
    namespaces: usize,
    per_namespace: usize,
    texts: &[String],
) -> Result<Vec<String>, MemoryError> {
    assert!(!texts.is_empty(), "fill_section needs at least one text");
    let mut names = Vec::with_capacity(namespaces);
    let mut next = 0;
    for i in 0..namespaces {
        let ns = Namespace::new(section, &scope_name(i))?.into_string();
        for k in 0..per_namespace {
            let text = &texts[next % texts.len()];
            next += 1;
            provider
                .store(
                    &ns,
                    &format!("k{k:06}"),
                    text,
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await?;
        }
        names.push(ns);
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use tinymemory_api::{NamespaceSummary, RecallOptions};
    use tinymemory_reference::ReferenceDriver;

    use super::*;
    use crate::{texts_with_word, QUERY, QUERY_WORD};

    #[test]
    fn every_namespace_gets_its_hits() {
        let rt = crate::runtime();
        let d = ReferenceDriver::new();
        let texts = texts_with_word(QUERY_WORD);
        let names = rt
            .block_on(fill_section(
                &d,
                &MemorySection::Learning,
                3,
                HITS_PER_NAMESPACE,
                &texts,
            ))
            .unwrap();
        assert_eq!(
            names,
            [
                "learning:topic-000000",
                "learning:topic-000001",
                "learning:topic-000002"
            ]
        );
        let listed: Vec<(String, u64)> = rt
            .block_on(d.namespaces())
            .unwrap()
            .into_iter()
            .map(
                |NamespaceSummary {
                     namespace, count, ..
                 }| (namespace, count),
            )
            .collect();
        assert_eq!(
            listed,
            names.iter().map(|n| (n.clone(), 10)).collect::<Vec<_>>()
        );
        for ns in &names {
            let hits = rt
                .block_on(d.recall(QUERY, 100, &RecallOptions::in_namespace(ns.clone())))
                .unwrap();
            assert_eq!(hits.len(), HITS_PER_NAMESPACE, "{ns}");
        }
    }
}

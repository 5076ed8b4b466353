//! Which namespaces belong to a section, and in what order they are visited.

use std::collections::BTreeSet;

use tinymemory_api::{MemoryError, MemoryProvider, MemorySection, Namespace, NamespaceSummary};

/// The section's namespaces as listed by `namespaces()` (one provider call),
/// in the driver's order.
///
/// A name that starts with `<prefix>:` but does not parse, or a name listed
/// twice, is a driver fault: both would make the visited set depend on more
/// than the stored data.
pub(crate) async fn section_namespaces(
    provider: &dyn MemoryProvider,
    section: &MemorySection,
) -> Result<Vec<NamespaceSummary>, MemoryError> {
    let prefix = format!("{}:", section.prefix());
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for summary in provider.namespaces().await? {
        if !summary.namespace.starts_with(&prefix) {
            continue;
        }
        match Namespace::parse(&summary.namespace) {
            Ok(ns) if ns.is_in(section) => {}
            Ok(_) => continue,
            Err(e) => {
                return Err(MemoryError::fault(format!(
                    "driver {} listed namespace {:?}, which is invalid: {e}",
                    provider.driver_id(),
                    summary.namespace
                )))
            }
        }
        if !seen.insert(summary.namespace.clone()) {
            return Err(MemoryError::fault(format!(
                "driver {} listed namespace {:?} twice in namespaces()",
                provider.driver_id(),
                summary.namespace
            )));
        }
        out.push(summary);
    }
    Ok(out)
}

/// Sorts into visit order: count descending, then namespace ascending.
pub(crate) fn visit_order(mut listed: Vec<NamespaceSummary>) -> Vec<NamespaceSummary> {
    listed.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.namespace.cmp(&b.namespace))
    });
    listed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(ns: &str, count: u64) -> NamespaceSummary {
        NamespaceSummary {
            namespace: ns.to_owned(),
            count,
            last_updated: None,
        }
    }

    #[test]
    fn visit_order_is_count_then_name() {
        let got: Vec<_> = visit_order(vec![
            summary("learning:c", 2),
            summary("learning:a", 1),
            summary("learning:b", 2),
            summary("learning:d", 5),
        ])
        .into_iter()
        .map(|s| s.namespace)
        .collect();
        assert_eq!(
            got,
            ["learning:d", "learning:b", "learning:c", "learning:a"]
        );
    }
}

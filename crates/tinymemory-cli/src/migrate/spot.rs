//! A spot check through `get`: a target whose export and stored data
//! disagree (an export served from a cache, a `get` reading another
//! table) passes a comparison of exports, so a sample of the copied
//! records is read back one by one and compared field by field.

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::MemoryProvider;

use super::verify::{changed_fields, escaped, or_none};

/// Every this many records in export order, one is sampled.
pub(crate) const EVERY: u64 = 1000;

/// The sampled source records: the first, every [`EVERY`]th and the last
/// in export order (at most `n / 1000 + 2` records held).
#[derive(Debug, Default)]
pub(crate) struct Sample {
    records: Vec<MemoryRecord>,
    last: Option<MemoryRecord>,
}

impl Sample {
    /// Offers the records of one page, the first at 0-based position
    /// `start` in the export.
    pub(crate) fn offer(&mut self, start: u64, page: &[MemoryRecord]) {
        for (i, r) in (start..).zip(page) {
            if i % EVERY == 0 {
                self.records.push(r.clone());
            }
        }
        if let Some(r) = page.last() {
            self.last = Some(r.clone());
        }
    }

    /// The sampled records, each once, in export order.
    fn into_records(self) -> Vec<MemoryRecord> {
        let mut records = self.records;
        if let Some(last) = self.last {
            if records.last() != Some(&last) {
                records.push(last);
            }
        }
        records
    }
}

/// Reads each sampled record from `target` with `get` and compares every
/// field but the id; returns how many were checked and one line per
/// record that differs (or that `get` fails to return).
pub(crate) async fn check(target: &dyn MemoryProvider, sample: Sample) -> (usize, Vec<String>) {
    let records = sample.into_records();
    let mut lines = Vec::new();
    for r in &records {
        let name = format!("{} {}", r.namespace, escaped(&r.key));
        match target.get(&r.namespace, &r.key).await {
            Err(e) => lines.push(format!("  get     {name}: {e}")),
            Ok(None) => lines.push(format!(
                "  get     {name}: copied from the source, but get on the target returns nothing"
            )),
            Ok(Some(entry)) => {
                let mut fields = Vec::new();
                if entry.namespace.as_deref() != Some(r.namespace.as_str()) {
                    fields.push(format!(
                        "namespace (get returns {})",
                        or_none(entry.namespace.as_deref())
                    ));
                }
                if entry.key != r.key {
                    fields.push(format!("key (get returns {})", escaped(&entry.key)));
                }
                let got = MemoryRecord {
                    namespace: r.namespace.clone(),
                    key: entry.key,
                    content: entry.content,
                    category: entry.category,
                    session_id: entry.session_id,
                    taint: entry.taint,
                    timestamp: entry.timestamp,
                };
                fields.extend(changed_fields(r, &got));
                if !fields.is_empty() {
                    lines.push(format!("  get     {name}: {}", fields.join("; ")));
                }
            }
        }
    }
    (records.len(), lines)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use tinymemory_api::{MemoryEntry, MemoryError, MemoryTaint, NewEntry};
    use tinymemory_reference::ReferenceDriver;

    use super::*;
    use crate::migrate::verify::verify;

    /// The reference driver, except that `get` of key `k1000` returns
    /// another content and taint: a store whose export and stored data
    /// disagree.
    #[derive(Default)]
    struct GetDisagrees(ReferenceDriver);

    tinymemory_api::delegate_provider! {
        impl MemoryProvider for GetDisagrees {
            forward(0): store, forget, list, namespaces, recall, store_many, export_page, import, interface;

            fn driver_id(&self) -> &str {
                "get-disagrees"
            }

            async fn get(
                &self,
                namespace: &str,
                key: &str,
            ) -> Result<Option<MemoryEntry>, MemoryError> {
                let got = self.0.get(namespace, key).await?;
                Ok(got.map(|e| {
                    if e.key == "k1000" {
                        MemoryEntry {
                            content: "stale".to_owned(),
                            taint: MemoryTaint::Internal,
                            ..e
                        }
                    } else {
                        e
                    }
                }))
            }
        }
    }

    #[tokio::test]
    async fn a_target_whose_get_disagrees_with_its_export_is_caught() {
        let source = ReferenceDriver::new();
        let entries: Vec<NewEntry> = (0..2500)
            .map(|i| {
                NewEntry::new("global", format!("k{i:04}"), "text")
                    .with_taint(MemoryTaint::ExternalSync)
            })
            .collect();
        source.store_many(&entries).await.unwrap();
        let target = GetDisagrees::default();
        let mut sample = Sample::default();
        let mut at = 0;
        for chunk in source
            .export_page(None, usize::MAX)
            .await
            .unwrap()
            .records
            .chunks(700)
        {
            assert_eq!(target.import(chunk).await.unwrap().failures, []);
            sample.offer(at, chunk);
            at += chunk.len() as u64;
        }
        // The exports agree, so the merge of exports finds nothing.
        let v = verify(&source, &target, 1000, &BTreeSet::new())
            .await
            .unwrap();
        assert!(v.is_equal());
        let keys: Vec<String> = std::mem::take(&mut sample)
            .into_records()
            .into_iter()
            .map(|r| r.key)
            .collect();
        assert_eq!(keys, ["k0000", "k1000", "k2000", "k2499"]);
        // Offer again (into_records took it) and check.
        let mut sample = Sample::default();
        let all = source.export_page(None, usize::MAX).await.unwrap().records;
        sample.offer(0, &all);
        let (checked, lines) = check(&target, sample).await;
        assert_eq!(checked, 4);
        assert_eq!(
            lines,
            [
                "  get     global \"k1000\": content (source \"text\", target \"stale\"); taint \
                 (source external_sync, target internal)"
            ]
        );
        let (checked, lines) = check(&source, {
            let mut s = Sample::default();
            s.offer(0, &all[..1]);
            s
        })
        .await;
        assert_eq!((checked, lines), (1, Vec::<String>::new()));
    }
}

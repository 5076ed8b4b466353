//! Comparing a migration's target with its source: a merge of the two
//! exports (both in `(namespace, key)` order), counts per namespace, and
//! a digest of each side.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryError, MemoryProvider};

use super::digest::Digest;
use super::pages::Pages;

/// How many keys of each kind of difference are named.
pub(crate) const SHOWN: usize = 5;

/// `(namespace, key)`.
pub(crate) type Key = (String, String);

/// What the comparison found.
#[derive(Debug, Default)]
pub(crate) struct Verification {
    /// The digest of the source's records ([`Digest`]).
    pub(crate) source_digest: String,
    /// The digest of the target's records, those kept from before the
    /// migration (`--overwrite`) left out.
    pub(crate) target_digest: String,
    /// Records in the source's export.
    pub(crate) records: u64,
    /// Namespaces the source holds.
    pub(crate) namespaces: u64,
    /// Target records the migration left alone: keys the target held
    /// before it that the source does not have.
    pub(crate) kept: u64,
    /// Source records the target lacks: the first [`SHOWN`] and how many.
    pub(crate) missing: (Vec<Key>, u64),
    /// Target records the source lacks (and the target did not hold
    /// before).
    pub(crate) extra: (Vec<Key>, u64),
    /// Records on both sides that differ, with the fields that do.
    pub(crate) changed: (Vec<(Key, Vec<String>)>, u64),
    /// `(namespace, what the source's namespaces() counts, what the
    /// target's counts less the kept records)` where those differ, and
    /// lines where a store's `namespaces()` disagrees with its own export.
    pub(crate) counts: Vec<String>,
}

impl Verification {
    /// `true` when the target holds exactly the source's records (besides
    /// those it kept).
    pub(crate) fn is_equal(&self) -> bool {
        self.missing.1 == 0
            && self.extra.1 == 0
            && self.changed.1 == 0
            && self.counts.is_empty()
            && self.source_digest == self.target_digest
    }

    /// One line per difference named, after a line of totals; empty when
    /// equal.
    pub(crate) fn difference_lines(&self) -> Vec<String> {
        if self.is_equal() {
            return Vec::new();
        }
        let mut lines = vec![format!(
            "the target differs from the source: {} missing, {} extra, {} changed records, \
             {} count differences; digest {} (source) vs {} (target)",
            self.missing.1,
            self.extra.1,
            self.changed.1,
            self.counts.len(),
            self.source_digest,
            self.target_digest
        )];
        let key = |(ns, k): &Key| format!("{ns} {}", escaped(k));
        for k in &self.missing.0 {
            lines.push(format!("  missing {}", key(k)));
        }
        for k in &self.extra.0 {
            lines.push(format!("  extra   {}", key(k)));
        }
        for (k, fields) in &self.changed.0 {
            lines.push(format!("  changed {}: {}", key(k), fields.join("; ")));
        }
        for c in self.counts.iter().take(SHOWN) {
            lines.push(format!("  count   {c}"));
        }
        lines
    }
}

/// A key as a quoted Rust string: keys may hold NULs, line breaks and
/// terminal escapes.
pub(crate) fn escaped(text: &str) -> String {
    let shown: String = text.chars().take(80).collect();
    let more = if shown.len() < text.len() { "…" } else { "" };
    format!("{shown:?}{more}")
}

/// An optional text (a session, a namespace) as a quoted string
/// ([`escaped`]), or `none`: never Rust's `Some("..")`.
pub(crate) fn or_none(text: Option<&str>) -> String {
    text.map_or_else(|| "none".to_owned(), escaped)
}

/// The fields in which `target` differs from `source`, each as
/// `field (source X, target Y)`.
pub(crate) fn changed_fields(source: &MemoryRecord, target: &MemoryRecord) -> Vec<String> {
    let mut out = Vec::new();
    let mut diff = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name} (source {a}, target {b})"));
        }
    };
    let short = |s: &str| {
        if s.chars().count() > 40 {
            format!("{} bytes", s.len())
        } else {
            format!("{s:?}")
        }
    };
    if source.content != target.content && short(&source.content) == short(&target.content) {
        diff(
            "content",
            "bytes".to_owned(),
            "other bytes of the same length".to_owned(),
        );
    } else {
        diff("content", short(&source.content), short(&target.content));
    }
    diff(
        "category",
        source.category.as_text(),
        target.category.as_text(),
    );
    diff(
        "session",
        or_none(source.session_id.as_deref()),
        or_none(target.session_id.as_deref()),
    );
    diff(
        "taint",
        source.taint.as_str().to_owned(),
        target.taint.as_str().to_owned(),
    );
    diff(
        "timestamp",
        source.timestamp.clone(),
        target.timestamp.clone(),
    );
    out
}

fn push<T>(list: &mut (Vec<T>, u64), item: T) {
    if list.0.len() < SHOWN {
        list.0.push(item);
    }
    list.1 += 1;
}

fn key_of(r: &MemoryRecord) -> Key {
    (r.namespace.clone(), r.key.clone())
}

/// Compares `target` with `source` record by record, reading each
/// export `page_size` at a time; `kept` holds the keys the target held
/// before the migration (empty unless `--overwrite`), which may stay in
/// it unchanged.
///
/// # Errors
///
/// The first driver error of either side (export or `namespaces()`), or a
/// fault for an export that breaks the paging rules ([`Pages`]).
pub(crate) async fn verify(
    source: &dyn MemoryProvider,
    target: &dyn MemoryProvider,
    page_size: usize,
    kept: &BTreeSet<Key>,
) -> Result<Verification, MemoryError> {
    let mut v = Verification::default();
    let (mut s_digest, mut t_digest) = (Digest::default(), Digest::default());
    let mut s_counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut t_counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut kept_counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut s_pages = Pages::new(source, page_size);
    let mut t_pages = Pages::new(target, page_size);
    loop {
        let order = match (s_pages.peek().await?, t_pages.peek().await?) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(s), Some(t)) => (&s.namespace, &s.key).cmp(&(&t.namespace, &t.key)),
        };
        let s = if order == Ordering::Greater {
            None
        } else {
            s_pages.next().await?
        };
        let t = if order == Ordering::Less {
            None
        } else {
            t_pages.next().await?
        };
        if let Some(s) = &s {
            s_digest.add(s);
            *s_counts.entry(s.namespace.clone()).or_default() += 1;
            v.records += 1;
        }
        if let Some(t) = &t {
            *t_counts.entry(t.namespace.clone()).or_default() += 1;
        }
        match (s, t) {
            (Some(s), None) => push(&mut v.missing, key_of(&s)),
            (None, Some(t)) if kept.contains(&key_of(&t)) => {
                v.kept += 1;
                *kept_counts.entry(t.namespace.clone()).or_default() += 1;
            }
            (None, Some(t)) => {
                t_digest.add(&t);
                push(&mut v.extra, key_of(&t));
            }
            (Some(s), Some(t)) => {
                t_digest.add(&t);
                if s != t {
                    push(&mut v.changed, (key_of(&s), changed_fields(&s, &t)));
                }
            }
            (None, None) => unreachable!("the loop ends when both exports do"),
        }
    }
    v.source_digest = s_digest.finish();
    v.target_digest = t_digest.finish();
    let s_listed = listed(source).await?;
    let t_listed = listed(target).await?;
    v.namespaces = s_listed.len() as u64;
    disagreements(&mut v.counts, "source", &s_listed, &s_counts);
    disagreements(&mut v.counts, "target", &t_listed, &t_counts);
    let names: BTreeSet<&String> = s_listed.keys().chain(t_listed.keys()).collect();
    for ns in names {
        let s = s_listed.get(ns).copied().unwrap_or(0);
        let t = t_listed.get(ns).copied().unwrap_or(0);
        let k = kept_counts.get(ns).copied().unwrap_or(0);
        if s != t.saturating_sub(k) {
            let kept_note = if k > 0 {
                format!(" ({t} less {k} kept from before)")
            } else {
                String::new()
            };
            v.counts.push(format!(
                "{ns}: namespaces() counts {s} in the source and {} in the target{kept_note}",
                t.saturating_sub(k)
            ));
        }
    }
    Ok(v)
}

/// `namespaces()` as namespace → count.
async fn listed(provider: &dyn MemoryProvider) -> Result<BTreeMap<String, u64>, MemoryError> {
    Ok(provider
        .namespaces()
        .await?
        .into_iter()
        .map(|n| (n.namespace, n.count))
        .collect())
}

/// Lines for every namespace whose `namespaces()` count differs from the
/// records its own export held.
fn disagreements(
    out: &mut Vec<String>,
    side: &str,
    listed: &BTreeMap<String, u64>,
    exported: &BTreeMap<String, u64>,
) {
    let names: BTreeSet<&String> = listed.keys().chain(exported.keys()).collect();
    for ns in names {
        let l = listed.get(ns).copied().unwrap_or(0);
        let e = exported.get(ns).copied().unwrap_or(0);
        if l != e {
            out.push(format!(
                "{ns}: the {side}'s namespaces() counts {l} but its export holds {e}"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use tinymemory_api::{MemoryCategory, MemoryTaint};
    use tinymemory_doubles::mutants::ImportDropsTaint;
    use tinymemory_reference::ReferenceDriver;

    use super::*;

    async fn source() -> ReferenceDriver {
        let d = ReferenceDriver::new();
        for (ns, key, taint) in [
            ("global", "a", MemoryTaint::Internal),
            ("global", "b", MemoryTaint::ExternalSync),
            ("learning:x", "c", MemoryTaint::Internal),
        ] {
            d.store(ns, key, "text", MemoryCategory::Core, None, taint)
                .await
                .unwrap();
        }
        d
    }

    async fn copy_all(from: &dyn MemoryProvider, to: &dyn MemoryProvider) {
        let page = from.export_page(None, usize::MAX).await.unwrap();
        assert_eq!(page.next_cursor, None);
        let outcome = to.import(&page.records).await.unwrap();
        assert_eq!(outcome.failures, []);
    }

    #[test]
    fn a_changed_session_is_named_as_text_not_as_an_option() {
        let record = |session: Option<&str>| MemoryRecord {
            namespace: "global".to_owned(),
            key: "k".to_owned(),
            content: "text".to_owned(),
            category: MemoryCategory::Core,
            session_id: session.map(str::to_owned),
            taint: MemoryTaint::Internal,
            timestamp: "2026-01-01T00:00:00Z".to_owned(),
        };
        assert_eq!(
            changed_fields(&record(Some("s\u{1b}1")), &record(None)),
            ["session (source \"s\\u{1b}1\", target none)"]
        );
    }

    #[tokio::test]
    async fn a_faithful_copy_verifies_equal() {
        let (s, t) = (source().await, ReferenceDriver::new());
        copy_all(&s, &t).await;
        let v = verify(&s, &t, 2, &BTreeSet::new()).await.unwrap();
        assert!(v.is_equal(), "{:?}", v.difference_lines());
        assert_eq!((v.records, v.namespaces, v.kept), (3, 2, 0));
        assert_eq!(v.source_digest, v.target_digest);
        assert_eq!(v.difference_lines(), Vec::<String>::new());
    }

    #[tokio::test]
    async fn a_target_that_drops_taint_names_the_key_and_the_field() {
        // The catalogue's `import-drops-taint`: a target that loses data.
        let (s, t) = (
            source().await,
            ImportDropsTaint::new(ReferenceDriver::new()),
        );
        copy_all(&s, &t).await;
        let v = verify(&s, &t, 1, &BTreeSet::new()).await.unwrap();
        assert!(!v.is_equal());
        assert_ne!(v.source_digest, v.target_digest);
        let lines = v.difference_lines();
        assert_eq!(
            lines[1..],
            ["  changed global \"b\": taint (source external_sync, target internal)".to_owned()]
        );
        assert_eq!(
            lines[0],
            format!(
                "the target differs from the source: 0 missing, 0 extra, 1 changed records, \
                 0 count differences; digest {} (source) vs {} (target)",
                v.source_digest, v.target_digest
            )
        );
    }

    #[tokio::test]
    async fn missing_and_extra_keys_and_their_counts_are_named() {
        let (s, t) = (source().await, ReferenceDriver::new());
        copy_all(&s, &t).await;
        t.forget("learning:x", "c").await.unwrap();
        t.store(
            "global",
            "z",
            "new",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        let v = verify(&s, &t, 1000, &BTreeSet::new()).await.unwrap();
        assert_eq!(
            v.difference_lines()[1..],
            [
                "  missing learning:x \"c\"".to_owned(),
                "  extra   global \"z\"".to_owned(),
                "  count   global: namespaces() counts 2 in the source and 3 in the target"
                    .to_owned(),
                "  count   learning:x: namespaces() counts 1 in the source and 0 in the target"
                    .to_owned(),
            ]
        );
        // A key the target held before an --overwrite may stay.
        let kept = BTreeSet::from([("global".to_owned(), "z".to_owned())]);
        let v = verify(&s, &t, 1000, &kept).await.unwrap();
        assert_eq!(v.kept, 1);
        assert_eq!(v.extra.1, 0);
        assert_eq!(v.missing.1, 1);
    }
}

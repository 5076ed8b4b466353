//! Mutant `years-below-100-shifted`, for `namespaces.last_updated`.

use std::time::SystemTime;

use tinymemory_api::{parse_rfc3339, MemoryError, MemoryProvider, NamespaceSummary};

/// Breaks "`last_updated` is the newest timestamp of the namespace's
/// entries, by instant" (check `namespaces.last_updated`) for years
/// 0000–0099: they are compared as 1900–1999, as JavaScript's `Date.UTC`
/// and `new Date(y, ..)` read a year below 100 (ECMA-262, "MakeFullYear").
/// `namespaces()` gives the wrapped driver's counts, and for each
/// namespace the timestamp of its entries that is newest when such years
/// are shifted by 1900; every other method is the wrapped driver's.
#[derive(Debug, Clone, Default)]
pub struct ShiftedEarlyYears<P: ?Sized> {
    inner: P,
}

impl<P> ShiftedEarlyYears<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }
}

impl<P: ?Sized> ShiftedEarlyYears<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

/// The instant `timestamp` names, with a year below 100 read as 19YY.
fn shifted_instant(timestamp: &str) -> Option<SystemTime> {
    match timestamp.get(..4).and_then(|y| y.parse::<u32>().ok()) {
        Some(year) if year < 100 => parse_rfc3339(&format!("{}{}", 1900 + year, &timestamp[4..])),
        _ => parse_rfc3339(timestamp),
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `namespaces` dates years below 100 in the
    /// 1900s.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for ShiftedEarlyYears<P> {
        forward(inner): driver_id, store, get, forget, list, recall, store_many, export_page,
            import, interface;

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut summaries = self.inner.namespaces().await?;
            for s in &mut summaries {
                let entries = self.inner.list(Some(&s.namespace), None, None).await?;
                s.last_updated = entries
                    .into_iter()
                    .map(|e| e.timestamp)
                    .max_by_key(|t| shifted_instant(t));
            }
            Ok(summaries)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "years-below-100-shifted",
        rule: "metadata: last_updated is the namespace's newest timestamp by instant, years 0000-0099 included",
        check: "namespaces.last_updated",
        also_caught_by: &[],
        description: "namespaces() compares timestamps of years 0000-0099 as 1900-1999, as JavaScript's Date.UTC reads a year below 100",
        wrap: ShiftedEarlyYears::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::record;
            use tinymemory_api::MemoryTaint;
            use tinymemory_api::portability::MemoryRecord;
            let at = |key: &str, timestamp: &str| MemoryRecord {
                timestamp: timestamp.into(),
                ..record("global", key, MemoryTaint::Internal)
            };
            d.import(&[
                at("a", "0099-12-31T23:59:59Z"),
                at("b", "1969-07-20T20:17:00Z"),
            ])
            .await?;
            let last = d.namespaces().await?.into_iter().next().and_then(|s| s.last_updated);
            Ok(format!("{last:?}"))
        },
        reference: r#"Some("1969-07-20T20:17:00Z")"#,
        mutant: r#"Some("0099-12-31T23:59:59Z")"#,
    },
];

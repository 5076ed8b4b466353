//! Mutant `leap-second-any-day`, for `portability.import_failures`.

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{parse_rfc3339, MemoryError, MemoryProvider};

/// Breaks "an import refuses a timestamp that is not RFC 3339" (check
/// `portability.import_failures`) for leap seconds: a second of `60` is
/// accepted on any day and at any minute, as a parser that checks each
/// field's range alone does (JavaScript's `Date.parse` in some engines, a
/// regular expression), where RFC 3339 (section 5.7) allows it only at
/// 23:59:60 UTC on a month's last day. The record is imported as if its
/// second were `59`; every other record, and every other method, is the
/// wrapped driver's.
#[derive(Debug, Clone, Default)]
pub struct LeapSecondAnyDay<P: ?Sized> {
    inner: P,
}

impl<P> LeapSecondAnyDay<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }
}

impl<P: ?Sized> LeapSecondAnyDay<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

/// `timestamp` with a refused leap second (`:60` where none can be) read
/// as `:59`; `None` for any other timestamp.
fn leap_read_as_59(timestamp: &str) -> Option<String> {
    // The seconds field of RFC 3339 is at bytes 17..19 (`YYYY-MM-DDTHH:MM:SS`).
    if parse_rfc3339(timestamp).is_some() || timestamp.get(16..19) != Some(":60") {
        return None;
    }
    let moved = format!("{}:59{}", &timestamp[..16], &timestamp[19..]);
    parse_rfc3339(&moved).is_some().then_some(moved)
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `import` takes a leap second on any day.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for LeapSecondAnyDay<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many,
            export_page, interface;

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let records: Vec<MemoryRecord> = records
                .iter()
                .map(|r| match leap_read_as_59(&r.timestamp) {
                    Some(timestamp) => MemoryRecord {
                        timestamp,
                        ..r.clone()
                    },
                    None => r.clone(),
                })
                .collect();
            self.inner.import(&records).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "leap-second-any-day",
        rule: "portability: an import refuses a timestamp that is not RFC 3339, a leap second outside 23:59:60 UTC on a month's last day included",
        check: "portability.import_failures",
        also_caught_by: &[],
        description: "import takes a second of 60 on any day and at any minute, read as 59, as a parser checking each field's range alone does",
        wrap: LeapSecondAnyDay::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::record;
            use tinymemory_api::MemoryTaint;
            use tinymemory_api::portability::MemoryRecord;
            let leap = MemoryRecord {
                timestamp: "2020-01-15T23:59:60Z".into(),
                ..record("global", "k", MemoryTaint::Internal)
            };
            Ok(format!("{}", d.import(&[leap]).await?.failures.len()))
        },
        reference: "1",
        mutant: "0",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_refused_leap_second_is_moved() {
        assert_eq!(
            leap_read_as_59("2020-01-15T23:59:60Z").as_deref(),
            Some("2020-01-15T23:59:59Z")
        );
        assert_eq!(leap_read_as_59("2016-12-31T23:59:60Z"), None);
        assert_eq!(leap_read_as_59("2020-01-15T23:59:59Z"), None);
        assert_eq!(leap_read_as_59("yesterday"), None);
    }
}

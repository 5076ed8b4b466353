//! The timestamp format every driver writes.

use std::time::SystemTime;

/// The current time as RFC 3339 in UTC with microseconds, for example
/// `2026-11-30T00:47:42.123456Z`.
///
/// All timestamps have the same width, so they sort lexicographically in
/// time order; drivers rely on that for `last_updated`.
#[must_use]
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_micros(SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn timestamp_is_fixed_width_utc() {
        let t = super::now_rfc3339();
        assert_eq!(t.len(), "2026-11-30T00:47:42.123456Z".len());
        assert!(t.ends_with('Z'));
        assert_eq!(&t[10..11], "T");
    }
}

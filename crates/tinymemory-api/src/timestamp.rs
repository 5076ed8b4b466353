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

/// The instant an RFC 3339 timestamp names, or `None` for text that is
/// not RFC 3339 `date-time` (section 5.6): any offset (`Z`, `+02:00`,
/// `-00:00`), any number of fraction digits, dates before 1970, and
/// nothing before or after it. Parsed by the `time` crate's
/// `well_known::Rfc3339`.
#[must_use]
pub fn parse_rfc3339(text: &str) -> Option<SystemTime> {
    let parsed =
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()?;
    Some(SystemTime::from(parsed))
}

#[cfg(test)]
mod rfc3339_tests {
    use super::parse_rfc3339;

    #[test]
    fn rfc3339_with_any_offset_parses_and_other_text_does_not() {
        let utc = parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
        assert_eq!(parse_rfc3339("2026-01-01T02:00:00+02:00"), Some(utc));
        assert_eq!(parse_rfc3339("2026-01-01T00:00:00-00:00"), Some(utc));
        assert_eq!(parse_rfc3339("2026-01-01T00:00:00.000000Z"), Some(utc));
        assert!(parse_rfc3339("1969-07-20T20:17:00Z").is_some());
        for bad in [
            "2026-01-01 00:00:00",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00.",
            "2026-01-01T00:00:00Zjunk",
            "2026-01-01T00:00:00Z\0",
            "2026-13-45T99:99:99Z",
            "yesterday",
            "",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn timestamp_is_fixed_width_utc() {
        let t = super::now_rfc3339();
        assert_eq!(t.len(), "2026-11-30T00:47:42.123456Z".len());
        assert!(t.ends_with('Z'));
        assert_eq!(&t[10..11], "T");
    }
}

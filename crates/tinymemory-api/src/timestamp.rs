//! The timestamp format every driver writes.

use std::time::SystemTime;

/// The current time as RFC 3339 in UTC with microseconds, for example
/// `2026-11-30T00:47:42.123456Z`.
///
/// All timestamps this function makes have the same width, so among them
/// byte order is time order. An import keeps other RFC 3339 spellings
/// (offsets, other fraction widths, lowercase `t`/`z`) byte for byte, and
/// those do not sort so: [`is_canonical_timestamp`] tells which is which,
/// and [`timestamp_order`] orders any two by the instant they name.
#[must_use]
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_micros(SystemTime::now()).to_string()
}

/// The instant an RFC 3339 timestamp names, or `None` for text that is
/// not RFC 3339 `date-time` (section 5.6): `T` or `t` between date and
/// time (never a space or any other byte, which the `time` crate alone
/// would take), any offset (`Z`, `+02:00`, `-00:00`), any number of
/// fraction digits, dates before 1970, a leap second as the `time` crate
/// reads it (23:59:60 UTC on a month's last day), and nothing before or
/// after it. Parsed by the `time` crate's `well_known::Rfc3339`.
#[must_use]
pub fn parse_rfc3339(text: &str) -> Option<SystemTime> {
    // The time crate (0.3) takes any one byte between the date and the
    // time (a space, `X`, a newline, NUL); RFC 3339's `date-time` has `T`,
    // and lowercase `t` by its section 5.6 note.
    if !matches!(text.as_bytes().get(10), Some(b'T' | b't')) {
        return None;
    }
    let parsed =
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()?;
    Some(SystemTime::from(parsed))
}

/// Length in bytes of a [`now_rfc3339`] timestamp.
const CANONICAL_LEN: usize = "2026-11-30T00:47:42.123456Z".len();

/// `true` for a valid timestamp spelt as [`now_rfc3339`] spells them:
/// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, 27 bytes, uppercase `T` and `Z`, six
/// fraction digits. Among such timestamps byte order is time order, so a
/// driver may take `MAX` of them in SQL; the others need
/// [`timestamp_order`]. SQL form of the same test, for a valid timestamp
/// `t`: `length(t) = 27 AND substr(t, 11, 1) = 'T' AND substr(t, 20, 1) =
/// '.' AND substr(t, 27, 1) = 'Z'`.
#[must_use]
pub fn is_canonical_timestamp(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == CANONICAL_LEN
        && b[10] == b'T'
        && b[19] == b'.'
        && b[26] == b'Z'
        && parse_rfc3339(text).is_some()
}

/// Orders two timestamps by the instant they name (RFC 3339, any offset
/// or spelling, read by [`parse_rfc3339`]); text that is not RFC 3339
/// comes before every instant; ties (the same instant spelt two ways, or
/// two non-timestamps) are broken bytewise, so the order is total and
/// deterministic.
#[must_use]
pub fn timestamp_order(a: &str, b: &str) -> std::cmp::Ordering {
    parse_rfc3339(a)
        .cmp(&parse_rfc3339(b))
        .then_with(|| a.as_bytes().cmp(b.as_bytes()))
}

/// The newest of `timestamps` by [`timestamp_order`]: what
/// `NamespaceSummary::last_updated` must be for a namespace whose entries
/// carry them. `None` when there are none.
#[must_use]
pub fn newest_timestamp<'a, I>(timestamps: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    timestamps.into_iter().max_by(|a, b| timestamp_order(a, b))
}

/// `true` when `candidate` is newer than `current` by [`timestamp_order`],
/// or there is no `current`: the step of a running `last_updated`.
#[must_use]
pub fn is_newer_timestamp(candidate: &str, current: Option<&str>) -> bool {
    current.is_none_or(|c| timestamp_order(candidate, c).is_gt())
}

#[cfg(test)]
mod order_tests {
    use super::{
        is_canonical_timestamp, is_newer_timestamp, newest_timestamp, now_rfc3339, timestamp_order,
    };
    use std::cmp::Ordering;

    #[test]
    fn the_newest_is_by_instant_not_by_bytes() {
        let spelt = [
            "2020-01-01T00:00:00Z",
            "2020-01-01T00:00:00.5Z",
            "2020-01-01T01:00:00+02:00",
            "2020-01-01t00:00:00.1z",
        ];
        // Bytewise the lowercase one is the greatest; by instant the
        // half second is.
        assert_eq!(spelt.iter().max(), Some(&"2020-01-01t00:00:00.1z"));
        assert_eq!(
            newest_timestamp(spelt.iter().copied()),
            Some("2020-01-01T00:00:00.5Z")
        );
        assert_eq!(newest_timestamp(std::iter::empty()), None);
        assert!(is_newer_timestamp(
            "2020-01-01T00:00:00.5Z",
            Some("2020-01-01t00:00:00.1z")
        ));
        assert!(!is_newer_timestamp(
            "2020-01-01t00:00:00.1z",
            Some("2020-01-01T00:00:00.5Z")
        ));
        assert!(is_newer_timestamp("2020-01-01t00:00:00.1z", None));
        assert_eq!(
            timestamp_order("2020-01-01T01:00:00+02:00", "2020-01-01T00:00:00Z"),
            Ordering::Less
        );
        // One instant spelt two ways: bytewise, so the order is total.
        assert_eq!(
            timestamp_order("2020-01-01T00:00:00Z", "2020-01-01T00:00:00.000Z"),
            Ordering::Greater
        );
        assert_eq!(
            timestamp_order("not a time", "1969-01-01T00:00:00Z"),
            Ordering::Less
        );
    }

    #[test]
    fn only_the_drivers_own_spelling_is_canonical() {
        assert!(is_canonical_timestamp(&now_rfc3339()));
        assert!(is_canonical_timestamp("2026-11-30T00:47:42.123456Z"));
        for other in [
            "2026-11-30t00:47:42.123456Z",
            "2026-11-30T00:47:42.123456z",
            "2026-11-30T00:47:42.1234567Z",
            "2026-11-30T00:47:42Z",
            "2026-11-30T00:47:42.12+02:00",
            "2026-11-30T00:47:42.123456+00:00",
            "2026-13-30T00:47:42.123456Z",
            "",
        ] {
            assert!(!is_canonical_timestamp(other), "{other:?}");
        }
    }
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
        assert_eq!(parse_rfc3339("2026-01-01t00:00:00z"), Some(utc));
        // A leap second only where one can be: 23:59:60 UTC on a month's
        // last day (python/tinymemory/protocol.py mirrors this).
        for (leap, valid) in [
            ("2016-12-31T23:59:60Z", true),
            ("2016-12-31T22:59:60-01:00", true),
            ("2016-12-31T23:59:60+01:00", false),
            ("2020-01-15T23:59:60Z", false),
            ("2016-12-31T23:58:60Z", false),
            ("2020-02-29T23:59:60Z", true),
            ("2000-06-30t23:59:60.5z", true),
        ] {
            assert_eq!(parse_rfc3339(leap).is_some(), valid, "{leap}");
        }
        for bad in [
            "2026-01-01 00:00:00",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00.",
            "2026-01-01T00:00:00Zjunk",
            "2026-01-01T00:00:00Z\0",
            "2026-01-01 00:00:00Z",
            "2026-01-01X00:00:00Z",
            "2026-01-01\n00:00:00Z",
            "2026-01-01\u{0}00:00:00Z",
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

//! Bench ids shared by the benches and the report, and the computed floor
//! of the latency benches.

use std::time::Duration;

/// The function id of the floor in every group that measures its floor:
/// the report divides each other median of the group by the floor's median
/// at the same parameter.
pub const FLOOR: &str = "floor";

/// The group id prefix of the latency benches: a group is
/// `fan_out_latency/<ms>ms`, its functions [`LatencyCase::id`], its
/// parameter the number of namespaces.
pub const LATENCY_GROUP_PREFIX: &str = "fan_out_latency/";

/// One way of running `1 + N` calls through the latency decorator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LatencyCase {
    /// `namespaces()` then the `N` pinned recalls, each awaited before the
    /// next: a host's loop without the section API.
    Sequential,
    /// `across_section` with `with_concurrency(bound)`.
    Bound(usize),
    /// One recall through the decorator: what one delay really costs on
    /// this machine's timer.
    OneCall,
}

impl LatencyCase {
    /// The criterion function id: `sequential`, `bound_16`, `one_call`.
    #[must_use]
    pub fn id(self) -> String {
        match self {
            Self::Sequential => "sequential".to_owned(),
            Self::Bound(b) => format!("bound_{b}"),
            Self::OneCall => "one_call".to_owned(),
        }
    }

    /// The case whose [`LatencyCase::id`] is `id`.
    #[must_use]
    pub fn parse(id: &str) -> Option<Self> {
        match id {
            "sequential" => Some(Self::Sequential),
            "one_call" => Some(Self::OneCall),
            _ => id.strip_prefix("bound_")?.parse().ok().map(Self::Bound),
        }
    }

    /// The group id for `latency`: `fan_out_latency/5ms`.
    #[must_use]
    pub fn group(latency: Duration) -> String {
        format!("{LATENCY_GROUP_PREFIX}{}ms", latency.as_millis())
    }

    /// The latency of a group id made by [`LatencyCase::group`].
    #[must_use]
    pub fn parse_group(group: &str) -> Option<Duration> {
        let ms = group
            .strip_prefix(LATENCY_GROUP_PREFIX)?
            .strip_suffix("ms")?;
        ms.parse().ok().map(Duration::from_millis)
    }
}

/// The least wall time `case` can take over `n` namespaces when every call
/// waits `latency`: calls that run at once overlap completely and nothing
/// else costs anything.
///
/// - [`LatencyCase::Sequential`] takes `(n + 1) × latency`;
/// - [`LatencyCase::Bound`]`(b)` takes `ceil(n / b) × latency + latency`
///   (the recalls in rounds of `b`, after one `namespaces()` call); a bound
///   of 0 is read as 1, as `with_concurrency` does;
/// - [`LatencyCase::OneCall`] takes `latency`.
///
/// `n` counts the namespaces visited, so at most the cap.
#[must_use]
pub fn latency_floor(latency: Duration, n: usize, case: LatencyCase) -> Duration {
    let calls = match case {
        LatencyCase::Sequential => n + 1,
        LatencyCase::Bound(b) => n.div_ceil(b.max(1)) + 1,
        LatencyCase::OneCall => 1,
    };
    latency * u32::try_from(calls).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS5: Duration = Duration::from_millis(5);

    #[test]
    fn floors() {
        assert_eq!(
            latency_floor(MS5, 64, LatencyCase::Sequential),
            Duration::from_millis(325)
        );
        assert_eq!(
            latency_floor(MS5, 64, LatencyCase::Bound(16)),
            Duration::from_millis(25)
        );
        assert_eq!(
            latency_floor(MS5, 64, LatencyCase::Bound(64)),
            Duration::from_millis(10)
        );
        assert_eq!(
            latency_floor(MS5, 8, LatencyCase::Bound(3)),
            Duration::from_millis(20)
        );
        assert_eq!(
            latency_floor(MS5, 8, LatencyCase::Bound(0)),
            Duration::from_millis(45)
        );
        assert_eq!(latency_floor(MS5, 8, LatencyCase::OneCall), MS5);
    }

    #[test]
    fn ids_round_trip() {
        for case in [
            LatencyCase::Sequential,
            LatencyCase::Bound(16),
            LatencyCase::OneCall,
        ] {
            assert_eq!(LatencyCase::parse(&case.id()), Some(case));
        }
        assert_eq!(LatencyCase::id(LatencyCase::Bound(4)), "bound_4");
        assert_eq!(LatencyCase::parse("bound_x"), None);
        assert_eq!(LatencyCase::parse(FLOOR), None);
        assert_eq!(LatencyCase::group(MS5), "fan_out_latency/5ms");
        assert_eq!(LatencyCase::parse_group("fan_out_latency/5ms"), Some(MS5));
        assert_eq!(LatencyCase::parse_group("fan_out/5ms"), None);
    }
}

//! The targets of issue 8, checked against one run.

use std::fmt;

use crate::report::{ratio_to_floor, Measurement};
use crate::LatencyCase;

/// One target: what it asks, the figure measured, and whether it is met.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// What the target asks, e.g. `section recall / direct recalls,
    /// reference, N = 64 ≤ 1.10`.
    pub name: String,
    /// The measured figure (the worst one when the target covers several
    /// benchmarks), or `None` when the run did not measure it.
    pub figure: Option<f64>,
    /// `Some(true)` when met, `Some(false)` when missed, `None` when not
    /// measured.
    pub met: Option<bool>,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.figure, self.met) {
            (Some(x), Some(true)) => write!(f, "- met: {} (measured {x:.2})", self.name),
            (Some(x), _) => write!(f, "- NOT met: {} (measured {x:.2})", self.name),
            _ => write!(f, "- not measured: {}", self.name),
        }
    }
}

/// The targets of issue 8, checked against `all`:
///
/// 1. `fan_out/reference` at 64 namespaces: `section` / floor ≤ 1.10;
/// 2. `fan_out_latency/5ms` at 64 namespaces, `bound_<default_bound>`:
///    within 1.5× of its computed floor;
/// 3. the same: `sequential` / it ≥ 8;
/// 4. every `merge/*` group: `merge` / floor ≤ 2 at every size (the worst
///    ratio is the figure).
#[must_use]
pub fn targets(all: &[Measurement], default_bound: usize, cap: usize) -> Vec<Target> {
    let find = |group: &str, function: &str, value: &str| {
        all.iter()
            .find(|m| m.group == group && m.function == function && m.value == value)
    };
    let ratio = |m: Option<&Measurement>| m.and_then(|m| ratio_to_floor(all, m, cap)).map(|r| r.1);
    let check = |name: String, figure: Option<f64>, ok: fn(f64) -> bool| Target {
        name,
        figure,
        met: figure.map(ok),
    };

    let overhead = ratio(find("fan_out/reference", "section", "64"));
    let latency_group = LatencyCase::group(std::time::Duration::from_millis(5));
    let bound = LatencyCase::Bound(default_bound).id();
    let concurrent = find(&latency_group, &bound, "64");
    let sequential = find(&latency_group, &LatencyCase::Sequential.id(), "64");
    let speedup = match (sequential, concurrent) {
        (Some(s), Some(c)) if c.median_ns > 0.0 => Some(s.median_ns / c.median_ns),
        _ => None,
    };
    let merge_worst = all
        .iter()
        .filter(|m| m.group.starts_with("merge/") && m.function == "merge")
        .filter_map(|m| ratio_to_floor(all, m, cap).map(|r| r.1))
        .reduce(f64::max);

    vec![
        check(
            "section recall / direct recalls, reference driver, N = 64: ≤ 1.10".into(),
            overhead,
            |x| x <= 1.10,
        ),
        check(
            format!("concurrent fan-out at the default bound ({default_bound}), 5 ms latency, N = 64, / its floor: ≤ 1.5"),
            ratio(concurrent),
            |x| x <= 1.5,
        ),
        check(
            format!("sequential / concurrent fan-out at the default bound ({default_bound}), 5 ms, N = 64: ≥ 8"),
            speedup,
            |x| x >= 8.0,
        ),
        check(
            "merge / plain f64 sort, worst over every size and score mix: ≤ 2".into(),
            merge_worst,
            |x| x <= 2.0,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FLOOR;

    fn m(group: &str, function: &str, value: &str, median_ns: f64) -> Measurement {
        Measurement {
            group: group.into(),
            function: function.into(),
            value: value.into(),
            median_ns,
            lower_ns: median_ns,
            upper_ns: median_ns,
            paired_ratio: None,
        }
    }

    #[test]
    fn checks_each_target() {
        let all = vec![
            m("fan_out/reference", FLOOR, "64", 100.0),
            m("fan_out/reference", "section", "64", 105.0),
            m("fan_out_latency/5ms", "sequential", "64", 330e6),
            m("fan_out_latency/5ms", "bound_16", "64", 27.5e6),
            m("merge/finite", FLOOR, "10", 10.0),
            m("merge/finite", "merge", "10", 15.0),
            m("merge/ties", FLOOR, "10", 10.0),
            m("merge/ties", "merge", "10", 25.0),
        ];
        let got = targets(&all, 16, 64);
        let figures: Vec<Option<f64>> = got.iter().map(|t| t.figure).collect();
        assert_eq!(figures, [Some(1.05), Some(1.1), Some(12.0), Some(2.5)]);
        let met: Vec<Option<bool>> = got.iter().map(|t| t.met).collect();
        assert_eq!(met, [Some(true), Some(true), Some(true), Some(false)]);
        assert!(got[3].to_string().starts_with("- NOT met: merge"));
    }

    #[test]
    fn unmeasured_targets_say_so() {
        let got = targets(&[], 8, 64);
        assert!(got.iter().all(|t| t.met.is_none() && t.figure.is_none()));
        assert!(got[1]
            .to_string()
            .starts_with("- not measured: concurrent fan-out at the default bound (8)"));
    }
}

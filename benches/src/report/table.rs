//! Rendering measurements as Markdown tables, each median beside its ratio
//! to the floor.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::report::Measurement;
use crate::{latency_floor, LatencyCase, FLOOR};

/// The floor of `m` (a median, or computed) and the ratio of `m` to it, or
/// `None` when `m` has no floor (or is one).
///
/// The floor is the [`FLOOR`] function of the same group at the same
/// parameter, and the ratio is `m`'s paired ratio when it has one
/// ([`Measurement::paired_ratio`]), else the ratio of the two medians. For
/// a latency group ([`LatencyCase::group`]) the floor is computed by
/// [`latency_floor`] from the group's latency, the parameter (the number
/// of namespaces, capped at `cap`) and the function's case.
#[must_use]
pub fn ratio_to_floor(all: &[Measurement], m: &Measurement, cap: usize) -> Option<(f64, f64)> {
    if m.function == FLOOR {
        return None;
    }
    let floor_ns = if let Some(latency) = LatencyCase::parse_group(&m.group) {
        let case = LatencyCase::parse(&m.function)?;
        let n: usize = m.value.parse().ok()?;
        #[expect(
            clippy::cast_precision_loss,
            reason = "bench floors are far below 2^52 ns"
        )]
        let ns = latency_floor(latency, n.min(cap), case).as_nanos() as f64;
        ns
    } else {
        all.iter()
            .find(|f| f.group == m.group && f.value == m.value && f.function == FLOOR)?
            .median_ns
    };
    if let Some(paired) = m.paired_ratio {
        return Some((floor_ns, paired));
    }
    (floor_ns > 0.0).then(|| (floor_ns, m.median_ns / floor_ns))
}

/// Nanoseconds with three significant digits and a unit: `850 ns`,
/// `12.3 µs`, `4.56 ms`, `1.20 s`.
#[must_use]
pub fn format_ns(ns: f64) -> String {
    let (value, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$} {unit}")
}

/// One Markdown table per group, groups in name order: a row per parameter
/// (numeric order), a column per function (the floor first, then
/// `sequential`, `one_call`, `bound_<n>` by `n`, then the rest by name).
/// Each cell is the median, and its ratio to the floor when it has one
/// ([`ratio_to_floor`]; a computed floor is shown after the ratio).
#[must_use]
pub fn render(all: &[Measurement], cap: usize) -> String {
    let mut groups: BTreeMap<&str, Vec<&Measurement>> = BTreeMap::new();
    for m in all {
        groups.entry(&m.group).or_default().push(m);
    }
    let mut out = String::new();
    for (group, ms) in groups {
        let mut functions: Vec<&str> = ms.iter().map(|m| m.function.as_str()).collect();
        functions.sort_by_key(|f| function_order(f));
        functions.dedup();
        let mut values: Vec<&str> = ms.iter().map(|m| m.value.as_str()).collect();
        values.sort_by_key(|v| value_order(v));
        values.dedup();

        let _ = writeln!(out, "#### `{group}`\n");
        let _ = writeln!(
            out,
            "| {} | {} |",
            parameter_label(group),
            functions.join(" | ")
        );
        let _ = writeln!(out, "|---:|{}", "---:|".repeat(functions.len()));
        for value in values {
            let cells: Vec<String> = functions
                .iter()
                .map(|f| {
                    ms.iter()
                        .find(|m| m.function == *f && m.value == value)
                        .map_or_else(|| "—".to_owned(), |m| cell(all, m, cap))
                })
                .collect();
            let _ = writeln!(out, "| {value} | {} |", cells.join(" | "));
        }
        out.push('\n');
    }
    out
}

fn cell(all: &[Measurement], m: &Measurement, cap: usize) -> String {
    let median = format_ns(m.median_ns);
    match ratio_to_floor(all, m, cap) {
        None => median,
        Some((floor, ratio)) if LatencyCase::parse_group(&m.group).is_some() => {
            format!("{median} ({ratio:.2}× of {})", format_ns(floor))
        }
        Some((_, ratio)) => format!("{median} ({ratio:.2}×)"),
    }
}

fn function_order(f: &str) -> (u8, usize, String) {
    match LatencyCase::parse(f) {
        _ if f == FLOOR => (0, 0, String::new()),
        Some(LatencyCase::Sequential) => (1, 0, String::new()),
        Some(LatencyCase::OneCall) => (2, 0, String::new()),
        Some(LatencyCase::Bound(b)) => (3, b, String::new()),
        None => (4, 0, f.to_owned()),
    }
}

fn value_order(v: &str) -> (u64, String) {
    (v.parse().unwrap_or(u64::MAX), v.to_owned())
}

fn parameter_label(group: &str) -> &'static str {
    match group.split('/').next().unwrap_or_default() {
        "fan_out" | "fan_out_latency" | "fan_out_bound" => "namespaces",
        "merge" => "hits",
        "enumerate" => "namespaces in store",
        g if g.starts_with("sqlite_") => "entries",
        _ => "parameter",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn formats_three_digits() {
        assert_eq!(format_ns(850.0), "850 ns");
        assert_eq!(format_ns(12_345.0), "12.3 µs");
        assert_eq!(format_ns(4_561_000.0), "4.56 ms");
        assert_eq!(format_ns(1_204_000_000.0), "1.20 s");
        assert_eq!(format_ns(7.0), "7.00 ns");
    }

    #[test]
    fn ratios_pair_with_the_floor_or_the_formula() {
        let all = vec![
            m("fan_out/reference", FLOOR, "64", 200.0),
            m("fan_out/reference", "section", "64", 220.0),
            m("fan_out/reference", "section", "4", 30.0),
            m("fan_out_latency/5ms", "bound_16", "64", 30e6),
            m("fan_out_latency/5ms", "bound_16", "256", 100e6),
        ];
        assert_eq!(ratio_to_floor(&all, &all[0], 64), None);
        assert_eq!(ratio_to_floor(&all, &all[1], 64), Some((200.0, 1.1)));
        assert_eq!(ratio_to_floor(&all, &all[2], 64), None);
        // ceil(64 / 16) + 1 = 5 calls of 5 ms.
        assert_eq!(ratio_to_floor(&all, &all[3], 64), Some((25e6, 1.2)));
        // 256 namespaces, of which the cap visits 64: the same floor.
        assert_eq!(ratio_to_floor(&all, &all[4], 64), Some((25e6, 4.0)));
        let paired = Measurement {
            paired_ratio: Some(1.02),
            ..all[1].clone()
        };
        assert_eq!(ratio_to_floor(&all, &paired, 64), Some((200.0, 1.02)));
    }

    #[test]
    fn renders_one_pivot_per_group() {
        let all = vec![
            m("fan_out/reference", "section", "64", 2_200.0),
            m("fan_out/reference", FLOOR, "64", 2_000.0),
            m("fan_out/reference", FLOOR, "4", 100.0),
            m("fan_out_latency/1ms", "bound_16", "8", 2.5e6),
            m("fan_out_latency/1ms", "sequential", "8", 10e6),
        ];
        assert_eq!(
            render(&all, 64),
            "#### `fan_out/reference`\n\n\
             | namespaces | floor | section |\n\
             |---:|---:|---:|\n\
             | 4 | 100 ns | — |\n\
             | 64 | 2.00 µs | 2.20 µs (1.10×) |\n\n\
             #### `fan_out_latency/1ms`\n\n\
             | namespaces | sequential | bound_16 |\n\
             |---:|---:|---:|\n\
             | 8 | 10.0 ms (1.11× of 9.00 ms) | 2.50 ms (1.25× of 2.00 ms) |\n\n"
        );
    }
}

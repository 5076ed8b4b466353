//! Telling a measuring run from criterion's test mode.

/// `true` when criterion will run this bench binary in its test mode,
/// running every routine once: under `cargo test --benches` (no `--bench`
/// argument) or `cargo bench -- --test`. The rule is criterion 0.5's own
/// (`Criterion::configure_from_args`), read from the process arguments.
///
/// Benches use it to shrink set-up that only a measurement needs at full
/// size (100,000 SQLite rows), so the CI smoke run stays cheap while still
/// running every routine.
#[must_use]
pub fn smoke_run() -> bool {
    smoke_from_args(std::env::args().skip(1))
}

/// [`smoke_run`] for the given arguments (without the program name).
#[must_use]
pub fn smoke_from_args<I, S>(args: I) -> bool
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let (mut bench, mut test) = (false, false);
    for a in args {
        match a.as_ref() {
            "--bench" => bench = true,
            "--test" => test = true,
            _ => {}
        }
    }
    !bench || test
}

/// The sizes to run: `full` when measuring, and in a [`smoke_run`] only
/// those not above `smoke_max` (the smallest size when none is).
#[must_use]
pub fn sizes(full: &[usize], smoke_max: usize) -> Vec<usize> {
    sizes_for(smoke_run(), full, smoke_max)
}

fn sizes_for(smoke: bool, full: &[usize], smoke_max: usize) -> Vec<usize> {
    if !smoke {
        return full.to_vec();
    }
    let small: Vec<usize> = full.iter().copied().filter(|&n| n <= smoke_max).collect();
    if small.is_empty() {
        full.iter().copied().min().into_iter().collect()
    } else {
        small
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_mode_rule() {
        assert!(smoke_from_args::<_, &str>([]));
        assert!(!smoke_from_args(["--bench"]));
        assert!(!smoke_from_args(["--bench", "--quick", "fan_out"]));
        assert!(smoke_from_args(["--bench", "--test"]));
        assert!(smoke_from_args(["--test"]));
        assert!(smoke_from_args(["fan_out"]));
    }

    #[test]
    fn smoke_sizes_drop_the_large_ones() {
        let full = [1_000, 10_000, 100_000];
        assert_eq!(sizes_for(false, &full, 1_000), full);
        assert_eq!(sizes_for(true, &full, 10_000), [1_000, 10_000]);
        assert_eq!(sizes_for(true, &full, 10), [1_000]);
    }
}

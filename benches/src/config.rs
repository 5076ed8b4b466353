//! The criterion settings every bench starts from.

use std::time::Duration;

use criterion::Criterion;

/// Criterion with short defaults, so that a plain
/// `cargo bench -p tinymemory-benches` runs in a few minutes on two cores:
/// 0.3 s of warm-up and 1 s of measurement per benchmark, 20 samples,
/// 10,000 bootstrap resamples (criterion's default 100,000 costs about a
/// second of analysis per benchmark on one core).
/// Command-line options (`--quick`, `--measurement-time`, `--sample-size`,
/// ...) override these, as `criterion_group!` applies them afterwards.
#[must_use]
pub fn criterion_config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1000))
        .sample_size(20)
        .nresamples(10_000)
}

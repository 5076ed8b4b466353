//! Paired timing: the floor and the subject alternately, in the same
//! samples, so a ratio survives a machine whose load changes from one
//! second to the next.
//!
//! Criterion measures one benchmark after another. On a shared two-core
//! machine another process can take a core for the few seconds one of them
//! runs, and a ratio of two medians taken minutes apart then says more
//! about that process than about the code. [`Paired`] runs one floor call
//! and one subject call per iteration, times each, hands criterion the
//! subject's time (so its median is as usual) and keeps the floor's time
//! of the same iterations; [`Paired::save`] writes the median over samples
//! of `subject / floor`, which [`report`](crate::report) prefers to the
//! ratio of medians.

use std::cell::RefCell;
use std::future::Future;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{Bencher, BenchmarkGroup, BenchmarkId};
use tokio::runtime::Runtime;

/// The directory, under criterion's home, holding the paired ratios.
pub const PAIRED_DIR: &str = "tinymemory-paired";

/// The paired timings of one benchmark: per sample (one criterion
/// `iter_custom` call), the subject's and the floor's total time over the
/// same iterations.
#[derive(Debug, Default)]
pub struct Paired {
    samples: RefCell<Vec<(Duration, Duration)>>,
}

impl Paired {
    /// No sample yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one sample: `subject` and `floor` timed over the same
    /// iterations.
    pub fn record(&self, subject: Duration, floor: Duration) {
        self.samples.borrow_mut().push((subject, floor));
    }

    /// The median over samples of `subject / floor`, or `None` with no
    /// sample whose floor took any time.
    #[must_use]
    pub fn median_ratio(&self) -> Option<f64> {
        let mut ratios: Vec<f64> = self
            .samples
            .borrow()
            .iter()
            .filter(|(_, f)| !f.is_zero())
            .map(|(s, f)| s.as_secs_f64() / f.as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        let n = ratios.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => Some(ratios[n / 2]),
            _ => Some((ratios[n / 2 - 1] + ratios[n / 2]) / 2.0),
        }
    }

    /// Times `floor().await` then `subject().await`, `iters` times per
    /// criterion sample in one `block_on`; criterion gets the subject's
    /// time, and the sample is [recorded](Paired::record).
    pub fn iter_async<F, FFut, S, SFut, A, B>(
        &self,
        b: &mut Bencher<'_>,
        rt: &Runtime,
        mut floor: F,
        mut subject: S,
    ) where
        F: FnMut() -> FFut,
        FFut: Future<Output = A>,
        S: FnMut() -> SFut,
        SFut: Future<Output = B>,
    {
        b.iter_custom(|iters| {
            let (s, f) = rt.block_on(async {
                let (mut s, mut f) = (Duration::ZERO, Duration::ZERO);
                for _ in 0..iters {
                    let start = Instant::now();
                    black_box(floor().await);
                    let mid = Instant::now();
                    black_box(subject().await);
                    s += mid.elapsed();
                    f += mid - start;
                }
                (s, f)
            });
            self.record(s, f);
            s
        });
    }

    /// Like [`Paired::iter_async`] for synchronous routines whose input is
    /// made outside the timing, as criterion's `iter_batched` does: per
    /// batch of up to `batch` iterations, the inputs are made, then the
    /// floor runs on each (timed together), then likewise the subject.
    /// Outputs are dropped after their batch's timing stops.
    pub fn iter_batched<IF, OF, IS, OS>(
        &self,
        b: &mut Bencher<'_>,
        batch: usize,
        mut floor_input: impl FnMut() -> IF,
        mut floor: impl FnMut(IF) -> OF,
        mut subject_input: impl FnMut() -> IS,
        mut subject: impl FnMut(IS) -> OS,
    ) {
        let batch = u64::try_from(batch.max(1)).unwrap_or(u64::MAX);
        b.iter_custom(|iters| {
            let (mut s, mut f) = (Duration::ZERO, Duration::ZERO);
            let mut left = iters;
            while left > 0 {
                let k = left.min(batch);
                left -= k;
                f += timed(k, &mut floor_input, &mut floor);
                s += timed(k, &mut subject_input, &mut subject);
            }
            self.record(s, f);
            s
        });
    }

    /// Writes [`Paired::median_ratio`] for the benchmark
    /// `group/function/value` under `home` ([`criterion_home`]), as
    /// `tinymemory-paired/<id with / as ~>.json`; does nothing with no
    /// sample or in a [`smoke_run`](crate::smoke_run).
    ///
    /// # Errors
    ///
    /// The I/O error when the file cannot be written.
    pub fn save(
        &self,
        home: &Path,
        group: &str,
        function: &str,
        value: &str,
    ) -> std::io::Result<()> {
        let Some(ratio) = self.median_ratio() else {
            return Ok(());
        };
        if crate::smoke_run() {
            return Ok(());
        }
        let dir = home.join(PAIRED_DIR);
        std::fs::create_dir_all(&dir)?;
        let id = format!("{group}/{function}/{value}").replace('/', "~");
        let json = serde_json::json!({
            "group": group,
            "function": function,
            "value": value,
            "median_ratio": ratio,
            "samples": self.samples.borrow().len(),
        });
        std::fs::write(dir.join(format!("{id}.json")), json.to_string())
    }
}

/// Runs `routine` on `k` inputs from `input`, timing only the routine.
fn timed<I, O>(
    k: u64,
    input: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(I) -> O,
) -> Duration {
    let inputs: Vec<I> = (0..k).map(|_| input()).collect();
    let mut outputs = Vec::with_capacity(inputs.len());
    let start = Instant::now();
    for i in inputs {
        outputs.push(black_box(routine(i)));
    }
    let elapsed = start.elapsed();
    drop(outputs);
    elapsed
}

/// Benchmarks `subject` as `function/value` in `group` (whose id is
/// `group_id`) with [`Paired::iter_async`] against `floor`, and saves the
/// paired ratio under [`criterion_home`].
///
/// # Panics
///
/// When the ratio cannot be written.
pub fn bench_paired_async<F, FFut, S, SFut, A, B>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_id: &str,
    function: &str,
    value: usize,
    rt: &Runtime,
    floor: F,
    subject: S,
) where
    F: FnMut() -> FFut,
    FFut: Future<Output = A>,
    S: FnMut() -> SFut,
    SFut: Future<Output = B>,
{
    let paired = Paired::new();
    let (mut floor, mut subject) = (floor, subject);
    group.bench_function(BenchmarkId::new(function, value), |b| {
        paired.iter_async(b, rt, &mut floor, &mut subject);
    });
    let home = criterion_home();
    paired
        .save(&home, group_id, function, &value.to_string())
        .unwrap_or_else(|e| {
            panic!(
                "failed to write the paired ratio under {}: {e}",
                home.display()
            )
        });
}

/// Criterion's home directory as criterion 0.5 picks it when run by
/// `cargo bench`: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else the workspace's `target/criterion`.
#[must_use]
pub fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    );
    target.join("criterion")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn median_of_per_sample_ratios() {
        let p = Paired::new();
        assert_eq!(p.median_ratio(), None);
        p.record(2 * MS, MS);
        assert_eq!(p.median_ratio(), Some(2.0));
        // A sample slowed down for both sides keeps its ratio.
        p.record(30 * MS, 20 * MS);
        p.record(MS, Duration::ZERO);
        assert_eq!(p.median_ratio(), Some(1.75));
        p.record(MS, 4 * MS);
        assert_eq!(p.median_ratio(), Some(1.5));
    }
}

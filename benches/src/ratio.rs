//! Saving and printing a paired ratio, for benches that drive [`Paired`]
//! themselves (fresh inputs per iteration, synchronous set-up).

use std::io::Write;

use crate::{criterion_home, smoke_run, Paired};

/// Saves `paired`'s median ratio as `group/function/value` under
/// [`criterion_home`] ([`Paired::save`]) and prints it on stderr as
/// `paired group/function/value: subject/floor = 12.340x`,
/// so a run's ratios can be read off its log. Prints nothing in a
/// [`smoke_run`] or with no sample.
///
/// # Panics
///
/// When the ratio cannot be written.
pub fn report_paired(paired: &Paired, group: &str, function: &str, value: &str) -> Option<f64> {
    let home = criterion_home();
    paired
        .save(&home, group, function, value)
        .unwrap_or_else(|e| {
            panic!(
                "failed to write the paired ratio under {}: {e}",
                home.display()
            )
        });
    let ratio = paired.median_ratio()?;
    if !smoke_run() {
        let _ = writeln!(
            std::io::stderr(),
            "paired {group}/{function}/{value}: subject/floor = {ratio:.3}x"
        );
    }
    Some(ratio)
}

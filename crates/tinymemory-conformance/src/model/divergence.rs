//! Where a driver and the model first disagreed.

use std::fmt;

use super::Op;
use crate::DriverError;

/// The first step at which a driver's answer differed from the model's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The 1-based position of the step in the sequence.
    pub step: usize,
    /// The call made at that step.
    pub op: Op,
    /// What differed: the driver's answer and the model's.
    pub message: String,
    /// The driver's error, when the driver failed where the model did not
    /// (or with another kind or rule), or a repeated call failed; `None`
    /// when the driver answered differently.
    pub driver_error: Option<DriverError>,
}

/// `step 3 (list): <message>`.
impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "step {} ({}): {}",
            self.step,
            self.op.name(),
            self.message
        )
    }
}

impl std::error::Error for Divergence {}

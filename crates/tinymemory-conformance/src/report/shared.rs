//! Failed checks that share one driver error: one cause (a query parser's
//! syntax error) often fails many checks, and a report says so once.

use serde::{Deserialize, Serialize};
use tinymemory_api::shown::shown;

use super::CheckEntry;
use crate::DriverError;

/// A driver error two or more failed checks of a run share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedError {
    /// The error, as the driver returned it.
    pub error: DriverError,
    /// The ids of the failed checks it failed, in run order (two or more).
    pub checks: Vec<String>,
}

impl SharedError {
    /// The driver errors that at least two failing checks of `checks`
    /// (those whose outcome fails the run) share, in order of first
    /// appearance, each check in run order.
    ///
    /// Failures are grouped by their [`CheckEntry::driver_error`] (kind,
    /// rule, family and message), never by their message's text: a
    /// failure with no driver error is in no group.
    #[must_use]
    pub fn of(checks: &[CheckEntry]) -> Vec<Self> {
        let mut groups: Vec<Self> = Vec::new();
        for check in checks.iter().filter(|c| c.outcome.is_fail()) {
            let Some(error) = check.driver_error.as_ref() else {
                continue;
            };
            match groups.iter_mut().find(|g| g.error == *error) {
                Some(g) => g.checks.push(check.id.clone()),
                None => groups.push(Self {
                    error: error.clone(),
                    checks: vec![check.id.clone()],
                }),
            }
        }
        groups.retain(|g| g.checks.len() >= 2);
        groups
    }

    /// `5 checks failed on the same error: backend failure: fts5: syntax
    /// error near """ (recall.plain_text_query, model.differential)`, the
    /// driver's text shown escaped as every report shows it.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "{} checks failed on the same error: {} ({})",
            self.checks.len(),
            shown(&self.error.to_string()),
            self.checks.join(", ")
        )
    }
}

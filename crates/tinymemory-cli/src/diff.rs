//! `diff A B`: what B fails that A did not, what it fixed, what still
//! fails.

use tinymemory_conformance::Comparison;

use crate::args::DiffArgs;
use crate::error::{CliError, CliResult};
use crate::{exit, files};

pub(crate) fn main(args: &DiffArgs) -> CliResult {
    // Both files are read, so a user with two bad files hears of both.
    let (baseline, current) = match (
        files::read_report(&args.baseline).map_err(CliError::from),
        files::read_report(&args.current).map_err(CliError::from),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(a), Err(b)) => return Err(a.and(b)),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let cmp = Comparison::between(&baseline, &current);
    files::stdout(&cmp.to_text())?;
    Ok(if cmp.has_new_failures() {
        exit::FAILURES
    } else {
        exit::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::CliError;

    #[test]
    fn two_unreadable_reports_are_both_named() {
        let args = DiffArgs {
            baseline: "/nonexistent/a.json".into(),
            current: "/nonexistent/b.json".into(),
        };
        let e: CliError = main(&args).unwrap_err();
        assert_eq!(e.exit_code(), exit::USAGE);
        let text = e.lines();
        assert!(
            text.contains("a.json") && text.contains("\nerror: "),
            "{text}"
        );
    }
}

//! `diff A B`: what B fails that A did not, what it fixed, what still
//! fails.

use tinymemory_conformance::Comparison;

use crate::args::DiffArgs;
use crate::{exit, files};

pub(crate) fn main(args: &DiffArgs) -> u8 {
    let read = |path| {
        files::read_report(path).map_err(|message| {
            eprintln!("error: {message}");
            exit::USAGE
        })
    };
    let (baseline, current) = match (read(&args.baseline), read(&args.current)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let cmp = Comparison::between(&baseline, &current);
    if let Err(message) = files::stdout(&cmp.to_text()) {
        eprintln!("error: {message}");
        return exit::USAGE;
    }
    if cmp.has_new_failures() {
        exit::FAILURES
    } else {
        exit::SUCCESS
    }
}

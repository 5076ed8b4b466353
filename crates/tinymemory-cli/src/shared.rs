//! Failed checks that share one driver error: one cause (a query parser's
//! syntax error) often fails many checks, and the summary says so.

use tinymemory_api::shown::shown;
use tinymemory_conformance::report::Report;

/// The prefixes of a `MemoryError`'s text, one per kind.
const ERROR_KINDS: [&str; 3] = ["backend failure: ", "unavailable: ", "invalid input ("];

/// `5 checks failed on the same error: backend failure: fts5: syntax error
/// near """ (recall.plain_text_query, properties.across_ordering, ..)`,
/// one line per driver error that at least two failed checks share, in
/// order of first appearance.
pub(crate) fn lines(report: &Report) -> Vec<String> {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for check in report.failures() {
        let Some(error) = check.message.as_deref().and_then(driver_error) else {
            continue;
        };
        match groups.iter_mut().find(|(e, _)| *e == error) {
            Some((_, ids)) => ids.push(&check.id),
            None => groups.push((error, vec![&check.id])),
        }
    }
    groups
        .into_iter()
        .filter(|(_, ids)| ids.len() >= 2)
        .map(|(error, ids)| {
            format!(
                "{} checks failed on the same error: {} ({})",
                ids.len(),
                shown(&error),
                ids.join(", ")
            )
        })
        .collect()
}

/// The driver error a failure message quotes, without what the check or
/// the section API wrapped around it: `backend failure: fts5: syntax
/// error near """` from `query "\"" is plain text but recall failed:
/// backend failure: ..`, from `.. failed: backend failure: recall in
/// namespace "learning:a" failed: fts5: .. [case 1 of 4 ..]` and from
/// `the driver failed with backend ("backend failure: ..")`. `None` when
/// the message quotes no driver error.
fn driver_error(message: &str) -> Option<String> {
    let message = message.rfind(" [case ").map_or(message, |i| &message[..i]);
    let unquoted;
    let message = match quoted_failure(message) {
        Some(q) => {
            unquoted = q;
            unquoted.as_str()
        }
        None => message,
    };
    let (start, kind) = ERROR_KINDS
        .iter()
        .filter_map(|k| message.find(k).map(|i| (i, *k)))
        .min_by_key(|(i, _)| *i)?;
    let mut rest = &message[start + kind.len()..];
    // The section API's `recall in namespace "NS" failed: ` wrappers.
    while let Some(i) = rest.find(" in namespace \"") {
        let Some(end) = rest[i..].find("\" failed: ") else {
            break;
        };
        if rest[..i].contains(':') {
            break;
        }
        rest = &rest[i + end + "\" failed: ".len()..];
    }
    Some(format!("{kind}{rest}"))
}

/// The error text in `the driver failed with KIND ("TEXT")`, unescaped.
fn quoted_failure(message: &str) -> Option<String> {
    let after = &message[message.find("the driver failed with ")?..];
    let open = after.find(" (\"")? + 3;
    let mut out = String::new();
    let mut chars = after[open..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const SYNTAX: &str = "backend failure: fts5: syntax error near \"\"\"";

    #[test]
    fn the_driver_error_is_found_inside_every_wrapping() {
        let cases = [
            "query \"\\\"\" (1 bytes) is plain text but recall failed: backend failure: fts5: \
             syntax error near \"\"\"",
            "across_section(learning, \"\\\"\", limit 1) with cap 1 failed: backend failure: \
             recall in namespace \"learning:a\" failed: fts5: syntax error near \"\"\" [case 1 \
             of 4 failed with seed 1; shrunk in 34 steps; rerun with --seed 1 --cases 4]",
            "step 1 (recall): the driver failed with backend (\"backend failure: fts5: syntax \
             error near \\\"\\\"\\\"\"), the model succeeded [case 1 of 4 failed with seed 1]",
            "unexpected driver error: backend failure: fts5: syntax error near \"\"\"",
        ];
        for message in cases {
            assert_eq!(driver_error(message).as_deref(), Some(SYNTAX), "{message}");
        }
        assert_eq!(driver_error("recall with limit 3: expected 3, got 4"), None);
        assert_eq!(
            driver_error("unexpected driver error: unavailable: connection refused").as_deref(),
            Some("unavailable: connection refused")
        );
    }
}

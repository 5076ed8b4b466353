//! Rule ids arriving from a driver, turned into the `&'static str` that
//! `MemoryError::Invalid` carries.

use std::collections::BTreeSet;
use std::sync::Mutex;

use tinymemory_api::rules;

/// Longest rule id accepted, in bytes.
pub const MAX_RULE_LEN: usize = 64;

/// Distinct driver-specific rule ids kept for the life of the program. Ids
/// past this many are refused, so a driver inventing a new id per answer
/// cannot grow memory without bound.
pub const MAX_DRIVER_RULES: usize = 256;

/// The contract's rule ids, returned without interning.
const KNOWN: [&str; 12] = [
    rules::NAMESPACE_EMPTY,
    rules::NAMESPACE_TOO_LONG,
    rules::NAMESPACE_CHARSET,
    rules::NAMESPACE_DOT_DOT,
    rules::NAMESPACE_EDGE_SLASH,
    rules::SECTION_PREFIX,
    rules::SCOPE_EMPTY,
    rules::KEY_EMPTY,
    rules::KEY_TOO_LONG,
    rules::MIN_SCORE_NOT_FINITE,
    rules::EXPORT_CURSOR,
    rules::IMPORT_TIMESTAMP,
];

/// Driver-specific ids seen so far, each leaked once.
static DRIVER_RULES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// The static id for `rule`: a contract constant, or a driver's own id
/// (ASCII lowercase letters, digits, `_`, `-`, `.`; 1..=[`MAX_RULE_LEN`]
/// bytes), kept once for the life of the program.
///
/// # Errors
///
/// Why the id was refused: malformed, or past [`MAX_DRIVER_RULES`].
pub(crate) fn intern(rule: &str) -> Result<&'static str, String> {
    if let Some(known) = KNOWN.iter().find(|k| **k == rule) {
        return Ok(known);
    }
    let well_formed = !rule.is_empty()
        && rule.len() <= MAX_RULE_LEN
        && rule.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.')
        });
    if !well_formed {
        return Err(format!(
            "rule {rule:?} is not 1 to {MAX_RULE_LEN} bytes of a-z, 0-9, '_', '-', '.'"
        ));
    }
    // Interning never leaves the set half-updated, so a poisoned lock is sound.
    let mut seen = DRIVER_RULES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(existing) = seen.get(rule) {
        return Ok(existing);
    }
    if seen.len() >= MAX_DRIVER_RULES {
        return Err(format!(
            "rule {rule:?} is one more than the {MAX_DRIVER_RULES} distinct rule ids a run accepts"
        ));
    }
    let leaked: &'static str = Box::leak(rule.to_owned().into_boxed_str());
    seen.insert(leaked);
    Ok(leaked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_rules_are_recognised() {
        assert_eq!(intern("namespace.charset"), Ok(rules::NAMESPACE_CHARSET));
        assert_eq!(intern("key.too_long"), Ok(rules::KEY_TOO_LONG));
        assert_eq!(intern("export.cursor_unknown"), Ok(rules::EXPORT_CURSOR));
        assert_eq!(intern("import.timestamp"), Ok(rules::IMPORT_TIMESTAMP));
    }

    #[test]
    fn driver_rules_are_kept_once() {
        let a = intern("mydriver.content_too_long").unwrap();
        let b = intern("mydriver.content_too_long").unwrap();
        assert_eq!(a, "mydriver.content_too_long");
        assert!(std::ptr::eq(a, b));
    }

    #[test]
    fn malformed_rules_are_refused() {
        for bad in [
            "",
            "Upper.case",
            "has space",
            "é",
            &"x".repeat(MAX_RULE_LEN + 1),
        ] {
            assert!(intern(bad).is_err(), "{bad:?}");
        }
    }
}

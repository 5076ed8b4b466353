//! Turning file and directory names into namespace scopes.

/// Lowercases the ASCII letters of `name` and replaces every other character
/// outside `[a-z0-9_-]` (plus `.` when `keep_dots`) with `-`. One character
/// in gives one character out, so `Tech Support` gives `tech-support` and
/// `café` gives `caf-`.
pub(crate) fn scope_part(name: &str, keep_dots: bool) -> String {
    name.chars()
        .map(|c| c.to_ascii_lowercase())
        .map(|c| {
            if c.is_ascii_lowercase()
                || c.is_ascii_digit()
                || c == '_'
                || c == '-'
                || (keep_dots && c == '.')
            {
                c
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::scope_part;

    #[test]
    fn lowercases_and_replaces() {
        assert_eq!(scope_part("IA", false), "ia");
        assert_eq!(scope_part("tech_support", false), "tech_support");
        assert_eq!(scope_part("Tech Support", false), "tech-support");
        assert_eq!(scope_part("a.b", false), "a-b");
        assert_eq!(scope_part("Apache-2.0", true), "apache-2.0");
        assert_eq!(scope_part("café", false), "caf-");
        assert_eq!(scope_part("a:b/c", true), "a-b-c");
    }
}

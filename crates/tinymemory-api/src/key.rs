//! Entry key validation, shared by every driver so they refuse the same keys.

use crate::{rules, MemoryError};

/// Longest key accepted, in bytes (UTF-8).
pub const MAX_KEY_LEN: usize = 1024;

/// Checks an entry key: any UTF-8 text (NUL, emoji and SQL metacharacters
/// included) of 1..=[`MAX_KEY_LEN`] bytes. Keys are stored byte for byte.
///
/// # Errors
///
/// [`MemoryError::Invalid`] with rule [`rules::KEY_EMPTY`] or
/// [`rules::KEY_TOO_LONG`].
pub fn validate_key(key: &str) -> Result<(), MemoryError> {
    if key.is_empty() {
        return Err(MemoryError::invalid(
            rules::KEY_EMPTY,
            "key must not be empty",
        ));
    }
    if key.len() > MAX_KEY_LEN {
        return Err(MemoryError::invalid(
            rules::KEY_TOO_LONG,
            format!("key is {} bytes, the limit is {MAX_KEY_LEN}", key.len()),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_length_rules() {
        assert_eq!(validate_key("a"), Ok(()));
        assert_eq!(validate_key("it's; -- %_\0 🦀"), Ok(()));
        assert_eq!(validate_key(&"k".repeat(MAX_KEY_LEN)), Ok(()));
        assert_eq!(validate_key("").unwrap_err().rule(), Some(rules::KEY_EMPTY));
        assert_eq!(
            validate_key(&"k".repeat(MAX_KEY_LEN + 1))
                .unwrap_err()
                .rule(),
            Some(rules::KEY_TOO_LONG)
        );
    }
}

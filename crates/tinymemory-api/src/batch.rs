//! The bulk store: many entries in one call ([`MemoryProvider::store_many`]).

use serde::{Deserialize, Serialize};

use crate::{validate_key, MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, Namespace};

/// One entry to store, as given to [`MemoryProvider::store_many`]: the six
/// arguments of [`MemoryProvider::store`] as owned values.
///
/// Its timestamp is not given: like `store`, a bulk store stamps every entry
/// with the time of the call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewEntry {
    /// The namespace; validated by the driver (contract sentence 9).
    pub namespace: String,
    /// The key, unique within its namespace.
    pub key: String,
    /// The content, stored byte for byte.
    pub content: String,
    /// The category.
    #[serde(default)]
    pub category: MemoryCategory,
    /// The session, if any.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The taint.
    #[serde(default)]
    pub taint: MemoryTaint,
}

impl NewEntry {
    /// An entry with category [`MemoryCategory::Core`], no session and taint
    /// [`MemoryTaint::Internal`] (the defaults of every field not given).
    #[must_use]
    pub fn new(
        namespace: impl Into<String>,
        key: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self {
            namespace: namespace.into(),
            key: key.into(),
            content: content.into(),
            category: MemoryCategory::default(),
            session_id: None,
            taint: MemoryTaint::default(),
        }
    }

    /// The same entry with `category`.
    #[must_use]
    pub fn with_category(mut self, category: MemoryCategory) -> Self {
        self.category = category;
        self
    }

    /// The same entry with `session_id`.
    #[must_use]
    pub fn with_session(mut self, session_id: impl Into<String>) -> Self {
        self.session_id = Some(session_id.into());
        self
    }

    /// The same entry with `taint`.
    #[must_use]
    pub fn with_taint(mut self, taint: MemoryTaint) -> Self {
        self.taint = taint;
        self
    }
}

/// Checks every entry of a batch before anything is written: the namespace
/// ([`Namespace::parse`]) and the key ([`validate_key`]).
///
/// # Errors
///
/// The first invalid entry's [`MemoryError::Invalid`], with the same rule id
/// as `store` would give and a message that starts with the entry's index,
/// e.g. `entry 3 of 10 (namespace "a b", key "k"): ...`. See
/// [`in_batch`].
pub fn validate_batch(entries: &[NewEntry]) -> Result<(), MemoryError> {
    for (index, entry) in entries.iter().enumerate() {
        Namespace::parse(&entry.namespace)
            .map(drop)
            .and_then(|()| validate_key(&entry.key))
            .map_err(|e| in_batch(e, index, entries.len(), &entry.namespace, &entry.key))?;
    }
    Ok(())
}

/// `error` as the error of entry `index` (0-based) of a batch of `len`:
/// the same variant and rule id, the message prefixed with
/// `entry {index} of {len} (namespace {namespace:?}, key {key:?}): `.
/// Errors other than [`MemoryError::Invalid`] are returned unchanged.
#[must_use]
pub fn in_batch(
    error: MemoryError,
    index: usize,
    len: usize,
    namespace: &str,
    key: &str,
) -> MemoryError {
    match error {
        MemoryError::Invalid { rule, message } => MemoryError::Invalid {
            rule,
            message: format!(
                "entry {index} of {len} (namespace {:?}, key {:?}): {message}",
                shorten(namespace),
                shorten(key)
            ),
        },
        other => other,
    }
}

/// At most 80 characters of `text`, so that a 100 KB key does not make a
/// 100 KB message.
fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The default [`MemoryProvider::store_many`]: validates every entry
/// ([`validate_batch`]), then calls `store` for each in order.
///
/// All-or-nothing for invalid input only: an engine failure part-way leaves
/// the entries before it stored. Drivers with transactions override
/// `store_many` to be all-or-nothing for engine failures too; wrappers that
/// change what `store` does (the mutants) call this so their change applies
/// to bulk stores as well.
///
/// # Errors
///
/// As [`validate_batch`], then the first error of `store`, with its entry's
/// index ([`in_batch`]).
pub async fn store_each<P: MemoryProvider + ?Sized>(
    provider: &P,
    entries: &[NewEntry],
) -> Result<(), MemoryError> {
    validate_batch(entries)?;
    for (index, e) in entries.iter().enumerate() {
        provider
            .store(
                &e.namespace,
                &e.key,
                &e.content,
                e.category.clone(),
                e.session_id.as_deref(),
                e.taint,
            )
            .await
            .map_err(|err| in_batch(err, index, entries.len(), &e.namespace, &e.key))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;

    #[test]
    fn the_first_invalid_entry_is_named_by_index_and_rule() {
        let batch = vec![
            NewEntry::new("global", "a", "x"),
            NewEntry::new("global", "", "x"),
            NewEntry::new("bad name", "c", "x"),
        ];
        let err = validate_batch(&batch).unwrap_err();
        assert_eq!(err.rule(), Some(rules::KEY_EMPTY));
        assert_eq!(
            err.to_string(),
            "invalid input (key.empty): entry 1 of 3 (namespace \"global\", key \"\"): key must not be empty"
        );
    }

    #[test]
    fn long_keys_are_shortened_in_messages() {
        let key = "k".repeat(100);
        let err = in_batch(MemoryError::invalid("r", "m"), 0, 1, "global", &key);
        assert_eq!(
            err.to_string(),
            format!(
                "invalid input (r): entry 0 of 1 (namespace \"global\", key \"{}…\"): m",
                "k".repeat(80)
            )
        );
    }

    #[test]
    fn other_errors_pass_unchanged() {
        let err = in_batch(MemoryError::fault("disk"), 0, 1, "global", "k");
        assert_eq!(err, MemoryError::fault("disk"));
    }
}

//! Rule ids of this driver's own [`MemoryError::Invalid`] errors, beside
//! those of [`tinymemory_api::rules`] (which the driver uses for namespaces,
//! keys and `min_score`). Match on these ids, never on message text.
//!
//! [`MemoryError::Invalid`]: tinymemory_api::MemoryError::Invalid

/// A connection string must be one tokio-postgres understands
/// ([`PostgresConfig::from_url`](crate::PostgresConfig::from_url)).
pub const URL: &str = "postgres.url";

/// A schema name must be 1 to 63 bytes of `[a-z0-9_]`, start with a letter
/// or `_`, and not start with `pg_`
/// ([`PostgresConfig::with_schema`](crate::PostgresConfig::with_schema)).
pub const SCHEMA_NAME: &str = "postgres.schema_name";

//! The SQL text of every statement, built once per driver for its schema.
//!
//! The schema name is the only thing ever formatted into SQL: it passed
//! [`validate_schema`](crate::config::validate_schema) (`[a-z0-9_]` only)
//! and is double-quoted besides. Every value — namespaces, keys, contents,
//! the `tsvector` and `tsquery` texts, limits — is a bound parameter, cast
//! to its column's type in the SQL so that the server never has to guess.
//! Comparisons are `=` on `TEXT COLLATE "C"` and `BYTEA`, both bytewise,
//! never `LIKE`, so `%` and `_` are ordinary characters.

/// The columns every entry query selects, in the order
/// `ops::entry` reads them.
const ENTRY_COLUMNS: &str = "id, namespace, key, content, category, session_id, taint, timestamp";

/// A `LIKE` pattern matched exactly by a valid timestamp spelt as
/// `now_rfc3339` spells it (`YYYY-MM-DDTHH:MM:SS.ffffffZ`: 27 characters,
/// `T`, `.` and `Z` in place), the SQL form of
/// [`tinymemory_api::is_canonical_timestamp`]: among such, `MAX` in `C`
/// collation is the newest. Only imports bring other spellings. One `LIKE`
/// per row costs the scan about 5%, where `length` and three `substr`
/// calls cost 3 to 4 times the scan (docs/benchmarks.md, `namespaces`).
pub(crate) const CANONICAL_LIKE: &str = "'____-__-__T__:__:__.______Z'";

/// Statement texts for one schema.
#[derive(Debug, Clone)]
pub(crate) struct Sql {
    schema: String,
    quoted: String,
    pub(crate) upsert: String,
    pub(crate) get: String,
    pub(crate) forget: String,
    pub(crate) list_one: String,
    pub(crate) list_all: String,
    pub(crate) namespaces: String,
    pub(crate) namespace_canonical_max: String,
    pub(crate) recall: String,
    pub(crate) bulk_upsert: String,
    pub(crate) export_start: String,
    pub(crate) export_after: String,
}

impl Sql {
    /// The statements for `schema`, which must already be validated.
    pub(crate) fn new(schema: &str) -> Self {
        let quoted = format!("\"{schema}\"");
        let t = format!("{quoted}.memory_entries");
        Self {
            upsert: format!(
                "INSERT INTO {t} (namespace, key, content, category, session_id, taint, timestamp, body)
                 VALUES ($1::text, $2::bytea, $3::bytea, $4::bytea, $5::bytea, $6::text, $7::text,
                         $8::text::tsvector)
                 ON CONFLICT (namespace, key) DO UPDATE SET
                     content = EXCLUDED.content,
                     category = EXCLUDED.category,
                     session_id = EXCLUDED.session_id,
                     taint = EXCLUDED.taint,
                     timestamp = EXCLUDED.timestamp,
                     body = EXCLUDED.body"
            ),
            get: format!(
                "SELECT {ENTRY_COLUMNS} FROM {t} WHERE namespace = $1::text AND key = $2::bytea"
            ),
            forget: format!("DELETE FROM {t} WHERE namespace = $1::text AND key = $2::bytea"),
            list_one: format!(
                "SELECT {ENTRY_COLUMNS} FROM {t}
                 WHERE namespace = $1::text
                   AND ($2::bytea IS NULL OR category = $2::bytea)
                   AND ($3::bytea IS NULL OR session_id = $3::bytea)
                 ORDER BY key"
            ),
            list_all: format!(
                "SELECT {ENTRY_COLUMNS} FROM {t}
                 WHERE ($1::bytea IS NULL OR category = $1::bytea)
                   AND ($2::bytea IS NULL OR session_id = $2::bytea)
                 ORDER BY namespace, key"
            ),
            // One scan: counts, the bytewise MAX (the newest among
            // canonical timestamps) and the other spellings, compared by
            // instant in Rust.
            namespaces: format!(
                "SELECT namespace, COUNT(*), MAX(timestamp),
                        array_agg(timestamp) FILTER (WHERE timestamp NOT LIKE {CANONICAL_LIKE})
                 FROM {t} GROUP BY namespace ORDER BY namespace"
            ),
            namespace_canonical_max: format!(
                "SELECT MAX(timestamp) FROM {t}
                 WHERE namespace = $1::text AND timestamp LIKE {CANONICAL_LIKE}"
            ),
            // ts_rank is computed once per row in the select list and
            // ordered on; ties go by key so the order is a function of the
            // data alone.
            recall: format!(
                "SELECT {ENTRY_COLUMNS}, ts_rank(body, $1::text::tsquery) AS rank FROM {t}
                 WHERE namespace = $2::text
                   AND body @@ $1::text::tsquery
                   AND ($3::bytea IS NULL OR category = $3::bytea)
                   AND ($4::bytea IS NULL OR session_id = $4::bytea)
                 ORDER BY rank DESC, key
                 LIMIT $5::bigint"
            ),
            // Many rows per statement, one array per column: a statement
            // costs one round trip however many rows it carries. Each row
            // keeps its own timestamp (an import's are the exported ones).
            // The rows of one statement must not share a (namespace, key):
            // ON CONFLICT cannot update a row twice in one command, so the
            // caller keeps only the last of each.
            bulk_upsert: format!(
                "INSERT INTO {t} (namespace, key, content, category, session_id, taint, timestamp, body)
                 SELECT u.namespace, u.key, u.content, u.category, u.session_id, u.taint,
                        u.timestamp, u.body::tsvector
                 FROM unnest($1::text[], $2::bytea[], $3::bytea[], $4::bytea[], $5::bytea[],
                             $6::text[], $7::text[], $8::text[])
                      AS u(namespace, key, content, category, session_id, taint, timestamp, body)
                 ON CONFLICT (namespace, key) DO UPDATE SET
                     content = EXCLUDED.content,
                     category = EXCLUDED.category,
                     session_id = EXCLUDED.session_id,
                     taint = EXCLUDED.taint,
                     timestamp = EXCLUDED.timestamp,
                     body = EXCLUDED.body"
            ),
            // Keyset pages in the order of the UNIQUE (namespace, key)
            // index: namespace in the C collation and key as BYTEA, both
            // bytewise, as Rust orders strings. The row comparison is an
            // index condition, so a page costs its own rows, not the rows
            // before it. One row more than the page is asked for, to know
            // whether another page follows.
            export_start: format!(
                "SELECT {ENTRY_COLUMNS} FROM {t}
                 ORDER BY namespace COLLATE \"C\", key
                 LIMIT $1::bigint"
            ),
            export_after: format!(
                "SELECT {ENTRY_COLUMNS} FROM {t}
                 WHERE (namespace COLLATE \"C\", key) > ($1::text COLLATE \"C\", $2::bytea)
                 ORDER BY namespace COLLATE \"C\", key
                 LIMIT $3::bigint"
            ),
            schema: schema.to_owned(),
            quoted,
        }
    }

    /// The schema name, unquoted.
    pub(crate) fn schema(&self) -> &str {
        &self.schema
    }

    /// The schema name, double-quoted for SQL.
    pub(crate) fn quoted_schema(&self) -> &str {
        &self.quoted
    }

    /// A DDL script with `{s}` replaced by the quoted schema name.
    pub(crate) fn ddl(&self, script: &str) -> String {
        script.replace("{s}", &self.quoted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_quoted_schema_is_formatted_in() {
        let sql = Sql::new("my_schema");
        assert_eq!(sql.quoted_schema(), "\"my_schema\"");
        assert_eq!(
            sql.get,
            "SELECT id, namespace, key, content, category, session_id, taint, timestamp \
             FROM \"my_schema\".memory_entries WHERE namespace = $1::text AND key = $2::bytea"
        );
        assert_eq!(
            sql.ddl("CREATE SCHEMA {s}; DROP {s}"),
            "CREATE SCHEMA \"my_schema\"; DROP \"my_schema\""
        );
        for stmt in [
            &sql.upsert,
            &sql.forget,
            &sql.list_one,
            &sql.list_all,
            &sql.namespaces,
            &sql.namespace_canonical_max,
            &sql.recall,
            &sql.bulk_upsert,
            &sql.export_start,
            &sql.export_after,
        ] {
            assert!(stmt.contains("\"my_schema\".memory_entries"), "{stmt}");
            // No user value is ever matched by LIKE; the one pattern is a
            // constant, on timestamps.
            let without = stmt.replace(&format!("LIKE {CANONICAL_LIKE}"), "");
            assert!(!without.contains("LIKE"), "{stmt}");
        }
    }
}

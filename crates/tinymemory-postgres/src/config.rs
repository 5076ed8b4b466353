//! [`PostgresConfig`]: which server, which schema, how many connections.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use tinymemory_api::MemoryError;
use tokio_postgres::config::Host;

use crate::rules;

/// The PostgreSQL schema the tables live in unless another is chosen.
pub const DEFAULT_SCHEMA: &str = "tinymemory";

/// Connections one driver (and the drivers sharing its pool) opens at most,
/// unless another number is chosen.
pub const DEFAULT_MAX_CONNECTIONS: usize = 8;

/// How long opening one connection may take when the URL sets no
/// `connect_timeout`; past it the call fails with
/// [`MemoryError::Unavailable`].
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a call waits for a free pooled connection when all are busy,
/// before failing with [`MemoryError::Unavailable`].
pub const POOL_WAIT_TIMEOUT: Duration = Duration::from_secs(30);

/// Longest schema name PostgreSQL keeps (`NAMEDATALEN - 1`), in bytes.
pub const MAX_SCHEMA_LEN: usize = 63;

/// Where a [`PostgresDriver`](crate::PostgresDriver) keeps its data.
///
/// Built from a connection string ([`PostgresConfig::from_url`]), then
/// adjusted with the `with_*` methods. The password, if any, is never
/// shown: [`fmt::Display`] and [`fmt::Debug`] print
/// [`PostgresConfig::redacted_url`].
#[derive(Clone)]
pub struct PostgresConfig {
    pub(crate) pg: tokio_postgres::Config,
    schema: String,
    max_connections: usize,
}

impl PostgresConfig {
    /// Parses a libpq connection string: a URL
    /// (`postgres://user:password@host:port/dbname?option=value`, also
    /// `postgresql://`) or `key=value` pairs (`host=… port=… user=…`), as
    /// [`tokio_postgres::Config`] reads them. Tables go to
    /// [`DEFAULT_SCHEMA`]; at most [`DEFAULT_MAX_CONNECTIONS`] connections
    /// are opened; a URL without `connect_timeout` gets
    /// [`DEFAULT_CONNECT_TIMEOUT`].
    ///
    /// Connections are plain TCP (or a Unix socket): the driver is built
    /// without TLS, so `sslmode=require` cannot be met and fails on the
    /// first call.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] with [`rules::URL`] when the string is not a
    /// connection string tokio-postgres understands. The message never
    /// repeats the string, which may hold a password.
    pub fn from_url(url: &str) -> Result<Self, MemoryError> {
        let mut pg = tokio_postgres::Config::from_str(url).map_err(|e| {
            MemoryError::invalid(
                rules::URL,
                format!("failed to read the PostgreSQL connection string: {e}"),
            )
        })?;
        if pg.get_connect_timeout().is_none() {
            pg.connect_timeout(DEFAULT_CONNECT_TIMEOUT);
        }
        if pg.get_application_name().is_none() {
            pg.application_name("tinymemory");
        }
        Ok(Self {
            pg,
            schema: DEFAULT_SCHEMA.to_owned(),
            max_connections: DEFAULT_MAX_CONNECTIONS,
        })
    }

    /// Keep the tables in the PostgreSQL schema `schema` instead of
    /// [`DEFAULT_SCHEMA`]. Two drivers on one database with different
    /// schemas never see each other's entries.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] with [`rules::SCHEMA_NAME`] unless `schema`
    /// is 1 to [`MAX_SCHEMA_LEN`] bytes of `[a-z0-9_]`, starting with a
    /// letter or `_`, and not starting with `pg_` (reserved by PostgreSQL).
    pub fn with_schema(mut self, schema: &str) -> Result<Self, MemoryError> {
        validate_schema(schema)?;
        schema.clone_into(&mut self.schema);
        Ok(self)
    }

    /// Open at most `n` connections (at least 1: a `0` means 1).
    #[must_use]
    pub fn with_max_connections(mut self, n: usize) -> Self {
        self.max_connections = n.max(1);
        self
    }

    /// Fail a call with [`MemoryError::Unavailable`] when opening a
    /// connection takes longer than `timeout`.
    #[must_use]
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.pg.connect_timeout(timeout);
        self
    }

    /// The PostgreSQL schema holding the tables.
    #[must_use]
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// The most connections opened at once.
    #[must_use]
    pub fn max_connections(&self) -> usize {
        self.max_connections
    }

    /// The server as a URL without the password or options, for messages:
    /// `postgres://user@host:port/dbname` (several hosts joined by `,`).
    #[must_use]
    pub fn redacted_url(&self) -> String {
        let hosts: Vec<String> = self
            .pg
            .get_hosts()
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let host = match h {
                    Host::Tcp(name) => name.clone(),
                    #[cfg(unix)]
                    Host::Unix(path) => path.display().to_string(),
                };
                match self.pg.get_ports().get(i).or(self.pg.get_ports().first()) {
                    Some(port) => format!("{host}:{port}"),
                    None => host,
                }
            })
            .collect();
        let user = self
            .pg
            .get_user()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        let db = self.pg.get_dbname().unwrap_or_default();
        format!("postgres://{user}{}/{db}", hosts.join(","))
    }
}

impl fmt::Display for PostgresConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (schema {})", self.redacted_url(), self.schema)
    }
}

impl fmt::Debug for PostgresConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresConfig")
            .field("server", &self.redacted_url())
            .field("schema", &self.schema)
            .field("max_connections", &self.max_connections)
            .finish_non_exhaustive()
    }
}

/// Checks a schema name against [`PostgresConfig::with_schema`]'s rule.
pub(crate) fn validate_schema(schema: &str) -> Result<(), MemoryError> {
    let refuse = |why: &str| {
        Err(MemoryError::invalid(
            rules::SCHEMA_NAME,
            format!("schema name {schema:?} {why}"),
        ))
    };
    if schema.is_empty() || schema.len() > MAX_SCHEMA_LEN {
        return refuse(&format!("must be 1 to {MAX_SCHEMA_LEN} bytes long"));
    }
    if !schema
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return refuse("may hold only a-z, 0-9 and _");
    }
    if schema.as_bytes()[0].is_ascii_digit() {
        return refuse("must start with a letter or _");
    }
    if schema.starts_with("pg_") {
        return refuse("must not start with pg_, which PostgreSQL reserves");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_parse_and_print_without_password() {
        let c = PostgresConfig::from_url("postgres://ann:s3cret@127.0.0.1:5433/mem").unwrap();
        assert_eq!(c.redacted_url(), "postgres://ann@127.0.0.1:5433/mem");
        assert_eq!(
            c.to_string(),
            "postgres://ann@127.0.0.1:5433/mem (schema tinymemory)"
        );
        assert!(!format!("{c:?}").contains("s3cret"));
        assert_eq!(c.pg.get_connect_timeout(), Some(&DEFAULT_CONNECT_TIMEOUT));
        assert_eq!(c.max_connections(), DEFAULT_MAX_CONNECTIONS);

        let c = PostgresConfig::from_url("host=db port=6000 user=bob dbname=x connect_timeout=3")
            .unwrap();
        assert_eq!(c.redacted_url(), "postgres://bob@db:6000/x");
        assert_eq!(c.pg.get_connect_timeout(), Some(&Duration::from_secs(3)));
    }

    #[test]
    fn bad_urls_are_invalid_without_echoing_them() {
        for bad in [
            "postgres://ann:s3cret@host:notaport/db",
            "postgres://h/db?nonsense=1",
        ] {
            let e = PostgresConfig::from_url(bad).unwrap_err();
            assert_eq!(e.rule(), Some(rules::URL), "{bad}");
            assert!(!e.to_string().contains("s3cret"));
        }
    }

    #[test]
    fn schema_names_follow_the_rule() {
        for good in ["tinymemory", "_x", "a1_b2", &"s".repeat(MAX_SCHEMA_LEN)] {
            assert_eq!(validate_schema(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "Upper",
            "1abc",
            "pg_mine",
            "with space",
            "quote\"d",
            "semi;colon",
            &"s".repeat(MAX_SCHEMA_LEN + 1),
        ] {
            assert_eq!(
                validate_schema(bad).unwrap_err().rule(),
                Some(rules::SCHEMA_NAME),
                "{bad:?}"
            );
        }
        let c = PostgresConfig::from_url("postgres://h/db").unwrap();
        assert_eq!(c.clone().with_schema("mine").unwrap().schema(), "mine");
        assert!(c.with_schema("Mine").is_err());
    }

    #[test]
    fn max_connections_is_at_least_one() {
        let c = PostgresConfig::from_url("postgres://h/db").unwrap();
        assert_eq!(c.clone().with_max_connections(0).max_connections(), 1);
        assert_eq!(c.with_max_connections(3).max_connections(), 3);
    }
}

//! The connection pool behind a driver.
//!
//! A [deadpool-postgres](deadpool_postgres) pool of at most
//! [`PostgresConfig::max_connections`] plain (non-TLS) connections, opened
//! on demand. A connection whose socket closed (the server restarted, an
//! administrator ran `pg_terminate_backend`, the network dropped) fails the
//! one call that was using it with `MemoryError::Unavailable`, and is
//! discarded when returned: the next call gets a new connection.

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tinymemory_api::MemoryError;
use tokio_postgres::NoTls;

use crate::config::{PostgresConfig, DEFAULT_CONNECT_TIMEOUT, POOL_WAIT_TIMEOUT};

/// How long the pool lets a whole connection start (TCP, start-up,
/// authentication) run past the connect timeout before giving up.
const STARTUP_GRACE: Duration = Duration::from_secs(5);

/// A pool for `config`. Opens no connection yet, and needs no runtime until
/// the first call.
pub(crate) fn build(config: &PostgresConfig) -> Result<Pool, MemoryError> {
    // `Fast` checks only `is_closed()`: a closed connection is discarded,
    // and a round trip per call to verify an open one is not worth its
    // latency (a connection that died unnoticed fails one call, Unavailable).
    let manager_config = ManagerConfig {
        recycling_method: RecyclingMethod::Fast,
    };
    let manager = Manager::from_config(config.pg.clone(), NoTls, manager_config);
    let connect = config
        .pg
        .get_connect_timeout()
        .copied()
        .unwrap_or(DEFAULT_CONNECT_TIMEOUT);
    Pool::builder(manager)
        .max_size(config.max_connections())
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(POOL_WAIT_TIMEOUT))
        .create_timeout(Some(connect + STARTUP_GRACE))
        .recycle_timeout(Some(STARTUP_GRACE))
        .build()
        .map_err(|e| MemoryError::backend("failed to build the postgres connection pool", e))
}

//! `conformance_tests!` on a driver that does network I/O, as a driver of
//! a database server does: each generated test's runtime must drive
//! sockets, not only timers (found running the PostgreSQL driver's own
//! tests through the macro: every check panicked with "IO is disabled").

use tinymemory_api::{MemoryCategory, MemoryError, MemoryTaint};
use tinymemory_reference::ReferenceDriver;

/// The reference driver, but every `store` first opens a loopback socket,
/// as a client of a server opens a connection.
struct ConnectsOnStore {
    inner: ReferenceDriver,
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for ConnectsOnStore {
        forward(inner): driver_id, get, forget, list, namespaces, recall, store_many,
            export_page, import, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            let socket = tokio::net::UdpSocket::bind("127.0.0.1:0")
                .await
                .map_err(|e| MemoryError::backend("failed to open a socket", e))?;
            drop(socket);
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }
    }
}

tinymemory_conformance::conformance_tests!(connects, || Ok(Box::new(ConnectsOnStore {
    inner: ReferenceDriver::new()
}) as _));

//! `MemoryProvider` for smart pointers and references, so `Box<dyn
//! MemoryProvider>`, `Arc<dyn MemoryProvider>` and `&T` can be wrapped by
//! generic decorators and passed where a provider is expected.

use std::sync::Arc;

use async_trait::async_trait;

use crate::batch::NewEntry;
use crate::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use crate::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions,
};

macro_rules! forward {
    ($($ptr:ty),+) => {$(
        #[deny(clippy::missing_trait_methods)]
        #[async_trait]
        impl<T: MemoryProvider + ?Sized> MemoryProvider for $ptr {
            fn driver_id(&self) -> &str {
                (**self).driver_id()
            }

            async fn store(
                &self,
                namespace: &str,
                key: &str,
                content: &str,
                category: MemoryCategory,
                session_id: Option<&str>,
                taint: MemoryTaint,
            ) -> Result<(), MemoryError> {
                (**self)
                    .store(namespace, key, content, category, session_id, taint)
                    .await
            }

            async fn get(
                &self,
                namespace: &str,
                key: &str,
            ) -> Result<Option<MemoryEntry>, MemoryError> {
                (**self).get(namespace, key).await
            }

            async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
                (**self).forget(namespace, key).await
            }

            async fn list(
                &self,
                namespace: Option<&str>,
                category: Option<&MemoryCategory>,
                session_id: Option<&str>,
            ) -> Result<Vec<MemoryEntry>, MemoryError> {
                (**self).list(namespace, category, session_id).await
            }

            async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
                (**self).namespaces().await
            }

            async fn recall(
                &self,
                query: &str,
                limit: usize,
                opts: &RecallOptions,
            ) -> Result<Vec<MemoryEntry>, MemoryError> {
                (**self).recall(query, limit, opts).await
            }

            async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
                (**self).store_many(entries).await
            }

            async fn export_page(
                &self,
                cursor: Option<&ExportCursor>,
                limit: usize,
            ) -> Result<ExportPage, MemoryError> {
                (**self).export_page(cursor, limit).await
            }

            async fn import(
                &self,
                records: &[MemoryRecord],
            ) -> Result<ImportOutcome, MemoryError> {
                (**self).import(records).await
            }
        }
    )+};
}

forward!(Box<T>, Arc<T>, &T);

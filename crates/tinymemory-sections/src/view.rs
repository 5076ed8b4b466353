//! One section, addressed by scope.

use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemorySection, MemoryTaint,
    Namespace, RecallOptions,
};

use crate::recall::enumerate;
use crate::{SectionHits, SectionRecall, SectionScope, NAMESPACE_FILTER_CONFLICT};

/// One section of a provider's memory: `put`/`get`/`forget`/`list`/`recall`
/// on one scope, `scopes`/`list_section`/`across` over all of them.
///
/// The section is normalised at construction (`Custom("conversation")` is
/// [`MemorySection::Conversation`]) and validated once: a view of an unusable
/// section (`Custom("Bad Prefix")`, `Custom("")`, `Custom("a:b")`) fails
/// every call with [`MemoryError::Invalid`] and rule
/// [`SECTION_PREFIX`](tinymemory_api::rules::SECTION_PREFIX), the enumerating
/// calls included, so it is never mistaken for an empty section.
#[derive(Clone)]
pub struct SectionView<'a> {
    provider: &'a dyn MemoryProvider,
    section: MemorySection,
}

impl<'a> SectionView<'a> {
    pub(crate) fn new(provider: &'a dyn MemoryProvider, section: &MemorySection) -> Self {
        Self {
            provider,
            section: section.clone().normalized(),
        }
    }

    /// The normalised section.
    #[must_use]
    pub fn section(&self) -> &MemorySection {
        &self.section
    }

    /// The namespace of `scope` in this section: `<prefix>:<scope>`.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an unusable section or a scope that does
    /// not make a valid namespace (empty, bad characters, too long).
    pub fn namespace(&self, scope: &str) -> Result<Namespace, MemoryError> {
        Namespace::new(&self.section, scope)
    }

    /// Stores (upserts) `content` under `key` in `scope`. One provider call.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an unusable section or scope, else the
    /// provider's error.
    pub async fn put(
        &self,
        scope: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        let ns = self.namespace(scope)?;
        self.provider
            .store(ns.as_str(), key, content, category, session_id, taint)
            .await
    }

    /// The entry at `key` in `scope`, if any. One provider call.
    ///
    /// # Errors
    ///
    /// As [`SectionView::put`].
    pub async fn get(&self, scope: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let ns = self.namespace(scope)?;
        self.provider.get(ns.as_str(), key).await
    }

    /// Removes the entry at `key` in `scope`; `true` when one was removed.
    /// One provider call.
    ///
    /// # Errors
    ///
    /// As [`SectionView::put`].
    pub async fn forget(&self, scope: &str, key: &str) -> Result<bool, MemoryError> {
        let ns = self.namespace(scope)?;
        self.provider.forget(ns.as_str(), key).await
    }

    /// The entries of `scope` matching the filters, ordered by key. One
    /// provider call.
    ///
    /// # Errors
    ///
    /// As [`SectionView::put`].
    pub async fn list(
        &self,
        scope: &str,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let ns = self.namespace(scope)?;
        self.provider
            .list(Some(ns.as_str()), category, session_id)
            .await
    }

    /// Recalls `query` in one scope. One provider call.
    ///
    /// # Errors
    ///
    /// As [`SectionView::put`], and [`MemoryError::Invalid`] with
    /// [`NAMESPACE_FILTER_CONFLICT`] when `opts.namespace` is set.
    pub async fn recall(
        &self,
        scope: &str,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let ns = self.namespace(scope)?;
        if let Some(given) = &opts.namespace {
            return Err(MemoryError::invalid(
                NAMESPACE_FILTER_CONFLICT,
                format!("recall in scope {scope:?} would override opts.namespace = {given:?}"),
            ));
        }
        let pinned = RecallOptions {
            namespace: Some(ns.into_string()),
            ..opts.clone()
        };
        self.provider.recall(query, limit, &pinned).await
    }

    /// Every non-empty scope of the section, ordered by namespace ascending.
    /// One provider call (`namespaces()`).
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an unusable section; the provider's
    /// error; [`MemoryError::Backend`] when the driver lists a namespace of
    /// the section twice or lists an invalid one.
    pub async fn scopes(&self) -> Result<Vec<SectionScope>, MemoryError> {
        self.section.validate()?;
        let mut listed = enumerate::section_namespaces(self.provider, &self.section).await?;
        listed.sort_by(|a, b| a.namespace.cmp(&b.namespace));
        Ok(listed
            .into_iter()
            .map(|s| {
                let scope = s.namespace[self.section.prefix().len() + 1..].to_owned();
                SectionScope {
                    scope,
                    namespace: s.namespace,
                    count: s.count,
                    last_updated: s.last_updated,
                }
            })
            .collect())
    }

    /// Every entry of every scope matching the filters, ordered by
    /// `(namespace, key)`. `1 + N` provider calls: `namespaces()`, then one
    /// `list` per scope.
    ///
    /// # Errors
    ///
    /// As [`SectionView::scopes`], and the first `list` error.
    pub async fn list_section(
        &self,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let mut out = Vec::new();
        for scope in self.scopes().await? {
            out.extend(
                self.provider
                    .list(Some(&scope.namespace), category, session_id)
                    .await?,
            );
        }
        Ok(out)
    }

    /// [`SectionRecall::across_section`] over this section with default
    /// settings.
    ///
    /// # Errors
    ///
    /// As [`SectionRecall::across_section`].
    pub async fn across(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<SectionHits, MemoryError> {
        SectionRecall::new(self.provider)
            .across_section(&self.section, query, limit, opts)
            .await
    }
}

impl std::fmt::Debug for SectionView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SectionView")
            .field("driver", &self.provider.driver_id())
            .field("section", &self.section)
            .finish()
    }
}

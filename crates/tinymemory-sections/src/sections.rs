//! The entry point: one provider, many section views.

use tinymemory_api::{MemoryProvider, MemorySection};

use crate::{SectionRecall, SectionView};

/// The section API over one [`MemoryProvider`]. Cheap to create and to copy:
/// it only borrows the provider.
#[derive(Clone, Copy)]
pub struct Sections<'a> {
    provider: &'a dyn MemoryProvider,
}

impl<'a> Sections<'a> {
    /// Section access over `provider`.
    #[must_use]
    pub fn new(provider: &'a dyn MemoryProvider) -> Self {
        Self { provider }
    }

    /// The `conversation` section.
    #[must_use]
    pub fn conversations(&self) -> SectionView<'a> {
        self.section(&MemorySection::Conversation)
    }

    /// The `learning` section.
    #[must_use]
    pub fn learnings(&self) -> SectionView<'a> {
        self.section(&MemorySection::Learning)
    }

    /// The `document` section.
    #[must_use]
    pub fn documents(&self) -> SectionView<'a> {
        self.section(&MemorySection::Document)
    }

    /// Any section, normalised: `section(&Custom("conversation".into()))` is
    /// the same view as [`Sections::conversations`]. An unusable custom prefix
    /// gives a view whose every call fails with
    /// [`MemoryError::Invalid`](tinymemory_api::MemoryError::Invalid).
    #[must_use]
    pub fn section(&self, section: &MemorySection) -> SectionView<'a> {
        SectionView::new(self.provider, section)
    }

    /// The fan-out recall with default settings
    /// ([`MAX_SECTION_NAMESPACES`](crate::MAX_SECTION_NAMESPACES),
    /// [`DEFAULT_CONCURRENCY`](crate::DEFAULT_CONCURRENCY)).
    #[must_use]
    pub fn recall(&self) -> SectionRecall<'a> {
        SectionRecall::new(self.provider)
    }
}

impl std::fmt::Debug for Sections<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sections")
            .field("driver", &self.provider.driver_id())
            .finish()
    }
}

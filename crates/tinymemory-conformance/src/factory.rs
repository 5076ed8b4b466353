//! How a check gets a fresh driver.

use async_trait::async_trait;
use tinymemory_api::{MemoryError, MemoryProvider};

/// Opens fresh, empty drivers of one kind: one per check, so checks never
/// see each other's data.
#[async_trait]
pub trait DriverFactory: Send + Sync {
    /// The driver id reports name, such as `sqlite`.
    fn driver_id(&self) -> String;

    /// A new, empty driver.
    ///
    /// # Errors
    ///
    /// The driver's error when it cannot be opened; the check then fails.
    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError>;
}

/// A [`DriverFactory`] from a closure.
pub struct FnFactory<F> {
    id: String,
    open: F,
}

impl<F> FnFactory<F>
where
    F: Fn() -> Result<Box<dyn MemoryProvider>, MemoryError> + Send + Sync,
{
    /// A factory named `id` that calls `open` for each fresh driver.
    pub fn new(id: impl Into<String>, open: F) -> Self {
        Self {
            id: id.into(),
            open,
        }
    }
}

#[async_trait]
impl<F> DriverFactory for FnFactory<F>
where
    F: Fn() -> Result<Box<dyn MemoryProvider>, MemoryError> + Send + Sync,
{
    fn driver_id(&self) -> String {
        self.id.clone()
    }

    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        (self.open)()
    }
}

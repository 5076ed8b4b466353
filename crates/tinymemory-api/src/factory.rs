//! How a test suite gets fresh drivers: the [`DriverFactory`] a driver
//! crate implements, here beside the trait it serves, so that no driver
//! depends on the conformance suite that judges it (as object_store keeps
//! its test suite above the trait and no backend depends on it).

use std::time::Duration;

use async_trait::async_trait;

use crate::{MemoryError, MemoryProvider, RecallProfile};

/// How long one driver call may go unanswered before the driver is taken
/// as hung and the check fails naming the call. Forty times the slowest
/// call measured: over a whole run of the Python example driver with the
/// corpus (20,990 requests, debug build, two loaded cores) the slowest
/// answer took 0.77 s (a `hello`, the interpreter starting) and the
/// slowest inside a check 0.71 s (a `recall` of 1 MB contents). Below the
/// base budget, so a hang is reported as a hang, not as a timeout.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// Opens fresh, empty drivers of one kind: one per check, so checks never
/// see each other's data.
#[async_trait]
pub trait DriverFactory: Send + Sync {
    /// The driver id reports name, such as `sqlite`.
    fn driver_id(&self) -> String;

    /// The recall profile the driver declares, which picks the checks a
    /// conformance run applies (each check states the profiles it applies
    /// to). The default is [`RecallProfile::Lexical`], today's full-text
    /// rules; a vector store declares [`RecallProfile::Semantic`].
    fn recall_profile(&self) -> RecallProfile {
        RecallProfile::Lexical
    }

    /// Whether two drivers [`DriverFactory::open`] returns are two
    /// independent stores, each with data of its own, so a suite may use
    /// them at once (one check each: `run --jobs N`). The default is
    /// `true`, as for every in-process store; a factory whose stores share
    /// one external database (a process that connects to a server) says
    /// `false`, and checks then run one at a time.
    fn independent_stores(&self) -> bool {
        true
    }

    /// A hint given when a run starts: it will hold up to `stores` stores
    /// of this factory at once (its jobs, twice that when a check holds two
    /// stores or runs property cases on free slots). A factory whose
    /// [`DriverFactory::open`] is slow (a process to start) may begin
    /// preparing that many now, in the background and concurrently, so
    /// that no open waits for a whole start-up; it never prepares more than
    /// `stores` at once on this hint, and calling it again with the same
    /// number starts nothing more. It must return at once. The default does
    /// nothing: an in-process store opens at once.
    fn start_ahead(&self, stores: usize) {
        let _ = stores;
    }

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
    profile: RecallProfile,
    open: F,
}

impl<F> FnFactory<F>
where
    F: Fn() -> Result<Box<dyn MemoryProvider>, MemoryError> + Send + Sync,
{
    /// A factory named `id` that calls `open` for each fresh driver, of
    /// the [`RecallProfile::Lexical`] profile.
    pub fn new(id: impl Into<String>, open: F) -> Self {
        Self {
            id: id.into(),
            profile: RecallProfile::Lexical,
            open,
        }
    }

    /// The same factory declaring `profile` instead.
    #[must_use]
    pub fn with_profile(mut self, profile: RecallProfile) -> Self {
        self.profile = profile;
        self
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

    fn recall_profile(&self) -> RecallProfile {
        self.profile
    }

    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        (self.open)()
    }
}

//! [`Faults`]: fault injection, driven through a [`FaultHandle`].

mod handle;
mod kind;
mod wrapper;

pub use handle::FaultHandle;
pub use kind::FaultKind;
pub use wrapper::Faults;

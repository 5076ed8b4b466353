//! [`Recording`]: a decorator that records every call, and its [`CallLog`].

mod call;
mod log;
mod wrapper;

pub use call::{Call, Method};
pub use log::CallLog;
pub use wrapper::Recording;

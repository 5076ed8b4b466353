//! Crate-private macros.

/// The tower-style accessors of a decorator whose only field is `inner`:
/// `new`, `into_inner` (for sized `P`), `get_ref` and `get_mut`.
macro_rules! inner_only_accessors {
    ($ty:ident) => {
        impl<P> $ty<P> {
            /// Wraps `inner`.
            #[must_use]
            pub fn new(inner: P) -> Self {
                Self { inner }
            }

            /// Unwraps the provider.
            #[must_use]
            pub fn into_inner(self) -> P {
                self.inner
            }
        }

        impl<P: ?Sized> $ty<P> {
            /// The wrapped provider.
            #[must_use]
            pub fn get_ref(&self) -> &P {
                &self.inner
            }

            /// The wrapped provider, mutably.
            #[must_use]
            pub fn get_mut(&mut self) -> &mut P {
                &mut self.inner
            }
        }
    };
}

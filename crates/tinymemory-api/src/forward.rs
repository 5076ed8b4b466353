//! `MemoryProvider` for smart pointers and references, so `Box<dyn
//! MemoryProvider>`, `Arc<dyn MemoryProvider>` and `&T` can be wrapped by
//! generic decorators and passed where a provider is expected.

use std::sync::Arc;

use crate::MemoryProvider;

macro_rules! forward {
    ($($ptr:ty),+) => {$(
        crate::delegate_provider! {
            impl[T: MemoryProvider + ?Sized] MemoryProvider for $ptr {
                forward(*): driver_id, store, get, forget, list, namespaces, recall,
                    store_many, export_page, import, interface;
            }
        }
    )+};
}

forward!(Box<T>, Arc<T>, &T);

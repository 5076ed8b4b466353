//! [`delegate_provider!`](crate::delegate_provider): one `MemoryProvider`
//! impl that forwards the methods a wrapper does not change.

/// Implements [`MemoryProvider`](crate::MemoryProvider) for a wrapper by
/// forwarding the named methods to one of its fields, next to the methods
/// written by hand.
///
/// ```text
/// delegate_provider! {
///     /// Attributes and docs of the impl.
///     impl[<generic parameters>] MemoryProvider for <type> {
///         forward(<field>): <method>, <method>, ...;
///
///         <hand-written methods>
///     }
/// }
/// ```
///
/// - `<generic parameters>` are what `impl<...>` would hold, in square
///   brackets (`impl[P: MemoryProvider + ?Sized]`); leave out the brackets
///   for a type without parameters.
/// - `<field>` is the field that holds the inner provider: a name
///   (`inner`), a tuple index (`0`), or `*` to forward to `**self` (for
///   smart pointers).
/// - Each forwarded method becomes `self.<field>.<method>(<arguments>)`,
///   awaited, with the trait's own signature; nothing else changes, not the
///   error, not the order of the arguments.
/// - The hand-written methods are the trait's methods as written in any
///   impl, `async fn` included, with their docs and attributes, and with
///   the trait's elided lifetimes: explicit ones (`fn forget<'a>(&'a
///   self, ..)`) are not accepted (`no rules expected 'a`).
/// - Bounds go in the brackets: a `where` clause after the type is not
///   accepted (`no rules expected keyword where`).
///
/// Everything goes into one `#[async_trait]` impl (the attribute must see
/// every method, so the forwarded ones are generated, not a macro call
/// inside the impl) carrying `#[deny(clippy::missing_trait_methods)]`.
///
/// # Every method is named
///
/// Each of the trait's ten methods (`driver_id`, `store`, `get`, `forget`,
/// `list`, `namespaces`, `recall`, `store_many`, `export_page`, `import`)
/// must be either forwarded or written by hand, including the three with a
/// default: a wrapper that breaks `store` cannot inherit `store_many`'s
/// default (nor forward it) without saying so. A method left out is a
/// compile error (``non-exhaustive patterns:
/// `tinymemory_api::__private::Method::import` not covered`` names it), a
/// method both forwarded and written is one too (duplicate definitions),
/// and so is a forwarded name that is not a method of the trait.
///
/// # Example
///
/// A wrapper that answers `true` to every successful `forget` and forwards
/// the rest:
///
/// ```
/// use tinymemory_api::{delegate_provider, MemoryError, MemoryProvider};
///
/// struct ForgetAlwaysTrue<P: ?Sized> {
///     inner: P,
/// }
///
/// delegate_provider! {
///     impl[P: MemoryProvider + ?Sized] MemoryProvider for ForgetAlwaysTrue<P> {
///         forward(inner): driver_id, store, get, list, namespaces, recall,
///             store_many, export_page, import, interface;
///
///         async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
///             self.inner.forget(namespace, key).await?;
///             Ok(true)
///         }
///     }
/// }
/// ```
///
/// Leaving out a method, even one with a default (here `import`), does
/// not compile:
///
/// ```compile_fail,E0004
/// use tinymemory_api::{delegate_provider, MemoryProvider};
///
/// struct Wrapper<P>(P);
///
/// delegate_provider! {
///     impl[P: MemoryProvider] MemoryProvider for Wrapper<P> {
///         forward(0): driver_id, store, get, forget, list, namespaces, recall,
///             store_many, export_page;
///     }
/// }
/// ```
///
/// Nor does forwarding a method that is also written by hand:
///
/// ```compile_fail,E0201
/// use tinymemory_api::{delegate_provider, MemoryProvider};
///
/// struct Wrapper<P>(P);
///
/// delegate_provider! {
///     impl[P: MemoryProvider] MemoryProvider for Wrapper<P> {
///         forward(0): driver_id, store, get, forget, list, namespaces, recall,
///             store_many, export_page, import, interface;
///
///         fn driver_id(&self) -> &str {
///             "wrapper"
///         }
///     }
/// }
/// ```
///
/// Nor does a misspelt method:
///
/// ```compile_fail
/// use tinymemory_api::{delegate_provider, MemoryProvider};
///
/// struct Wrapper<P>(P);
///
/// delegate_provider! {
///     impl[P: MemoryProvider] MemoryProvider for Wrapper<P> {
///         forward(0): driver_id, store, get, forget, list, namespaces, recal,
///             store_many, export_page, import, interface;
///     }
/// }
/// ```
#[macro_export]
macro_rules! delegate_provider {
    (
        $(#[$attr:meta])*
        impl $([$($generics:tt)*])? MemoryProvider for $ty:ty {
            forward($($field:tt)+): $($forwarded:ident),+ $(,)?;
            $($item:tt)*
        }
    ) => {
        $crate::delegate_provider!(@munch
            { $(#[$attr])* }
            { $($($generics)*)? }
            { $ty }
            [ $($field)+ ]
            [ $($forwarded)+ ]
            []
            { $($item)* }
        );
        $crate::delegate_provider!(@exhaustive [ $($forwarded)+ ] $($item)*);
    };

    // Every method forwarded: the one impl.
    (@munch
        { $($attr:tt)* } { $($generics:tt)* } { $ty:ty } [ $($field:tt)+ ]
        [] [ $($done:tt)* ] { $($item:tt)* }
    ) => {
        $($attr)*
        #[deny(clippy::missing_trait_methods)]
        #[$crate::__private::async_trait]
        impl<$($generics)*> $crate::MemoryProvider for $ty {
            $($done)*
            $($item)*
        }
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ driver_id $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            fn driver_id(&self) -> &str {
                $crate::delegate_provider!(@target self $field).driver_id()
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ store $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn store(
                &self,
                namespace: &str,
                key: &str,
                content: &str,
                category: $crate::MemoryCategory,
                session_id: ::core::option::Option<&str>,
                taint: $crate::MemoryTaint,
            ) -> ::core::result::Result<(), $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field)
                    .store(namespace, key, content, category, session_id, taint)
                    .await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ get $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn get(
                &self,
                namespace: &str,
                key: &str,
            ) -> ::core::result::Result<
                ::core::option::Option<$crate::MemoryEntry>,
                $crate::MemoryError,
            > {
                $crate::delegate_provider!(@target self $field).get(namespace, key).await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ forget $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn forget(
                &self,
                namespace: &str,
                key: &str,
            ) -> ::core::result::Result<bool, $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field).forget(namespace, key).await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ list $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn list(
                &self,
                namespace: ::core::option::Option<&str>,
                category: ::core::option::Option<&$crate::MemoryCategory>,
                session_id: ::core::option::Option<&str>,
            ) -> ::core::result::Result<::std::vec::Vec<$crate::MemoryEntry>, $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field)
                    .list(namespace, category, session_id)
                    .await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ namespaces $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn namespaces(
                &self,
            ) -> ::core::result::Result<
                ::std::vec::Vec<$crate::NamespaceSummary>,
                $crate::MemoryError,
            > {
                $crate::delegate_provider!(@target self $field).namespaces().await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ recall $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn recall(
                &self,
                query: &str,
                limit: usize,
                opts: &$crate::RecallOptions,
            ) -> ::core::result::Result<::std::vec::Vec<$crate::MemoryEntry>, $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field)
                    .recall(query, limit, opts)
                    .await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ store_many $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn store_many(
                &self,
                entries: &[$crate::batch::NewEntry],
            ) -> ::core::result::Result<(), $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field).store_many(entries).await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ export_page $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn export_page(
                &self,
                cursor: ::core::option::Option<&$crate::portability::ExportCursor>,
                limit: usize,
            ) -> ::core::result::Result<$crate::portability::ExportPage, $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field)
                    .export_page(cursor, limit)
                    .await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ import $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn import(
                &self,
                records: &[$crate::portability::MemoryRecord],
            ) -> ::core::result::Result<$crate::portability::ImportOutcome, $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field).import(records).await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ interface $($rest:ident)* ] [ $($done:tt)* ] $items:tt
    ) => {
        $crate::delegate_provider!(@munch $attr $generics $ty $field [ $($rest)* ] [
            $($done)*
            async fn interface(
                &self,
                scenario: &$crate::interface::Scenario<'_>,
            ) -> ::core::result::Result<::std::string::String, $crate::MemoryError> {
                $crate::delegate_provider!(@target self $field).interface(scenario).await
            }
        ] $items);
    };

    (@munch $attr:tt $generics:tt $ty:tt $field:tt
        [ $unknown:ident $($rest:ident)* ] $done:tt $items:tt
    ) => {
        ::core::compile_error!(::core::concat!(
            "delegate_provider!: `",
            ::core::stringify!($unknown),
            "` is not a method of MemoryProvider"
        ));
    };

    // The receiver comes from the method's own expansion, so that `self`
    // here and in `&self` are the same identifier.
    (@target $self:ident [ * ]) => { (**$self) };
    (@target $self:ident [ $field:tt ]) => { $self.$field };

    // A match over every method, each forwarded or written once: one left
    // out is a non-exhaustive match, which names it.
    (@exhaustive [ $($forwarded:ident)* ]
        $(
            $(#[$meta:meta])*
            $(async)? fn $written:ident $params:tt $(-> $output:ty)? $body:block
        )*
    ) => {
        const _: () = {
            #[allow(dead_code)]
            fn every_method_named(method: $crate::__private::Method) {
                match method {
                    $($crate::__private::Method::$forwarded => {})*
                    $($crate::__private::Method::$written => {})*
                }
            }
        };
    };
}

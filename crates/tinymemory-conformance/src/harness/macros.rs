//! [`conformance_tests!`](crate::conformance_tests): one `#[test]` per
//! check.
//!
//! A registry is built at run time, but test functions must exist at compile
//! time, so both come from one table, `__tinymemory_standard_checks!` in
//! `src/checks.rs`: the registry is built from its rows, and this macro
//! makes one test function of each.

/// Expands one driver factory into a module holding one `#[test]` per
/// standard check, so that `cargo test` (and nextest) list and report the
/// checks one by one: `my_driver::recall_limit`, `my_driver::model_differential`.
///
/// ```
/// # use tinymemory_reference::ReferenceDriver as MyDriver;
/// use tinymemory_conformance::RunConfig;
///
/// tinymemory_conformance::conformance_tests!(
///     my_driver,
///     || Ok(Box::new(MyDriver::new()) as _),
///     // Optional, in this order:
///     profile = tinymemory_api::RecallProfile::Lexical,
///     config = RunConfig { cases: 64, ..RunConfig::default() },
///     corpus = tinymemory_corpus::Corpus::default_root(),
///     expected_failures = {
///         "recall.min_score" => "the engine reports no scores; tracked in issue 12",
///     },
/// );
/// # fn main() {}
/// ```
///
/// - The first argument names the generated module; the factory (a closure
///   returning `Result<Box<dyn MemoryProvider>, MemoryError>`) must return a
///   fresh, empty driver on every call. Inside the module `use super::*` is
///   in force, so the factory may name the caller's items.
/// - `profile` holds the driver to a recall profile
///   ([`tinymemory_api::RecallProfile`]; default lexical); the tests of
///   checks of another profile pass at once, printing `skipped` and why.
/// - `config` defaults to [`RunConfig::default`](crate::RunConfig); either
///   way the environment overrides it
///   ([`RunConfig::with_env_overrides`](crate::RunConfig::with_env_overrides):
///   `TINYMEMORY_CASES`, `PROPTEST_CASES`, `TINYMEMORY_SEED`).
/// - `corpus` is a directory the corpus checks load into a fresh driver;
///   without it they are skipped.
/// - `expected_failures` maps check ids to the reason the driver fails them.
///   Such a check passes the test while it fails, and fails the test once it
///   starts passing, so the declaration is removed. A blank reason or an
///   unknown id fails every test of the module, and the generated test
///   `expected_failures_are_valid` names the problem.
///
/// Each test runs its check on a new current-thread Tokio runtime
/// ([`Harness::test`](crate::Harness::test)). A skipped check passes its
/// test and prints the reason to stderr (`cargo test -- --nocapture`).
///
/// # A driver that needs a server
///
/// A driver whose stores are opened asynchronously, or only when a server
/// is reachable, gives `factory = EXPR` instead of the closure: EXPR is a
/// `Result<F, String>` with `F` a [`DriverFactory`](tinymemory_api::DriverFactory),
/// evaluated once per test. `Err(why)` skips the test: it passes and prints
/// `SKIPPED <module path>::<test>: <why>` to stderr, so a run without the
/// server says so on every check instead of failing it (in CI, make EXPR
/// panic instead: there the checks must run).
///
/// ```
/// use tinymemory_api::DriverFactory;
/// use tinymemory_conformance::FnFactory;
///
/// /// The factory of the server named by `MY_DB_URL`.
/// fn my_factory() -> Result<impl DriverFactory, String> {
///     match std::env::var("MY_DB_URL") {
///         Ok(_url) => Ok(FnFactory::new("my-db", || {
///             Ok(Box::new(tinymemory_reference::ReferenceDriver::new()) as _)
///         })),
///         Err(_) => Err("needs a server: set MY_DB_URL".to_owned()),
///     }
/// }
///
/// tinymemory_conformance::conformance_tests!(my_db, factory = my_factory());
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! conformance_tests {
    ($name:ident, factory = $factory:expr $(, $($options:tt)*)?) => {
        $crate::conformance_tests!(@with [factory $factory] $name $(, $($options)*)?);
    };
    (@with [$kind:ident $factory:expr] $name:ident
        $(, profile = $profile:expr)?
        $(, config = $config:expr)?
        $(, corpus = $corpus:expr)?
        $(, expected_failures = { $($id:literal => $reason:literal),* $(,)? })?
        $(,)?
    ) => {
        $crate::__tinymemory_standard_checks! {
            [$crate::__tinymemory_conformance_module]
            [$name] [$kind $factory] [$($profile)?] [$($config)?] [$($corpus)?] [$($($id => $reason),*)?]
        }
    };
    ($name:ident, $factory:expr $(, $($options:tt)*)?) => {
        $crate::conformance_tests!(@with [from_fn $factory] $name $(, $($options)*)?);
    };
}

/// Not public API: the harness of a [`conformance_tests!`] module over a
/// closure (`from_fn`) or a `Result` of a factory (`factory`), `Err` being
/// why the tests are skipped.
#[doc(hidden)]
#[macro_export]
macro_rules! __tinymemory_harness_of {
    ($name:ident from_fn $factory:expr) => {
        ::std::result::Result::<$crate::Harness, ::std::string::String>::Ok(
            $crate::Harness::from_fn(stringify!($name), $factory),
        )
    };
    ($name:ident factory $factory:expr) => {
        ::std::result::Result::<_, ::std::string::String>::map($factory, |f| {
            $crate::Harness::new(::std::sync::Arc::new(f))
        })
    };
}

/// Not public API: the module [`conformance_tests!`] generates.
#[doc(hidden)]
#[macro_export]
macro_rules! __tinymemory_conformance_module {
    (
        [$name:ident] [$kind:ident $factory:expr] [$($profile:expr)?] [$($config:expr)?] [$($corpus:expr)?]
        [$($id:literal => $reason:literal),*];
        $($test:ident => $check:literal $def:tt $docs:tt;)*
    ) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            /// The module's harness, or why its tests are skipped.
            fn harness() -> ::std::result::Result<$crate::Harness, ::std::string::String> {
                #[allow(unused_mut)]
                let mut config = $crate::RunConfig::default();
                $( config = $config; )?
                let config = config
                    .with_env_overrides()
                    .unwrap_or_else(|e| panic!("{e}"));
                #[allow(unused_mut)]
                let mut harness = $crate::__tinymemory_harness_of!($name $kind $factory)?
                    .with_config(config);
                $( harness = harness.with_profile($profile); )?
                $( harness = harness.with_corpus($corpus); )?
                Ok(harness $( .expect_failure($id, $reason) )*)
            }

            #[test]
            fn expected_failures_are_valid() {
                match harness() {
                    Ok(harness) => {
                        if let Err(e) = harness.validate() {
                            panic!("{e}");
                        }
                    }
                    Err(why) => $crate::Harness::skip_unavailable(
                        concat!(module_path!(), "::expected_failures_are_valid"),
                        &why,
                    ),
                }
            }

            $(
                #[test]
                fn $test() {
                    match harness() {
                        Ok(harness) => harness.test($check),
                        Err(why) => $crate::Harness::skip_unavailable(
                            concat!(module_path!(), "::", stringify!($test)),
                            &why,
                        ),
                    }
                }
            )*
        }
    };
}

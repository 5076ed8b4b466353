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
#[macro_export]
macro_rules! conformance_tests {
    (
        $name:ident,
        $factory:expr
        $(, profile = $profile:expr)?
        $(, config = $config:expr)?
        $(, corpus = $corpus:expr)?
        $(, expected_failures = { $($id:literal => $reason:literal),* $(,)? })?
        $(,)?
    ) => {
        $crate::__tinymemory_standard_checks! {
            [$crate::__tinymemory_conformance_module]
            [$name] [$factory] [$($profile)?] [$($config)?] [$($corpus)?] [$($($id => $reason),*)?]
        }
    };
}

/// Not public API: the module [`conformance_tests!`] generates.
#[doc(hidden)]
#[macro_export]
macro_rules! __tinymemory_conformance_module {
    (
        [$name:ident] [$factory:expr] [$($profile:expr)?] [$($config:expr)?] [$($corpus:expr)?]
        [$($id:literal => $reason:literal),*];
        $($test:ident => $check:literal $def:tt $docs:tt;)*
    ) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            fn harness() -> $crate::Harness {
                #[allow(unused_mut)]
                let mut config = $crate::RunConfig::default();
                $( config = $config; )?
                let config = config
                    .with_env_overrides()
                    .unwrap_or_else(|e| panic!("{e}"));
                #[allow(unused_mut)]
                let mut harness = $crate::Harness::from_fn(stringify!($name), $factory).with_config(config);
                $( harness = harness.with_profile($profile); )?
                $( harness = harness.with_corpus($corpus); )?
                harness $( .expect_failure($id, $reason) )*
            }

            #[test]
            fn expected_failures_are_valid() {
                if let Err(e) = harness().validate() {
                    panic!("{e}");
                }
            }

            $(
                #[test]
                fn $test() {
                    harness().test($check);
                }
            )*
        }
    };
}

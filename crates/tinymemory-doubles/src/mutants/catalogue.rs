//! The catalogue's entry type, the macro each mutant file writes its
//! entries with, and the catalogue gathered from those files.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::LazyLock;

use tinymemory_api::{MemoryError, MemoryProvider, RecallProfile};

/// One entry of the catalogue: a way to break exactly one rule, and the
/// conformance check that must notice.
///
/// Fields are public for reading; entries are built by this crate only.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Mutant {
    /// Unique, kebab-case, saying what the driver does wrong, such as
    /// `negated-scores`.
    pub name: &'static str,
    /// The rule broken, one line: `contract N: ...` for a sentence of the
    /// `MemoryProvider` contract, `namespaces: ...` for a namespace rule,
    /// `section API: ...` for a rule of the section API that a driver can
    /// break.
    pub rule: &'static str,
    /// The id of the conformance check that must catch this mutant, such
    /// as `recall.limit`.
    pub check: &'static str,
    /// Other checks known to fail on this mutant too, in registry order;
    /// empty when none. The self-test fails on any failing check that is
    /// neither [`Mutant::check`] nor listed here, so a new overlap is
    /// written down, not discovered later.
    pub also_caught_by: &'static [&'static str],
    /// One line: how the wrapped driver misbehaves.
    pub description: &'static str,
    /// The recall profile of the driver it wraps, and so of the run that
    /// must catch it: `lexical` mutants wrap the reference driver,
    /// `semantic` ones the semantic reference driver
    /// ([`Mutant::base`]).
    pub profile: RecallProfile,
    /// The call that builds the wrapper, as [`Mutant::wrap`] makes it,
    /// with `_` for the wrapped driver (always the last argument):
    /// `DuplicatesOnStore::new(_)`, `RankingFault::new(RankingFaultKind::ShortTopK, _)`.
    /// Paths are relative to [`mutants`](mod@crate::mutants), or start
    /// with `crate::` for the decorators at the crate's root.
    pub wrapper: &'static str,
    /// Wraps a (conforming) driver into the mutant. The result reports the
    /// wrapped driver's `driver_id`.
    pub wrap: fn(Box<dyn MemoryProvider>) -> Box<dyn MemoryProvider>,
    /// A scenario on which the mutant and [`Mutant::base`] answer
    /// differently, with what each answers: the proof, independent of the
    /// conformance checks, that the mutant breaks something at all.
    pub witness: Witness,
}

/// What a [`Witness`] scenario returns: what it observed, rendered as
/// text, or the error of a call it needed to succeed.
pub type WitnessFuture<'a> = Pin<Box<dyn Future<Output = Result<String, MemoryError>> + Send + 'a>>;

/// A mutant's witness: a short scenario, run on a fresh empty driver, that
/// renders what it observed as one line, and the exact lines a conforming
/// driver ([`Mutant::base`]) and the mutant give. The two always differ;
/// the doubles crate's tests run the scenario on both and compare
/// byte for byte.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Witness {
    /// Runs the scenario on the driver given (fresh and empty).
    pub scenario: for<'a> fn(&'a dyn MemoryProvider) -> WitnessFuture<'a>,
    /// What the scenario renders on [`Mutant::base`].
    pub reference: &'static str,
    /// What it renders on the mutant ([`Mutant::open`]).
    pub mutant: &'static str,
}

/// Shows both expected renderings, not the scenario.
impl fmt::Debug for Witness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Witness")
            .field("reference", &self.reference)
            .field("mutant", &self.mutant)
            .finish_non_exhaustive()
    }
}

/// One [`Mutant`] from its fields, as each mutant file writes its
/// entries: `wrap` is the wrapper's constructor without the wrapped driver,
/// so [`Mutant::wrap`] and [`Mutant::wrapper`] come from the same tokens
/// and the name the docs show is the code that runs; `profile` is a
/// [`RecallProfile`] variant; `witness: |d| { .. }` is the body of the
/// [`Witness`] scenario over `d: &dyn MemoryProvider`, ending in
/// `Ok(rendering)`, and `reference` and `mutant` its two renderings.
macro_rules! entry {
    (
        name: $name:literal,
        rule: $rule:literal,
        check: $check:literal,
        also_caught_by: $also:expr,
        description: $description:literal,
        wrap: $first:ident $(:: $rest:ident)* ($($arg:expr),*),
        profile: $profile:ident,
        witness: |$d:ident| $scenario:block,
        reference: $reference:literal,
        mutant: $mutant:literal $(,)?
    ) => {
        $crate::mutants::Mutant {
            name: $name,
            rule: $rule,
            check: $check,
            also_caught_by: $also,
            description: $description,
            wrapper: concat!(
                stringify!($first), $("::", stringify!($rest),)* "(", $(stringify!($arg), ", ",)* "_)"
            ),
            wrap: |p| Box::new($first $(:: $rest)* ($($arg,)* p)),
            profile: tinymemory_api::RecallProfile::$profile,
            witness: $crate::mutants::Witness {
                scenario: |$d| Box::pin(async move $scenario),
                reference: $reference,
                mutant: $mutant,
            },
        }
    };
}

impl Mutant {
    /// The ids of every check expected to fail on this mutant:
    /// [`Mutant::check`], then [`Mutant::also_caught_by`].
    #[must_use]
    pub fn expected_failures(&self) -> Vec<&'static str> {
        let mut ids = vec![self.check];
        ids.extend_from_slice(self.also_caught_by);
        ids
    }

    /// A fresh, empty conforming driver of [`Mutant::profile`]: the
    /// [`ReferenceDriver`](tinymemory_reference::ReferenceDriver) or the
    /// [`SemanticReferenceDriver`](tinymemory_reference::SemanticReferenceDriver).
    #[must_use]
    pub fn base(&self) -> Box<dyn MemoryProvider> {
        match self.profile {
            RecallProfile::Lexical => Box::new(tinymemory_reference::ReferenceDriver::new()),
            RecallProfile::Semantic => {
                Box::new(tinymemory_reference::SemanticReferenceDriver::new())
            }
        }
    }

    /// [`Mutant::wrap`] around a fresh [`Mutant::base`].
    #[must_use]
    pub fn open(&self) -> Box<dyn MemoryProvider> {
        (self.wrap)(self.base())
    }
}

/// Shows every field but `wrap` (the witness without its scenario).
impl fmt::Debug for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mutant")
            .field("name", &self.name)
            .field("rule", &self.rule)
            .field("check", &self.check)
            .field("also_caught_by", &self.also_caught_by)
            .field("description", &self.description)
            .field("wrapper", &self.wrapper)
            .field("profile", &self.profile)
            .field("witness", &self.witness)
            .finish_non_exhaustive()
    }
}

/// Every mutant, in the order of the mutant files' lines in
/// [`mutants`](mod@crate::mutants) and of the entries within each file:
/// the sentences of the contract in order, then the namespace rules, then
/// the section API rules, then the mutants of metadata, identities,
/// filters and limits, then contract sentence 11 and the portability
/// family, then the mutants of a ranking engine (semantic profile). Names
/// are unique; several mutants may name the same check.
#[must_use]
pub fn mutants() -> &'static [Mutant] {
    static ALL: LazyLock<Vec<Mutant>> = LazyLock::new(super::gathered);
    &ALL
}

/// The mutant named `name`, if any.
#[must_use]
pub fn mutant(name: &str) -> Option<&'static Mutant> {
    mutants().iter().find(|m| m.name == name)
}

//! `mutant:NAME[+NAME..]`: the reference driver of the mutants' recall
//! profile wrapped by these mutants (`tinymemory_doubles::mutants()`), the
//! first innermost: one mutant breaks one rule; stacking them breaks
//! several at once. Parsing refuses a stack of mutants of different
//! profiles.

use std::fmt;

use tinymemory_api::{MemoryError, RecallProfile};
use tinymemory_conformance::FnFactory;
use tinymemory_doubles::Mutant as Entry;
use tinymemory_exec::ExecConfig;

use super::kind::{text_only, DriverKind, Registration, Sample, Spelling};
use super::{DriverSpec, Opened, SpecError};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

pub(super) const KIND: Registration = Registration {
    spellings: &[Spelling {
        form: "mutant:NAME",
        meaning: "the reference driver of the mutant's recall profile, broken by the mutant NAME of the `mutants` catalogue to see checks fail; `+` stacks several of one profile",
    }],
    parse,
    parse_os: text_only,
    samples: &[Sample {
        spec: "mutant:limit-plus-one",
        owns: &[],
    }],
};

/// A `mutant:` spec: the catalogue names of its stack, innermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mutant(pub(crate) Vec<&'static str>);

/// Why a stack of mutants is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refused {
    #[error("unknown mutant {name:?}; `tinymemory-conformance mutants` lists them: {known}")]
    Unknown { name: String, known: String },
    #[error("mutant:NAME needs a mutant name")]
    Empty,
    #[error(
        "mutants {first} ({first_profile}) and {other} ({other_profile}) wrap different \
         reference drivers; stack only mutants of one recall profile"
    )]
    MixedProfiles {
        first: &'static str,
        first_profile: RecallProfile,
        other: &'static str,
        other_profile: RecallProfile,
    },
}

fn parse(s: &str) -> Option<Result<DriverSpec, SpecError>> {
    let names = s.strip_prefix("mutant:")?;
    let stack = names.split('+').collect::<Vec<_>>();
    Some(
        entries(&stack)
            .and_then(|stack| {
                stack_profile(&stack)?;
                Ok(DriverSpec::new(Mutant(stack.iter().map(|m| m.name).collect())))
            })
            .map_err(SpecError::kind),
    )
}

/// The catalogue entries named `names`.
fn entries(names: &[&str]) -> Result<Vec<&'static Entry>, Refused> {
    names
        .iter()
        .map(|name| {
            tinymemory_doubles::mutant(name).ok_or_else(|| Refused::Unknown {
                name: (*name).to_owned(),
                known: tinymemory_doubles::mutants()
                    .iter()
                    .map(|m| m.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        })
        .collect()
}

/// The one recall profile of a stack of mutants ([`Entry::profile`]):
/// they all wrap the same reference driver ([`Entry::base`]), whose
/// profile the run declares.
///
/// # Errors
///
/// [`Refused::Empty`] for no mutant, [`Refused::MixedProfiles`] for two
/// profiles.
pub(crate) fn stack_profile(stack: &[&Entry]) -> Result<RecallProfile, Refused> {
    let Some((first, rest)) = stack.split_first() else {
        return Err(Refused::Empty);
    };
    match rest.iter().find(|m| m.profile != first.profile) {
        None => Ok(first.profile),
        Some(other) => Err(Refused::MixedProfiles {
            first: first.name,
            first_profile: first.profile,
            other: other.name,
            other_profile: other.profile,
        }),
    }
}

/// How descriptions name the reference driver of `profile`, which the
/// mutants of that profile wrap ([`Entry::base`]).
fn reference_name(profile: RecallProfile) -> &'static str {
    match profile {
        RecallProfile::Lexical => "the reference driver",
        RecallProfile::Semantic => "the semantic reference driver",
    }
}

#[async_trait::async_trait]
impl DriverKind for Mutant {
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mutant:{}", self.0.join("+"))
    }

    fn version(&self) -> String {
        let semantic = match entries(&self.0).and_then(|stack| stack_profile(&stack)) {
            Ok(RecallProfile::Semantic) => " (semantic)",
            _ => "",
        };
        format!(
            "tinymemory-reference {}{semantic} with mutant {}",
            env!("CARGO_PKG_VERSION"),
            self.0.join("+")
        )
    }

    fn open(&self, spec: &DriverSpec, _exec: ExecConfig) -> Result<Opened, MemoryError> {
        let stack = entries(&self.0).map_err(|e| MemoryError::fault(e.to_string()))?;
        let profile = stack_profile(&stack).map_err(|e| MemoryError::fault(e.to_string()))?;
        // One profile, so one base: the innermost mutant's.
        let base = stack[0];
        let wraps: Vec<_> = stack.iter().map(|m| m.wrap).collect();
        let open = move || wraps.iter().fold(base.base(), |inner, wrap| wrap(inner));
        let corpus = open();
        Ok(Opened::in_memory(
            FnFactory::new(spec.to_string(), move || Ok(open())).with_profile(profile),
            corpus,
            format!(
                "mutant {} ({}, in memory)",
                self.0.join("+"),
                reference_name(profile)
            ),
        ))
    }

    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        super::open_in_memory(spec, end).await
    }
}

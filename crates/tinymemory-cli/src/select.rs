//! `run --check PATTERN` and `--family NAME`: which checks a run executes.

use globset::{Glob, GlobMatcher};
use tinymemory_api::RecallProfile;
use tinymemory_conformance::report::RunFilter;
use tinymemory_conformance::{Check, Family, Registry};

/// Why a selection (`--check`, `--family`) is refused: a usage error
/// ([`crate::exit::USAGE`]).
#[derive(Debug, thiserror::Error)]
pub(crate) enum SelectError {
    /// A `--check` that is not a glob.
    #[error("not a valid pattern: {0}")]
    Pattern(globset::Error),
    /// An empty `--check` (`--check ''`, or a variable that expanded to
    /// nothing): it would match no check, and the message naming no
    /// pattern read as a garbled one.
    #[error(
        "--check '' is empty: give a check id, a family or a glob \
         (`tinymemory-conformance list` lists them)"
    )]
    Empty,
    /// A `--family` that is not one; the families, listed.
    #[error("no such family; the families are {0}")]
    NoFamily(String),
    /// A `--check` that matches no check of any profile.
    #[error("--check {0} matches no check id or family; `tinymemory-conformance list` lists them")]
    NoMatch(String),
    /// A `--check` that matches no check of the run's profile.
    #[error(
        "--check {pattern} matches no check id or family of the {profile} recall profile; \
         `tinymemory-conformance list --profile {profile}` lists them"
    )]
    NoMatchInProfile {
        /// As given.
        pattern: String,
        /// The run's.
        profile: RecallProfile,
    },
}

/// One `--check` pattern: a glob matched against check ids and family
/// names, with the text it was given as.
#[derive(Debug, Clone)]
pub(crate) struct CheckPattern {
    raw: String,
    matcher: GlobMatcher,
}

impl CheckPattern {
    /// `--check`'s value: a glob (`*`, `?`, `[..]`, `{a,b}`); a malformed
    /// or empty one is a usage error naming it.
    pub(crate) fn parse(raw: &str) -> Result<Self, SelectError> {
        if raw.is_empty() {
            return Err(SelectError::Empty);
        }
        let glob = Glob::new(raw).map_err(SelectError::Pattern)?;
        Ok(Self {
            raw: raw.to_owned(),
            matcher: glob.compile_matcher(),
        })
    }

    fn matches(&self, check: &Check) -> bool {
        self.matcher.is_match(check.id) || self.matcher.is_match(check.family.as_str())
    }
}

/// `--family`'s value: a family's name ([`Family::named`]); a name that
/// is none is refused listing them all, in [`Family::ALL`]'s order.
pub(crate) fn parse_family(raw: &str) -> Result<Family, SelectError> {
    Family::named(raw).ok_or_else(|| {
        let names: Vec<&str> = Family::ALL.iter().map(|f| f.as_str()).collect();
        SelectError::NoFamily(names.join(", "))
    })
}

/// The checks of `registry` (those of the run's `profile`) that the
/// patterns and families select: a check runs when its id or family
/// matches a pattern, or its family is one named. No pattern and no family
/// selects every check, and no filter is recorded.
///
/// # Errors
///
/// A pattern that matches no check of the profile, named.
/// Refuses, before any driver is opened, a `--check` pattern that
/// matches no check of `profile` (`--profile`), or of any profile when
/// none is given: the driver's own profile, known from its `hello`, then
/// narrows the selection in [`select`].
///
/// # Errors
///
/// The pattern and where the check ids are listed.
pub(crate) fn check_patterns(
    patterns: &[CheckPattern],
    profile: Option<RecallProfile>,
) -> Result<(), SelectError> {
    let registry = match profile {
        Some(p) => Registry::standard().for_profile(p),
        None => Registry::standard(),
    };
    match patterns
        .iter()
        .find(|p| !registry.checks().iter().any(|c| p.matches(c)))
    {
        None => Ok(()),
        Some(p) => Err(match profile {
            Some(profile) => no_match(p, profile),
            None => SelectError::NoMatch(p.raw.clone()),
        }),
    }
}

fn no_match(p: &CheckPattern, profile: RecallProfile) -> SelectError {
    SelectError::NoMatchInProfile {
        pattern: p.raw.clone(),
        profile,
    }
}

pub(crate) fn select(
    registry: &Registry,
    profile: RecallProfile,
    patterns: &[CheckPattern],
    families: &[Family],
) -> Result<(Registry, Option<RunFilter>), SelectError> {
    if patterns.is_empty() && families.is_empty() {
        return Ok((registry.clone(), None));
    }
    if let Some(p) = patterns
        .iter()
        .find(|p| !registry.checks().iter().any(|c| p.matches(c)))
    {
        return Err(no_match(p, profile));
    }
    let selected =
        registry.filter(|c| families.contains(&c.family) || patterns.iter().any(|p| p.matches(c)));
    let filter = RunFilter {
        checks: patterns.iter().map(|p| p.raw.clone()).collect(),
        families: families.iter().map(|f| f.as_str().to_owned()).collect(),
    };
    Ok((selected, Some(filter)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_pattern_is_refused_naming_what_check_takes() {
        let err = CheckPattern::parse("").unwrap_err();
        assert_eq!(
            err.to_string(),
            "--check '' is empty: give a check id, a family or a glob \
             (`tinymemory-conformance list` lists them)"
        );
    }

    fn ids(patterns: &[&str], families: &[Family]) -> Result<Vec<&'static str>, SelectError> {
        let patterns: Vec<CheckPattern> = patterns
            .iter()
            .map(|p| CheckPattern::parse(p).unwrap())
            .collect();
        let registry = Registry::standard().for_profile(RecallProfile::Lexical);
        select(&registry, RecallProfile::Lexical, &patterns, families)
            .map(|(r, _)| r.checks().iter().map(|c| c.id).collect())
    }

    #[test]
    fn globs_match_ids_and_family_names() {
        assert_eq!(ids(&["store.upsert"], &[]).unwrap(), ["store.upsert"]);
        assert_eq!(
            ids(&["*self_retrieval"], &[]).unwrap(),
            ["recall.self_retrieval"]
        );
        assert_eq!(
            ids(&["corpus"], &[]).unwrap(),
            ["corpus.namespace_counts", "corpus.recall_own_words"]
        );
        assert_eq!(
            ids(&["namespace?.*"], &[]).unwrap(),
            ["namespaces.exact_counts", "namespaces.last_updated"]
        );
        assert_eq!(
            ids(&["forget.*"], &[Family::Corpus]).unwrap(),
            [
                "forget.idempotent",
                "corpus.namespace_counts",
                "corpus.recall_own_words"
            ]
        );
        assert_eq!(ids(&[], &[Family::Property]).unwrap().len(), 11);
        assert_eq!(
            ids(&["portability"], &[]).unwrap(),
            [
                "portability.pages_partition",
                "portability.end_of_export",
                "portability.page_limits",
                "portability.unknown_cursor",
                "portability.cursor_stable",
                "portability.round_trip",
                "portability.taint_kept",
                "portability.import_hostile",
                "portability.import_failures",
                "portability.store_after_import"
            ]
        );
    }

    #[test]
    fn a_pattern_matching_nothing_is_named() {
        assert_eq!(
            ids(&["store.upsert", "corpus.self_retrieval"], &[])
                .unwrap_err()
                .to_string(),
            "--check corpus.self_retrieval matches no check id or family of the lexical recall \
             profile; `tinymemory-conformance list --profile lexical` lists them"
        );
        assert!(CheckPattern::parse("recall.[a").is_err());
        assert_eq!(
            parse_family("corpora").unwrap_err().to_string(),
            "no such family; the families are contract, sections, portability, interface, corpus, property"
        );
        for family in Family::ALL {
            assert_eq!(parse_family(family.as_str()).unwrap(), family);
        }
    }
}

//! `list`: every check, one line each: id, family, the recall profiles it
//! applies to, description; or, with `--format json`, the same with each
//! check's usual mistake and budget, for the pytest plugin and the
//! TypeScript host (docs/reports.md, "`list` JSON").

use tinymemory_api::RecallProfile;
use tinymemory_conformance::{Check, Registry};

use crate::args::{ListArgs, ListFormat};
use crate::error::CliResult;
use crate::{exit, files};

mod json;

pub(crate) fn main(args: &ListArgs) -> CliResult {
    let all = Registry::standard();
    let shown = match args.format {
        ListFormat::Text => text(&all, args.profile),
        ListFormat::Json => json::text(&all, args.profile),
    };
    files::document_stdout(&shown, args.format == ListFormat::Json)?;
    Ok(exit::SUCCESS)
}

/// The listing of `all`'s checks (only those applying to `profile`, when
/// given): one aligned line per check, then `N checks` (with a profile,
/// `N of M checks apply to the P recall profile`).
fn text(all: &Registry, profile: Option<RecallProfile>) -> String {
    let listed = match profile {
        Some(p) => all.for_profile(p),
        None => all.clone(),
    };
    // Widths come from every check, so the columns of a filtered listing
    // sit where they do in the full one.
    let id_w = width(all, |c| c.id.len());
    let family_w = width(all, |c| c.family.as_str().len());
    let profiles_w = width(all, |c| c.profiles.to_string().len());
    let mut text = String::new();
    for c in listed.checks() {
        text.push_str(&format!(
            "{:<id_w$}  {:<family_w$}  {:<profiles_w$}  {}\n",
            c.id,
            c.family.as_str(),
            c.profiles.to_string(),
            c.description
        ));
    }
    match profile {
        None => text.push_str(&format!("{} checks\n", listed.len())),
        Some(p) => text.push_str(&format!(
            "{} of {} checks apply to the {p} recall profile\n",
            listed.len(),
            all.len()
        )),
    }
    text
}

/// The widest `len` over the registry's checks.
fn width(registry: &Registry, len: impl Fn(&Check) -> usize) -> usize {
    registry.checks().iter().map(len).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use tinymemory_conformance::{Family, Outcome, Profiles};

    use super::*;

    fn check(id: &'static str, family: Family, profiles: Profiles) -> Check {
        Check {
            id,
            family,
            profiles,
            description: "what the driver must do",
            run: |_| Box::pin(async { Outcome::Pass }),
        }
    }

    fn registry() -> Registry {
        Registry::from_checks(vec![
            check("store.upsert", Family::Contract, Profiles::BOTH),
            check("recall.words", Family::Contract, Profiles::LEXICAL),
            check("recall.ranked", Family::Contract, Profiles::SEMANTIC),
            check("corpus.own_words", Family::Corpus, Profiles::LEXICAL),
        ])
    }

    #[test]
    fn every_check_with_its_profiles_in_aligned_columns() {
        assert_eq!(
            text(&registry(), None),
            "store.upsert      contract  lexical, semantic  what the driver must do\n\
             recall.words      contract  lexical            what the driver must do\n\
             recall.ranked     contract  semantic           what the driver must do\n\
             corpus.own_words  corpus    lexical            what the driver must do\n\
             4 checks\n"
        );
    }

    #[test]
    fn a_profile_lists_its_checks_in_the_same_columns() {
        assert_eq!(
            text(&registry(), Some(RecallProfile::Semantic)),
            "store.upsert      contract  lexical, semantic  what the driver must do\n\
             recall.ranked     contract  semantic           what the driver must do\n\
             2 of 4 checks apply to the semantic recall profile\n"
        );
        assert_eq!(
            text(&registry(), Some(RecallProfile::Lexical)),
            "store.upsert      contract  lexical, semantic  what the driver must do\n\
             recall.words      contract  lexical            what the driver must do\n\
             corpus.own_words  corpus    lexical            what the driver must do\n\
             3 of 4 checks apply to the lexical recall profile\n"
        );
    }
}

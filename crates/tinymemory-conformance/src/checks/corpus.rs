//! Checks over the real corpus loaded into the driver.

use std::collections::BTreeMap;

use tinymemory_api::RecallOptions;

use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::{CheckContext, LoadedCorpus};

fn loaded(ctx: &CheckContext) -> Result<&LoadedCorpus, Stop> {
    ctx.corpus
        .as_deref()
        .ok_or_else(|| Stop::Skip("no corpus was loaded for this run (use --corpus DIR)".into()))
}

pub(crate) async fn namespace_counts(ctx: CheckContext) -> Step {
    let corpus = loaded(&ctx)?;
    let listed = corpus.provider().namespaces().await?;
    // Counted before they are keyed: a map would merge a name listed twice,
    // which a listing paged with overlapping bounds gives only once a store
    // holds more namespaces than a page, as the corpus store does.
    let mut times: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &listed {
        *times.entry(s.namespace.as_str()).or_default() += 1;
    }
    if let Some((ns, n)) = times.iter().find(|(_, n)| **n > 1) {
        return Err(Stop::fail(format!(
            "namespaces() listed {:?} {n} times after loading the corpus (contract 8: every \
             non-empty namespace once; {} listed for {} namespaces)",
            tinymemory_api::shown::shown(ns),
            listed.len(),
            times.len()
        )));
    }
    let got: BTreeMap<&str, u64> = listed
        .iter()
        .map(|s| (s.namespace.as_str(), s.count))
        .collect();
    let want = corpus.expected_counts();
    ensure_eq!(
        got.len(),
        want.len(),
        "number of namespaces after loading the corpus"
    );
    for (ns, count) in want {
        ensure_eq!(got.get(ns.as_str()), Some(count), "entries in {ns}");
    }
    Ok(())
}

/// The longest word (by characters; the first of equals), per the
/// contract's definition ([`tinymemory_api::text::words`]).
fn longest_word(text: &str) -> Option<&str> {
    tinymemory_api::text::words(text).fold(None, |best: Option<&str>, w| match best {
        Some(b) if b.chars().count() >= w.chars().count() => Some(b),
        _ => Some(w),
    })
}

pub(crate) async fn recall_own_words(ctx: CheckContext) -> Step {
    let corpus = loaded(&ctx)?;
    let mut missed = Vec::new();
    let mut tried = 0usize;
    for sample in corpus.samples() {
        let Some(word) = longest_word(&sample.content) else {
            continue;
        };
        tried += 1;
        let limit = usize::try_from(sample.namespace_count).unwrap_or(usize::MAX);
        let hits = corpus
            .provider()
            .recall(
                word,
                limit,
                &RecallOptions::in_namespace(sample.namespace.clone()),
            )
            .await?;
        if !hits.iter().any(|h| h.key == sample.key) {
            missed.push(format!("{}/{} by {word:?}", sample.namespace, sample.key));
        }
    }
    ensure!(tried > 0, "the corpus gave no entry with a word to recall");
    ensure!(
        missed.is_empty(),
        "{} of {tried} entries were not recalled by their longest word, first: {}",
        missed.len(),
        missed
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("; ")
    );
    Ok(())
}

pub(crate) async fn self_retrieval(ctx: CheckContext) -> Step {
    let corpus = loaded(&ctx)?;
    let mut missed = Vec::new();
    let mut tried = 0usize;
    for sample in corpus.spread_samples() {
        // A text without a word (a rule of dashes) gives a lexical
        // engine nothing to find, and lexical ranking is a valid ranking.
        if tinymemory_api::text::words(&sample.content)
            .next()
            .is_none()
        {
            continue;
        }
        tried += 1;
        // The whole namespace, so a tie at the top is seen whole.
        let limit = usize::try_from(sample.namespace_count).unwrap_or(usize::MAX);
        let hits = corpus
            .provider()
            .recall(
                &sample.content,
                limit,
                &RecallOptions::in_namespace(sample.namespace.clone()),
            )
            .await?;
        if let Err(why) = super::ranking::ranks_first(&hits, &sample.key, &sample.content) {
            let text: String = sample.content.chars().take(60).collect();
            missed.push(format!(
                "{}/{} by {text:?}: {why}",
                sample.namespace, sample.key
            ));
        }
    }
    ensure!(tried > 0, "the corpus gave no entry with text to recall");
    ensure!(
        missed.is_empty(),
        "{} of {tried} entries recalled by their own content (pinned to their namespace) did not rank first, \
         nor behind only ties, hits holding all their words and hits made only of their words, first: {}",
        missed.len(),
        missed
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("; ")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn longest_word_splits_on_non_alphanumerics() {
        assert_eq!(super::longest_word("Hi, how is it going?"), Some("going"));
        assert_eq!(
            super::longest_word("人工智能是工程和科学的分支,致力于"),
            Some("人工智能是工程和科学的分支")
        );
        assert_eq!(super::longest_word("?! ..."), None);
    }
}

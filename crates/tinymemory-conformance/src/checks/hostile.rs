//! The hostile-input table ([`crate::hostile`]) against a driver: stored
//! byte for byte, or refused naming the rule; never an error for a query.

use tinymemory_api::{MemoryCategory, MemoryError, MemoryTaint, RecallOptions};

use super::support::{fresh, keys, put};
use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::hostile::{big_content, invalid_namespaces, HOSTILE_TEXT};
use crate::CheckContext;

pub(crate) async fn text_round_trip(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for (name, text) in HOSTILE_TEXT {
        put(d.as_ref(), "hostile:keys", text, name).await?;
        put(d.as_ref(), "hostile:contents", name, text).await?;
    }
    for (name, text) in HOSTILE_TEXT {
        let by_key = d.get("hostile:keys", text).await?;
        ensure_eq!(
            by_key.map(|e| (e.key, e.content)),
            Some(((*text).to_owned(), (*name).to_owned())),
            "get of the entry keyed by the {name} text"
        );
        let by_content = d.get("hostile:contents", name).await?;
        ensure_eq!(
            by_content.map(|e| e.content),
            Some((*text).to_owned()),
            "content of the {name} entry"
        );
    }
    let listed = d.list(Some("hostile:keys"), None, None).await?;
    let mut want: Vec<&str> = HOSTILE_TEXT.iter().map(|(_, t)| *t).collect();
    want.sort_unstable();
    ensure_eq!(
        keys(&listed),
        want,
        "listed keys, once each, in bytewise order"
    );
    let listed = d.list(Some("hostile:contents"), None, None).await?;
    for e in &listed {
        let want = HOSTILE_TEXT
            .iter()
            .find(|(n, _)| *n == e.key)
            .map(|(_, t)| *t);
        ensure_eq!(
            Some(e.content.as_str()),
            want,
            "listed content of {:?}",
            e.key
        );
    }
    ensure_eq!(
        listed.len(),
        HOSTILE_TEXT.len(),
        "entries listed in hostile:contents"
    );
    Ok(())
}

pub(crate) async fn big_content_round_trip(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let big = big_content();
    put(d.as_ref(), "hostile:big", "big", &big).await?;
    let got = d.get("hostile:big", "big").await?;
    ensure!(
        got.as_ref().is_some_and(|e| e.content == big),
        "a {} byte content did not come back byte for byte from get (got {} bytes)",
        big.len(),
        got.map_or(0, |e| e.content.len())
    );
    let listed = d.list(Some("hostile:big"), None, None).await?;
    ensure!(
        listed.len() == 1 && listed[0].content == big,
        "a {} byte content did not come back byte for byte from list",
        big.len()
    );
    let hits = d
        .recall("机", 5, &RecallOptions::in_namespace("hostile:big"))
        .await?;
    ensure_eq!(
        keys(&hits),
        ["big"],
        "recall(\"机\", limit 5) in hostile:big, a word of the 1 MiB content"
    );
    ensure!(
        hits[0].content == big,
        "recall(\"机\", limit 5) in hostile:big gives the 1 MiB content as {} bytes (expected {}): \
         a hit is the entry as stored, its whole content, not a snippet",
        hits[0].content.len(),
        big.len()
    );
    Ok(())
}

pub(crate) async fn hostile_queries(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for (name, text) in HOSTILE_TEXT {
        put(d.as_ref(), "hostile:q", name, text).await?;
    }
    put(d.as_ref(), "global", "elsewhere", "it's NEAR a crab").await?;
    let opts = RecallOptions::in_namespace("hostile:q");
    for (name, text) in HOSTILE_TEXT {
        let hits = d.recall(text, 100, &opts).await.map_err(|e| {
            Stop::caused_by(
                format!(
                    "the {name} text as a query failed, it is plain text: {e}{}",
                    super::recall::zero_vector_cause(text, ctx.profile, true)
                ),
                &e,
            )
        })?;
        ensure!(
            hits.iter()
                .all(|h| h.namespace.as_deref() == Some("hostile:q")),
            "the {name} query returned a hit from outside hostile:q"
        );
        // Contract sentence 4 holds for every recall, texts without a word
        // (a zero embedding) included.
        if let Some(h) = hits
            .iter()
            .find(|h| h.score.is_some_and(|s| !s.is_finite()))
        {
            return Err(Stop::fail(format!(
                "the {name} query gave {:?} the non-finite score {:?}: scores, when present, are finite{}",
                h.key,
                h.score,
                super::recall::zero_vector_cause(text, ctx.profile, false)
            )));
        }
    }
    Ok(())
}

fn expect_rule<T: std::fmt::Debug>(
    method: &str,
    ns: &str,
    rule: &str,
    r: Result<T, MemoryError>,
) -> Step {
    match r {
        Err(e) if e.rule() == Some(rule) => Ok(()),
        Err(e) => Err(Stop::caused_by(format!(
            "{method} with invalid namespace {ns:?} must be refused with rule {rule}, got: {e}"
        ), &e)),
        Ok(v) => Err(Stop::fail(format!(
            "{method} with invalid namespace {ns:?} returned Ok({v:?}), expected MemoryError::Invalid with rule {rule}"
        ))),
    }
}

pub(crate) async fn invalid_refused(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for (ns, rule) in invalid_namespaces() {
        let n = ns.as_str();
        let stored = d
            .store(
                n,
                "k",
                "text",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await;
        expect_rule("store", n, rule, stored)?;
        expect_rule("get", n, rule, d.get(n, "k").await)?;
        expect_rule("forget", n, rule, d.forget(n, "k").await)?;
        expect_rule("list", n, rule, d.list(Some(n), None, None).await)?;
        let recalled = d.recall("text", 5, &RecallOptions::in_namespace(n)).await;
        expect_rule("recall", n, rule, recalled)?;
    }
    ensure_eq!(
        d.namespaces().await?,
        Vec::new(),
        "namespaces() after only invalid stores"
    );
    ensure_eq!(
        d.list(None, None, None).await?,
        Vec::new(),
        "list(None) after only invalid stores"
    );
    Ok(())
}

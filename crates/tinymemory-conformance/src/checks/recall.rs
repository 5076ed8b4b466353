//! Contract sentences 2 to 7: recall.

use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint, RecallOptions, RecallProfile,
};

use super::support::{fresh, keys, put};
use crate::failure::{ensure, ensure_eq, ensure_hits, missed_hits_cause, Step, Stop};
use crate::CheckContext;

/// Entries that match nothing the checks ask for, so document frequencies
/// (and bm25's IDF) behave as in a real store.
async fn filler(d: &dyn MemoryProvider, namespace: &str) -> Step {
    for (i, text) in [
        "quiet harbour at dawn",
        "the orchard in late summer",
        "granite steps by the river",
        "a lantern on the windowsill",
    ]
    .into_iter()
    .enumerate()
    {
        put(d, namespace, &format!("filler-{i}"), text).await?;
    }
    Ok(())
}

pub(crate) async fn none_means_global(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    put(d.as_ref(), "global", "g", "zebra crossing").await?;
    put(d.as_ref(), "learning:zoo", "l", "zebra stripes").await?;
    put(d.as_ref(), "conversation:t", "c", "zebra").await?;
    let hits = d.recall("zebra", 10, &RecallOptions::default()).await?;
    ensure_hits(
        ctx.profile,
        &keys(&hits),
        &["g"],
        "recall(namespace: None) hits",
    )?;
    let pinned = d
        .recall("zebra", 10, &RecallOptions::in_namespace("learning:zoo"))
        .await?;
    ensure_hits(
        ctx.profile,
        &keys(&pinned),
        &["l"],
        "recall(namespace: learning:zoo) hits",
    )
}

pub(crate) async fn hit_namespace(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for ns in ["global", "conversation:t-1", "document:handbook"] {
        put(d.as_ref(), ns, "a", "meeting notes about the budget").await?;
        put(d.as_ref(), ns, "b", "budget review").await?;
    }
    for (asked, opts) in [
        ("global", RecallOptions::in_namespace("global")),
        (
            "conversation:t-1",
            RecallOptions::in_namespace("conversation:t-1"),
        ),
        (
            "document:handbook",
            RecallOptions::in_namespace("document:handbook"),
        ),
    ] {
        let hits = d.recall("budget", 10, &opts).await?;
        let mut got = keys(&hits);
        got.sort_unstable();
        ensure_hits(
            ctx.profile,
            &got,
            &["a", "b"],
            format_args!("keys of the hits for \"budget\" in {asked}"),
        )?;
        for h in &hits {
            ensure_eq!(
                h.namespace.as_deref(),
                Some(asked),
                "namespace of hit {:?} recalled in {asked}",
                h.key
            );
        }
    }
    Ok(())
}

pub(crate) async fn scores_finite_higher_better(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:scores";
    filler(d.as_ref(), ns).await?;
    put(d.as_ref(), ns, "one", "alpha gamma delta epsilon").await?;
    put(d.as_ref(), ns, "both", "alpha beta gamma delta").await?;
    let hits = d
        .recall("alpha beta", 10, &RecallOptions::in_namespace(ns))
        .await?;
    // The score rule first, on the two entries wherever they are: a
    // distance reported as a score (lower = nearer) usually comes with a
    // vector store's extra hits, and the score rule is the one to fix.
    for h in &hits {
        if let Some(s) = h.score {
            ensure!(s.is_finite(), "hit {:?} has non-finite score {s}", h.key);
        }
    }
    let score_of = |key: &str| hits.iter().find(|h| h.key == key).and_then(|h| h.score);
    if let (Some(both), Some(one)) = (score_of("both"), score_of("one")) {
        ensure!(
            both > one,
            "the entry holding both query words scored {both}, not above the entry holding one ({one}): scores must be higher-is-better"
        );
    }
    ensure_hits(
        ctx.profile,
        &keys(&hits),
        &["both", "one"],
        "hits for \"alpha beta\", best first",
    )
}

pub(crate) async fn limit(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for i in 0..5 {
        put(
            d.as_ref(),
            "global",
            &format!("k{i}"),
            "needle in a haystack",
        )
        .await?;
    }
    let opts = RecallOptions::default();
    for (limit, want) in [(3, 3), (10, 5), (5, 5), (1, 1), (0, 0)] {
        ensure_eq!(
            d.recall("needle", limit, &opts).await?.len(),
            want,
            "hits with limit {limit} of 5 entries holding the word"
        );
    }
    // Filters count before the limit: min(limit, entries passing them).
    // Entries elsewhere hold the word more closely, so a driver that takes
    // the top of every namespace and then drops the other namespaces'
    // hits returns too few.
    for i in 0..10 {
        put(
            d.as_ref(),
            "learning:limit-elsewhere",
            &format!("e{i}"),
            "needle",
        )
        .await?;
    }
    let ns = "learning:limit";
    for (key, category, session) in [
        ("a", MemoryCategory::Core, None),
        ("b", MemoryCategory::Daily, Some("s1")),
        ("c", MemoryCategory::Daily, Some("s2")),
        ("d", MemoryCategory::Core, Some("s1")),
        ("e", MemoryCategory::Daily, Some("s1")),
    ] {
        d.store(
            ns,
            key,
            "a needle and thread",
            category,
            session,
            MemoryTaint::Internal,
        )
        .await?;
    }
    let daily = RecallOptions {
        category: Some(MemoryCategory::Daily),
        ..RecallOptions::in_namespace(ns)
    };
    let s1 = RecallOptions {
        session_id: Some("s1".to_owned()),
        ..RecallOptions::in_namespace(ns)
    };
    let both = RecallOptions {
        category: Some(MemoryCategory::Daily),
        session_id: Some("s1".to_owned()),
        ..RecallOptions::in_namespace(ns)
    };
    let pinned = RecallOptions::in_namespace(ns);
    for (what, opts, passing) in [
        ("no other filter", &pinned, &["a", "b", "c", "d", "e"][..]),
        ("category Daily", &daily, &["b", "c", "e"][..]),
        ("session s1", &s1, &["b", "d", "e"][..]),
        ("category Daily and session s1", &both, &["b", "e"][..]),
    ] {
        for limit in [10, 2, 1] {
            let hits = d.recall("needle", limit, opts).await?;
            // Too many hits come from somewhere the filters exclude; too
            // few, from filters applied to the top hits after the limit.
            let strays: Vec<String> = hits
                .iter()
                .filter(|h| {
                    h.namespace.as_deref() != Some(ns) || !passing.contains(&h.key.as_str())
                })
                .map(|h| {
                    format!(
                        "{}/{}",
                        h.namespace.as_deref().unwrap_or("(no namespace)"),
                        h.key
                    )
                })
                .collect();
            let why = if hits.len() > limit.min(passing.len()) && !strays.is_empty() {
                format!(
                    "{} do not pass the filters (another namespace, category or session): a recall \
                     returns only entries that pass every filter, its namespace compared whole",
                    shown_list(&strays)
                )
            } else if hits.len() > limit {
                "more hits than the limit".to_owned()
            } else {
                "filters (the namespace too) must apply before the limit, not to its top hits \
                 (learning:limit-elsewhere holds 10 closer entries)"
                    .to_owned()
            };
            ensure!(
                hits.len() == limit.min(passing.len()),
                "hits for \"needle\" in {ns} with limit {limit} and {what} ({} entries pass): expected {}, got {}; {why}",
                passing.len(),
                limit.min(passing.len()),
                hits.len()
            );
            let mut got = keys(&hits);
            got.sort_unstable();
            ensure!(
                got.iter().all(|k| passing.contains(k)),
                "recall(\"needle\", limit {limit}) in {ns} with {what} returned {got:?}; only {passing:?} pass the filter"
            );
        }
    }
    // A limit that cuts a later group of tied scores: the best hit, then
    // three entries of the same content. An engine that fills the limit
    // group by group must count the hits it already took, and keep the
    // best ones: each limited answer is the top of the unlimited one, but
    // for which of the entries tied at the cut it keeps.
    let groups = "learning:limit-groups";
    put(d.as_ref(), groups, "top", "needle and thread").await?;
    for key in ["t1", "t2", "t3"] {
        put(d.as_ref(), groups, key, "needle").await?;
    }
    let opts = RecallOptions::in_namespace(groups);
    let all = d.recall("needle thread", 10, &opts).await?;
    distinct_hits(&all, "recall(\"needle thread\", limit 10)")?;
    ensure_eq!(
        all.len(),
        4,
        "hits for \"needle thread\" with limit 10 in {groups}, which holds 4 entries with \
         the word needle"
    );
    for limit in [1, 2, 3] {
        let hits = d.recall("needle thread", limit, &opts).await?;
        let what = format!("recall(\"needle thread\", limit {limit}) in {groups}");
        ensure!(
            hits.len() == limit,
            "{what} returned {} hits {:?}: the limit cuts the three tied entries t1, t2, t3 \
             behind top, and a recall returns min(limit, entries matching) hits",
            hits.len(),
            keys(&hits)
        );
        distinct_hits(&hits, &what)?;
        top_of(&hits, &all, &what)?;
    }
    Ok(())
}

/// No `(namespace, key)` twice among `hits`.
fn distinct_hits(hits: &[MemoryEntry], what: &str) -> Result<(), Stop> {
    let mut seen = std::collections::BTreeSet::new();
    for h in hits {
        ensure!(
            seen.insert((h.namespace.as_deref(), h.key.as_str())),
            "{what} returned {:?}/{:?} twice ({:?}): a recall lists each entry at most once",
            h.namespace,
            h.key,
            keys(hits)
        );
    }
    Ok(())
}

/// `hits`, a limited answer, is the top of `all`, the same recall
/// unlimited: every hit one of `all`'s with the score it has there and,
/// when both are scored, position by position the same scores (so the best
/// entries, whichever of those tied at the cut). Unscored, the first of
/// `all` (here `top`, which alone holds both words) is in every answer.
fn top_of(hits: &[MemoryEntry], all: &[MemoryEntry], what: &str) -> Result<(), Stop> {
    let id = |h: &MemoryEntry| (h.namespace.clone(), h.key.clone());
    let bits = |h: &MemoryEntry| h.score.map(f64::to_bits);
    for h in hits {
        let there = all.iter().find(|a| id(a) == id(h));
        ensure!(
            there.is_some_and(|a| bits(a) == bits(h)),
            "{what} returned {:?} scored {:?}, which the same recall with limit 10 returns {}: \
             a hit's score does not depend on the limit",
            h.key,
            h.score,
            there.map_or_else(
                || format!("not at all ({:?})", keys(all)),
                |a| format!("scored {:?}", a.score)
            )
        );
    }
    let best = &all[..hits.len().min(all.len())];
    let scores = |v: &[MemoryEntry]| -> Option<Vec<u64>> { v.iter().map(bits).collect() };
    match (scores(hits), scores(best)) {
        (Some(got), Some(want)) => {
            ensure!(
            got == want,
            "{what} returned {:?} scored {:?}, but the best {} of the same recall with limit 10 \
             are {:?} scored {:?}: a limit keeps the best hits",
            keys(hits),
            hits.iter().map(|h| h.score).collect::<Vec<_>>(),
            best.len(),
            keys(best),
            best.iter().map(|h| h.score).collect::<Vec<_>>()
            );
        }
        _ => {
            if let Some(first) = all.first() {
                ensure!(
                    hits.is_empty() || hits.iter().any(|h| id(h) == id(first)),
                    "{what} returned {:?} without {:?}, the first hit of the same recall with \
                     limit 10 ({:?}): a limit keeps the best hits",
                    keys(hits),
                    first.key,
                    keys(all)
                );
            }
        }
    }
    Ok(())
}

/// The usual cause of an error (`error` true) or a non-finite score for
/// `query` under `profile`, to end a message: for a query that is not
/// blank but holds no word (`"`, `?!`), a bag-of-words or hashed
/// embedding is the zero vector, and a cosine against it divides by a
/// zero norm (NaN) or the engine refuses it. Empty for any other query,
/// and for an error under the lexical profile (a full-text engine's error
/// there is its query parser's, which the message already names).
pub(crate) fn zero_vector_cause(query: &str, profile: RecallProfile, error: bool) -> String {
    if query.trim().is_empty()
        || tinymemory_api::text::words(query).next().is_some()
        || (error && profile == RecallProfile::Lexical)
    {
        return String::new();
    }
    match profile {
        RecallProfile::Semantic => {
            " (this query is not blank but holds no word, so a bag-of-words or hashed \
             embedding of it is the zero vector: a cosine similarity against it divides by a \
             zero norm, giving NaN, and some engines refuse a zero vector outright. Answer such \
             a query with no hits, or score every entry 0, never an error or NaN)"
        }
        RecallProfile::Lexical => {
            " (this query is not blank but holds no word, so it shares no word with any entry: \
             a score computed over the query's words, such as a fraction of them matched, \
             divides by zero and gives NaN. Answer such a query with no hits, never a score)"
        }
    }
    .to_owned()
}

/// Queries that must never be an error; what they find is not asserted.
fn hostile_queries() -> Vec<String> {
    let mut q: Vec<String> = [
        "\"",
        "\"\"",
        "'",
        "don't",
        "multi-agent",
        "*",
        "^",
        ":",
        "a:b",
        "col:read",
        "(",
        ")",
        "NEAR(",
        "NEAR(a b)",
        "NEAR(a b, 2)",
        "AND",
        "OR",
        "NOT",
        "a OR",
        "NOT read",
        "-",
        "--",
        "-read",
        "read*",
        "^read",
        "\"unterminated",
        "a \"b c\" d",
        "{read write}",
        "[x]",
        "\0",
        "read\0write",
        "\u{1}\u{7}\u{1b}[31m\u{7f}",
        "🦀 ✨",
        "%",
        "_",
        "'; DROP TABLE x; --",
        "\\",
        "+read",
        "read + write",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    q.push("read ".repeat(2_000));
    q.push("x".repeat(10_000));
    q
}

pub(crate) async fn plain_text_query(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    filler(d.as_ref(), "global").await?;
    put(d.as_ref(), "global", "lock", "read AND write lock").await?;
    put(d.as_ref(), "global", "dont", "don't panic").await?;
    put(d.as_ref(), "global", "multi", "multi-agent systems").await?;
    put(d.as_ref(), "global", "near", "NEAR the end (of it)").await?;
    let opts = RecallOptions::default();
    for q in hostile_queries() {
        let shown: String = q.chars().take(40).collect();
        let hits = d.recall(&q, 10, &opts).await.map_err(|e| {
            Stop::caused_by(
                format!(
                    "query {shown:?} ({} bytes) is plain text but recall failed: {e}{}",
                    q.len(),
                    zero_vector_cause(&q, ctx.profile, true)
                ),
                &e,
            )
        })?;
        if let Some(h) = hits
            .iter()
            .find(|h| h.score.is_some_and(|s| !s.is_finite()))
        {
            return Err(Stop::fail(format!(
                "query {shown:?} gave {:?} the non-finite score {:?}: scores, when present, are finite{}",
                h.key,
                h.score,
                zero_vector_cause(&q, ctx.profile, false)
            )));
        }
    }
    // Unicode White_Space, every character of it (Rust's `str::trim`):
    // NEL (U+0085) is in it and U+FEFF is not, where JavaScript's `trim()`
    // has it the other way round.
    let white_space = "\t\n\u{B}\u{C}\r \u{85}\u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\
                       \u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{2028}\u{2029}\
                       \u{202F}\u{205F}\u{3000}";
    for q in ["", " ", "   \t\n ", "\u{85}", white_space] {
        ensure_eq!(
            d.recall(q, 10, &opts).await?.len(),
            0,
            "hits for blank query {q:?}"
        );
    }
    // A query without words matches no word; a ranking engine may still
    // rank entries for it.
    let punctuation: &[&str] = match ctx.profile {
        RecallProfile::Lexical => &["\"", "*", "^ ( ) : - \" *", "(((", "\"\"\""],
        RecallProfile::Semantic => &[],
    };
    for &q in punctuation {
        let hits = d.recall(q, 10, &opts).await?;
        ensure_eq!(
            keys(&hits),
            Vec::<&str>::new(),
            "hits for punctuation-only query {q:?}"
        );
    }
    for (q, want) in [
        ("read AND write", "lock"),
        ("don't", "dont"),
        ("multi-agent", "multi"),
        ("NEAR(", "near"),
        ("\"read", "lock"),
    ] {
        let hits = d.recall(q, 10, &opts).await?;
        ensure!(
            keys(&hits).contains(&want),
            "query {q:?} is plain text and should find {want:?}, got {:?}{}",
            keys(&hits),
            missed_hits_cause(ctx.profile, &[want], &keys(&hits))
        );
    }
    Ok(())
}

pub(crate) async fn min_score(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    filler(d.as_ref(), "global").await?;
    put(d.as_ref(), "global", "three", "alpha beta gamma river").await?;
    put(d.as_ref(), "global", "two", "alpha beta stone river").await?;
    put(d.as_ref(), "global", "one", "alpha cloud stone river").await?;
    let q = "alpha beta gamma";
    let base = d.recall(q, 100, &RecallOptions::default()).await?;
    if ctx.profile == RecallProfile::Lexical {
        ensure_eq!(base.len(), 3, "hits for {q:?} without min_score");
    }
    let with_min = |m: f64| RecallOptions {
        min_score: Some(m),
        ..RecallOptions::default()
    };
    let mut scores: Vec<f64> = base.iter().filter_map(|h| h.score).collect();
    if scores.is_empty() {
        let hits = d.recall(q, 100, &with_min(f64::MIN)).await?;
        ensure_eq!(
            keys(&hits),
            Vec::<&str>::new(),
            "unscored hits with min_score set"
        );
        return Ok(());
    }
    scores.sort_by(|a, b| b.total_cmp(a));
    scores.dedup();
    // Every score the driver gave (so `>=` is told from `>`), a value
    // between each two, one below all and one above all.
    let mut thresholds = scores.clone();
    thresholds.extend(scores.windows(2).map(|w| w[1] + (w[0] - w[1]) / 2.0));
    let (top, bottom) = (scores[0], scores[scores.len() - 1]);
    thresholds.push(bottom - bottom.abs() - 1.0);
    thresholds.push(top + top.abs() + 1.0);
    for threshold in thresholds {
        let expected: Vec<(&str, Option<u64>)> = base
            .iter()
            .filter(|h| h.score.is_some_and(|s| s >= threshold))
            .map(|h| (h.key.as_str(), h.score.map(f64::to_bits)))
            .collect();
        for limit in [100, 2] {
            let hits = d.recall(q, limit, &with_min(threshold)).await?;
            let got: Vec<(&str, Option<u64>)> = hits
                .iter()
                .map(|h| (h.key.as_str(), h.score.map(f64::to_bits)))
                .collect();
            let want = &expected[..expected.len().min(limit)];
            ensure!(
                got == want,
                "recall({q:?}, limit {limit}) with min_score = {threshold:?} must return exactly the hits \
                 of the same recall without it scoring >= {threshold:?}, in the same order: expected {:?}, got {:?} \
                 (the unfiltered hits were {:?})",
                want.iter().map(|(k, b)| (*k, b.map(f64::from_bits))).collect::<Vec<_>>(),
                got.iter().map(|(k, b)| (*k, b.map(f64::from_bits))).collect::<Vec<_>>(),
                base.iter().map(|h| (h.key.as_str(), h.score)).collect::<Vec<_>>()
            );
        }
    }
    Ok(())
}

pub(crate) async fn whole_words(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let ns = "learning:words";
    for (key, text) in [
        ("alpha", "alpha river"),
        ("beta", "beta stone"),
        ("accent", "un café noir"),
        ("hindi", "नमस्ते दुनिया"),
        ("compound", "a lighthouse keeper"),
    ] {
        put(d.as_ref(), ns, key, text).await?;
    }
    let opts = RecallOptions::in_namespace(ns);
    // A word is a maximal run of letters, digits and combining marks
    // (`tinymemory_api::text::words`), compared lowercased and nothing
    // else: punctuation separates words (no phrase), an accent is part of
    // its letter (no folding), a mark is part of its word (no split), and
    // a word inside another is not a match.
    for (query, want, mistake) in [
        (
            "alpha,beta",
            &["alpha", "beta"][..],
            "punctuation separates a query's words, so each of alpha and beta must find its \
             entry (a split on white space alone keeps alpha,beta one word; a phrase search \
             wants both in one entry)",
        ),
        ("BETA", &["beta"][..], "words compare lowercased"),
        ("cafe", &[][..], "accents were folded: cafe is not café"),
        ("café", &["accent"][..], "an accented word must find itself"),
        (
            "ते",
            &[][..],
            "a word was split at a combining mark: ते is not a word of नमस्ते",
        ),
        (
            "नमस्ते",
            &["hindi"][..],
            "a word with combining marks must find itself",
        ),
        (
            "light",
            &[][..],
            "a word inside another matched: light is not a word of lighthouse",
        ),
    ] {
        let hits = d.recall(query, 10, &opts).await?;
        let mut got = keys(&hits);
        got.sort_unstable();
        ensure!(
            got == want,
            "recall({query:?}) in {ns} returned {got:?}, expected {want:?}: {mistake}"
        );
    }
    Ok(())
}

/// The words full-text engines like to drop, as `(namespace scope,
/// content)`: the five most frequent words of each language of the bundled
/// dialog corpus (counted with the contract's word split, lowercased:
/// function words such as English `the`, `is`, `it`, French `de`, `est`),
/// English stop words of every common list (`to be or not to be`, `what
/// is it`, `a`), numbers, and words of one character or two. Each content
/// is the only entry of a namespace of its own, so no statistic over
/// other entries can excuse a missing hit.
pub(crate) const COMMON_WORDS: &[(&str, &str)] = &[
    ("english-hamlet", "to be or not to be"),
    ("english-question", "what is it"),
    ("english-articles", "a an the of and in on at by"),
    ("numbers", "0 1 7 42 2026 3.14 1e6"),
    ("short", "x I u y o é ö ß ı я ь 我"),
    ("bengali", "কি তুমি আমি না আপনি"),
    ("chinese", "玩笑 你得到了什么 是的 嗨 不"),
    ("dutch", "je een de is ik"),
    ("english", "the is my and it"),
    ("french", "de est tu je le"),
    ("german", "du ich ist dir es"),
    ("hebrew", "מה טוב הי אני תודה"),
    ("hindi", "है रहा हो क्या आप"),
    ("hinglish", "hai kya kaise tum ho"),
    ("indonesian", "kamu aku tidak apa yang"),
    ("italian", "è di un non il"),
    ("japanese", "いいえ はい こんにちは 株式市場"),
    ("korean", "저는 너는 수 있습니다 제가"),
    ("marathi", "आहे काय मी कसे नाही"),
    ("oriya", "ମୁଁ ଆପଣ ନମସ୍କାର ଅଛି କି"),
    ("persian", "من از به می و"),
    ("portuguese", "o que é de você"),
    ("russian", "я не ты что в"),
    ("spanish", "de no que es la"),
    ("swedish", "i är a what the"),
    ("tamil", "எப்படி நான் வணக்கம் என்ன நன்றி"),
    ("telugu", "నమస్కారం శుభోదయం ధన్యవాదములు భోజనం ఎలా"),
    ("thai", "หวัดดี ว่าไง สวัสดี ดีจ้า"),
    ("traditionalchinese", "玩笑 你得到了什麼 是的 嗨 不"),
    ("turkish", "bir ne ben nasıl yok"),
    ("ukrainian", "я ти не що це"),
    ("urdu", "ہیلو ہے رہا کیسا چل"),
    ("yoruba", "ni lo wo mo ki"),
];

pub(crate) async fn common_words(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    for (scope, text) in COMMON_WORDS {
        put(
            d.as_ref(),
            &format!("learning:words-{scope}"),
            "entry",
            text,
        )
        .await?;
    }
    let mut dropped: Vec<String> = Vec::new();
    for (scope, text) in COMMON_WORDS {
        let ns = format!("learning:words-{scope}");
        let opts = RecallOptions::in_namespace(&ns);
        let mut asked: Vec<&str> = Vec::new();
        for word in tinymemory_api::text::words(text) {
            if asked.contains(&word) {
                continue;
            }
            asked.push(word);
            let hits = d.recall(word, 10, &opts).await?;
            if !hits.iter().any(|h| h.key == "entry") {
                dropped.push(format!("{word:?} ({scope})"));
            }
        }
    }
    if dropped.is_empty() {
        return Ok(());
    }
    let total: usize = COMMON_WORDS
        .iter()
        .map(|(_, t)| {
            let mut words: Vec<&str> = tinymemory_api::text::words(t).collect();
            words.sort_unstable();
            words.dedup();
            words.len()
        })
        .sum();
    let cause = match ctx.profile {
        RecallProfile::Lexical => {
            "; every word of the contract's word split is searchable: a stop-word list, a \
             minimum word length or a tokenizer that skips numbers drops them, and so does a \
             split other than the contract's (on white space alone, `3.14` is one word where \
             the contract's split gives `3` and `14`; the entry is the only one of its \
             namespace, so no frequency can excuse it)"
        }
        RecallProfile::Semantic => {
            "; the entry is the only one of its namespace, so any ranking returns it for any \
             non-blank query (a score threshold, or an embedding that ignores common words and \
             so is empty for these, drops it)"
        }
    };
    Err(Stop::fail(format!(
        "{} of {total} words found nothing in a namespace whose only entry holds them: {}{cause}",
        dropped.len(),
        shown_list(&dropped)
    )))
}

/// At most 12 items, then how many more.
fn shown_list(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().take(12).map(String::as_str).collect();
    match items.len() - shown.len() {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

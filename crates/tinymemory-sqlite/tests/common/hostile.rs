//! The hostile-input table: inputs that have broken storage engines, and
//! driver-generic checks that each is either stored and returned byte for
//! byte or refused with `MemoryError::Invalid` naming the rule.
//!
//! Nothing here is SQLite-specific: every check takes a `&dyn
//! MemoryProvider` holding an empty store, so another driver's tests (the
//! PostgreSQL driver's) can include this file unchanged
//! (`#[path = "…/tinymemory-sqlite/tests/common/hostile.rs"] mod hostile;`)
//! and call the same checks. It depends only on `tinymemory-api`.
#![allow(dead_code)]

use tinymemory_api::{
    rules, MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint, Namespace, RecallOptions,
};

/// Text that is awkward for SQL, LIKE, FTS engines, terminals or UTF-8
/// handling: `(name, value)`. Used as keys, contents and queries.
pub const HOSTILE_TEXT: &[(&str, &str)] = &[
    ("apostrophe", "it's"),
    ("sql injection", "'; DROP TABLE memory_entries; --"),
    ("sql comment", "/* comment */ -- tail"),
    ("semicolons", ";;;"),
    ("percent", "%"),
    ("underscore", "_"),
    ("like pattern", "%_%"),
    ("like escape", "\\%\\_"),
    ("double quote", "\""),
    ("fts5 syntax", "NEAR(\"a\" b, 2) AND c* OR ^d NOT e:f"),
    ("nul inside", "before\0after"),
    ("nul only", "\0"),
    ("trailing nul", "key\0"),
    ("emoji", "🦀 crab, 👩‍👩‍👧 family, 🏳️‍🌈 flag"),
    ("right-to-left", "שלום עולם مرحبا بالعالم"),
    ("bidi override", "\u{202E}txt.exe"),
    (
        "combining marks",
        "e\u{301}\u{302}\u{303}\u{304} Z\u{36B}\u{36C}",
    ),
    ("zero width", "a\u{200B}b\u{200D}c\u{FEFF}d"),
    ("line breaks", "line\nbreak\r\n\ttab\u{2028}sep"),
    ("controls", "\u{1}\u{7}\u{1b}[31m\u{7f}"),
    ("max code point", "\u{10FFFF}"),
    ("math letters", "ℌ𝔢𝔩𝔩𝔬"),
    ("cjk", "机器人と日本語のテキスト"),
    ("spaces only", "   "),
];

/// Namespaces that are valid but look like patterns or syntax; each must
/// be its own namespace, matched exactly.
pub const TRICKY_VALID_NAMESPACES: &[&str] = &[
    "a_b",
    "axb",
    "a-b",
    "a.b",
    "A_B",
    "_",
    "__",
    "a",
    "ab",
    "learning:a_b",
    "learning:axb",
    "a/b",
    "a@b+c",
    "..x",
    "x:y:z",
];

/// Invalid namespaces, each with the rule its refusal must name.
pub fn invalid_namespaces() -> Vec<(String, &'static str)> {
    vec![
        (String::new(), rules::NAMESPACE_EMPTY),
        ("a".repeat(201), rules::NAMESPACE_TOO_LONG),
        ("a%b".into(), rules::NAMESPACE_CHARSET),
        ("a'b".into(), rules::NAMESPACE_CHARSET),
        (
            "'; DROP TABLE memory_entries; --".into(),
            rules::NAMESPACE_CHARSET,
        ),
        ("a;b".into(), rules::NAMESPACE_CHARSET),
        ("a b".into(), rules::NAMESPACE_CHARSET),
        ("a\0b".into(), rules::NAMESPACE_CHARSET),
        ("🦀".into(), rules::NAMESPACE_CHARSET),
        ("שלום".into(), rules::NAMESPACE_CHARSET),
        ("e\u{301}".into(), rules::NAMESPACE_CHARSET),
        ("a\"b".into(), rules::NAMESPACE_CHARSET),
        ("/a".into(), rules::NAMESPACE_EDGE_SLASH),
        ("a/".into(), rules::NAMESPACE_EDGE_SLASH),
        ("a/../b".into(), rules::NAMESPACE_DOT_DOT),
        ("learning:".into(), rules::SCOPE_EMPTY),
    ]
}

/// One MiB and a bit of mixed one-to-four-byte UTF-8, with NULs.
pub fn big_content() -> String {
    let unit = "ascii é ש 机 🦀 \0 '\"%_;-- ";
    let mut s = String::new();
    while s.len() < (1 << 20) {
        s.push_str(unit);
    }
    s
}

async fn store(d: &dyn MemoryProvider, ns: &str, key: &str, content: &str) {
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .unwrap_or_else(|e| panic!("store {ns:?}/{key:?}: {e}"));
}

fn keys(entries: &[MemoryEntry]) -> Vec<&str> {
    entries.iter().map(|e| e.key.as_str()).collect()
}

/// Every hostile text as a key (content naming it) and as a content (key
/// naming it) is returned byte for byte by `get` and `list`, and `list`
/// orders the keys bytewise.
pub async fn check_keys_and_contents_round_trip(d: &dyn MemoryProvider) {
    for (name, text) in HOSTILE_TEXT {
        store(d, "hostile:keys", text, name).await;
        store(d, "hostile:contents", name, text).await;
    }
    for (name, text) in HOSTILE_TEXT {
        let by_key = d.get("hostile:keys", text).await.unwrap();
        assert_eq!(
            by_key.as_ref().map(|e| e.key.as_str()),
            Some(*text),
            "{name}"
        );
        assert_eq!(
            by_key.map(|e| e.content),
            Some((*name).to_owned()),
            "{name}"
        );
        let by_content = d.get("hostile:contents", name).await.unwrap();
        assert_eq!(
            by_content.map(|e| e.content),
            Some((*text).to_owned()),
            "{name}"
        );
    }
    let listed = d.list(Some("hostile:keys"), None, None).await.unwrap();
    let mut want: Vec<&str> = HOSTILE_TEXT.iter().map(|(_, t)| *t).collect();
    want.sort_unstable();
    assert_eq!(
        keys(&listed),
        want,
        "list returns every key once, bytewise order"
    );
    for e in &listed {
        let name = HOSTILE_TEXT.iter().find(|(_, t)| *t == e.key).unwrap().0;
        assert_eq!(e.content, name);
    }
    let listed = d.list(Some("hostile:contents"), None, None).await.unwrap();
    assert_eq!(listed.len(), HOSTILE_TEXT.len());
    for e in &listed {
        let text = HOSTILE_TEXT.iter().find(|(n, _)| *n == e.key).unwrap().1;
        assert_eq!(e.content, text, "{}", e.key);
    }
}

/// A 1 MiB content (with NULs and multibyte characters) round-trips byte
/// for byte through `get` and `list`, and is found by recall.
pub async fn check_big_content_round_trips(d: &dyn MemoryProvider) {
    let big = big_content();
    store(d, "hostile:big", "big", &big).await;
    let got = d.get("hostile:big", "big").await.unwrap().unwrap();
    assert!(got.content == big, "1 MiB content changed by get");
    let listed = d.list(Some("hostile:big"), None, None).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].content == big, "1 MiB content changed by list");
    let hits = d
        .recall("机", 5, &RecallOptions::in_namespace("hostile:big"))
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["big"]);
}

/// Every hostile text used as a query returns `Ok`, never an error, and
/// never a hit from another namespace.
pub async fn check_hostile_queries(d: &dyn MemoryProvider) {
    for (name, text) in HOSTILE_TEXT {
        store(d, "hostile:q", name, text).await;
    }
    store(d, "global", "elsewhere", "it's NEAR a crab").await;
    let opts = RecallOptions::in_namespace("hostile:q");
    for (name, text) in HOSTILE_TEXT {
        let hits = d
            .recall(text, 100, &opts)
            .await
            .unwrap_or_else(|e| panic!("query {name}: {e}"));
        assert!(
            hits.iter()
                .all(|h| h.namespace.as_deref() == Some("hostile:q")),
            "query {name}"
        );
    }
}

/// Namespaces holding `_`, `%`-like and path characters are matched
/// exactly: `a_b` is never `axb`, by list, namespaces, get, forget or
/// recall.
pub async fn check_namespaces_match_exactly(d: &dyn MemoryProvider) {
    for (i, ns) in TRICKY_VALID_NAMESPACES.iter().enumerate() {
        for k in 0..=i {
            store(d, ns, &format!("k{k}"), &format!("shared word in {ns}")).await;
        }
    }
    let mut got: Vec<(String, u64)> = d
        .namespaces()
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    got.sort();
    let mut want: Vec<(String, u64)> = TRICKY_VALID_NAMESPACES
        .iter()
        .enumerate()
        .map(|(i, ns)| ((*ns).to_owned(), i as u64 + 1))
        .collect();
    want.sort();
    assert_eq!(got, want);
    for (i, ns) in TRICKY_VALID_NAMESPACES.iter().enumerate() {
        let listed = d.list(Some(ns), None, None).await.unwrap();
        assert_eq!(listed.len(), i + 1, "list {ns}");
        assert!(
            listed.iter().all(|e| e.namespace.as_deref() == Some(*ns)),
            "{ns}"
        );
        let hits = d
            .recall("shared", 100, &RecallOptions::in_namespace(*ns))
            .await
            .unwrap();
        assert_eq!(hits.len(), i + 1, "recall {ns}");
        assert!(
            hits.iter().all(|h| h.namespace.as_deref() == Some(*ns)),
            "{ns}"
        );
    }
    // `a_b` holds k0 only; `axb` holds k0 and k1.
    assert!(d.get("a_b", "k1").await.unwrap().is_none());
    assert!(!d.forget("a_b", "k1").await.unwrap());
    assert_eq!(d.list(Some("axb"), None, None).await.unwrap().len(), 2);
}

/// Every invalid namespace is refused with `Invalid` naming its rule, by
/// every method, and nothing is stored.
pub async fn check_invalid_namespaces_refused(d: &dyn MemoryProvider) {
    for (ns, rule) in invalid_namespaces() {
        assert_eq!(
            Namespace::parse(&ns).unwrap_err().rule(),
            Some(rule),
            "table entry {ns:?}"
        );
        let r = d
            .store(
                &ns,
                "k",
                "v",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await;
        assert_eq!(r.unwrap_err().rule(), Some(rule), "store {ns:?}");
        assert_eq!(
            d.get(&ns, "k").await.unwrap_err().rule(),
            Some(rule),
            "get {ns:?}"
        );
        assert_eq!(
            d.forget(&ns, "k").await.unwrap_err().rule(),
            Some(rule),
            "forget {ns:?}"
        );
        assert_eq!(
            d.list(Some(&ns), None, None).await.unwrap_err().rule(),
            Some(rule),
            "list {ns:?}"
        );
        assert_eq!(
            d.recall("v", 10, &RecallOptions::in_namespace(ns.clone()))
                .await
                .unwrap_err()
                .rule(),
            Some(rule),
            "recall {ns:?}"
        );
    }
    assert_eq!(d.namespaces().await.unwrap(), []);
    assert_eq!(d.list(None, None, None).await.unwrap(), []);
}

/// Runs every check of this table, each on a fresh store from `fresh`.
pub async fn check_all<D, F, Fut>(fresh: F)
where
    D: MemoryProvider,
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = D>,
{
    check_keys_and_contents_round_trip(&fresh().await).await;
    check_big_content_round_trips(&fresh().await).await;
    check_hostile_queries(&fresh().await).await;
    check_namespaces_match_exactly(&fresh().await).await;
    check_invalid_namespaces_refused(&fresh().await).await;
}

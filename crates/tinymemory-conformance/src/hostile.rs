//! The hostile-input table: inputs that have broken storage engines.
//!
//! One table, shared by every driver: the conformance checks
//! `store.hostile_text_round_trip`, `store.big_content_round_trip`,
//! `recall.hostile_queries`, `namespace.invalid_refused`,
//! `key.invalid_refused` and `namespace.reserved_words` run it through
//! the registry on every driver, and drivers' own tests (SQLite, PostgreSQL)
//! import the same constants rather than copying them.

use tinymemory_api::{rules, MAX_KEY_LEN};

/// Text that is awkward for SQL, `LIKE`, full-text engines, terminals or
/// UTF-8 handling, as `(name, value)`. Used as keys, contents and queries;
/// every value is a valid key (1..=1024 bytes).
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
    ("tsquery syntax", "a & !b | (c <-> d):*"),
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
    // A store that reads text line by line, or trims it with `rstrip("\n")`,
    // keeps every other text here whole.
    ("trailing line break", "last line\n"),
    ("leading line break", "\nfirst line"),
    ("controls", "\u{1}\u{7}\u{1b}[31m\u{7f}"),
    ("max code point", "\u{10FFFF}"),
    ("math letters", "ℌ𝔢𝔩𝔩𝔬"),
    ("cjk", "机器人と日本語のテキスト"),
    // At or above U+E000, beside the astral texts above (the emoji, U+10FFFF):
    // UTF-16 code-unit order, JavaScript's default, puts it after them,
    // bytewise order before them.
    ("halfwidth", "｡ﾊﾝｶｸ halfwidth katakana"),
    ("spaces only", "   "),
];

/// Namespaces that are valid but look like patterns or syntax; each is its
/// own namespace, matched exactly (`a_b` is never `axb`).
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

/// Words that look reserved to some engine, all valid namespace labels and
/// keys: engine and framework names (one agent framework's store refuses a
/// namespace whose first label is its own name), `default`, `global`,
/// `public`, `system`, `null`, `true`, `none` and their kin, SQL keywords,
/// and names of common tables, schemas and collections. Lowercase ASCII
/// letters, digits and `_`, so each is also a valid section prefix.
pub const RESERVED_WORDS: &[&str] = &[
    "sqlite",
    "sqlite_master",
    "postgres",
    "pg_catalog",
    "information_schema",
    "chroma",
    "qdrant",
    "tantivy",
    "whoosh",
    "lucene",
    "elasticsearch",
    "langchain",
    "langgraph",
    "llamaindex",
    "mem0",
    "pgvector",
    "pinecone",
    "weaviate",
    "milvus",
    "redis",
    "fts5",
    "default",
    "global",
    "public",
    "system",
    "admin",
    "root",
    "main",
    "temp",
    "null",
    "true",
    "false",
    "none",
    "nil",
    "undefined",
    "select",
    "insert",
    "update",
    "delete",
    "drop",
    "table",
    "from",
    "where",
    "order",
    "group",
    "by",
    "index",
    "join",
    "limit",
    "match",
    "and",
    "or",
    "not",
    "key",
    "value",
    "user",
    "users",
    "documents",
    "memories",
    "memory",
    "memory_entries",
    "collection",
    "collections",
    "embeddings",
    "vectors",
    "points",
    "items",
];

/// The shapes a reserved word takes as a namespace, for word `w`: `w`
/// itself (unsectioned, or `global`), `w:notes` (its first label, a
/// custom section) and `learning:w` (a scope).
#[must_use]
pub fn reserved_namespaces(word: &str) -> [String; 3] {
    [
        word.to_owned(),
        format!("{word}:notes"),
        format!("learning:{word}"),
    ]
}

/// Invalid namespaces, each with the id of the rule its refusal must name
/// (see [`tinymemory_api::rules`]).
#[must_use]
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
        // Fullwidth look-alikes of `notes` and `learning:x`: compatibility
        // normalisation (NFKC) would make them those names, not refuse them.
        (
            "\u{FF4E}\u{FF4F}\u{FF54}\u{FF45}\u{FF53}".into(),
            rules::NAMESPACE_CHARSET,
        ),
        ("learning\u{FF1A}x".into(), rules::NAMESPACE_CHARSET),
        ("a\"b".into(), rules::NAMESPACE_CHARSET),
        ("/a".into(), rules::NAMESPACE_EDGE_SLASH),
        ("a/".into(), rules::NAMESPACE_EDGE_SLASH),
        ("a/../b".into(), rules::NAMESPACE_DOT_DOT),
        ("learning:..".into(), rules::NAMESPACE_DOT_DOT),
        ("learning:/x".into(), rules::NAMESPACE_EDGE_SLASH),
        ("learning:".into(), rules::SCOPE_EMPTY),
    ]
}

/// Keys the contract refuses ([`tinymemory_api::validate_key`]), as
/// `(description, key, rule id its refusal must name)`. The limit is in
/// UTF-8 bytes: 513 two-byte characters are 1,026 bytes, over it, though
/// fewer than 1,024 characters.
#[must_use]
pub fn invalid_keys() -> Vec<(&'static str, String, &'static str)> {
    vec![
        ("the empty key", String::new(), rules::KEY_EMPTY),
        (
            "a key of 1,025 ASCII bytes",
            "k".repeat(MAX_KEY_LEN + 1),
            rules::KEY_TOO_LONG,
        ),
        (
            "a key of 513 two-byte characters (1,026 bytes)",
            "\u{e9}".repeat(513),
            rules::KEY_TOO_LONG,
        ),
    ]
}

/// Keys of exactly [`MAX_KEY_LEN`] UTF-8 bytes, valid, as `(name, key)`:
/// one of one-byte characters and one each of two-, three- and four-byte
/// characters, so a limit counted in characters, UTF-16 code units or
/// anything but UTF-8 bytes, or compared with `>=`, refuses one of them.
#[must_use]
pub fn limit_keys() -> Vec<(&'static str, String)> {
    vec![
        ("a key of 1,024 ASCII bytes", "k".repeat(MAX_KEY_LEN)),
        (
            "a key of 512 two-byte characters (1,024 bytes)",
            "\u{e9}".repeat(MAX_KEY_LEN / 2),
        ),
        (
            "a key of 341 three-byte characters and one ASCII (1,024 bytes)",
            format!("{}k", "\u{673a}".repeat(MAX_KEY_LEN / 3)),
        ),
        (
            "a key of 256 four-byte characters (1,024 bytes)",
            "\u{1f980}".repeat(MAX_KEY_LEN / 4),
        ),
    ]
}

/// A little over 1 MiB of mixed one-to-four-byte UTF-8 with NULs, quotes
/// and SQL metacharacters; the word `机` stands alone in it, so a recall of
/// `机` finds it on every driver.
#[must_use]
pub fn big_content() -> String {
    let unit = "ascii é ש 机 🦀 \0 '\"%_;-- ";
    let mut s = String::with_capacity((1 << 20) + unit.len());
    while s.len() < (1 << 20) {
        s.push_str(unit);
    }
    s
}

#[cfg(test)]
mod tests {
    use tinymemory_api::{validate_key, Namespace};

    use super::*;

    #[test]
    fn the_table_is_what_it_claims() {
        for (name, text) in HOSTILE_TEXT {
            assert_eq!(validate_key(text), Ok(()), "{name}");
        }
        for ns in TRICKY_VALID_NAMESPACES {
            assert!(Namespace::parse(ns).is_ok(), "{ns}");
        }
        let mut words = RESERVED_WORDS.to_vec();
        words.sort_unstable();
        words.dedup();
        assert_eq!(
            words.len(),
            RESERVED_WORDS.len(),
            "reserved words are distinct"
        );
        for word in RESERVED_WORDS {
            assert_eq!(validate_key(word), Ok(()), "{word}");
            for ns in reserved_namespaces(word) {
                assert!(Namespace::parse(&ns).is_ok(), "{ns}");
            }
            assert!(
                Namespace::parse(&format!("{word}:notes"))
                    .unwrap()
                    .section()
                    .is_some(),
                "{word} is a section prefix"
            );
        }
        for (ns, rule) in invalid_namespaces() {
            assert_eq!(
                Namespace::parse(&ns).unwrap_err().rule(),
                Some(rule),
                "{ns:?}"
            );
        }
        for (name, key, rule) in invalid_keys() {
            assert_eq!(validate_key(&key).unwrap_err().rule(), Some(rule), "{name}");
        }
        assert_eq!(big_content().len(), 1_048_606);
    }
}

//! Mutant for `recall.none_means_global`: the crate's [`NoneMeansAll`](crate::NoneMeansAll)
//! decorator, entered in the catalogue with its witness.

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "none-means-all",
        rule: "contract 2: recall with namespace None searches global only, never every namespace",
        check: "recall.none_means_global",
        also_caught_by: &["recall.namespace_isolation", "model.differential"],
        description: "recall with namespace None searches every namespace",
        wrap: crate::NoneMeansAll::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "g", "zebra").await?;
            put(d, "learning:x", "l", "zebra").await?;
            Ok(format!("{:?}", keys(&d.recall("zebra", 10, &any()).await?)))
        },
        reference: r#"["g"]"#,
        mutant: r#"["g", "l"]"#,
    },
];

//! Mutant for `recall.hit_namespace`: the crate's [`TamperHits::strip`](crate::TamperHits::strip)
//! decorator, entered in the catalogue with its witness.

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "strips-hit-namespace",
        rule: "contract 3: every recall hit carries Some(the namespace it lives in)",
        check: "recall.hit_namespace",
        also_caught_by: &["recall.hostile_queries", "sections.view_recall_pinned", "model.differential"],
        description: "recall hits carry namespace None",
        wrap: crate::TamperHits::strip(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{key_ns, put};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "zebra").await?;
            Ok(format!(
                "{:?}",
                key_ns(&d.recall("zebra", 10, &any()).await?)
            ))
        },
        reference: r#"[("k", Some("global"))]"#,
        mutant: r#"[("k", None)]"#,
    },
];

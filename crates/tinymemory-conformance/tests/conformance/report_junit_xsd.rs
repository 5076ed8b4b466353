//! The JUnit render of the fixed report (every outcome kind, NUL, escape
//! sequences, markup and quotes in messages) is valid XML and valid against
//! `fixtures/junit/junit.xsd`.

use crate::support;

use std::path::Path;

#[test]
fn the_fixed_report_validates_against_the_junit_xsd() {
    let dir = std::env::temp_dir().join(format!("tinymemory-junit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let xml = dir.join("fixed.xml");
    let text = support::fixed_report::report().to_junit();
    std::fs::write(&xml, &text).expect("written");
    let xsd = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/junit/junit.xsd");
    let result = support::xsd::validate(&xml, &xsd);
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        panic!("invalid JUnit:\n{e}\n{text}");
    }
    assert!(!text.contains('\0'));
}

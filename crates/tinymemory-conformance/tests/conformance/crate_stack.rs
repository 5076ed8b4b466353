//! The crate stack stays strict: the contract at the bottom, drivers on
//! it, the suite above them. A driver that depends on the suite judging it
//! is the wrong way round (object_store keeps its test suite above the
//! trait crate, and no backend depends on it), so a normal or build
//! dependency of a driver crate on `tinymemory-conformance` fails here;
//! tests of a driver may still run the suite (a dev-dependency).

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

/// The crates that may depend on the suite to run: the CLI that runs it.
const SUITE_USERS: &[&str] = &["tinymemory-cli"];

/// Every workspace package with its normal and build dependencies on
/// workspace packages, from `cargo metadata`.
fn workspace_dependencies() -> BTreeMap<String, Vec<String>> {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let packages = meta["packages"].as_array().expect("packages");
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                // `kind` is null for a normal dependency, "build" or "dev".
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str())
                .filter(|name| name.starts_with("tinymemory-"))
                .map(str::to_owned)
                .collect();
            (p["name"].as_str().expect("name").to_owned(), deps)
        })
        .collect()
}

#[test]
fn no_driver_crate_depends_on_the_suite() {
    let deps = workspace_dependencies();
    for driver in [
        "tinymemory-sqlite",
        "tinymemory-postgres",
        "tinymemory-exec",
        "tinymemory-reference",
    ] {
        assert!(deps.contains_key(driver), "{driver} is a workspace package");
    }
    let users: Vec<&str> = deps
        .iter()
        .filter(|(_, d)| d.iter().any(|n| n == "tinymemory-conformance"))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        users, SUITE_USERS,
        "crates with a normal or build dependency on the suite"
    );
    // The contract depends on no other workspace crate.
    assert_eq!(deps["tinymemory-api"], Vec::<String>::new());
}

/// `1.90` or `1.88.0` as a comparable triple.
fn rust_version(text: &str) -> (u32, u32, u32) {
    let mut parts = text.split('.').map(|p| p.parse::<u32>().expect(text));
    (
        parts.next().expect(text),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

/// The target this test was built for: `host:` of `rustc -vV`.
fn host() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names its host")
        .to_owned()
}

/// The workspace's `rust-version` is a promise that the locked graph
/// builds with that toolchain. Only one toolchain can be installed where
/// CI runs, so the build itself cannot be tried at the MSRV; what can be
/// checked is that no package of the locked graph (for this host) declares
/// a newer `rust-version` than ours. clippy's `incompatible_msrv` lint,
/// which reads the same field, covers the standard library APIs we call.
#[test]
fn no_locked_dependency_needs_a_newer_rust_than_the_workspace_declares() {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--offline",
            "--filter-platform",
            &host(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let ours = rust_version(env!("CARGO_PKG_RUST_VERSION"));
    let resolved: Vec<&str> = meta["resolve"]["nodes"]
        .as_array()
        .expect("resolve nodes")
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    let newer: Vec<String> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| resolved.contains(&p["id"].as_str().unwrap_or_default()))
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            (rust_version(needs) > ours).then(|| {
                format!(
                    "{} {} needs Rust {needs}",
                    p["name"].as_str().unwrap_or("?"),
                    p["version"].as_str().unwrap_or("?")
                )
            })
        })
        .collect();
    assert_eq!(
        newer,
        Vec::<String>::new(),
        "the workspace declares rust-version {}: raise it, or lock older versions",
        env!("CARGO_PKG_RUST_VERSION")
    );
}

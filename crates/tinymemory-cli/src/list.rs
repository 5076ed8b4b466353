//! `list`: every check, one line each.

use tinymemory_conformance::Registry;

use crate::exit;

pub(crate) fn main() -> u8 {
    let registry = Registry::standard();
    let width = registry
        .checks()
        .iter()
        .map(|c| c.id.len())
        .max()
        .unwrap_or(0);
    for c in registry.checks() {
        println!(
            "{:<width$}  {:<9} {}",
            c.id,
            c.family.as_str(),
            c.description
        );
    }
    println!("{} checks", registry.len());
    exit::SUCCESS
}

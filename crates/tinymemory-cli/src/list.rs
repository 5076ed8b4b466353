//! `list`: every check, one line each.

use tinymemory_conformance::Registry;

use crate::{exit, files};

pub(crate) fn main() -> u8 {
    let registry = Registry::standard();
    let width = registry
        .checks()
        .iter()
        .map(|c| c.id.len())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for c in registry.checks() {
        text.push_str(&format!(
            "{:<width$}  {:<9} {}\n",
            c.id,
            c.family.as_str(),
            c.description
        ));
    }
    text.push_str(&format!("{} checks\n", registry.len()));
    match files::stdout(&text) {
        Ok(()) => exit::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            exit::USAGE
        }
    }
}

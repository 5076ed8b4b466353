//! Loading a whole corpus directory.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use tinymemory_api::{MemoryCategory, MemorySection, Namespace};

use crate::layout::{self, CorpusFile};
use crate::names::scope_part;
use crate::{dialog, licence, CorpusEntry, CorpusError, CorpusSummary, CorpusWarning, Origin};

/// The language directory whose dialogs also give learnings.
const LEARNING_LANGUAGE: &str = "english";

/// A loaded corpus: every entry made from the files under [`Corpus::root`],
/// and the warnings about what was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corpus {
    /// The directory the corpus was loaded from, as given.
    pub root: PathBuf,
    /// The files read, relative to [`Corpus::root`]: the dialogs
    /// (`chatterbot/<language>/<topic>.yml`) then the licences
    /// (`licenses/<name>.txt`), each in byte order of their path.
    pub files: Vec<PathBuf>,
    /// Every entry, sorted by (rendered namespace, key), which is unique.
    pub entries: Vec<CorpusEntry>,
    /// What was skipped or looks wrong, sorted by origin (file, then line).
    pub warnings: Vec<CorpusWarning>,
}

impl Corpus {
    /// Loads every corpus file under `root`.
    ///
    /// Files read, in this order (anything else, and any name starting with
    /// `.`, is ignored; either directory may be missing):
    ///
    /// - `chatterbot/<language>/<topic>.yml` (or `.yaml`), ChatterBot dialog
    ///   files: a YAML mapping whose `conversations` is a list of
    ///   conversations, each a list of turns;
    /// - `licenses/<name>.txt`, plain texts.
    ///
    /// The mapping to entries (`conv`, `turn` and `n` are 0-based positions
    /// in the file, counting skipped items, so keys do not shift when an item
    /// is skipped):
    ///
    /// | file | section | scope | key | content | category | language |
    /// | --- | --- | --- | --- | --- | --- | --- |
    /// | each dialog turn | `conversation` | `<language>-<topic>` | `c{conv:04}-t{turn:02}` | the turn | `Conversation` | the directory name |
    /// | each answer (turn after the first) of an `english` dialog | `learning` | `<topic>` | `c{conv:04}-a{turn:02}` | the answer | `Core` | `english` |
    /// | each licence paragraph | `document` | `<name>` | `p{n:04}` | the paragraph | `Core` | `None` |
    ///
    /// Scopes are the names lowercased, with every character outside
    /// `[a-z0-9_-]` (`[a-z0-9_.-]` for licences) replaced by `-`: so
    /// `spanish/IA.yml` gives `conversation:spanish-ia` and `GPL-3.txt`
    /// gives `document:gpl-3`. A paragraph is a run of non-blank lines,
    /// trimmed. A turn that is a number or a boolean is kept as written in
    /// the file (`1984`, not an integer). Keys sort in file order while a
    /// file has under 10 000 conversations of under 100 turns, and
    /// under 10 000 paragraphs.
    ///
    /// Skipped, each with a [`CorpusWarning`] naming its file and line: a
    /// conversation that is not a list (typically a string: a missing `- `
    /// folded a question and its answers into one scalar, which the loader
    /// does not try to split), and a turn that is null, a list, a mapping or
    /// blank text.
    /// Kept with a warning: a turn that is one unquoted scalar over several
    /// lines whose continuation lines start with `- ` (list items indented
    /// too deep, folded into one turn). A licence with no paragraph warns too.
    ///
    /// # Errors
    ///
    /// - [`CorpusError::Root`]: `root` is missing or not a readable directory;
    /// - [`CorpusError::Empty`]: it holds no corpus file;
    /// - [`CorpusError::Io`]: a file or directory in it cannot be read;
    /// - [`CorpusError::NotUtf8`]: a file is not UTF-8;
    /// - [`CorpusError::Syntax`]: a dialog file is not valid YAML;
    /// - [`CorpusError::Layout`]: a dialog file is not a mapping with a
    ///   `conversations` list, or holds several documents;
    /// - [`CorpusError::Namespace`]: a name gives an invalid namespace (over
    ///   200 bytes);
    /// - [`CorpusError::Collision`]: two files give the same namespace.
    ///
    /// The first error found stops the load.
    pub fn load(root: &Path) -> Result<Corpus, CorpusError> {
        let (files, link_warnings) = layout::discover(root)?;
        let mut loader = Loader::default();
        loader.warnings.extend(link_warnings);
        for file in &files {
            let text = read_text(root, file.path())?;
            match file {
                CorpusFile::Dialog {
                    path,
                    language,
                    topic,
                } => loader.dialog(path, language, topic, &text)?,
                CorpusFile::Licence { path, name } => loader.licence(path, name, &text)?,
            }
        }
        let mut entries = loader.entries;
        entries.sort_by_cached_key(|e| (e.namespace_name(), e.key.clone()));
        let mut warnings = loader.warnings;
        warnings.sort();
        Ok(Corpus {
            root: root.to_owned(),
            files: files.iter().map(|f| f.path().to_owned()).collect(),
            entries,
            warnings,
        })
    }

    /// The corpus this crate carries: `corpora/` in its own directory,
    /// found from the manifest directory at compile time. The crate
    /// published on crates.io holds the files there (about 2 MB unpacked,
    /// 0.35 MB packed), so a driver's tests that depend on the crate from a
    /// registry load it from cargo's copy of the sources, with no checkout
    /// of the workspace.
    ///
    /// In the workspace, `corpora` is a symbolic link to `fixtures/corpora`;
    /// where a checkout made the link a plain file (Git for Windows without
    /// symbolic links), the workspace's `fixtures/corpora` is returned
    /// instead. The path is not checked further; [`Corpus::load`] reports a
    /// missing directory.
    #[must_use]
    pub fn default_root() -> PathBuf {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let carried = crate_dir.join("corpora");
        if carried.is_dir() {
            carried
        } else {
            crate_dir.join("../../fixtures/corpora")
        }
    }

    /// Every namespace with its number of entries, keyed by rendered
    /// namespace (so in byte order).
    #[must_use]
    pub fn namespaces(&self) -> BTreeMap<String, u64> {
        let mut counts = BTreeMap::new();
        for entry in &self.entries {
            *counts.entry(entry.namespace_name()).or_insert(0) += 1;
        }
        counts
    }

    /// Counts of files, entries by section, namespaces and warnings.
    #[must_use]
    pub fn summary(&self) -> CorpusSummary {
        CorpusSummary::of(self)
    }
}

/// Collects entries and warnings file by file.
#[derive(Default)]
struct Loader {
    entries: Vec<CorpusEntry>,
    warnings: Vec<CorpusWarning>,
    /// Rendered namespace -> the file that gave it.
    owners: BTreeMap<String, PathBuf>,
}

impl Loader {
    fn dialog(
        &mut self,
        path: &Path,
        language: &str,
        topic: &str,
        text: &str,
    ) -> Result<(), CorpusError> {
        let topic_scope = scope_part(topic, false);
        let scope = format!("{}-{topic_scope}", scope_part(language, false));
        self.claim(path, &MemorySection::Conversation, &scope)?;
        let learns = language == LEARNING_LANGUAGE;
        if learns {
            self.claim(path, &MemorySection::Learning, &topic_scope)?;
        }
        let dialog = dialog::parse(path, text)?;
        self.warnings.extend(dialog.warnings);
        for conversation in dialog.conversations {
            let c = conversation.index;
            for turn in conversation.turns {
                let origin = Origin::new(path, turn.line);
                if learns && turn.index > 0 {
                    self.entries.push(CorpusEntry {
                        section: MemorySection::Learning,
                        scope: topic_scope.clone(),
                        key: format!("c{c:04}-a{:02}", turn.index),
                        content: turn.text.clone(),
                        category: MemoryCategory::Core,
                        language: Some(language.to_owned()),
                        origin: origin.clone(),
                    });
                }
                self.entries.push(CorpusEntry {
                    section: MemorySection::Conversation,
                    scope: scope.clone(),
                    key: format!("c{c:04}-t{:02}", turn.index),
                    content: turn.text,
                    category: MemoryCategory::Conversation,
                    language: Some(language.to_owned()),
                    origin,
                });
            }
        }
        Ok(())
    }

    fn licence(&mut self, path: &Path, name: &str, text: &str) -> Result<(), CorpusError> {
        let scope = scope_part(name, true);
        self.claim(path, &MemorySection::Document, &scope)?;
        let paragraphs = licence::paragraphs(text);
        if paragraphs.is_empty() {
            self.warnings.push(CorpusWarning::new(
                Origin::new(path, 1),
                "the text has no paragraph; no entry made",
            ));
        }
        for (n, paragraph) in paragraphs.into_iter().enumerate() {
            self.entries.push(CorpusEntry {
                section: MemorySection::Document,
                scope: scope.clone(),
                key: format!("p{n:04}"),
                content: paragraph.text,
                category: MemoryCategory::Core,
                language: None,
                origin: Origin::new(path, paragraph.line),
            });
        }
        Ok(())
    }

    /// Checks that `section:scope` is a valid namespace no other file gave.
    fn claim(
        &mut self,
        path: &Path,
        section: &MemorySection,
        scope: &str,
    ) -> Result<(), CorpusError> {
        let namespace =
            Namespace::new(section, scope).map_err(|source| CorpusError::Namespace {
                file: path.to_owned(),
                source,
            })?;
        if let Some(first) = self.owners.get(namespace.as_str()) {
            return Err(CorpusError::Collision {
                first: first.clone(),
                second: path.to_owned(),
                namespace: namespace.into_string(),
            });
        }
        self.owners.insert(namespace.into_string(), path.to_owned());
        Ok(())
    }
}

/// The longest corpus file read, in bytes. The bundled corpus's largest
/// file is a licence of 35 KB; a file past this is a mistake (a dump, a
/// sparse file), and reading it whole would hold it in memory and parse it
/// for minutes.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads `root/path` as UTF-8.
fn read_text(root: &Path, path: &Path) -> Result<String, CorpusError> {
    use std::io::Read as _;

    // One byte past the bound tells a file of exactly the bound from a
    // longer one.
    let mut bytes = Vec::new();
    fs::File::open(root.join(path))
        .and_then(|file| file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|source| CorpusError::Io {
            file: path.to_owned(),
            source,
        })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(CorpusError::TooLarge {
            file: path.to_owned(),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        CorpusError::NotUtf8 {
            file: path.to_owned(),
            line: before.iter().filter(|&&b| b == b'\n').count() + 1,
            column: offset - line_start + 1,
            offset,
        }
    })
}

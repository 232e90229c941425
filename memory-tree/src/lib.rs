//! The memory as a folder of Markdown files, one per note, that any editor (Obsidian included) can
//! open, and reading hand edits back.
//!
//! Layout: `DIR/user/<path>`, `DIR/project/<project name>/<path>` (the id without a [`Naming`];
//! the dream's `project/<id>/` prefix left out of the path), `DIR/session/<slugged key>/<path>`,
//! each file exactly as [`memory_core::Note::to_markdown`] renders it; `DIR/index.md` ([`INDEX`])
//! links every note; `DIR/.agent-memory-export.json` ([`MANIFEST`]) records each file's SHA-256 so
//! an import can tell which files were edited by hand.
//!
//! [`export_tree`] (or [`export_tree_named`]) writes the tree and [`import_tree`] (or
//! [`import_tree_named`]) reads it back into a
//! [`memory_core::MemoryStore`]; each returns a serializable report of what it did, and neither
//! prints. Imported notes are redacted ([`memory_redact`]) before they reach the store.
//!
//! [`share`] keeps one project's notes in a folder of its repository instead, for every clone to
//! read: written after each dream, read in by hooks when a file changed, a person's edit winning.
//!
//! A tree stays in its folder: manifest entries must be note paths inside it (an entry such as
//! `../victim.txt` or an absolute path makes the manifest untrusted, [`Error::ManifestEntry`]);
//! nothing is written, removed or read through a symbolic link below the folder
//! ([`Error::Symlink`]); and files are replaced by renaming a new file over them, so a planted
//! link is replaced, never written through. Scope ids are checked like every other entry point
//! ([`memory_core::Scope::validate`]).

mod confine;
mod error;
mod export;
mod import;
mod index;
mod layout;
mod manifest;
pub mod share;

pub use error::{Error, Result};
pub use export::{ExportReport, export_tree, export_tree_named};
pub use import::{ImportReport, Invalid, import_tree, import_tree_named, import_tree_redacted};
pub use layout::{INDEX, MANIFEST, Naming};

#[cfg(test)]
mod tests;

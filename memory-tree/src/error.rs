//! The one error type of the Markdown tree.

use std::path::PathBuf;

use crate::layout::MANIFEST;

/// Why an export or an import stopped. A file that is not a valid note does not stop an import:
/// it is reported in [`crate::ImportReport::invalid`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The tree's path exists but is not a folder.
    #[error("{} is not a folder", dir.display())]
    NotAFolder {
        /// The path.
        dir: PathBuf,
    },
    /// An export was aimed at a folder that has files but no manifest of an earlier export.
    #[error("{} is not empty and holds no earlier export; export into an empty or new folder", dir.display())]
    NotEmpty {
        /// The folder.
        dir: PathBuf,
    },
    /// An export would overwrite files changed or added since the last export; import them first.
    #[error(
        "{} has files changed or added since the last export, which exporting would overwrite: {}; \
         import the tree first (or export into another folder)",
        dir.display(),
        files.join(", ")
    )]
    Unimported {
        /// The tree.
        dir: PathBuf,
        /// The changed or added files, relative to the tree.
        files: Vec<String>,
    },
    /// Deleting the notes of removed files was asked for, but the tree has no manifest saying
    /// which files an export wrote.
    #[error(
        "deleting the notes of removed files needs the manifest of an export ({MANIFEST} in {}), \
         which is missing",
        dir.display()
    )]
    NoManifest {
        /// The tree.
        dir: PathBuf,
    },
    /// The manifest is not valid JSON of the expected shape.
    #[error("{} is damaged; delete it to treat every file in the tree as a hand edit", path.display())]
    ManifestDamaged {
        /// The manifest file.
        path: PathBuf,
        /// What the parser said.
        source: serde_json::Error,
    },
    /// The manifest was written by a version with another layout.
    #[error("{} has format {found}, this version reads format {supported}", path.display())]
    ManifestFormat {
        /// The manifest file.
        path: PathBuf,
        /// The format it declares.
        found: u32,
        /// The format this version reads.
        supported: u32,
    },
    /// The manifest lists a file that is not a note path inside the tree (`../victim.txt`, an
    /// absolute path): it was edited or planted, and is not trusted.
    #[error(
        "{} lists {entry:?}, which {reason}; the manifest is not trusted: delete it to treat every \
         file in the tree as a hand edit",
        path.display()
    )]
    ManifestEntry {
        /// The manifest file.
        path: PathBuf,
        /// The entry, as written.
        entry: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A file or folder of the tree is a symbolic link; exports and imports never go through
    /// one, so nothing outside the tree's folder is read, written or removed.
    #[error(
        "{} is a symbolic link; agent-memory does not read or write through links in a tree: \
         remove it (or replace it with a real folder or file)",
        path.display()
    )]
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// A file or folder could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A folder could not be created.
    #[error("cannot create {}", path.display())]
    CreateDir {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file of a note that no longer exists could not be removed from the tree.
    #[error("cannot remove stale {file}")]
    RemoveStale {
        /// The file, relative to the tree.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The store could not list its notes.
    #[error("cannot list notes")]
    ListNotes(#[source] memory_core::Error),
    /// The store could not commit the imported notes; none of them were written.
    #[error("cannot write the imported notes")]
    Commit(#[source] memory_core::Error),
    /// Another store call failed.
    #[error(transparent)]
    Store(#[from] memory_core::Error),
}

/// `Result` with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub(crate) fn read(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Read { path, source }
    }

    pub(crate) fn create_dir(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::CreateDir { path, source }
    }
}

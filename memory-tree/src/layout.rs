//! Where each note lives in an exported tree, and walking a tree back into files.
//!
//! `user/<path>`, `project/<project name>/<path>`, `session/<slugged session key>/<path>`. The
//! scope folder is derived from the scope and the [`Naming`]; the scope itself is read back from
//! the frontmatter, which is authoritative. A project note the dream filed under
//! `project/<folder>/` is written without that prefix (the manifest keeps its path).

use std::path::{Path, PathBuf};

use memory_core::{NotePath, Scope, slug};
use sha2::{Digest, Sha256};

/// The manifest an export leaves at the top of the tree.
pub const MANIFEST: &str = ".agent-memory-export.json";
/// The generated index of every note (never imported).
pub const INDEX: &str = "index.md";

/// The top-level folders notes live under.
const KINDS: [&str; 3] = ["user", "project", "session"];

/// Lowercase hex SHA-256 of some bytes.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The readable names project folders get, by project id; a project without one is filed under
/// its id.
pub use memory_core::ProjectNames as Naming;

/// A scope's folder, relative to the tree: `user`, `project/<name>`, `session/<slug>`.
pub(crate) fn scope_dir(scope: &Scope, naming: &Naming) -> String {
    match scope {
        Scope::User => "user".to_owned(),
        Scope::Project(id) => format!("project/{}", segment(naming.name(id))),
        Scope::Session(key) => format!("session/{}", segment(key)),
    }
}

/// The folder used instead of [`scope_dir`] when two scopes would share one (their names differ
/// only in characters a folder name cannot keep).
pub(crate) fn disambiguated_scope_dir(scope: &Scope, naming: &Naming) -> String {
    let hash = sha256_hex(scope.to_string().as_bytes());
    format!("{}-{}", scope_dir(scope, naming), &hash[..8])
}

/// A note's file path below its scope folder: its path, without the `project/<folder>/` the
/// dream files a project's notes under (the scope folder says which project it is).
pub(crate) fn short_path(scope: &Scope, path: &NotePath) -> Option<String> {
    let Scope::Project(_) = scope else { return None };
    path.below_project_folder().map(str::to_owned)
}

/// A name kept as is when it is a safe folder name, slugged otherwise.
fn segment(name: &str) -> String {
    let safe = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if safe { name.to_owned() } else { slug(name) }
}

/// A file found in a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TreeFile {
    /// Path relative to the tree, `/`-separated (`project/acme/conventions.md`).
    pub(crate) rel: String,
    /// Absolute path on disk.
    pub(crate) abs: PathBuf,
}

/// Where a file sits: its scope folder and the note path below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placement {
    /// `user`, `project/<x>` or `session/<x>`.
    pub(crate) folder: String,
    /// The note path within the scope.
    pub(crate) path: NotePath,
}

/// Splits a tree-relative file path into its scope folder and note path.
pub(crate) fn place(rel: &str) -> Result<Placement, String> {
    let (kind, rest) = rel.split_once('/').unwrap_or((rel, ""));
    let (folder, inner) = match kind {
        "user" => ("user".to_owned(), rest),
        "project" | "session" => match rest.split_once('/') {
            Some((name, inner)) => (format!("{kind}/{name}"), inner),
            None => return Err(format!("is directly in {kind}/; put it in a {kind}/<name>/ folder")),
        },
        _ => return Err("is not under user/, project/<id>/ or session/<key>/".to_owned()),
    };
    let path = NotePath::new(inner).map_err(|e| e.to_string())?;
    Ok(Placement { folder, path })
}

/// The scope a scope folder stands for, for a file whose frontmatter names none: `user`, or the
/// project the folder is named after (by name or id; a folder nobody knows is taken as the id of
/// the project it held). A session's folder is a slug of its key, so it names no scope.
pub(crate) fn folder_scope(folder: &str, naming: &Naming) -> Option<Scope> {
    if folder == "user" {
        return Some(Scope::User);
    }
    let name = folder.strip_prefix("project/")?;
    let scope = naming.resolve(Scope::Project(name.to_owned()));
    scope.validate().is_ok().then_some(scope)
}

/// Whether a file's folder agrees with the scope its frontmatter names: the folder named after
/// the project, or after its id (as earlier exports named it).
pub(crate) fn folder_matches(folder: &str, scope: &Scope, naming: &Naming) -> bool {
    [naming, &Naming::default()]
        .iter()
        .any(|n| folder == scope_dir(scope, n) || folder == disambiguated_scope_dir(scope, n))
}

/// Every Markdown file below the scope folders of a tree, sorted by relative path. Hidden
/// entries (`.obsidian/`, `.git/`) and symbolic links are skipped. Markdown files elsewhere
/// (other than the generated index) are returned too, so they can be reported.
pub(crate) fn walk(dir: &Path) -> std::io::Result<Vec<TreeFile>> {
    let mut out = markdown_files(dir)?;
    out.retain(|f| f.rel != INDEX);
    Ok(out)
}

/// Every Markdown file below `dir`, sorted by relative path; hidden entries and symbolic links
/// skipped.
pub(crate) fn markdown_files(dir: &Path) -> std::io::Result<Vec<TreeFile>> {
    let mut out = Vec::new();
    walk_into(dir, "", &mut out)?;
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

fn walk_into(dir: &Path, prefix: &str, out: &mut Vec<TreeFile>) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !prefix.is_empty() => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let rel = if prefix.is_empty() { name.clone() } else { format!("{prefix}/{name}") };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk_into(&entry.path(), &rel, out)?;
        } else if kind.is_file() && name.ends_with(".md") {
            out.push(TreeFile { rel, abs: entry.path() });
        }
    }
    Ok(())
}

/// Removes `dir` when nothing but empty folders is below it, and the empty folders below it
/// otherwise; whether `dir` went.
pub(crate) fn prune(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    let mut empty = true;
    for entry in entries.flatten() {
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !(is_dir && prune(&entry.path())) {
            empty = false;
        }
    }
    empty && std::fs::remove_dir(dir).is_ok()
}

/// Removes empty folders below the scope folders (after stale files were deleted).
pub(crate) fn prune_empty_dirs(dir: &Path) {
    for kind in KINDS {
        // A scope folder that is a link is not the tree's to prune (its target is elsewhere).
        let path = dir.join(kind);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            prune(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_folders() {
        let ids = Naming::default();
        assert_eq!(scope_dir(&Scope::User, &ids), "user");
        assert_eq!(scope_dir(&Scope::Project("acme-1a2b".into()), &ids), "project/acme-1a2b");
        assert_eq!(scope_dir(&Scope::Session("claude:AB/c".into()), &ids), "session/claude-ab-c");
        assert_eq!(scope_dir(&Scope::Project("../x".into()), &ids), "project/x");
        let names = Naming::new([("acme-1a2b3c4d".to_owned(), "acme".to_owned())].into());
        let acme = Scope::Project("acme-1a2b3c4d".into());
        assert_eq!(scope_dir(&acme, &names), "project/acme");
        assert!(folder_matches("project/acme", &acme, &names));
        assert!(folder_matches("project/acme-1a2b3c4d", &acme, &names), "an earlier export's folder");
        let dream = NotePath::new("project/acme-1a2b3c4d/conventions.md").unwrap();
        assert_eq!(short_path(&acme, &dream).as_deref(), Some("conventions.md"));
        assert_eq!(short_path(&Scope::User, &dream), None);
    }

    #[test]
    fn placing_files() {
        let p = place("project/acme/tools/cargo.md").unwrap();
        assert_eq!((p.folder.as_str(), p.path.as_str()), ("project/acme", "tools/cargo.md"));
        let p = place("user/profile/role.md").unwrap();
        assert_eq!((p.folder.as_str(), p.path.as_str()), ("user", "profile/role.md"));
        assert!(place("notes.md").unwrap_err().contains("not under"));
        assert!(place("project/x.md").unwrap_err().contains("directly in project/"));
        assert!(place("user/My Note.md").unwrap_err().contains("lowercase"));
    }

    #[test]
    fn folders_match_their_scope() {
        let scope = Scope::Session("codex:x".into());
        let naming = Naming::default();
        assert!(folder_matches("session/codex-x", &scope, &naming));
        assert!(folder_matches(&disambiguated_scope_dir(&scope, &naming), &scope, &naming));
        assert!(!folder_matches("user", &scope, &naming));
    }
}

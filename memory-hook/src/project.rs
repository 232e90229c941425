//! Project identity: which project a session belongs to, so its events and notes are filed under
//! the right name.
//!
//! A project is the top level of a git repository (the main repository for a linked worktree),
//! unless a `.agent-memory.toml` file at or above the working directory names it. A directory
//! outside git is its own project. The id is `<name>-<hash>`, where the hash comes from the
//! repository's `origin` URL when there is one (stable across clones) and from the root path
//! otherwise.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

/// The file that overrides project identity.
pub const PROJECT_FILE: &str = ".agent-memory.toml";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Stable id used as `Scope::Project(id)`.
    pub id: String,
    /// Human name (a slug), used in note paths such as `project/<name>/conventions.md`.
    pub name: String,
    /// The project's root folder.
    pub root: PathBuf,
}

impl Project {
    /// `path` relative to the project root when it lies inside it (a relative `path` is taken
    /// from `cwd`), so one file has one name whichever folder of the project a session ran in.
    /// Paths outside the project are returned as given.
    pub fn relative(&self, path: &str, cwd: Option<&Path>) -> String {
        let given = Path::new(path);
        let absolute = match (given.is_absolute(), cwd) {
            (true, _) => given.to_path_buf(),
            (false, Some(cwd)) => {
                std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf()).join(given)
            }
            (false, None) => return path.to_owned(),
        };
        let mut clean = PathBuf::new();
        for part in absolute.components() {
            match part {
                std::path::Component::ParentDir => {
                    clean.pop();
                }
                std::path::Component::CurDir => {}
                other => clean.push(other),
            }
        }
        match clean.strip_prefix(&self.root) {
            Ok(rest) if !rest.as_os_str().is_empty() => rest.to_string_lossy().into_owned(),
            _ => path.to_owned(),
        }
    }
}

#[derive(Debug, Deserialize)]
struct ProjectFile {
    project: Option<String>,
}

/// Finds the project a working directory belongs to. Never fails: a directory nobody knows is
/// its own project.
pub fn identify(cwd: &Path) -> Project {
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    for dir in cwd.ancestors() {
        if let Some(name) = named_in_file(dir) {
            return make(dir, &name, &format!("named:{name}"));
        }
        let dot_git = dir.join(".git");
        if dot_git.exists() {
            let git_dir = resolve_git_dir(&dot_git);
            let root = git_dir
                .as_deref()
                .and_then(|g| (g.file_name()? == ".git").then(|| g.parent().map(Path::to_path_buf)))
                .flatten()
                .unwrap_or_else(|| dir.to_path_buf());
            if root != dir
                && let Some(name) = named_in_file(&root)
            {
                return make(&root, &name, &format!("named:{name}"));
            }
            let key =
                git_dir.as_deref().and_then(origin_url).unwrap_or_else(|| format!("path:{}", root.display()));
            let name = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            return make(&root, &name, &key);
        }
    }
    let name = cwd.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    make(&cwd, &name, &format!("path:{}", cwd.display()))
}

fn make(root: &Path, name: &str, key: &str) -> Project {
    let name = memory_core::slug(name);
    let digest = Sha256::digest(key.as_bytes());
    let hash: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    Project { id: format!("{name}-{hash}"), name, root: root.to_path_buf() }
}

fn named_in_file(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(PROJECT_FILE)).ok()?;
    let file: ProjectFile = toml::from_str(&text).ok()?;
    file.project.filter(|p| !p.trim().is_empty())
}

/// The repository's own git directory: `.git` itself, or for a linked worktree (where `.git` is a
/// file saying `gitdir: …/.git/worktrees/<name>`) the common directory it points to.
fn resolve_git_dir(dot_git: &Path) -> Option<PathBuf> {
    if dot_git.is_dir() {
        return Some(dot_git.to_path_buf());
    }
    let text = std::fs::read_to_string(dot_git).ok()?;
    let target = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    let base = dot_git.parent()?;
    let worktree_git = base.join(target);
    let common = match std::fs::read_to_string(worktree_git.join("commondir")) {
        Ok(rel) => worktree_git.join(rel.trim()),
        Err(_) => worktree_git,
    };
    Some(std::fs::canonicalize(&common).unwrap_or(common))
}

/// The `origin` remote's URL from a git directory's config, without credentials.
fn origin_url(git_dir: &Path) -> Option<String> {
    let config = std::fs::read_to_string(git_dir.join("config")).ok()?;
    let mut in_origin = false;
    for line in config.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_origin = line == "[remote \"origin\"]";
        } else if in_origin && let Some(url) = line.strip_prefix("url").map(str::trim_start) {
            let url = url.strip_prefix('=')?.trim();
            let without_auth = match url.split_once("://") {
                Some((scheme, rest)) => {
                    format!("{scheme}://{}", rest.rsplit_once('@').map_or(rest, |(_, host)| host))
                }
                None => url.to_owned(),
            };
            return Some(format!("origin:{}", without_auth.trim_end_matches(".git")));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .expect("git runs");
        assert!(status.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&status.stderr));
    }

    #[test]
    fn subdirectories_and_worktrees_share_the_repository_identity() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("Acme API");
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        git(&repo, &["init", "-q"]);
        git(
            &repo,
            &["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "x"],
        );
        let top = identify(&repo);
        assert_eq!(top.name, "acme-api");
        assert!(top.id.starts_with("acme-api-"), "{}", top.id);
        assert_eq!(identify(&repo.join("src/deep")), top);

        let wt = tmp.path().join("wt");
        git(&repo, &["worktree", "add", "-q", wt.to_str().unwrap()]);
        assert_eq!(identify(&wt).id, top.id);
    }

    #[test]
    fn origin_url_makes_clones_agree_and_drops_credentials() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("one/app"), tmp.path().join("two/app"));
        for (dir, url) in
            [(&a, "https://user:pw@example.com/org/app.git"), (&b, "https://example.com/org/app")]
        {
            std::fs::create_dir_all(dir).unwrap();
            git(dir, &["init", "-q"]);
            git(dir, &["remote", "add", "origin", url]);
        }
        assert_eq!(identify(&a).id, identify(&b).id);
    }

    #[test]
    fn file_paths_become_relative_to_the_project_root() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("app");
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        git(&repo, &["init", "-q"]);
        let project = identify(&repo.join("src"));
        let root = std::fs::canonicalize(&repo).unwrap();
        let sub = repo.join("src");
        assert_eq!(project.relative("lib.rs", Some(&sub)), "src/lib.rs");
        assert_eq!(project.relative("../README.md", Some(&sub)), "README.md");
        assert_eq!(project.relative(&root.join("src/deep/x.rs").to_string_lossy(), None), "src/deep/x.rs");
        assert_eq!(project.relative("/etc/hosts", Some(&sub)), "/etc/hosts");
        assert_eq!(project.relative("notes.md", None), "notes.md");
    }

    #[test]
    fn a_project_file_overrides_and_plain_folders_are_stable() {
        let tmp = tempfile::tempdir().unwrap();
        let plain = tmp.path().join("notes");
        std::fs::create_dir_all(plain.join("x")).unwrap();
        let first = identify(&plain);
        assert_eq!(first, identify(&plain));
        assert_ne!(identify(&plain.join("x")).id, first.id);

        std::fs::write(plain.join(PROJECT_FILE), "project = \"Big Plan\"\n").unwrap();
        let named = identify(&plain.join("x"));
        assert_eq!(named.name, "big-plan");
        assert_eq!(named.root, std::fs::canonicalize(&plain).unwrap());
    }
}

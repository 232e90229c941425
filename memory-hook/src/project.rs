//! Project identity: which project a session belongs to, so its events and notes are filed under
//! the right id, and stay there when the folder changes.
//!
//! A project is the top level of a git repository (the main repository for a linked worktree),
//! unless a `.agent-memory.toml` file at or above the working directory names it. A directory
//! outside git is its own project.
//!
//! The [`Registry`] (`<data_dir>/projects.json`) remembers every project a hook has seen and what
//! identified it: root folders, remote URLs, root commits, names from `.agent-memory.toml`. A
//! folder it knows keeps its project's id whatever changed since (a remote added, a project file
//! added); a folder it does not know joins the project one of those identifiers points to (a
//! moved folder, a second clone), or becomes a new project. A new project's id is
//! `<name>-<hash>`: the name the project file gives, else the repository's name in the `origin`
//! URL, else the folder's; the hash from the project file's name, else the `origin` URL however
//! it is spelt (so clones on other machines agree), else the root path: what [`identify`]
//! computes without a registry.
//!
//! The [`Catalog`] joins the registry with the project ids a store holds, for commands: it turns
//! `project:<name>` into the project's scope, and a project's id into its readable name.

mod catalog;
mod git;
mod registry;
#[cfg(test)]
mod registry_tests;

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

pub use catalog::{Catalog, Known, MergeReport, merge, rename};
pub use registry::{Entry, FILE as REGISTRY_FILE, Projects, Registry, Root};

/// The file that overrides project identity.
pub const PROJECT_FILE: &str = ".agent-memory.toml";

/// The project a hook files a session under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Stable id used as `Scope::Project(id)`.
    pub id: String,
    /// Readable name (a slug, unique among known projects), shown to users.
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

/// What `.agent-memory.toml` says; every key optional.
#[derive(Debug, Deserialize)]
pub(crate) struct ProjectFile {
    project: Option<String>,
    /// `false`: sessions in this folder (and below) are not recorded.
    capture: Option<bool>,
    /// `[share]`: the project's notes shared through its repository ([`crate::share`]).
    #[serde(default)]
    pub(crate) share: ShareTable,
}

/// The `[share]` table of a project file.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ShareTable {
    /// The folder, relative to the project's root, the notes are kept in.
    pub(crate) notes: Option<String>,
}

/// The project file in `dir`, when there is one that parses.
pub(crate) fn project_file(dir: &Path) -> Option<ProjectFile> {
    let text = std::fs::read_to_string(dir.join(PROJECT_FILE)).ok()?;
    toml::from_str(&text).ok()
}

/// The repository's own git directory for a `.git` folder or a linked worktree's `.git` file.
pub(crate) fn git_dir(dot_git: &Path) -> Option<PathBuf> {
    git::resolve_git_dir(dot_git)
}

/// The project file that switches capture off for `cwd`: the nearest `.agent-memory.toml` with a
/// `capture` key, from `cwd` up to the project's `root`, when it says `capture = false`.
pub fn capture_switched_off(cwd: &Path, root: &Path) -> Option<PathBuf> {
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let dirs: Vec<&Path> = if cwd.starts_with(root) {
        cwd.ancestors().take_while(|d| d.starts_with(root)).collect()
    } else {
        vec![root]
    };
    for dir in dirs {
        // A file that does not parse switches nothing off; identity ignores it too.
        if let Some(capture) = project_file(dir).and_then(|f| f.capture) {
            return (!capture).then(|| dir.join(PROJECT_FILE));
        }
    }
    None
}

/// The identity a working directory gets when no registry knows it. Never fails: a directory
/// nobody knows is its own project. Hooks use [`Registry::identify`], which keeps a known
/// project's id when its folder changes.
pub fn identify(cwd: &Path) -> Project {
    Sighting::scan(cwd).fresh()
}

/// What the files of a working directory say about its project, read without starting a process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sighting {
    /// The project's root folder.
    pub(crate) root: PathBuf,
    /// The name `.agent-memory.toml` gives, as written.
    pub(crate) named: Option<String>,
    /// The git directory, when the root is a repository's top level.
    pub(crate) git_dir: Option<PathBuf>,
    /// The `origin` URL without credentials.
    pub(crate) origin: Option<String>,
    /// Every remote URL, canonical ([`git::canonical_remote`]), `origin` first.
    pub(crate) remotes: Vec<String>,
    /// Tells this root folder from another later made at the same path (see [`marker`]).
    pub(crate) marker: Option<String>,
}

impl Sighting {
    /// Reads the project files at and above `cwd`: `.agent-memory.toml`, `.git`, the git config.
    pub(crate) fn scan(cwd: &Path) -> Self {
        let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
        for dir in cwd.ancestors() {
            if let Some(name) = named_in_file(dir) {
                // A project file at a repository's top level keeps the repository's identifiers;
                // one in a sub-folder makes a project of its own there.
                let git_dir = dir.join(".git");
                let git_dir = git_dir.exists().then(|| git::resolve_git_dir(&git_dir)).flatten();
                let top = git_dir.as_deref().is_some_and(|g| top_level(g, dir) == dir);
                return Self::new(dir, Some(name), if top { git_dir } else { None });
            }
            let dot_git = dir.join(".git");
            if dot_git.exists() {
                let git_dir = git::resolve_git_dir(&dot_git);
                let root = git_dir.as_deref().map_or_else(|| dir.to_path_buf(), |g| top_level(g, dir));
                if root != dir
                    && let Some(name) = named_in_file(&root)
                {
                    return Self::new(&root, Some(name), git_dir);
                }
                return Self::new(&root, None, git_dir);
            }
        }
        Self::new(&cwd, None, None)
    }

    fn new(root: &Path, named: Option<String>, git_dir: Option<PathBuf>) -> Self {
        let listed = git_dir.as_deref().map(git::remotes).unwrap_or_default();
        let origin = listed.iter().find(|(name, _)| name == "origin").map(|(_, url)| url.clone());
        let mut remotes: Vec<String> = Vec::new();
        for (_, url) in listed.iter().filter(|(name, _)| name == "origin").chain(&listed) {
            let canonical = git::canonical_remote(url);
            if !remotes.contains(&canonical) {
                remotes.push(canonical);
            }
        }
        let marker = marker(git_dir.as_deref().unwrap_or(root));
        Self { root: root.to_path_buf(), named, git_dir, origin, remotes, marker }
    }

    /// The readable name: the project file's, else the root folder's, as a slug.
    pub(crate) fn name(&self) -> String {
        let repository = self.origin.as_deref().map(git::canonical_remote).and_then(|url| {
            url.rsplit('/').next().filter(|last| !last.is_empty() && *last != url).map(str::to_owned)
        });
        match (&self.named, repository) {
            (Some(name), _) => memory_core::slug(name),
            // A clone is named after its repository, whatever its folder is called, so that
            // clones on other machines agree.
            (None, Some(repository)) => memory_core::slug(&repository),
            (None, None) => {
                memory_core::slug(&self.root.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
            }
        }
    }

    /// What a new project's id hashes: the project file's name, the `origin` URL (spelt one way,
    /// from [`git::canonical_remote`], so that `git@host:org/repo.git` and `https://host/org/repo`
    /// agree), or the root.
    pub(crate) fn key(&self) -> String {
        match (&self.named, &self.origin) {
            (Some(name), _) => format!("named:{name}"),
            // As earlier versions spelt an `https` origin, which the other spellings now share.
            (None, Some(url)) => format!("origin:https://{}", git::canonical_remote(url)),
            (None, None) => format!("path:{}", self.root.display()),
        }
    }

    /// The project as it would be with no registry: a new project's id.
    pub(crate) fn fresh(&self) -> Project {
        let name = self.name();
        Project { id: format!("{name}-{}", short_hash(&self.key())), name, root: self.root.clone() }
    }
}

/// The eight hex digits of SHA-256 ids carry.
pub(crate) fn short_hash(key: &str) -> String {
    Sha256::digest(key.as_bytes())[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// The working tree a git directory belongs to: the folder holding a `.git` directory, else
/// (a bare repository's worktree) `dir` itself.
fn top_level(git_dir: &Path, dir: &Path) -> PathBuf {
    match (git_dir.file_name(), git_dir.parent()) {
        (Some(name), Some(parent)) if name == ".git" => parent.to_path_buf(),
        _ => dir.to_path_buf(),
    }
}

/// The identity of a folder on its file system, from one `stat`: its inode and birth time, which
/// a rename or a move within the file system keeps and a folder made again at the same path does
/// not have.
fn marker(dir: &Path) -> Option<String> {
    let meta = std::fs::metadata(dir).ok()?;
    let born = meta
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0u64;
    (inode != 0 || born != 0).then(|| format!("{inode}:{born}"))
}

fn named_in_file(dir: &Path) -> Option<String> {
    project_file(dir)?.project.filter(|p| !p.trim().is_empty())
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
    fn new_ids_are_the_ones_earlier_versions_gave() {
        let tmp = tempfile::tempdir().unwrap();
        let plain = tmp.path().join("Notes");
        std::fs::create_dir_all(&plain).unwrap();
        let root = std::fs::canonicalize(&plain).unwrap();
        let hash = |key: String| -> String {
            Sha256::digest(key.as_bytes())[..4].iter().map(|b| format!("{b:02x}")).collect()
        };
        assert_eq!(identify(&plain).id, format!("notes-{}", hash(format!("path:{}", root.display()))));
        git(&plain, &["init", "-q"]);
        git(&plain, &["remote", "add", "origin", "https://user:pw@example.com/org/notes.git"]);
        assert_eq!(
            identify(&plain).id,
            format!("notes-{}", hash("origin:https://example.com/org/notes".into()))
        );
        std::fs::write(plain.join(PROJECT_FILE), "project = \"Big Plan\"\n").unwrap();
        assert_eq!(identify(&plain).id, format!("big-plan-{}", hash("named:Big Plan".into())));
    }

    #[test]
    fn clones_of_one_repository_agree_on_the_id_whatever_their_folder_and_remote_spelling() {
        let tmp = tempfile::tempdir().unwrap();
        let mut ids = Vec::new();
        for (folder, url) in [
            ("shop", "git@github.com:sam/shop.git"),
            ("shop-checkout", "https://github.com/sam/shop"),
            ("work/Shop (copy)", "ssh://git@GitHub.com/sam/shop.git"),
        ] {
            let dir = tmp.path().join(folder);
            std::fs::create_dir_all(&dir).unwrap();
            git(&dir, &["init", "-q"]);
            git(&dir, &["remote", "add", "origin", url]);
            let project = identify(&dir);
            assert_eq!(project.name, "shop", "{folder}: named after the repository");
            ids.push(project.id);
        }
        assert!(ids.windows(2).all(|w| w[0] == w[1]), "{ids:?}");
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

    #[test]
    fn capture_false_in_a_project_file_switches_capture_off_below_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        assert_eq!(capture_switched_off(&root.join("a/b"), &root), None);
        std::fs::write(root.join(PROJECT_FILE), "capture = false\n").unwrap();
        assert_eq!(capture_switched_off(&root.join("a/b"), &root), Some(root.join(PROJECT_FILE)));
        // A nearer file decides.
        std::fs::write(root.join("a").join(PROJECT_FILE), "capture = true\n").unwrap();
        assert_eq!(capture_switched_off(&root.join("a/b"), &root), None);
        assert_eq!(capture_switched_off(&root, &root), Some(root.join(PROJECT_FILE)));
    }
}

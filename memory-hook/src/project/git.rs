//! What a repository says about itself, read from its `.git` files: where its git directory is,
//! its remotes, whether it has commits. Only [`root_commits`] starts `git`, with a time limit, and
//! only when the registry does not know the folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for `git rev-list` (a huge history without a commit graph can take seconds; the
/// identifier is then left out and tried again another day).
const ROOT_COMMIT_LIMIT: Duration = Duration::from_millis(150);

/// The repository's own git directory: `.git` itself, or for a linked worktree (where `.git` is a
/// file saying `gitdir: …/.git/worktrees/<name>`) the common directory it points to.
pub(crate) fn resolve_git_dir(dot_git: &Path) -> Option<PathBuf> {
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

/// The remotes in a git directory's config, `(name, url)` in file order, URLs without
/// credentials (and without a trailing `.git`).
pub(crate) fn remotes(git_dir: &Path) -> Vec<(String, String)> {
    let Ok(config) = std::fs::read_to_string(git_dir.join("config")) else { return Vec::new() };
    let mut out = Vec::new();
    let mut remote: Option<String> = None;
    for line in config.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            remote =
                line.strip_prefix("[remote \"").and_then(|rest| rest.strip_suffix("\"]")).map(str::to_owned);
        } else if let Some(name) = &remote
            && let Some(rest) = line.strip_prefix("url").map(str::trim_start)
            && let Some(url) = rest.strip_prefix('=').map(str::trim)
            && !url.is_empty()
        {
            out.push((name.clone(), without_credentials(url)));
        }
    }
    out
}

fn without_credentials(url: &str) -> String {
    let url = match url.split_once("://") {
        Some((scheme, rest)) => {
            format!("{scheme}://{}", rest.rsplit_once('@').map_or(rest, |(_, host)| host))
        }
        None => url.to_owned(),
    };
    url.trim_end_matches(".git").to_owned()
}

/// A remote URL in the form two spellings of one repository share: no scheme, user or `.git`,
/// the host in lowercase, `host:path` (scp style) as `host/path`. `https://u@GitHub.com/o/a.git`
/// and `git@github.com:o/a` are both `github.com/o/a`; a local path stays a path.
pub(crate) fn canonical_remote(url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    let (rest, scp) = match url.split_once("://") {
        Some((_, rest)) => (rest, false),
        None if url.starts_with('/') || url.starts_with('.') => {
            return url.trim_end_matches(".git").to_owned();
        }
        None => (url, true),
    };
    let rest = rest.trim_end_matches(".git");
    let (authority, path) = if scp {
        match rest.split_once(':') {
            Some((host, path)) if !host.contains('/') => (host, path),
            _ => return rest.to_owned(),
        }
    } else {
        rest.split_once('/').unwrap_or((rest, ""))
    };
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host).to_ascii_lowercase();
    let host = host.strip_suffix(":22").unwrap_or(&host).to_owned();
    let path = path.trim_matches('/');
    if path.is_empty() { host } else { format!("{host}/{path}") }
}

/// Whether the repository's `HEAD` names a commit, from its files alone.
pub(crate) fn has_commits(git_dir: &Path) -> bool {
    let Ok(head) = std::fs::read_to_string(git_dir.join("HEAD")) else { return false };
    let head = head.trim();
    let Some(reference) = head.strip_prefix("ref:").map(str::trim) else {
        return head.len() >= 40 && head.bytes().all(|b| b.is_ascii_hexdigit());
    };
    if git_dir.join(reference).is_file() {
        return true;
    }
    std::fs::read_to_string(git_dir.join("packed-refs")).is_ok_and(|packed| {
        packed.lines().any(|l| l.split_once(' ').is_some_and(|(_, name)| name == reference))
    })
}

/// The repository's root commits (the first commits of its history), by `git rev-list`, within
/// [`ROOT_COMMIT_LIMIT`]. Empty when git is missing, the history is empty or shallow, or the
/// limit passed.
pub(crate) fn root_commits(root: &Path, git_dir: &Path) -> Vec<String> {
    if git_dir.join("shallow").exists() || !has_commits(git_dir) {
        return Vec::new();
    }
    let spawned = Command::new("git")
        .args(["rev-list", "--max-parents=0", "HEAD"])
        .current_dir(root)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = spawned else { return Vec::new() };
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(None) if started.elapsed() < ROOT_COMMIT_LIMIT => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Vec::new();
            }
            _ => return Vec::new(),
        }
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
    }
    out.lines()
        .map(str::trim)
        .filter(|l| l.len() >= 40 && l.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_spellings_of_one_repository_agree() {
        for url in [
            "https://github.com/org/app",
            "https://user:pw@GitHub.com/org/app.git",
            "git@github.com:org/app.git",
            "ssh://git@github.com/org/app",
            "ssh://git@github.com:22/org/app/",
        ] {
            assert_eq!(canonical_remote(url), "github.com/org/app", "{url}");
        }
        assert_eq!(canonical_remote("/srv/git/app.git"), "/srv/git/app");
        assert_ne!(canonical_remote("git@gitlab.com:org/app"), canonical_remote("git@github.com:org/app"));
    }

    #[test]
    fn credentials_never_leave_the_config() {
        assert_eq!(
            without_credentials("https://user:pw@example.com/org/app.git"),
            "https://example.com/org/app"
        );
        assert_eq!(without_credentials("https://tok@example.com"), "https://example.com");
        assert_eq!(without_credentials("git@example.com:org/app.git"), "git@example.com:org/app");
    }
}

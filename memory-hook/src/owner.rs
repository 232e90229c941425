//! Whose memory this is: the owner every event records ([`memory_core::HookEvent::owner`]) and
//! the name a team reads beside the notes this memory publishes ([`crate::team::owner`]).
//!
//! [`of`] reads the configuration only, so a hook stamps its event without starting a process:
//! `[user] owner` when set, else `[user] git_email`, git's global `user.email` as
//! `agent-memory install` recorded it ([`record_git_email`]), else nobody. Which events another
//! person sees is not decided by the owner: events never leave the memory that recorded them.

use std::path::Path;

use crate::config::Config;
use crate::error::Result;

/// The owner this memory's events record: `[user] owner`, else the `[team] owner` an earlier
/// `team join --owner` wrote, else the `[user] git_email` recorded at install, else `None`.
/// Blank values count as unset.
pub fn of(config: &Config) -> Option<&str> {
    given(&config.user.owner).or_else(|| given(&config.team.owner)).or_else(|| given(&config.user.git_email))
}

fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// git's `user.email`, as configured in `dir` (a repository's own setting first) or globally.
/// Runs `git`: for commands, never on a hook's path.
pub fn git_email(dir: Option<&Path>) -> Option<String> {
    let mut git = std::process::Command::new("git");
    match dir {
        Some(dir) => git.arg("-C").arg(dir).args(["config", "--get", "user.email"]),
        None => git.args(["config", "--global", "--get", "user.email"]),
    };
    let out = git.stderr(std::process::Stdio::null()).output().ok()?;
    let email = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (out.status.success() && !email.is_empty()).then_some(email)
}

/// Records `email` as `[user] git_email` in the config file at `path` (created when missing;
/// other settings and comments kept); `agent-memory install` records git's global `user.email`.
/// Returns whether the file changed.
pub fn record_git_email(path: &Path, email: &str) -> Result<bool> {
    let email = email.trim();
    let current = std::fs::read_to_string(path).ok().and_then(|text| Config::parse(&text).ok());
    if email.is_empty() || current.is_some_and(|c| c.user.git_email.as_deref() == Some(email)) {
        return Ok(false);
    }
    crate::config::edit_file(path, |doc| set_in(doc, "git_email", email))?;
    Ok(true)
}

/// Sets `[user] <key>` in a config file's document.
pub(crate) fn set_in(doc: &mut toml_edit::DocumentMut, key: &str, value: &str) {
    if !doc.contains_table("user") {
        doc.insert("user", toml_edit::Item::Table(toml_edit::Table::new()));
    }
    doc["user"][key] = toml_edit::value(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Config {
        Config::parse(text).unwrap()
    }

    #[test]
    fn the_configured_owner_wins_over_the_email_recorded_at_install() {
        let config = parsed("[user]\nowner = \"sam@example.com\"\ngit_email = \"sam@home.example\"\n");
        assert_eq!(of(&config), Some("sam@example.com"));
    }

    #[test]
    fn without_a_configured_owner_the_email_recorded_at_install_stands_in() {
        assert_eq!(of(&parsed("[user]\ngit_email = \"kim@example.com\"\n")), Some("kim@example.com"));
        assert_eq!(
            of(&parsed("[user]\nowner = \"  \"\ngit_email = \"kim@example.com\"\n")),
            Some("kim@example.com")
        );
    }

    #[test]
    fn an_owner_written_under_team_by_an_earlier_join_is_still_read() {
        let config =
            parsed("[team]\nowner = \"ana@example.com\"\n\n[user]\ngit_email = \"ana@home.example\"\n");
        assert_eq!(of(&config), Some("ana@example.com"));
        let config = parsed("[team]\nowner = \"ana@example.com\"\n\n[user]\nowner = \"ana@work.example\"\n");
        assert_eq!(of(&config), Some("ana@work.example"), "[user] owner wins");
    }

    #[test]
    fn with_neither_nobody_owns_the_events() {
        assert_eq!(of(&parsed("")), None);
        assert_eq!(of(&parsed("[user]\nowner = \"\"\n")), None);
    }

    #[test]
    fn install_records_the_email_beside_the_other_settings_and_a_configured_owner_still_wins() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("agent-memory").join("config.toml");
        assert!(record_git_email(&path, "kim@example.com\n").unwrap(), "a missing file is created");
        assert_eq!(of(&parsed(&std::fs::read_to_string(&path).unwrap())), Some("kim@example.com"));
        assert!(!record_git_email(&path, "kim@example.com").unwrap(), "the same email changes nothing");
        assert!(!record_git_email(&path, " ").unwrap(), "no email records nothing");

        std::fs::write(&path, "# mine\n[hook]\nprompt_budget = 900\n\n[user]\nowner = \"sam@example.com\"\n")
            .unwrap();
        assert!(record_git_email(&path, "sam@home.example").unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n[hook]\nprompt_budget = 900\n"), "{text}");
        let config = parsed(&text);
        assert_eq!(config.user.git_email.as_deref(), Some("sam@home.example"));
        assert_eq!(of(&config), Some("sam@example.com"), "the owner set by hand wins");
    }
}

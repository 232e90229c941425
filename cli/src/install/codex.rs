//! Codex: `hooks.json` (same nesting as Claude Code), the `[features]` flag some versions need in
//! `config.toml`, and the trust review every new hook goes through.
//!
//! Feature flag rule: codex-cli 0.114 to 0.124 run hooks only with `[features] codex_hooks = true`;
//! from 0.125 hooks are on by default (`[features] hooks = false` turns them off, `codex_hooks` is
//! a deprecated alias). So the installer writes `codex_hooks = true` only when the installed Codex
//! is older than 0.125 and the file sets neither key; it never overrides a key the user set, and
//! it never writes a `config.toml` it cannot parse (edits keep the file's formatting and comments).

use std::fmt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::merge::{HandlerSpec, HarnessSpec, Shape};

/// `hooks.json` nests handlers like Claude Code's settings; the events come from the adapter.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "codex",
    shape: Shape::Nested,
    adapter: &crate::cmd::CODEX,
    fresh_members: &[],
    user_file_is_settings: false,
    handler: HandlerSpec::COMMAND,
};

/// The trust step.
pub(crate) const TRUST: &str = "Codex: a new or changed hook runs only after you trust it. Start `codex` and \
answer \"Hooks need review\" (or open `/hooks`) to review and trust them. `codex exec` skips untrusted hooks \
without a word; for CI use `codex exec --dangerously-bypass-hook-trust`. Any change to a hook (a new binary \
path too) needs a new review.";

/// The extra trust step for project hooks.
pub(crate) const PROJECT_TRUST: &str = "Codex loads <project>/.codex/ only for a trusted project (Codex asks \
on first start; it records `trust_level = \"trusted\"` under `[projects.\"<dir>\"]` in ~/.codex/config.toml).";

/// A codex-cli version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Version(pub(crate) u64, pub(crate) u64, pub(crate) u64);

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// First release with hooks (behind `codex_hooks`).
pub(crate) const FIRST_WITH_HOOKS: Version = Version(0, 114, 0);
/// First release with hooks on by default.
pub(crate) const HOOKS_ON_BY_DEFAULT: Version = Version(0, 125, 0);

impl Version {
    /// Reads the first `X.Y.Z` in text such as `codex-cli 0.171.0`.
    pub(crate) fn find(text: &str) -> Option<Self> {
        text.split(|c: char| c.is_whitespace() || c == 'v').find_map(|word| {
            let mut parts = word.split('.').map(|p| p.split(|c: char| !c.is_ascii_digit()).next());
            let major = parts.next()??.parse().ok()?;
            let minor = parts.next()??.parse().ok()?;
            let patch = parts.next()??.parse().ok()?;
            Some(Self(major, minor, patch))
        })
    }
}

/// The version of the `codex` on PATH, if there is one that answers `--version` within 5 s.
pub(crate) fn detect_version() -> Option<Version> {
    let mut child = Command::new("codex")
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < Duration::from_secs(5) => {
                std::thread::sleep(Duration::from_millis(20))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let output = child.wait_with_output().ok()?;
    Version::find(&String::from_utf8_lossy(&output.stdout))
}

/// What `config.toml` says about hooks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Flag {
    /// Neither `hooks` nor `codex_hooks` is set under `[features]`.
    Unset,
    /// The named key is `true`.
    On(&'static str),
    /// The named key is `false`: hooks are turned off.
    Off(&'static str),
}

/// Reads the feature flag; `hooks` wins over its deprecated alias `codex_hooks`.
pub(crate) fn flag(doc: &toml_edit::DocumentMut) -> Flag {
    let features = doc.get("features");
    for key in ["hooks", "codex_hooks"] {
        if let Some(value) = features.and_then(|f| f.get(key)).and_then(|v| v.as_bool()) {
            return if value { Flag::On(key) } else { Flag::Off(key) };
        }
    }
    Flag::Unset
}

/// What the installer does with `config.toml`.
#[derive(Debug, Default)]
pub(crate) struct FlagPlan {
    /// The file's new text, when it must change.
    pub(crate) new_text: Option<String>,
    /// What was decided, for the user.
    pub(crate) notes: Vec<String>,
    /// Something that keeps the hooks from running.
    pub(crate) problem: Option<String>,
}

/// Decides whether `config.toml` (its current text, if it exists) needs the feature flag for the
/// installed Codex (`None` when unknown).
pub(crate) fn plan_flag(path: &Path, text: Option<&str>, version: Option<Version>) -> FlagPlan {
    let mut plan = FlagPlan::default();
    let shown = path.display();
    if let Some(v) = version
        && v < FIRST_WITH_HOOKS
    {
        plan.problem = Some(format!("codex-cli {v} has no hooks; upgrade to {HOOKS_ON_BY_DEFAULT} or later"));
        return plan;
    }
    let needs_flag = version.is_some_and(|v| v < HOOKS_ON_BY_DEFAULT);
    let doc = match text.unwrap_or("").parse::<toml_edit::DocumentMut>() {
        Ok(doc) => doc,
        Err(e) => {
            let reason = e.to_string().lines().next().unwrap_or("invalid TOML").to_owned();
            if needs_flag {
                plan.problem = Some(format!(
                    "cannot parse {shown} ({reason}); left it alone: add `[features]` `codex_hooks = true` yourself"
                ));
            } else {
                plan.notes.push(format!(
                    "could not read the hooks feature flag in {shown} ({reason}); left it alone"
                ));
            }
            return plan;
        }
    };
    match flag(&doc) {
        Flag::Off(key) => {
            plan.problem = Some(format!(
                "hooks are turned off in {shown} (`[features] {key} = false`): set it to true or remove it"
            ));
        }
        Flag::On(key) => plan.notes.push(format!("{shown}: `[features] {key} = true` already set")),
        Flag::Unset if needs_flag => {
            let mut doc = doc;
            let version = version.map(|v| v.to_string()).unwrap_or_default();
            if doc.get("features").is_none() {
                doc["features"] = toml_edit::table();
            }
            match doc.get_mut("features").and_then(|f| f.as_table_like_mut()) {
                Some(features) => {
                    features.insert("codex_hooks", toml_edit::value(true));
                    plan.new_text = Some(doc.to_string());
                    plan.notes.push(format!("codex-cli {version} needs `[features] codex_hooks = true`"));
                }
                None => {
                    plan.problem =
                        Some(format!("`features` in {shown} is not a table; add `codex_hooks = true` yourself"));
                }
            }
        }
        Flag::Unset => match version {
            Some(v) => plan.notes.push(format!("codex-cli {v} runs hooks by default; no feature flag needed")),
            None => plan.notes.push(format!(
                "`codex` is not on PATH; codex-cli {HOOKS_ON_BY_DEFAULT} and later run hooks by default, older \
                 builds need `[features] codex_hooks = true` in {shown}"
            )),
        },
    }
    plan
}

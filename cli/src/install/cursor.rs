//! Cursor: a flat `hooks.json` (`{"version":1,"hooks":{event:[{command}]}}`), and what the user must
//! know, including that Cursor also runs Claude Code's hooks.

use super::merge::{HandlerSpec, HarnessSpec, Shape};

/// A flat `hooks.json` that starts with `"version": 1`; the events come from the adapter.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "cursor",
    shape: Shape::Flat,
    adapter: &crate::cmd::CURSOR,
    fresh_members: &[("version", 1)],
    user_file_is_settings: false,
    handler: HandlerSpec { typed: false, ..HandlerSpec::COMMAND },
};

/// The trust step.
pub(crate) const TRUST: &str = "Cursor: hooks.json is reloaded on change; project hooks run only in a trusted \
workspace. The Hooks tab in Cursor Settings and the \"Hooks\" output channel show each run.";

/// Why installing for Claude Code and Cursor together is safe.
pub(crate) const ALSO_RUNS_CLAUDE: &str = "Cursor also runs Claude Code's hooks (~/.claude/settings.json and \
.claude/settings*.json) unless Third-Party Imports is off. The Claude hook recognises Cursor's environment and \
records nothing there, so each Cursor session is recorded once, by the Cursor hook: installing both is safe.";

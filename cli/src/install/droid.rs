//! Factory droid: `settings.json` (`~/.factory/` or the project's `.factory/`) with Claude Code's
//! nested matcher groups and event names under `hooks`, a timeout in seconds, MCP servers in the
//! `mcp.json` beside it, and what the user must know.

use super::json::Json;
use super::merge::{HandlerSpec, HarnessSpec, Shape};

/// Nested groups in the settings file; the events come from the adapter.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "droid",
    shape: Shape::Nested,
    adapter: &crate::cmd::DROID,
    fresh_members: &[],
    user_file_is_settings: true,
    handler: HandlerSpec::COMMAND,
};

/// The trust step.
pub(crate) const TRUST: &str = "Factory droid: hooks take effect in new sessions, with no trust step, and are on \
unless `hooksDisabled` is true. A hooks.json beside the settings file (droid's /hooks writes one) takes each event \
it names over the settings file's: keep our handlers there too if you use it. UserPromptSubmit fires for prompts \
sent through droid's session protocol (the TUI, `droid exec --input-format stream-jsonrpc`), not for \
`droid exec \"<prompt>\"`.";

/// Whether a settings file turns every hook off (`hooksDisabled: true`).
pub(crate) fn hooks_off(doc: &Json) -> bool {
    doc.get("hooksDisabled") == Some(&Json::Bool(true))
}

/// The problem to report when a settings file turns hooks off.
pub(crate) fn hooks_off_problem(path: &std::path::Path) -> String {
    format!(
        "{} sets `hooksDisabled: true`: droid runs no hooks until it is removed or set to false",
        path.display()
    )
}

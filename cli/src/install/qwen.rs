//! Qwen Code: `settings.json` (`~/.qwen/` or the project's `.qwen/`) with Claude Code's nested
//! matcher groups and event names, a timeout in seconds, MCP servers in the same file, and what the
//! user must know.

use super::json::Json;
use super::merge::{HandlerSpec, HarnessSpec, Shape};

/// Nested groups in the settings file; the events come from the adapter.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "qwen",
    shape: Shape::Nested,
    adapter: &crate::cmd::QWEN,
    fresh_members: &[],
    user_file_is_settings: false,
    handler: HandlerSpec { name: Some("agent-memory"), ..HandlerSpec::COMMAND },
};

/// The trust step.
pub(crate) const TRUST: &str = "Qwen Code: hooks take effect in new sessions and are on unless \
`disableAllHooks` is true (its --bare and safe modes run none). With folder trust on \
(`security.folderTrust.enabled`), a project's .qwen/settings.json waits until you trust the folder; the hooks \
in ~/.qwen/settings.json run everywhere. `/hooks` lists what runs.";

/// Whether a settings file turns every hook off (`disableAllHooks: true`).
pub(crate) fn hooks_off(doc: &Json) -> bool {
    doc.get("disableAllHooks") == Some(&Json::Bool(true))
}

/// The problem to report when a settings file turns hooks off.
pub(crate) fn hooks_off_problem(path: &std::path::Path) -> String {
    format!(
        "{} sets `disableAllHooks: true`: Qwen Code runs no hooks until it is removed or set to false",
        path.display()
    )
}

//! Gemini CLI: `settings.json` (`~/.gemini/` or the project's `.gemini/`) with Claude Code's nested
//! matcher groups, handlers that carry a `name` and a timeout in milliseconds, and what the user
//! must know.

use super::json::Json;
use super::merge::{HandlerSpec, HarnessSpec, Shape};

/// Nested groups in the settings file; the events come from the adapter.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "gemini",
    shape: Shape::Nested,
    adapter: &crate::cmd::GEMINI,
    fresh_members: &[],
    user_file_is_settings: false,
    handler: HandlerSpec { name: Some("agent-memory"), timeout_per_second: 1000, ..HandlerSpec::COMMAND },
};

/// The trust step.
pub(crate) const TRUST: &str = "Gemini CLI: hooks take effect in new sessions and are on unless \
`hooksConfig.enabled` is false. With folder trust on (`security.folderTrust.enabled`), Gemini ignores a \
project's .gemini/settings.json, hooks included, until you trust the folder; the hooks in ~/.gemini/settings.json \
run everywhere. `/hooks` lists what runs.";

/// Whether a settings file turns every hook off (`hooksConfig.enabled: false`).
pub(crate) fn hooks_off(doc: &Json) -> bool {
    doc.get("hooksConfig").and_then(|c| c.get("enabled")) == Some(&Json::Bool(false))
}

/// The problem to report when a settings file turns hooks off.
pub(crate) fn hooks_off_problem(path: &std::path::Path) -> String {
    format!(
        "{} sets `hooksConfig.enabled: false`: Gemini CLI runs no hooks until it is removed or set to true",
        path.display()
    )
}

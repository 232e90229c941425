//! Gemini CLI: `settings.json` (`~/.gemini/` or the project's `.gemini/`) with Claude Code's nested
//! matcher groups, handlers that carry a `name` and a timeout in milliseconds, and what the user
//! must know.

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

//! Claude Code: `settings.json` with nested matcher groups, and what the user must know.

use super::merge::{HandlerSpec, HarnessSpec, Shape};

/// Settings files nest handlers under matcher groups; the events come from the adapter.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "claude",
    shape: Shape::Nested,
    adapter: &crate::cmd::CLAUDE,
    fresh_members: &[],
    user_file_is_settings: false,
    handler: HandlerSpec::COMMAND,
};

/// The trust step.
pub(crate) const TRUST: &str = "Claude Code: hooks take effect in new sessions. An interactive session in a folder \
you have not trusted yet holds all hooks until you accept the workspace-trust dialog; `claude -p` runs them \
without asking. If `disableAllHooks` is true in any settings file, no hook runs.";

//! Claude Code: `settings.json` with nested matcher groups, and what the user must know.

use super::merge::{EventSpec, HarnessSpec, Shape};

/// Seconds Claude Code gives each of our handlers. The hook answers within its own deadline (a few
/// hundred milliseconds); this only bounds a hook that hangs.
const TIMEOUT: Option<u64> = Some(10);

/// The events we register: capture, injection (SessionStart, UserPromptSubmit, SubagentStart) and
/// the compaction and end-of-session signals. Left out on purpose: `WorktreeCreate` (a handler
/// replaces Claude's own worktree creation), `PermissionRequest` and `Notification` (UI chatter),
/// and the high-frequency display events.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "claude",
    shape: Shape::Nested,
    events: &[
        EventSpec { name: "SessionStart", timeout: TIMEOUT },
        EventSpec { name: "UserPromptSubmit", timeout: TIMEOUT },
        EventSpec { name: "PreToolUse", timeout: TIMEOUT },
        EventSpec { name: "PostToolUse", timeout: TIMEOUT },
        EventSpec { name: "PostToolUseFailure", timeout: TIMEOUT },
        EventSpec { name: "SubagentStart", timeout: TIMEOUT },
        EventSpec { name: "SubagentStop", timeout: TIMEOUT },
        EventSpec { name: "PreCompact", timeout: TIMEOUT },
        EventSpec { name: "PostCompact", timeout: TIMEOUT },
        EventSpec { name: "Stop", timeout: TIMEOUT },
        // Claude Code gives SessionEnd a short budget of its own; no timeout of ours.
        EventSpec { name: "SessionEnd", timeout: None },
    ],
    fresh_members: &[],
};

/// The trust step.
pub(crate) const TRUST: &str = "Claude Code: hooks take effect in new sessions. An interactive session in a folder \
you have not trusted yet holds all hooks until you accept the workspace-trust dialog; `claude -p` runs them \
without asking. If `disableAllHooks` is true in any settings file, no hook runs.";

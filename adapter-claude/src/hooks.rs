//! The Claude Code events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds Claude Code gives each of our handlers. The hook answers within its own deadline (a few
/// hundred milliseconds); this only bounds a hook that hangs.
const TIMEOUT: Option<u64> = Some(10);

/// Capture, injection (SessionStart, UserPromptSubmit, SubagentStart) and the compaction and
/// end-of-session signals. Left out on purpose: `WorktreeCreate` (a handler replaces Claude's own
/// worktree creation), `PermissionRequest` and `Notification` (UI chatter), and the high-frequency
/// display events.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "SessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptSubmit", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUseFailure", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStop", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "Stop", timeout_secs: TIMEOUT },
    // Claude Code gives SessionEnd a short budget of its own; no timeout of ours.
    HookRegistration { name: "SessionEnd", timeout_secs: None },
];

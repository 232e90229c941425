//! The droid events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds droid gives each of our handlers (its `timeout` is in seconds, as Claude Code's).
const TIMEOUT: Option<u64> = Some(10);

/// Every event droid 0.225 defines but `Notification` (UI chatter): capture and injection
/// (SessionStart, UserPromptSubmit), the tool events, the subagent's end, compaction, the end of a
/// turn and of a session.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "SessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptSubmit", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStop", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "Stop", timeout_secs: TIMEOUT },
    HookRegistration { name: "SessionEnd", timeout_secs: TIMEOUT },
];

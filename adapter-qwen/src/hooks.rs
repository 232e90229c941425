//! The Qwen Code events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds Qwen Code gives each of our handlers (its `timeout` is in seconds, as Claude Code's).
const TIMEOUT: Option<u64> = Some(10);

/// Capture and injection (SessionStart, UserPromptSubmit), every tool event, the end of a turn and
/// of a session, and what else a real Qwen Code 0.24.4 run fired that tells something
/// (`InstructionsLoaded`, `PostToolBatch`, `MessageDisplay`). Left out: `Notification` (UI chatter
/// such as `auth_success`), `PermissionRequest`, `UserPromptExpansion`, `SessionDelete` and the todo
/// events.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "SessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "InstructionsLoaded", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptSubmit", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUseFailure", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolBatch", timeout_secs: TIMEOUT },
    HookRegistration { name: "MessageDisplay", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStop", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "Stop", timeout_secs: TIMEOUT },
    HookRegistration { name: "StopFailure", timeout_secs: TIMEOUT },
    HookRegistration { name: "SessionEnd", timeout_secs: TIMEOUT },
];

//! The Copilot CLI events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds Copilot CLI gives each of our handlers (its `timeoutSec`).
const TIMEOUT: Option<u64> = Some(10);

/// The PascalCase events, whose payloads are snake_case with Claude Code's tool names; the
/// camelCase twin of each fires at the same time and is not registered (each event would be
/// recorded twice). Left out: `PermissionRequest` (fires before every call, even with
/// `--allow-all-tools`, and adds nothing to `PreToolUse`).
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "SessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptSubmit", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUseFailure", timeout_secs: TIMEOUT },
    HookRegistration { name: "ErrorOccurred", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStop", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "Notification", timeout_secs: TIMEOUT },
    HookRegistration { name: "Stop", timeout_secs: TIMEOUT },
    HookRegistration { name: "SessionEnd", timeout_secs: TIMEOUT },
];

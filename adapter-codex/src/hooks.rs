//! The Codex events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds Codex gives each of our handlers.
const TIMEOUT: Option<u64> = Some(10);
/// Codex clamps SessionEnd and Interrupt handlers to 3 s (and warns when asked for more).
const SHORT: Option<u64> = Some(3);

/// The events of codex-cli 0.171. Left out: `PermissionRequest` (UI only). Unknown names are
/// ignored by older builds, so one list serves every version.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "SessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptSubmit", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStop", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "Stop", timeout_secs: TIMEOUT },
    HookRegistration { name: "Interrupt", timeout_secs: SHORT },
    HookRegistration { name: "SessionEnd", timeout_secs: SHORT },
];

//! The Cline hook files `agent-memory install` writes.

use memory_core::HookRegistration;

/// Cline runs hook files with no timeout of their own to set (it waits up to two minutes for a
/// tool hook); the hook answers within its own deadline.
const TIMEOUT: Option<u64> = None;

/// Every event Cline 3.0.65 runs a hook file for. Left out: `PreCompact`, which that release
/// recognises as a file name but never runs.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "TaskStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "TaskResume", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptSubmit", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "TaskComplete", timeout_secs: TIMEOUT },
    HookRegistration { name: "TaskError", timeout_secs: TIMEOUT },
    HookRegistration { name: "TaskCancel", timeout_secs: TIMEOUT },
    HookRegistration { name: "SessionShutdown", timeout_secs: TIMEOUT },
];

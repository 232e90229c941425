//! The Claude Code events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds Claude Code gives each of our handlers. The hook answers within its own deadline (a few
/// hundred milliseconds); this only bounds a hook that hangs.
const TIMEOUT: Option<u64> = Some(10);

/// Capture, injection (SessionStart, UserPromptSubmit, SubagentStart), the compaction and
/// end-of-session signals, and every other event a real Claude Code 2.1.197 run fired that tells
/// something: `PostToolBatch` (after every batch of tool calls; the only event that carries the
/// outcome of a call denied in `-p` mode), `MessageDisplay` (each assistant text message),
/// `InstructionsLoaded`, `UserPromptExpansion` (slash commands), `StopFailure`, `CwdChanged`,
/// `TaskCreated` and `TaskCompleted`; and `PermissionDenied`, the auto mode's denials (not seen in
/// a run). Left out on purpose: `WorktreeCreate` (a handler replaces Claude's own worktree
/// creation), `PermissionRequest` and `Notification` (UI chatter), `ConfigChange`, `FileChanged`
/// (fires only for paths a hook asks to watch) and `Setup`.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "SessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "InstructionsLoaded", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptSubmit", timeout_secs: TIMEOUT },
    HookRegistration { name: "UserPromptExpansion", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolUseFailure", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostToolBatch", timeout_secs: TIMEOUT },
    HookRegistration { name: "PermissionDenied", timeout_secs: TIMEOUT },
    HookRegistration { name: "MessageDisplay", timeout_secs: TIMEOUT },
    HookRegistration { name: "CwdChanged", timeout_secs: TIMEOUT },
    HookRegistration { name: "TaskCreated", timeout_secs: TIMEOUT },
    HookRegistration { name: "TaskCompleted", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "SubagentStop", timeout_secs: TIMEOUT },
    HookRegistration { name: "PreCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "PostCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "Stop", timeout_secs: TIMEOUT },
    HookRegistration { name: "StopFailure", timeout_secs: TIMEOUT },
    // Claude Code gives SessionEnd a short budget of its own; no timeout of ours.
    HookRegistration { name: "SessionEnd", timeout_secs: None },
];

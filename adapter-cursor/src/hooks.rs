//! The Cursor events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds Cursor gives each of our handlers.
const TIMEOUT: Option<u64> = Some(10);

/// Session start and end, prompts, tool and shell calls, file edits, agent responses, subagents,
/// compaction and stop. Left out: `beforeReadFile` (every read, and a permission gate),
/// MCP-specific events (`preToolUse` covers MCP tools), Tab events.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "sessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "beforeSubmitPrompt", timeout_secs: TIMEOUT },
    HookRegistration { name: "preToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "postToolUse", timeout_secs: TIMEOUT },
    HookRegistration { name: "postToolUseFailure", timeout_secs: TIMEOUT },
    HookRegistration { name: "beforeShellExecution", timeout_secs: TIMEOUT },
    HookRegistration { name: "afterShellExecution", timeout_secs: TIMEOUT },
    HookRegistration { name: "afterFileEdit", timeout_secs: TIMEOUT },
    HookRegistration { name: "afterAgentResponse", timeout_secs: TIMEOUT },
    HookRegistration { name: "subagentStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "subagentStop", timeout_secs: TIMEOUT },
    HookRegistration { name: "preCompact", timeout_secs: TIMEOUT },
    HookRegistration { name: "stop", timeout_secs: TIMEOUT },
    HookRegistration { name: "sessionEnd", timeout_secs: TIMEOUT },
];

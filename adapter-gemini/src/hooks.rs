//! The Gemini CLI events `agent-memory install` registers.

use memory_core::HookRegistration;

/// Seconds Gemini CLI gives each of our handlers (written in milliseconds, as its `timeout` is).
const TIMEOUT: Option<u64> = Some(10);

/// Capture and injection (SessionStart, BeforeAgent). Left out: `BeforeModel`, `AfterModel` and
/// `BeforeToolSelection` (the whole model request again, AfterModel per streamed chunk) and
/// `PreCompress` (fires before every model call, compressing or not).
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "SessionStart", timeout_secs: TIMEOUT },
    HookRegistration { name: "BeforeAgent", timeout_secs: TIMEOUT },
    HookRegistration { name: "BeforeTool", timeout_secs: TIMEOUT },
    HookRegistration { name: "AfterTool", timeout_secs: TIMEOUT },
    HookRegistration { name: "AfterAgent", timeout_secs: TIMEOUT },
    HookRegistration { name: "Notification", timeout_secs: TIMEOUT },
    HookRegistration { name: "SessionEnd", timeout_secs: TIMEOUT },
];

//! The events our plugin forwards, as it names them.

use memory_core::HookRegistration;

/// Seconds the plugin waits for the hook before it goes on without an answer.
const TIMEOUT: Option<u64> = Some(10);

/// What `plugin.js` forwards: the plugin writes them all in one file, so this list documents it
/// (and keeps `docs.md` honest) rather than configuring anything.
pub(crate) const HOOK_EVENTS: &[HookRegistration] = &[
    HookRegistration { name: "session.created", timeout_secs: TIMEOUT },
    HookRegistration { name: "session.continued", timeout_secs: TIMEOUT },
    HookRegistration { name: "chat.message", timeout_secs: TIMEOUT },
    HookRegistration { name: "tool.execute.before", timeout_secs: TIMEOUT },
    HookRegistration { name: "tool.execute.after", timeout_secs: TIMEOUT },
    HookRegistration { name: "tool.failed", timeout_secs: TIMEOUT },
    HookRegistration { name: "session.idle", timeout_secs: TIMEOUT },
    HookRegistration { name: "session.error", timeout_secs: TIMEOUT },
    HookRegistration { name: "session.compacted", timeout_secs: TIMEOUT },
    HookRegistration { name: "session.deleted", timeout_secs: TIMEOUT },
];

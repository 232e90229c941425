//! Cursor: a flat `hooks.json` (`{"version":1,"hooks":{event:[{command}]}}`), and what the user must
//! know, including that Cursor also runs Claude Code's hooks.

use super::merge::{EventSpec, HarnessSpec, Shape};

const TIMEOUT: Option<u64> = Some(10);

/// The events we register: session start and end, prompts, tool and shell calls, file edits,
/// agent responses, subagents, compaction and stop. Left out: `beforeReadFile` (every read, and a
/// permission gate), MCP-specific events (`preToolUse` covers MCP tools), Tab events.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "cursor",
    shape: Shape::Flat,
    events: &[
        EventSpec { name: "sessionStart", timeout: TIMEOUT },
        EventSpec { name: "beforeSubmitPrompt", timeout: TIMEOUT },
        EventSpec { name: "preToolUse", timeout: TIMEOUT },
        EventSpec { name: "postToolUse", timeout: TIMEOUT },
        EventSpec { name: "postToolUseFailure", timeout: TIMEOUT },
        EventSpec { name: "beforeShellExecution", timeout: TIMEOUT },
        EventSpec { name: "afterShellExecution", timeout: TIMEOUT },
        EventSpec { name: "afterFileEdit", timeout: TIMEOUT },
        EventSpec { name: "afterAgentResponse", timeout: TIMEOUT },
        EventSpec { name: "subagentStart", timeout: TIMEOUT },
        EventSpec { name: "subagentStop", timeout: TIMEOUT },
        EventSpec { name: "preCompact", timeout: TIMEOUT },
        EventSpec { name: "stop", timeout: TIMEOUT },
        EventSpec { name: "sessionEnd", timeout: TIMEOUT },
    ],
    fresh_members: &[("version", 1)],
};

/// The trust step.
pub(crate) const TRUST: &str = "Cursor: hooks.json is reloaded on change; project hooks run only in a trusted \
workspace. The Hooks tab in Cursor Settings and the \"Hooks\" output channel show each run.";

/// Why installing for Claude Code and Cursor together is safe.
pub(crate) const ALSO_RUNS_CLAUDE: &str = "Cursor also runs Claude Code's hooks (~/.claude/settings.json and \
.claude/settings*.json) unless Third-Party Imports is off. The Claude hook recognises Cursor's environment and \
records nothing there, so each Cursor session is recorded once, by the Cursor hook: installing both is safe.";

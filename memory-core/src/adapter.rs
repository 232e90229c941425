//! The contract between the hook runtime and a harness adapter.
//!
//! An adapter owns one harness's wire format: it parses what the harness writes on a hook's stdin
//! into a [`HookEvent`] and renders a [`HookResponse`] into exactly the stdout and exit code that
//! harness accepts. Implement [`HarnessAdapter`] to plug a new harness into agent-memory.

use chrono::{DateTime, Utc};

use crate::{EventKind, HookEvent, HookResponse, Result};

/// What one hook process received.
#[derive(Debug, Clone, Copy)]
pub struct Delivery<'a> {
    /// The bytes read from stdin.
    pub payload: &'a [u8],
    /// When the hook process received them; used where the payload carries no time, and to derive
    /// the event id.
    pub received_at: DateTime<Utc>,
    /// The hook process's environment, as name/value pairs.
    pub env: &'a [(String, String)],
}

impl Delivery<'_> {
    /// Looks up an environment variable of the hook process.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.env.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// What the harness does with each part of a [`HookResponse`] for one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Support {
    /// Context text reaches the model.
    pub context: bool,
    /// A block decision stops the action.
    pub block: bool,
    /// A user message is shown to the user.
    pub user_message: bool,
}

/// A rendered answer: exactly what the hook process writes and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// Standard output (the harness protocol; may be empty).
    pub stdout: String,
    /// Standard error, when the protocol needs it (a block reason on exit 2).
    pub stderr: String,
    /// The exit code.
    pub exit_code: i32,
}

impl Rendered {
    /// Exit 0 with the given stdout and nothing on stderr.
    pub fn ok(stdout: impl Into<String>) -> Self {
        Self { stdout: stdout.into(), stderr: String::new(), exit_code: 0 }
    }
}

/// One hook event `agent-memory install` registers for a harness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookRegistration {
    /// The event's name as the harness spells it in its hooks file (`SessionStart`,
    /// `sessionStart`).
    pub name: &'static str,
    /// Seconds the harness gives the handler before it abandons it; `None` leaves the harness's
    /// own limit. The hook answers within its own deadline; this only bounds a hook that hangs.
    pub timeout_secs: Option<u64>,
}

/// One harness's hook contract.
pub trait HarnessAdapter: Send + Sync + std::fmt::Debug {
    /// The harness's short name (`claude`, `codex`, `cursor`), used in session keys.
    fn harness(&self) -> &'static str;

    /// Longest context, in characters, the harness accepts in one answer without truncating or
    /// spilling it.
    fn context_cap(&self) -> usize;

    /// What the harness honours in an answer to this kind of event.
    fn support(&self, kind: &EventKind) -> Support;

    /// Parses a hook payload. Unknown events and fields are kept (as [`EventKind::Other`] and in
    /// [`HookEvent::raw`]); only input that is not a JSON object of the harness's shape is an error,
    /// with a one-line message.
    fn parse(&self, delivery: &Delivery<'_>) -> Result<HookEvent>;

    /// Renders an answer for an event of this kind. Parts the harness cannot carry for this event
    /// are left out; context longer than [`HarnessAdapter::context_cap`] is truncated at a Markdown
    /// boundary with a visible marker (see [`crate::truncate_markdown`]).
    fn render(&self, kind: &EventKind, response: &HookResponse) -> Rendered;

    /// The answer that changes nothing, for when the event could not be read at all.
    fn render_noop(&self) -> Rendered {
        Rendered::ok("")
    }

    /// For a `SessionStart` in a session that already started: whether the conversation still holds
    /// what earlier hooks of the session injected (a resume replays it), so nothing needs injecting
    /// twice. `false` when the harness says the context was dropped (a compaction, a clear).
    ///
    /// The adapter decides this when it parses the event, in [`HookEvent::context_kept`]; the
    /// default reads that field and keeps the context when it is unset.
    fn start_keeps_context(&self, event: &HookEvent) -> bool {
        event.context_kept.unwrap_or(true)
    }

    /// A file, relative to the project root, that the harness reads as standing context in every
    /// conversation. Harnesses that cannot take context with each prompt have one (Cursor's
    /// always-apply rules file); the hook runtime keeps it current with what it would have
    /// injected, rendered by [`HarnessAdapter::render_context_file`]. `None` by default.
    fn context_file(&self) -> Option<&'static str> {
        None
    }

    /// The content of [`HarnessAdapter::context_file`] holding `context`: whatever framing the
    /// harness needs around it, cut to what it reads. The default is the context itself.
    fn render_context_file(&self, context: &str) -> String {
        context.to_owned()
    }

    /// The events `agent-memory install` registers for this harness, in the order they are written
    /// to its hooks file. Events left out are those the hook has no use for, or must not answer
    /// (each adapter says which and why). Empty by default: nothing is installed.
    fn hook_events(&self) -> &'static [HookRegistration] {
        &[]
    }

    /// When another harness runs this harness's hooks (Cursor runs Claude Code's), that harness's
    /// name: the delivery is then recorded by the other harness's own hook and must be skipped here.
    fn invoked_by_other(&self, delivery: &Delivery<'_>) -> Option<&'static str> {
        let _ = delivery;
        None
    }
}

/// The marker that ends truncated context.
pub const TRUNCATION_MARKER: &str = "\n\n[agent-memory: truncated to fit the harness limit]\n";

/// Cuts Markdown to at most `cap` characters, at the last paragraph, line or word boundary that
/// fits, and appends [`TRUNCATION_MARKER`]. Text within the cap is returned unchanged.
pub fn truncate_markdown(text: &str, cap: usize) -> std::borrow::Cow<'_, str> {
    if text.chars().count() <= cap {
        return text.into();
    }
    let marker_len = TRUNCATION_MARKER.chars().count();
    let budget = cap.saturating_sub(marker_len);
    let end = text.char_indices().nth(budget).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let cut =
        ["\n\n", "\n", " "].iter().find_map(|sep| head.rfind(sep).filter(|&i| i >= end / 2)).unwrap_or(end);
    let mut out = head[..cut].trim_end().to_owned();
    out.push_str(TRUNCATION_MARKER);
    out.into()
}

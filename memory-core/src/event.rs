//! The normalised hook event every harness adapter produces.

use std::fmt;

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Version of the [`HookEvent`] layout. Bumped on any change a stored event reader must know about.
pub const EVENT_SCHEMA_VERSION: u32 = 1;

/// A stable, unique event id: 32 lowercase hex characters.
///
/// Adapters derive it from what was delivered (see [`EventId::derive`]), so a redelivered event keeps
/// its id and is stored once.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct EventId(pub String);

impl EventId {
    /// Derives an id from the harness, the session, the delivery time and the exact payload bytes.
    ///
    /// The same delivery always yields the same id; two deliveries differ in time or bytes, so they
    /// never collide.
    pub fn derive(harness: &str, session: &str, received_at: DateTime<Utc>, payload: &[u8]) -> Self {
        let mut hasher = Sha256::new();
        for part in [harness.as_bytes(), session.as_bytes()] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hasher.update(received_at.timestamp_nanos_opt().unwrap_or_default().to_le_bytes());
        hasher.update(payload);
        let digest = hasher.finalize();
        let mut id = String::with_capacity(32);
        for byte in &digest[..16] {
            id.push_str(&format!("{byte:02x}"));
        }
        Self(id)
    }

    /// The id as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A session key, unique across harnesses: `<harness>:<harness session id>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct SessionKey(pub String);

impl SessionKey {
    /// Builds the key for a harness's own session id.
    pub fn new(harness: &str, session_id: &str) -> Self {
        Self(format!("{harness}:{session_id}"))
    }

    /// The key as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The harness that fired an event.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Harness {
    /// Short lowercase name: `claude`, `codex`, `cursor`, or another harness's own name.
    pub name: String,
    /// The harness's version, when the payload or environment tells it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl Harness {
    /// A harness with a name and no known version.
    pub fn named(name: impl Into<String>) -> Self {
        Self { name: name.into(), version: None }
    }
}

macro_rules! event_kinds {
    ($($variant:ident => $name:literal, $doc:literal;)*) => {
        /// What happened. Known lifecycle points have their own variant; anything else is kept by
        /// name in [`EventKind::Other`].
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum EventKind {
            $(#[doc = $doc] $variant,)*
            /// An event this version does not know, kept by its harness name.
            Other(String),
        }

        impl EventKind {
            /// The event's name as stored (PascalCase for known kinds).
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $name,)*
                    Self::Other(name) => name,
                }
            }

            /// Parses a stored name; unknown names become [`EventKind::Other`].
            pub fn from_name(name: &str) -> Self {
                match name {
                    $($name => Self::$variant,)*
                    other => Self::Other(other.to_owned()),
                }
            }

            /// Every known kind, in lifecycle order.
            pub const KNOWN: &'static [EventKind] = &[$(Self::$variant,)*];
        }
    };
}

event_kinds! {
    SessionStart => "SessionStart", "A session started, resumed, was cleared or compacted.";
    UserPromptSubmit => "UserPromptSubmit", "The user submitted a prompt.";
    PreToolUse => "PreToolUse", "A tool is about to run.";
    PermissionRequest => "PermissionRequest", "The harness asks the user to allow a tool call.";
    PostToolUse => "PostToolUse", "A tool ran and succeeded.";
    PostToolUseFailure => "PostToolUseFailure", "A tool ran and failed.";
    FileEdited => "FileEdited", "The agent edited a file (reported after the fact).";
    AgentResponse => "AgentResponse", "The agent finished a response message.";
    Notification => "Notification", "The harness notified the user.";
    SubagentStart => "SubagentStart", "A subagent started.";
    SubagentStop => "SubagentStop", "A subagent finished.";
    PreCompact => "PreCompact", "The conversation is about to be compacted.";
    PostCompact => "PostCompact", "The conversation was compacted.";
    Stop => "Stop", "The agent finished its turn.";
    SessionEnd => "SessionEnd", "The session ended.";
    Injection => "Injection", "agent-memory injected notes into the session (recorded for measurement).";
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for EventKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for EventKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(Self::from_name(&name))
    }
}

impl JsonSchema for EventKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EventKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let known: Vec<&str> = Self::KNOWN.iter().map(Self::as_str).collect();
        schemars::json_schema!({
            "type": "string",
            "description": format!(
                "A known kind ({}) or any other harness event name, kept as is",
                known.join(", ")
            ),
            "minLength": 1
        })
    }
}

/// A tool call, as much of it as the event carries.
///
/// `name`, `input` and `output` are the harness's own. The adapter also describes the call in
/// harness-neutral terms (`shell`, `failed`, `files`, `patch`), so readers such as the dream need
/// no harness's tool names or input shapes. Events stored before these fields existed read with
/// them empty.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ToolCall {
    /// The tool's name as the harness reports it (`Bash`, `apply_patch`, `mcp__github__search`).
    pub name: String,
    /// The harness's id for this call, to pair a PreToolUse with its PostToolUse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_id: Option<String>,
    /// The tool's input. An explicit JSON `null` is kept as `Some(Value::Null)`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub input: Option<Value>,
    /// The tool's output (capped in size by the hook runtime before it is stored). An explicit
    /// JSON `null` is kept as `Some(Value::Null)`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub output: Option<Value>,
    /// The error the tool reported, for failures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How long the call took, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The shell command the call runs, when the tool is a shell (Claude Code's and Codex's `Bash`,
    /// Cursor's `Shell`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell: Option<ShellCall>,
    /// Whether the call failed: `true` for a failure event, a nonzero exit code or an error the
    /// harness reports; `false` when the harness reports success. Absent when the event is not a
    /// call's result, or the harness does not say (Codex reports a failed shell command like a
    /// successful one unless its output carries the exit code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<bool>,
    /// The files the call reads or changes, as far as its input names them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileTouch>,
    /// The patch the call applies, for an edit made as a patch (Codex's `apply_patch`); the files
    /// it adds or updates are in `files`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
}

impl ToolCall {
    /// What the call was given, in one line as people read it: the shell command, else the
    /// input's `command` or `file_path`, else the input as JSON.
    pub fn input_line(&self) -> String {
        if let Some(shell) = &self.shell {
            return shell.command.clone();
        }
        match &self.input {
            Some(Value::Object(map)) => map
                .get("command")
                .or_else(|| map.get("file_path"))
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .unwrap_or_else(|| Value::Object(map.clone()).to_string()),
            Some(other) => other.to_string(),
            None => String::new(),
        }
    }

    /// The text the harness-neutral fields copy out of the call's input: the shell command, the
    /// patch and the file paths. Whatever scrubs `input` before an event is stored must scrub
    /// these too.
    pub fn normalised_texts_mut(&mut self) -> impl Iterator<Item = &mut String> {
        self.shell
            .iter_mut()
            .map(|shell| &mut shell.command)
            .chain(self.patch.iter_mut())
            .chain(self.files.iter_mut().map(|file| &mut file.path))
    }
}

/// A shell command a tool call runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ShellCall {
    /// The command line as one string, as the shell reads it. For a harness that passes an argv
    /// wrapping a script (`["bash", "-lc", "cargo test"]`), the script.
    pub command: String,
    /// The command's exit code, when the harness reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
}

impl ShellCall {
    /// A command whose exit code is not known.
    pub fn new(command: impl Into<String>) -> Self {
        Self { command: command.into(), exit_code: None }
    }
}

/// A file a tool call reads or changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileTouch {
    /// The path as the harness gave it: absolute, or relative to the session's working directory.
    /// The hook runtime may make it relative to the project root.
    pub path: String,
    /// What the call does with it.
    pub action: FileAction,
}

impl FileTouch {
    /// A touch of `path`.
    pub fn new(path: impl Into<String>, action: FileAction) -> Self {
        Self { path: path.into(), action }
    }
}

/// What a tool call does with a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FileAction {
    /// Reads it.
    Read,
    /// Writes, edits or creates it.
    Edited,
}

/// Reads a field that is present as `Some`, even when its value is `null`; an absent field is
/// `None` through `#[serde(default)]`.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// A reference to a harness transcript: its path, never its contents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TranscriptRef {
    /// Path of the transcript file on the machine that ran the session.
    pub path: String,
}

/// One lifecycle event of one agent session, normalised across harnesses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct HookEvent {
    /// Unique id; appending the same id twice stores the event once.
    pub id: EventId,
    /// Layout version ([`EVENT_SCHEMA_VERSION`] when written by this version).
    pub schema_version: u32,
    /// The harness that fired the event.
    pub harness: Harness,
    /// The session the event belongs to.
    pub session: SessionKey,
    /// What happened.
    pub kind: EventKind,
    /// When it happened (or was received, when the payload has no time).
    pub occurred_at: DateTime<Utc>,
    /// Working directory of the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Project id the event is filed under (set by the hook runtime).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// The user's prompt, for prompt events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The tool call, for tool events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolCall>,
    /// The model in use, when the payload says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Whose event this is: the person the memory that recorded it belongs to (set by the hook
    /// runtime from the configuration; an email address, as git has it). Absent when nobody is
    /// configured, and on events recorded before events carried one. It says who, and keeps
    /// nothing from anyone: events never leave the memory that recorded them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Where the harness keeps the transcript.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<TranscriptRef>,
    /// For a `SessionStart` in a session that already started: whether the conversation still
    /// holds what earlier hooks of the session injected. `true` after a resume (the harness replays
    /// the conversation), `false` after a compaction or a clear (it was dropped). The adapter sets
    /// it from the harness's own field (Claude Code's and Codex's `source`); absent on other events
    /// and when the harness does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_kept: Option<bool>,
    /// The payload as delivered (after redaction), unknown fields included.
    pub raw: Value,
}

impl HookEvent {
    /// A new event with the required fields; optional fields start empty.
    pub fn new(
        id: EventId,
        harness: Harness,
        session: SessionKey,
        kind: EventKind,
        occurred_at: DateTime<Utc>,
        raw: Value,
    ) -> Self {
        Self {
            id,
            schema_version: EVENT_SCHEMA_VERSION,
            harness,
            session,
            kind,
            occurred_at,
            cwd: None,
            project: None,
            prompt: None,
            tool: None,
            model: None,
            owner: None,
            transcript: None,
            context_kept: None,
            raw,
        }
    }
}

/// An event as a store holds it: with its place in its session and in the store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StoredEvent {
    /// 1-based, gap-free position within its session.
    pub seq: u64,
    /// Store-wide position, strictly increasing in append order; the dream's cursor.
    pub position: u64,
    /// The event.
    pub event: HookEvent,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_call_stored_without_the_normalised_fields_still_reads() {
        let tool: ToolCall = serde_json::from_str(r#"{"name":"Bash","input":{"command":"ls"}}"#).unwrap();
        assert_eq!((tool.shell, tool.failed, tool.files, tool.patch), (None, None, Vec::new(), None));
    }

    #[test]
    fn normalised_fields_round_trip_and_list_their_texts() {
        let mut tool = ToolCall {
            name: "apply_patch".into(),
            shell: Some(ShellCall { command: "cargo test".into(), exit_code: Some(101) }),
            failed: Some(true),
            files: vec![
                FileTouch::new("src/a.rs", FileAction::Edited),
                FileTouch::new("b.md", FileAction::Read),
            ],
            patch: Some("*** Begin Patch".into()),
            ..ToolCall::default()
        };
        let text = serde_json::to_string(&tool).unwrap();
        assert!(
            text.contains(
                r#""files":[{"path":"src/a.rs","action":"edited"},{"path":"b.md","action":"read"}]"#
            )
        );
        assert_eq!(serde_json::from_str::<ToolCall>(&text).unwrap(), tool);
        let texts: Vec<String> = tool.normalised_texts_mut().map(|t| t.clone()).collect();
        assert_eq!(texts, ["cargo test", "*** Begin Patch", "src/a.rs", "b.md"]);
    }

    #[test]
    fn an_owner_round_trips_is_left_out_when_unknown_and_old_events_read_without_one() {
        let mut event = HookEvent::new(
            EventId("0".repeat(32)),
            Harness::named("claude"),
            SessionKey("claude:s1".into()),
            EventKind::Stop,
            DateTime::<Utc>::UNIX_EPOCH,
            Value::Null,
        );
        let before = serde_json::to_string(&event).unwrap();
        assert!(!before.contains("owner"), "{before}");
        assert_eq!(serde_json::from_str::<HookEvent>(&before).unwrap().owner, None);
        event.owner = Some("sam@example.com".into());
        let text = serde_json::to_string(&event).unwrap();
        assert!(text.contains(r#""owner":"sam@example.com""#), "{text}");
        assert_eq!(serde_json::from_str::<HookEvent>(&text).unwrap(), event);
        let only_sams =
            crate::EventFilter { owner: Some("sam@example.com".into()), ..crate::EventFilter::all() };
        assert!(only_sams.matches(&event));
        event.owner = Some("kim@example.com".into());
        assert!(!only_sams.matches(&event));
        event.owner = None;
        assert!(!only_sams.matches(&event) && crate::EventFilter::all().matches(&event));
    }

    #[test]
    fn tool_null_and_absent_stay_distinct_through_json() {
        for tool in [
            ToolCall { name: "Bash".into(), input: Some(Value::Null), ..ToolCall::default() },
            ToolCall { name: "Bash".into(), output: Some(Value::Null), ..ToolCall::default() },
            ToolCall { name: "Bash".into(), ..ToolCall::default() },
        ] {
            let text = serde_json::to_string(&tool).unwrap();
            assert_eq!(serde_json::from_str::<ToolCall>(&text).unwrap(), tool, "{text}");
        }
    }
}

//! How to plug your own harness into agent-memory: an adapter for Gemini CLI, written against
//! `memory-core` only.
//!
//! An adapter does two things. `parse` turns the JSON the harness writes on a hook's stdin into a
//! normalised [`HookEvent`]; `render` turns a [`HookResponse`] into exactly the stdout and exit code
//! the harness accepts. This example parses an embedded Gemini CLI `BeforeAgent` payload, stores the
//! event in an [`InMemoryStore`], looks up a note for the prompt and renders the answer a hook would
//! print.
//!
//! The adapter agent-memory ships for Gemini CLI is the `adapter-gemini` crate, which keeps only what
//! Gemini does differently from the Claude-shaped protocol of `claude-protocol`; this one is written
//! from scratch, to show every part an adapter has.
//!
//! Run with `cargo run -p examples --example gemini_adapter`.

#![allow(clippy::print_stdout, reason = "an example shows its results on stdout")]

use chrono::{DateTime, Utc};
use memory_core::{
    Decision, Delivery, EventId, EventKind, Harness, HarnessAdapter, HookEvent, HookResponse, InMemoryStore,
    MemoryStore, Note, NoteKind, NoteMeta, NotePath, Rendered, Scope, SearchQuery, SessionKey, Support,
    ToolCall, TranscriptRef, truncate_markdown,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A payload as Gemini CLI sends it when the user submits a prompt.
const SAMPLE: &str = r#"{
  "session_id": "6f0c2d9e-1b8a-4c3f-9e7d-2a5b4c3d1e0f",
  "transcript_path": "/home/alice/.gemini/tmp/5d41402abc4b2a76/chats/session-2026-08-13T13-49.json",
  "cwd": "/home/alice/src/acme-api",
  "hook_event_name": "BeforeAgent",
  "timestamp": "2026-08-13T13:50:02.114Z",
  "prompt": "Why does the retry loop double the backoff twice?"
}"#;

// ---------------------------------------------------------------------------------------------
// The wire format: mirror the harness's JSON, keep everything optional that it may leave out.
// ---------------------------------------------------------------------------------------------

/// Gemini CLI's hook input (the fields this adapter reads; unknown fields are ignored here and
/// kept in `HookEvent::raw`).
#[derive(Debug, Deserialize)]
struct GeminiInput {
    session_id: String,
    hook_event_name: String,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    transcript_path: Option<String>,
    /// ISO 8601; Gemini CLI stamps every payload.
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Option<Value>,
    #[serde(default)]
    tool_response: Option<Value>,
}

/// Gemini CLI's hook output for context injection.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct GeminiOutput {
    hook_specific_output: GeminiSpecificOutput,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct GeminiSpecificOutput {
    hook_event_name: String,
    additional_context: String,
}

/// One error type for the adapter, converted into `memory_core::Error::InvalidInput` with a
/// one-line message.
#[derive(Debug, thiserror::Error)]
enum GeminiError {
    #[error("gemini hook payload is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("gemini hook payload has an invalid timestamp {0:?}")]
    Timestamp(String),
}

impl From<GeminiError> for memory_core::Error {
    fn from(error: GeminiError) -> Self {
        Self::InvalidInput(error.to_string().replace(['\n', '\r'], " "))
    }
}

// ---------------------------------------------------------------------------------------------
// The adapter.
// ---------------------------------------------------------------------------------------------

/// The Gemini CLI adapter.
#[derive(Debug, Clone, Copy, Default)]
struct GeminiAdapter;

impl GeminiAdapter {
    /// Gemini's event names → normalised kinds; anything else is kept by name.
    fn kind(name: &str) -> EventKind {
        match name {
            "SessionStart" => EventKind::SessionStart,
            "BeforeAgent" => EventKind::UserPromptSubmit,
            "BeforeTool" => EventKind::PreToolUse,
            "AfterTool" => EventKind::PostToolUse,
            "AfterAgent" => EventKind::Stop,
            "PreCompress" => EventKind::PreCompact,
            "Notification" => EventKind::Notification,
            "SessionEnd" => EventKind::SessionEnd,
            other => EventKind::Other(other.to_owned()),
        }
    }

    /// The harness's own name for a kind, for `hookEventName`.
    fn event_name(kind: &EventKind) -> &str {
        match kind {
            EventKind::UserPromptSubmit => "BeforeAgent",
            EventKind::PreToolUse => "BeforeTool",
            EventKind::PostToolUse => "AfterTool",
            EventKind::Stop => "AfterAgent",
            EventKind::PreCompact => "PreCompress",
            other => other.as_str(),
        }
    }
}

impl HarnessAdapter for GeminiAdapter {
    fn harness(&self) -> &'static str {
        "gemini"
    }

    /// Gemini CLI documents no limit; this stays at the size other harnesses take whole.
    fn context_cap(&self) -> usize {
        10_000
    }

    fn support(&self, kind: &EventKind) -> Support {
        match kind {
            // `hookSpecificOutput.additionalContext`: first history turn, or appended to the prompt.
            EventKind::SessionStart => Support { context: true, block: false, user_message: false },
            EventKind::UserPromptSubmit => Support { context: true, block: true, user_message: false },
            // Exit 2 blocks a tool call with the reason on stderr.
            EventKind::PreToolUse => Support { context: false, block: true, user_message: false },
            _ => Support::default(),
        }
    }

    fn parse(&self, delivery: &Delivery<'_>) -> memory_core::Result<HookEvent> {
        let payload = delivery.payload.strip_prefix("\u{feff}".as_bytes()).unwrap_or(delivery.payload);
        let raw: Value = serde_json::from_slice(payload).map_err(GeminiError::Json)?;
        let input: GeminiInput = serde_json::from_value(raw.clone()).map_err(GeminiError::Json)?;
        let occurred_at = match &input.timestamp {
            Some(stamp) => DateTime::parse_from_rfc3339(stamp)
                .map_err(|_| GeminiError::Timestamp(stamp.clone()))?
                .with_timezone(&Utc),
            None => delivery.received_at,
        };
        let session = SessionKey::new(self.harness(), &input.session_id);
        let id = EventId::derive(self.harness(), session.as_str(), delivery.received_at, delivery.payload);
        let harness = Harness::named(self.harness());
        let mut event =
            HookEvent::new(id, harness, session, Self::kind(&input.hook_event_name), occurred_at, raw);
        event.cwd = input.cwd.or_else(|| delivery.var("GEMINI_CWD").map(str::to_owned));
        event.prompt = input.prompt;
        event.transcript = input.transcript_path.map(|path| TranscriptRef { path });
        event.tool = input.tool_name.map(|name| ToolCall {
            name,
            input: input.tool_input,
            output: input.tool_response,
            ..ToolCall::default()
        });
        Ok(event)
    }

    fn render(&self, kind: &EventKind, response: &HookResponse) -> Rendered {
        let support = self.support(kind);
        if let Decision::Block { reason } = &response.decision
            && support.block
        {
            // Exit 2 with the reason on stderr; stdout stays empty.
            let reason = if reason.trim().is_empty() { "Blocked by agent-memory." } else { reason };
            return Rendered { stdout: String::new(), stderr: reason.to_owned(), exit_code: 2 };
        }
        match response.context.as_deref().filter(|c| support.context && !c.trim().is_empty()) {
            Some(context) => {
                let output = GeminiOutput {
                    hook_specific_output: GeminiSpecificOutput {
                        hook_event_name: Self::event_name(kind).to_owned(),
                        additional_context: truncate_markdown(context, self.context_cap()).into_owned(),
                    },
                };
                Rendered::ok(serde_json::to_string(&output).expect("output serialises"))
            }
            // Gemini CLI wants pure JSON on stdout; `{}` says nothing.
            None => Rendered::ok("{}"),
        }
    }

    fn render_noop(&self) -> Rendered {
        Rendered::ok("{}")
    }
}

// ---------------------------------------------------------------------------------------------
// Using it: what `agent-memory hook gemini` would do with one delivery.
// ---------------------------------------------------------------------------------------------

#[tokio::main(flavor = "current_thread")]
async fn main() -> memory_core::Result<()> {
    let adapter = GeminiAdapter;
    let store = InMemoryStore::new();
    let env: Vec<(String, String)> = std::env::vars().collect();

    // 1. Parse what arrived on stdin.
    let delivery = Delivery { payload: SAMPLE.as_bytes(), received_at: Utc::now(), env: &env };
    let event = adapter.parse(&delivery)?;
    println!("parsed {} event {} in session {}", event.kind, event.id, event.session);
    println!("  occurred at {} in {}", event.occurred_at, event.cwd.as_deref().unwrap_or("?"));
    println!("  prompt: {}", event.prompt.as_deref().unwrap_or(""));

    // 2. Append it to the store; a redelivery of the same bytes at the same time is stored once.
    let appended = store.append(&[event.clone(), event.clone()]).await?;
    println!(
        "appended as #{} of its session (inserted: {}, then {})",
        appended[0].seq, appended[0].inserted, appended[1].inserted
    );

    // 3. Find notes for the prompt (a note the dream would have written earlier).
    store
        .put_note(&Note {
            path: NotePath::new("project/acme-api/retry-backoff.md")?,
            meta: NoteMeta {
                title: "Retry backoff in acme-api".to_owned(),
                description: Some("Where the backoff is computed".to_owned()),
                tags: vec!["retry".to_owned()],
                scope: Scope::Project("acme-api".to_owned()),
                kind: NoteKind::Fact,
                sources: vec![event.id.clone()],
                updated: Utc::now(),
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: "The retry loop multiplies the backoff in `next_delay` only; `schedule` must not.\n"
                .to_owned(),
        })
        .await?;
    let query = SearchQuery::new(event.prompt.clone().unwrap_or_default(), Vec::new(), 3);
    let hits = store.search_notes(&query).await?;
    let context: String =
        hits.iter().map(|hit| format!("## {}\n\n{}\n", hit.note.meta.title, hit.note.body)).collect();
    println!("found {} note(s) for the prompt", hits.len());

    // 4. Render the answer the hook prints.
    let support = adapter.support(&event.kind);
    println!("Gemini {} honours: {support:?}", GeminiAdapter::event_name(&event.kind));
    let answer = adapter.render(&event.kind, &HookResponse::with_context(context));
    println!("stdout: {}", answer.stdout);
    println!("exit:   {}", answer.exit_code);
    let blocked = adapter.render(&event.kind, &HookResponse::block("the prompt contains a secret"));
    println!("a block instead: exit {} with stderr {:?}", blocked.exit_code, blocked.stderr);

    // 5. Bad input is a one-line error, never a panic.
    if let Err(error) = adapter.parse(&Delivery { payload: b"{\"session_id\":", ..delivery }) {
        println!("bad payload: {error}");
    }
    Ok(())
}

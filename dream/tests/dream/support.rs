//! Event builders, a scripted provider and small store helpers shared by the tests.

use std::sync::Mutex;

use chrono::{DateTime, Duration, TimeZone, Utc};
use dream::{
    Action, DreamOptions, DreamRequest, NoteOperation, Operations, Pricing, Provider, ProviderReply, Usage,
};
use memory_core::{
    EventId, EventKind, FileAction, FileTouch, Harness, HookEvent, InMemoryStore, MemoryStore, Note,
    NoteFilter, NoteKind, SessionKey, ShellCall, ToolCall,
};
use serde_json::{Value, json};

/// The fixed run time of every test.
pub(crate) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 6, 0, 0).unwrap()
}

pub(crate) fn options() -> DreamOptions {
    DreamOptions::new(now())
}

/// Builds a realistic stream of hook events, 30 seconds apart.
pub(crate) struct Story {
    events: Vec<HookEvent>,
    clock: DateTime<Utc>,
    harness: String,
    session: String,
    project: Option<String>,
    cwd: String,
}

impl Story {
    pub(crate) fn new() -> Self {
        Self {
            events: Vec::new(),
            clock: Utc.with_ymd_and_hms(2026, 11, 30, 9, 0, 0).unwrap(),
            harness: "claude".to_owned(),
            session: "s1".to_owned(),
            project: None,
            cwd: "/home/alice".to_owned(),
        }
    }

    /// Starts a session (with a SessionStart event).
    pub(crate) fn session(
        &mut self,
        harness: &str,
        session: &str,
        project: Option<&str>,
        cwd: &str,
    ) -> &mut Self {
        self.harness = harness.to_owned();
        self.session = session.to_owned();
        self.project = project.map(str::to_owned);
        self.cwd = cwd.to_owned();
        self.push(EventKind::SessionStart, None, None, json!({"source": "startup"}))
    }

    pub(crate) fn prompt(&mut self, text: &str) -> &mut Self {
        self.push(EventKind::UserPromptSubmit, Some(text), None, json!({"prompt": text}))
    }

    pub(crate) fn bash_ok(&mut self, command: &str) -> &mut Self {
        let mut tool =
            tool("Bash", json!({"command": command}), Some(json!({"stdout": "ok", "stderr": ""})), None);
        tool.shell = Some(ShellCall::new(command));
        tool.failed = Some(false);
        self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": "Bash"}))
    }

    /// A failed command, as Claude Code reports it: its `error` opens with `Exit code N`.
    pub(crate) fn bash_fail(&mut self, command: &str, error: &str) -> &mut Self {
        let mut tool = tool("Bash", json!({"command": command}), None, Some(error.to_owned()));
        let exit_code =
            error.lines().next().and_then(|l| l.strip_prefix("Exit code ")).and_then(|c| c.parse().ok());
        tool.shell = Some(ShellCall { command: command.to_owned(), exit_code });
        tool.failed = Some(true);
        self.push(EventKind::PostToolUseFailure, None, Some(tool), json!({"tool_name": "Bash"}))
    }

    pub(crate) fn edit(&mut self, path: &str) -> &mut Self {
        let full = format!("{}/{path}", self.cwd);
        let mut tool = tool("Edit", json!({"file_path": full}), Some(json!({"filePath": full})), None);
        tool.files = vec![FileTouch::new(full, FileAction::Edited)];
        tool.failed = Some(false);
        self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": "Edit"}))
    }

    pub(crate) fn read(&mut self, path: &str) -> &mut Self {
        let full = format!("{}/{path}", self.cwd);
        let mut tool = tool("Read", json!({"file_path": full}), Some(json!({"type": "text"})), None);
        tool.files = vec![FileTouch::new(full, FileAction::Read)];
        tool.failed = Some(false);
        self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": "Read"}))
    }

    pub(crate) fn injection(&mut self) -> &mut Self {
        self.push(EventKind::Injection, None, None, json!({"notes": ["profile/preferences.md"]}))
    }

    pub(crate) fn stop(&mut self) -> &mut Self {
        self.push(EventKind::Stop, None, None, json!({}))
    }

    fn push(
        &mut self,
        kind: EventKind,
        prompt: Option<&str>,
        tool: Option<ToolCall>,
        raw: Value,
    ) -> &mut Self {
        self.clock += Duration::seconds(30);
        let payload = json!({"n": self.events.len(), "kind": kind.as_str(), "raw": raw});
        let id = EventId::derive(&self.harness, &self.session, self.clock, payload.to_string().as_bytes());
        let mut event = HookEvent::new(
            id,
            Harness::named(&self.harness),
            SessionKey::new(&self.harness, &self.session),
            kind,
            self.clock,
            raw,
        );
        event.project = self.project.clone();
        event.cwd = Some(self.cwd.clone());
        event.prompt = prompt.map(str::to_owned);
        event.tool = tool;
        self.events.push(event);
        self
    }

    pub(crate) fn events(&self) -> Vec<HookEvent> {
        self.events.clone()
    }
}

fn tool(name: &str, input: Value, output: Option<Value>, error: Option<String>) -> ToolCall {
    ToolCall { name: name.to_owned(), input: Some(input), output, error, ..ToolCall::default() }
}

/// `n` prompt events in project `project` (or without a project).
pub(crate) fn plain_events(n: usize, project: Option<&str>) -> Vec<HookEvent> {
    let mut story = Story::new();
    story.session("claude", "plain", project, "/home/alice/src/acme");
    for i in 0..n {
        story.prompt(&format!("look at item {i}"));
    }
    story.events()
}

pub(crate) async fn store_with(events: &[HookEvent]) -> InMemoryStore {
    let store = InMemoryStore::new();
    store.append(events).await.unwrap();
    store
}

/// Every note of the store as Markdown, in scope and path order.
pub(crate) async fn all_notes(store: &dyn MemoryStore) -> Vec<Note> {
    store.list_notes(&NoteFilter::all()).await.unwrap()
}

pub(crate) async fn dump(store: &dyn MemoryStore) -> String {
    let mut out = String::new();
    for note in all_notes(store).await {
        out.push_str(&format!("===== {} {}\n", note.meta.scope, note.path));
        out.push_str(&note.to_markdown());
    }
    out
}

type Script = Box<dyn Fn(&DreamRequest, usize) -> dream::Result<ProviderReply> + Send + Sync>;

/// A provider answering through a closure (given the request and the 0-based call number), recording
/// every request.
pub(crate) struct ScriptedProvider {
    script: Script,
    pub(crate) requests: Mutex<Vec<DreamRequest>>,
    pub(crate) pricing: Option<Pricing>,
}

impl std::fmt::Debug for ScriptedProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ScriptedProvider")
    }
}

impl ScriptedProvider {
    pub(crate) fn new(
        script: impl Fn(&DreamRequest, usize) -> dream::Result<ProviderReply> + Send + Sync + 'static,
    ) -> Self {
        Self { script: Box::new(script), requests: Mutex::new(Vec::new()), pricing: None }
    }

    pub(crate) fn calls(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

#[async_trait::async_trait]
impl Provider for ScriptedProvider {
    fn name(&self) -> String {
        "scripted".to_owned()
    }

    fn pricing(&self) -> Option<Pricing> {
        self.pricing
    }

    async fn propose(&self, request: &DreamRequest) -> dream::Result<ProviderReply> {
        let call = {
            let mut requests = self.requests.lock().unwrap();
            requests.push(request.clone());
            requests.len() - 1
        };
        (self.script)(request, call)
    }
}

pub(crate) fn reply(operations: Vec<NoteOperation>) -> dream::Result<ProviderReply> {
    Ok(ProviderReply { operations: Operations { operations }, usage: Usage::default() })
}

/// A create or update of a user note citing `sources`.
pub(crate) fn write_op(action: Action, path: &str, body: &str, sources: Vec<String>) -> NoteOperation {
    NoteOperation {
        action,
        scope: "user".to_owned(),
        path: path.to_owned(),
        title: Some("A note".to_owned()),
        description: None,
        kind: Some(NoteKind::Fact),
        tags: vec!["test".to_owned()],
        body: Some(body.to_owned()),
        reason: "test".to_owned(),
        sources,
    }
}

pub(crate) fn delete_op(scope: &str, path: &str) -> NoteOperation {
    NoteOperation {
        action: Action::Delete,
        scope: scope.to_owned(),
        path: path.to_owned(),
        title: None,
        description: None,
        kind: None,
        tags: vec![],
        body: None,
        reason: "gone".to_owned(),
        sources: vec![],
    }
}

pub(crate) fn ids(request: &DreamRequest) -> Vec<String> {
    request.events.iter().map(|e| e.event.id.0.clone()).collect()
}

/// The operations JSON an LLM would answer for a request: one note created from its events.
pub(crate) fn operations_json(path: &str, source: &str) -> Value {
    json!({"operations": [{
        "action": "create", "scope": "user", "path": path, "title": "Searching",
        "description": null, "kind": "preference", "tags": ["search"],
        "body": "- Use rg instead of grep.\n", "reason": "stated by the user", "sources": [source]
    }]})
}

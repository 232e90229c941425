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

    /// A shell command that exited 0, as the session's harness reports it.
    pub(crate) fn bash_ok(&mut self, command: &str) -> &mut Self {
        self.shell(command, 0, "ok")
    }

    /// A failed command. `error` is what it printed; it may open with Claude Code's
    /// `Exit code N` line, which gives the exit code (1 otherwise).
    pub(crate) fn bash_fail(&mut self, command: &str, error: &str) -> &mut Self {
        let code = error
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("Exit code "))
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or(1);
        if self.harness == "claude" {
            return self.claude_failure(command, code, error);
        }
        let output = match error.split_once('\n') {
            Some((first, rest)) if first.starts_with("Exit code ") => rest,
            _ => error,
        };
        self.shell(command, code, output)
    }

    /// A shell command with its exit code and output, described as each harness's adapter
    /// describes it: Claude Code fires `PostToolUseFailure` with an `Exit code N` error for a
    /// failure; Codex fires `PostToolUse` with its `Exit code: N` banner opening the output;
    /// Cursor's generic `postToolUse` carries the `exitCode`.
    pub(crate) fn shell(&mut self, command: &str, exit_code: i64, output: &str) -> &mut Self {
        let failed = exit_code != 0;
        let mut tool = match self.harness.as_str() {
            "codex" => {
                let text = format!("Exit code: {exit_code}\nWall time: 0.8 seconds\nOutput:\n{output}");
                let error = failed.then(|| text.clone());
                tool("Bash", json!({"command": command}), Some(Value::String(text)), error)
            }
            "cursor" => {
                let stream = if failed { "stderr" } else { "stdout" };
                let error = failed.then(|| output.to_owned());
                tool(
                    "Shell",
                    json!({"command": command}),
                    Some(json!({"exitCode": exit_code, stream: output})),
                    error,
                )
            }
            _ if failed => {
                return self.claude_failure(command, exit_code, &format!("Exit code {exit_code}\n{output}"));
            }
            _ => {
                tool("Bash", json!({"command": command}), Some(json!({"stdout": output, "stderr": ""})), None)
            }
        };
        let reported_code = (self.harness != "claude").then_some(exit_code);
        tool.shell = Some(ShellCall { command: command.to_owned(), exit_code: reported_code });
        tool.failed = Some(failed);
        let name = tool.name.clone();
        self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": name}))
    }

    fn claude_failure(&mut self, command: &str, exit_code: i64, error: &str) -> &mut Self {
        let mut tool = tool("Bash", json!({"command": command}), None, Some(error.to_owned()));
        let reported = error.lines().next().is_some_and(|l| l.starts_with("Exit code "));
        tool.shell =
            Some(ShellCall { command: command.to_owned(), exit_code: reported.then_some(exit_code) });
        tool.failed = Some(true);
        self.push(EventKind::PostToolUseFailure, None, Some(tool), json!({"tool_name": "Bash"}))
    }

    /// An edit of `path` (relative to the project root): Claude Code's `Edit`, Codex's
    /// `apply_patch`, or Cursor's `Write` followed by its `afterFileEdit` twin.
    pub(crate) fn edit(&mut self, path: &str) -> &mut Self {
        let full = format!("{}/{path}", self.cwd);
        let stored = self.stored_path(path);
        match self.harness.as_str() {
            "codex" => {
                let patch =
                    format!("*** Begin Patch\n*** Update File: {path}\n@@\n-old\n+new\n*** End Patch\n");
                let output = format!(
                    "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nM {path}\n"
                );
                let mut tool =
                    tool("apply_patch", json!({"command": patch}), Some(Value::String(output)), None);
                tool.patch = Some(patch);
                tool.files = vec![FileTouch::new(stored, FileAction::Edited)];
                tool.failed = Some(false);
                self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": "apply_patch"}))
            }
            "cursor" => {
                let mut write =
                    tool("Write", json!({"file_path": full}), Some(json!({"success": true})), None);
                write.files = vec![FileTouch::new(stored.clone(), FileAction::Edited)];
                write.failed = Some(false);
                self.push(EventKind::PostToolUse, None, Some(write), json!({"tool_name": "Write"}));
                let mut twin = tool("Write", json!({"file_path": full, "edits": []}), None, None);
                twin.files = vec![FileTouch::new(stored, FileAction::Edited)];
                self.push(
                    EventKind::FileEdited,
                    None,
                    Some(twin),
                    json!({"hook_event_name": "afterFileEdit"}),
                )
            }
            _ => {
                let mut tool =
                    tool("Edit", json!({"file_path": full}), Some(json!({"filePath": full})), None);
                tool.files = vec![FileTouch::new(stored, FileAction::Edited)];
                tool.failed = Some(false);
                self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": "Edit"}))
            }
        }
    }

    /// A read of `path`: a `Read` tool, or for Codex (which reads through its shell) `sed -n`.
    pub(crate) fn read(&mut self, path: &str) -> &mut Self {
        if self.harness == "codex" {
            return self.bash_ok(&format!("sed -n '1,200p' {path}"));
        }
        let full = format!("{}/{path}", self.cwd);
        let stored = self.stored_path(path);
        let mut tool = tool("Read", json!({"file_path": full}), Some(json!({"type": "text"})), None);
        tool.files = vec![FileTouch::new(stored, FileAction::Read)];
        tool.failed = Some(false);
        self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": "Read"}))
    }

    /// A deletion of `path`: `git rm`, or for Codex an `apply_patch` that deletes the file (the
    /// adapter lists only the files a patch adds or updates).
    pub(crate) fn delete(&mut self, path: &str) -> &mut Self {
        if self.harness != "codex" {
            return self.bash_ok(&format!("git rm -q {path}"));
        }
        let patch = format!("*** Begin Patch\n*** Delete File: {path}\n*** End Patch\n");
        let output = format!(
            "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nD {path}\n"
        );
        let mut tool = tool("apply_patch", json!({"command": patch}), Some(Value::String(output)), None);
        tool.patch = Some(patch);
        tool.failed = Some(false);
        self.push(EventKind::PostToolUse, None, Some(tool), json!({"tool_name": "apply_patch"}))
    }

    /// Moves the clock `days` days on (stories that span weeks).
    pub(crate) fn days_later(&mut self, days: i64) -> &mut Self {
        self.clock += Duration::days(days);
        self
    }

    /// A path as the hook runtime stores it: relative to the project root in a project (the
    /// stories' working directory is the root), absolute otherwise.
    fn stored_path(&self, path: &str) -> String {
        match self.project {
            Some(_) => path.to_owned(),
            None => format!("{}/{path}", self.cwd),
        }
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

/// The body of a note, if it exists.
pub(crate) async fn body(store: &dyn MemoryStore, scope: &memory_core::Scope, path: &str) -> Option<String> {
    let path = memory_core::NotePath::new(path).unwrap();
    store.get_note(scope, &path).await.unwrap().map(|note| note.body)
}

/// Every note a session in `project` is given (user notes and the project's), as one text.
pub(crate) async fn visible_in(store: &dyn MemoryStore, project: &str) -> String {
    let mut out = String::new();
    for note in all_notes(store).await {
        let visible = match &note.meta.scope {
            memory_core::Scope::User => true,
            memory_core::Scope::Project(id) => id == project,
            memory_core::Scope::Session(_) => false,
        };
        if visible {
            out.push_str(&format!("===== {} {}\n{}", note.meta.scope, note.path, note.body));
        }
    }
    out
}

/// A store after one Claude Code session in `project` (under `/home/alice/src/`) where the user
/// said `prompt`, dreamed once.
pub(crate) async fn dreamed_after_saying(prompt: &str, project: &str) -> InMemoryStore {
    let mut story = Story::new();
    story
        .session("claude", "said-1", Some(project), &format!("/home/alice/src/{project}"))
        .prompt(prompt)
        .stop();
    let store = store_with(&story.events()).await;
    dream_once(&store).await;
    store
}

/// Runs the deterministic dream once over what the store holds.
pub(crate) async fn dream_once(store: &dyn MemoryStore) -> dream::DreamReport {
    let report = dream::run(store, &dream::DeterministicProvider::new(), &options(), &dream::NoProgress)
        .await
        .unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    report
}

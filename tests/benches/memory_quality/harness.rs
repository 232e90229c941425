//! The three harnesses as the eval drives them: the real `agent-memory` binary run as a fresh
//! process per hook event, with each harness's own payload shapes (as captured from Claude Code
//! 2.1 and Codex 0.171, and as Cursor documents them).

use std::cell::Cell;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// A harness that fires hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Harness {
    Claude,
    Codex,
    Cursor,
}

impl Harness {
    pub(crate) const ALL: [Harness; 3] = [Harness::Claude, Harness::Codex, Harness::Cursor];

    /// The name `agent-memory hook` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Harness::Claude => "claude",
            Harness::Codex => "codex",
            Harness::Cursor => "cursor",
        }
    }

    /// Whether the harness takes context on a prompt (Cursor's `beforeSubmitPrompt` does not).
    pub(crate) fn injects_per_prompt(self) -> bool {
        self != Harness::Cursor
    }
}

/// One user's machine: a data folder and a config file in a throwaway directory.
#[derive(Debug)]
pub(crate) struct Machine {
    pub(crate) dir: tempfile::TempDir,
    binary: PathBuf,
    hooks: Cell<usize>,
}

impl Machine {
    pub(crate) fn new(binary: PathBuf, config: &str) -> anyhow::Result<Self> {
        let machine = Self { dir: tempfile::tempdir()?, binary, hooks: Cell::new(0) };
        std::fs::write(machine.config(), config)?;
        Ok(machine)
    }

    fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    /// Waits for a dream a hook started in the background to finish, as it does between two
    /// sessions of a person's day: the next session then finds what it distilled, whatever the
    /// speed of the machine running the bench.
    pub(crate) fn settle(&self) -> anyhow::Result<()> {
        drop(memory_hook::DreamLock::acquire(&self.dir.path().join("data").join("dream"))?);
        Ok(())
    }

    /// Replaces the config file: the next hooks read it.
    pub(crate) fn write_config(&self, config: &str) -> anyhow::Result<()> {
        Ok(std::fs::write(self.config(), config)?)
    }

    /// Where projects are checked out.
    pub(crate) fn src(&self) -> PathBuf {
        self.dir.path().join("src")
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.env("AGENT_MEMORY_HOME", self.dir.path().join("data"))
            .env("AGENT_MEMORY_CONFIG", self.config())
            .env("HOME", self.dir.path())
            .env_remove("AGENT_MEMORY_STORE")
            .env_remove("AGENT_MEMORY_DB")
            .env_remove("AGENT_MEMORY_DREAM")
            .env_remove("CURSOR_VERSION")
            .env_remove("CURSOR_PROJECT_DIR");
        cmd
    }

    /// Runs a subcommand; its stdout, or an error with its stderr.
    pub(crate) fn run(&self, args: &[&str]) -> anyhow::Result<String> {
        let out = self.command().args(args).stdin(Stdio::null()).output()?;
        anyhow::ensure!(
            out.status.success(),
            "agent-memory {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        Ok(String::from_utf8(out.stdout)?)
    }

    /// How many hook processes ran so far.
    pub(crate) fn hooks(&self) -> usize {
        self.hooks.get()
    }

    /// Runs one hook in `cwd` with `payload` on stdin; the context it injected, if any.
    pub(crate) fn hook(
        &self,
        harness: Harness,
        cwd: &Path,
        payload: &Value,
    ) -> anyhow::Result<Option<String>> {
        self.hooks.set(self.hooks.get() + 1);
        let mut child = self
            .command()
            .args(["hook", harness.name()])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        child.stdin.take().expect("stdin is piped").write_all(payload.to_string().as_bytes())?;
        let out = child.wait_with_output()?;
        let stdout = String::from_utf8(out.stdout)?;
        anyhow::ensure!(
            out.status.success(),
            "hook {} exited {:?}: {}",
            harness.name(),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        if stdout.trim().is_empty() {
            return Ok(None);
        }
        let answer: Value = serde_json::from_str(&stdout)?;
        let context = match harness {
            Harness::Cursor => answer.get("additional_context"),
            _ => answer.pointer("/hookSpecificOutput/additionalContext"),
        };
        Ok(context.and_then(Value::as_str).filter(|c| !c.trim().is_empty()).map(str::to_owned))
    }
}

/// A deterministic id shaped like the harness's own (UUID-like).
fn uuid(seed: u64) -> String {
    let mut x = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let (a, b) = (next(), next());
    format!(
        "{:08x}-{:04x}-7{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        (b >> 48) | 0x8000,
        b & 0xffff_ffff_ffff
    )
}

/// One live session of a harness in a project: turns a conversation into that harness's hook
/// events, in the order it fires them.
#[derive(Debug)]
pub(crate) struct Live<'m> {
    machine: &'m Machine,
    pub(crate) harness: Harness,
    root: PathBuf,
    id: String,
    seed: u64,
    calls: u64,
    turn: String,
    generation: String,
}

impl<'m> Live<'m> {
    pub(crate) fn new(machine: &'m Machine, harness: Harness, root: &Path, seed: u64) -> Self {
        Self {
            machine,
            harness,
            root: root.to_path_buf(),
            id: uuid(seed),
            seed,
            calls: 0,
            turn: uuid(seed ^ 0x5555),
            generation: uuid(seed ^ 0xaaaa),
        }
    }

    /// The harness's id of the session (Cursor's conversation id).
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    fn next_id(&mut self) -> String {
        self.calls += 1;
        uuid(self.seed.wrapping_mul(1_000_003).wrapping_add(self.calls))
    }

    fn cwd(&self) -> String {
        self.root.display().to_string()
    }

    fn abs(&self, file: &str) -> String {
        self.root.join(file).display().to_string()
    }

    /// The fields every payload of this harness carries, and the event's name.
    fn base(&self, claude: &str, cursor: &str) -> Value {
        match self.harness {
            Harness::Claude => json!({
                "session_id": self.id,
                "transcript_path": format!("/home/sam/.claude/projects/-home-sam-src-x/{}.jsonl", self.id),
                "cwd": self.cwd(),
                "permission_mode": "default",
                "hook_event_name": claude,
            }),
            Harness::Codex => json!({
                "session_id": self.id,
                "turn_id": self.turn,
                "transcript_path": format!("/home/sam/.codex/sessions/2026/11/30/rollout-2026-11-30T09-12-44-{}.jsonl", self.id),
                "cwd": self.cwd(),
                "hook_event_name": claude,
                "model": "gpt-5.5",
                "permission_mode": "default",
            }),
            Harness::Cursor => json!({
                "conversation_id": self.id,
                "generation_id": self.generation,
                "model": "claude-4.5-sonnet-thinking",
                "hook_event_name": cursor,
                "cursor_version": "3.18.25",
                "workspace_roots": [self.cwd()],
                "user_email": "sam@example.com",
                "transcript_path": null,
            }),
        }
    }

    fn send(&self, payload: Value) -> anyhow::Result<Option<String>> {
        self.machine.hook(self.harness, &self.root, &payload)
    }

    /// The session starts; what it was given.
    pub(crate) fn start(&mut self) -> anyhow::Result<Option<String>> {
        let mut v = self.base("SessionStart", "sessionStart");
        match self.harness {
            Harness::Claude => {
                v.as_object_mut().expect("object").remove("permission_mode");
                merge(&mut v, json!({ "source": "startup" }));
            }
            Harness::Codex => merge(&mut v, json!({ "source": "startup" })),
            Harness::Cursor => merge(
                &mut v,
                json!({ "session_id": self.id, "is_background_agent": false, "composer_mode": "agent" }),
            ),
        }
        if self.harness == Harness::Codex {
            v.as_object_mut().expect("object").remove("turn_id");
        }
        self.send(v)
    }

    /// The user submits a prompt; what it was given.
    pub(crate) fn prompt(&mut self, text: &str) -> anyhow::Result<Option<String>> {
        self.turn = self.next_id();
        self.generation = self.next_id();
        let mut v = self.base("UserPromptSubmit", "beforeSubmitPrompt");
        match self.harness {
            Harness::Claude => merge(&mut v, json!({ "prompt_id": self.turn, "prompt": text })),
            Harness::Codex => merge(&mut v, json!({ "prompt": text })),
            Harness::Cursor => merge(&mut v, json!({ "prompt": text, "attachments": [] })),
        }
        self.send(v)
    }

    /// The agent runs a shell command that prints `output` and exits with `code`.
    pub(crate) fn shell(&mut self, command: &str, output: &str, code: i32) -> anyhow::Result<()> {
        let call = self.next_id();
        match self.harness {
            Harness::Claude => {
                let call = format!("toolu_{}", &call.replace('-', "")[..24]);
                let input = json!({ "command": command, "description": describe(command) });
                self.claude_tool("Bash", &input, &call, None)?;
                if code == 0 {
                    let response = json!({
                        "stdout": output, "stderr": "", "interrupted": false, "isImage": false,
                        "noOutputExpected": false,
                    });
                    self.claude_tool("Bash", &input, &call, Some(response))?;
                } else {
                    let mut v = self.base("PostToolUseFailure", "");
                    merge(
                        &mut v,
                        json!({
                            "prompt_id": self.turn, "tool_name": "Bash", "tool_input": input,
                            "tool_use_id": call, "error": format!("Exit code {code}\n{output}"),
                            "is_interrupt": false, "duration_ms": 1840,
                        }),
                    );
                    self.send(v)?;
                }
            }
            Harness::Codex => {
                let call = format!("call_{}", &call.replace('-', "")[..20]);
                let input = json!({ "command": command });
                self.codex_tool("Bash", &input, &call, None)?;
                // Codex's shell output carries its exit-code banner only when the command failed.
                let response = if code == 0 {
                    output.to_owned()
                } else {
                    format!("Exit code: {code}\nWall time: 2.4 seconds\nOutput:\n{output}\n")
                };
                self.codex_tool("Bash", &input, &call, Some(Value::String(response)))?;
            }
            Harness::Cursor => {
                let call = format!("tool_{}", &call.replace('-', "")[..8]);
                let input = json!({ "command": command, "working_directory": self.cwd() });
                self.cursor_tool("Shell", &input, &call, None)?;
                let mut before = self.base("", "beforeShellExecution");
                merge(&mut before, json!({ "command": command, "cwd": self.cwd(), "sandbox": false }));
                self.send(before)?;
                let result = json!({ "exitCode": code, "stdout": output, "stderr": "" }).to_string();
                self.cursor_tool("Shell", &input, &call, Some((&result, 2412)))?;
                let mut after = self.base("", "afterShellExecution");
                merge(
                    &mut after,
                    json!({ "command": command, "output": output, "duration": 2412, "sandbox": false }),
                );
                self.send(after)?;
            }
        }
        Ok(())
    }

    /// The agent is about to run a shell command (Claude Code's and Codex's `PreToolUse`); what
    /// it was given.
    pub(crate) fn before_shell(&mut self, command: &str) -> anyhow::Result<Option<String>> {
        let call = self.next_id();
        match self.harness {
            Harness::Claude => {
                let call = format!("toolu_{}", &call.replace('-', "")[..24]);
                let input = json!({ "command": command, "description": describe(command) });
                self.claude_tool("Bash", &input, &call, None)
            }
            Harness::Codex => {
                let call = format!("call_{}", &call.replace('-', "")[..20]);
                self.codex_tool("Bash", &json!({ "command": command }), &call, None)
            }
            Harness::Cursor => anyhow::bail!("Cursor takes no context before a tool call"),
        }
    }

    /// The agent reads a file of the project (Codex reads through its shell).
    pub(crate) fn read(&mut self, file: &str) -> anyhow::Result<()> {
        let content = std::fs::read_to_string(self.root.join(file)).unwrap_or_default();
        let call = self.next_id();
        match self.harness {
            Harness::Claude => {
                let call = format!("toolu_{}", &call.replace('-', "")[..24]);
                let input = json!({ "file_path": self.abs(file) });
                self.claude_tool("Read", &input, &call, None)?;
                let lines = content.lines().count();
                let response = json!({
                    "type": "text",
                    "file": { "filePath": self.abs(file), "content": content, "numLines": lines, "startLine": 1, "totalLines": lines },
                });
                self.claude_tool("Read", &input, &call, Some(response))?;
            }
            Harness::Codex => self.shell(&format!("sed -n '1,200p' {file}"), &content, 0)?,
            Harness::Cursor => {
                let call = format!("tool_{}", &call.replace('-', "")[..8]);
                let input = json!({ "path": self.abs(file) });
                self.cursor_tool("Read", &input, &call, None)?;
                self.cursor_tool("Read", &input, &call, Some((&content, 4)))?;
            }
        }
        Ok(())
    }

    /// The agent replaces `old` with `new` in a file (Claude's `Edit`, Codex's `apply_patch`,
    /// Cursor's `afterFileEdit`), and the file on disk changes with it.
    pub(crate) fn edit(&mut self, file: &str, old: &str, new: &str) -> anyhow::Result<()> {
        let path = self.root.join(file);
        let before = std::fs::read_to_string(&path).unwrap_or_default();
        let adding = before.is_empty() && old.is_empty();
        // An empty `old` adds `new` at the end (a new file, or a test appended to a module).
        let after = if old.is_empty() { format!("{before}{new}") } else { before.replacen(old, new, 1) };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, &after)?;
        let call = self.next_id();
        match self.harness {
            Harness::Claude => {
                let call = format!("toolu_{}", &call.replace('-', "")[..24]);
                let (tool, input) = if adding {
                    ("Write", json!({ "file_path": self.abs(file), "content": new }))
                } else {
                    (
                        "Edit",
                        json!({ "file_path": self.abs(file), "old_string": old, "new_string": new, "replace_all": false }),
                    )
                };
                self.claude_tool(tool, &input, &call, None)?;
                let response = if adding {
                    json!({ "type": "create", "filePath": self.abs(file), "content": new, "structuredPatch": [] })
                } else {
                    json!({
                        "filePath": self.abs(file), "oldString": old, "newString": new,
                        "originalFile": before, "structuredPatch": [], "userModified": false, "replaceAll": false,
                    })
                };
                self.claude_tool(tool, &input, &call, Some(response))?;
            }
            Harness::Codex => {
                let call = format!("call_{}", &call.replace('-', "")[..20]);
                let patch = if adding {
                    let body: String = new.lines().map(|l| format!("+{l}\n")).collect();
                    format!("*** Begin Patch\n*** Add File: {file}\n{body}*** End Patch\n")
                } else {
                    let minus: String = old.lines().map(|l| format!("-{l}\n")).collect();
                    let plus: String = new.lines().map(|l| format!("+{l}\n")).collect();
                    format!("*** Begin Patch\n*** Update File: {file}\n@@\n{minus}{plus}*** End Patch\n")
                };
                let input = json!({ "command": patch });
                self.codex_tool("apply_patch", &input, &call, None)?;
                let letter = if adding { "A" } else { "M" };
                let done = format!("Success. Updated the following files:\n{letter} {file}\n");
                self.codex_tool("apply_patch", &input, &call, Some(Value::String(done)))?;
            }
            Harness::Cursor => {
                let mut v = self.base("", "afterFileEdit");
                merge(
                    &mut v,
                    json!({ "file_path": self.abs(file), "edits": [{ "old_string": old, "new_string": new }] }),
                );
                self.send(v)?;
            }
        }
        Ok(())
    }

    /// The agent ends its turn with `message`.
    pub(crate) fn reply(&mut self, message: &str) -> anyhow::Result<()> {
        match self.harness {
            Harness::Claude => {
                let mut v = self.base("Stop", "");
                merge(
                    &mut v,
                    json!({
                        "prompt_id": self.turn, "stop_hook_active": false, "last_assistant_message": message,
                        "background_tasks": [], "session_crons": [],
                    }),
                );
                self.send(v)?;
            }
            Harness::Codex => {
                let mut v = self.base("Stop", "");
                merge(&mut v, json!({ "stop_hook_active": false, "last_assistant_message": message }));
                self.send(v)?;
            }
            Harness::Cursor => {
                let mut v = self.base("", "afterAgentResponse");
                merge(&mut v, json!({ "text": message }));
                self.send(v)?;
                let mut v = self.base("", "stop");
                merge(&mut v, json!({ "status": "completed", "loop_count": 0 }));
                self.send(v)?;
            }
        }
        Ok(())
    }

    /// The user closes the session.
    pub(crate) fn end(&mut self) -> anyhow::Result<()> {
        let mut v = self.base("SessionEnd", "sessionEnd");
        match self.harness {
            Harness::Claude => {
                v.as_object_mut().expect("object").remove("permission_mode");
                merge(&mut v, json!({ "reason": "prompt_input_exit" }));
            }
            Harness::Codex => {
                let o = v.as_object_mut().expect("object");
                o.remove("turn_id");
                o.remove("model");
                o.remove("permission_mode");
                merge(&mut v, json!({ "reason": "other" }));
            }
            Harness::Cursor => merge(
                &mut v,
                json!({
                    "session_id": self.id, "reason": "user_close", "duration_ms": 1_834_000,
                    "is_background_agent": false, "final_status": "completed",
                }),
            ),
        }
        self.send(v)?;
        Ok(())
    }

    /// Cursor's `preToolUse`, or with `(output, duration in ms)` its `postToolUse`.
    fn cursor_tool(
        &self,
        tool: &str,
        input: &Value,
        call: &str,
        output: Option<(&str, u64)>,
    ) -> anyhow::Result<()> {
        let event = if output.is_some() { "postToolUse" } else { "preToolUse" };
        let mut v = self.base("", event);
        merge(
            &mut v,
            json!({ "tool_name": tool, "tool_input": input, "tool_use_id": call, "cwd": self.cwd() }),
        );
        if let Some((output, duration)) = output {
            merge(&mut v, json!({ "tool_output": output, "duration": duration }));
        }
        self.send(v)?;
        Ok(())
    }

    fn claude_tool(
        &self,
        tool: &str,
        input: &Value,
        call: &str,
        response: Option<Value>,
    ) -> anyhow::Result<Option<String>> {
        let event = if response.is_some() { "PostToolUse" } else { "PreToolUse" };
        let mut v = self.base(event, "");
        merge(
            &mut v,
            json!({ "prompt_id": self.turn, "tool_name": tool, "tool_input": input, "tool_use_id": call }),
        );
        if let Some(response) = response {
            merge(&mut v, json!({ "tool_response": response, "duration_ms": 212 }));
        }
        self.send(v)
    }

    fn codex_tool(
        &self,
        tool: &str,
        input: &Value,
        call: &str,
        response: Option<Value>,
    ) -> anyhow::Result<Option<String>> {
        let event = if response.is_some() { "PostToolUse" } else { "PreToolUse" };
        let mut v = self.base(event, "");
        merge(&mut v, json!({ "tool_name": tool, "tool_input": input, "tool_use_id": call }));
        if let Some(response) = response {
            merge(&mut v, json!({ "tool_response": response }));
        }
        self.send(v)
    }
}

/// The one-line description Claude Code's Bash tool carries.
fn describe(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().take(3).collect();
    format!("Run {}", words.join(" "))
}

fn merge(v: &mut Value, extra: Value) {
    if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
        obj.extend(more);
    }
}

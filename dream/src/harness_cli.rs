//! Runs the user's own harness headless (`claude -p`, `codex exec`) as the provider, using their
//! existing login. The child gets `AGENT_MEMORY_DREAM=1` so agent-memory's hooks ignore its session.

use std::fmt;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;

use crate::http;
use crate::{
    DREAM_ENV_VAR, DreamRequest, Error, Operations, Pricing, Provider, ProviderReply, Result, Usage, prompt,
};

/// Which harness command line to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HarnessKind {
    /// Claude Code: `claude -p --output-format json --json-schema <schema> …`, prompt on stdin.
    Claude,
    /// Codex: `codex exec --json --output-schema <file> -o <file> --ephemeral --sandbox read-only …`,
    /// prompt on stdin.
    Codex,
}

impl HarnessKind {
    /// The provider name: `claude-cli` or `codex-cli`.
    pub fn provider_name(self) -> &'static str {
        match self {
            Self::Claude => "claude-cli",
            Self::Codex => "codex-cli",
        }
    }

    fn default_program(self) -> &'static str {
        match self {
            Self::Claude => "claude",
            Self::Codex => "codex",
        }
    }

    fn program_var(self) -> &'static str {
        match self {
            Self::Claude => "AGENT_MEMORY_CLAUDE_BIN",
            Self::Codex => "AGENT_MEMORY_CODEX_BIN",
        }
    }

    fn model_var(self) -> &'static str {
        match self {
            Self::Claude => "AGENT_MEMORY_CLAUDE_MODEL",
            Self::Codex => "AGENT_MEMORY_CODEX_MODEL",
        }
    }
}

/// Settings of [`HarnessCliProvider`].
#[derive(Clone)]
pub struct HarnessCliConfig {
    /// Which harness.
    pub kind: HarnessKind,
    /// The executable: a name looked up on `PATH` (default `claude` / `codex`) or a path.
    pub program: String,
    /// The model to ask for (`--model` / `-m`); `None` uses the harness's default.
    pub model: Option<String>,
    /// How long one run may take before it is killed.
    pub timeout: Duration,
    /// Extra environment variables for the child (on top of the inherited environment and
    /// `AGENT_MEMORY_DREAM=1`); a `PATH` here is also used to find the program.
    pub env: Vec<(String, String)>,
}

impl fmt::Debug for HarnessCliConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let env_names: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("HarnessCliConfig")
            .field("kind", &self.kind)
            .field("program", &self.program)
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .field("env", &env_names)
            .finish()
    }
}

impl HarnessCliConfig {
    /// Defaults for a harness: its usual program name, its default model, a 10-minute timeout.
    pub fn new(kind: HarnessKind) -> Self {
        Self {
            kind,
            program: kind.default_program().to_owned(),
            model: None,
            timeout: Duration::from_secs(600),
            env: Vec::new(),
        }
    }

    /// Reads `AGENT_MEMORY_CLAUDE_BIN`/`AGENT_MEMORY_CODEX_BIN`,
    /// `AGENT_MEMORY_CLAUDE_MODEL`/`AGENT_MEMORY_CODEX_MODEL` and `AGENT_MEMORY_DREAM_TIMEOUT_SECS`.
    pub fn from_env(kind: HarnessKind) -> Result<Self> {
        Self::from_env_with(kind, &|name| std::env::var(name).ok())
    }

    /// Like [`HarnessCliConfig::from_env`], reading variables through `env`.
    pub fn from_env_with(kind: HarnessKind, env: &dyn Fn(&str) -> Option<String>) -> Result<Self> {
        let mut config = Self::new(kind);
        if let Some(program) = http::non_empty(env(kind.program_var())) {
            config.program = program;
        }
        config.model = http::non_empty(env(kind.model_var()));
        let name = kind.provider_name();
        if let Some(secs) = http::parse_setting::<f64>(name, http::TIMEOUT_VAR, env(http::TIMEOUT_VAR))? {
            config.timeout = Duration::from_secs_f64(secs.max(0.001));
        }
        Ok(config)
    }
}

/// Runs `claude` or `codex` headless with the operations schema enforced by the harness.
#[derive(Debug)]
pub struct HarnessCliProvider {
    config: HarnessCliConfig,
}

impl HarnessCliProvider {
    /// A provider with the given configuration.
    pub fn new(config: HarnessCliConfig) -> Self {
        Self { config }
    }

    /// The arguments passed for a request (`schema_file` and `output_file` are used by Codex).
    pub fn arguments(&self, request: &DreamRequest, schema_file: &str, output_file: &str) -> Vec<String> {
        let mut args: Vec<String> = match self.config.kind {
            HarnessKind::Claude => vec![
                "-p".into(),
                "--output-format".into(),
                "json".into(),
                "--json-schema".into(),
                request.schema.to_string(),
                "--tools".into(),
                String::new(),
                "--no-session-persistence".into(),
                "--system-prompt".into(),
                prompt::system_prompt().to_owned(),
            ],
            HarnessKind::Codex => vec![
                "exec".into(),
                "--json".into(),
                "--output-schema".into(),
                schema_file.to_owned(),
                "-o".into(),
                output_file.to_owned(),
                "--ephemeral".into(),
                "--sandbox".into(),
                "read-only".into(),
                "--skip-git-repo-check".into(),
            ],
        };
        if let Some(model) = &self.config.model {
            args.push(if self.config.kind == HarnessKind::Claude { "--model" } else { "-m" }.into());
            args.push(model.clone());
        }
        if self.config.kind == HarnessKind::Codex {
            args.push("-".into());
        }
        args
    }

    /// The prompt written to the child's stdin.
    pub fn stdin_prompt(&self, request: &DreamRequest) -> String {
        let user = prompt::user_prompt(request);
        match self.config.kind {
            HarnessKind::Claude => format!("{user}\nAnswer only with the operations object."),
            HarnessKind::Codex => format!(
                "{}\n\n{user}\nDo not run commands or edit files. Answer only with the operations object.",
                prompt::system_prompt()
            ),
        }
    }
}

#[async_trait::async_trait]
impl Provider for HarnessCliProvider {
    fn name(&self) -> String {
        self.config.kind.provider_name().to_owned()
    }

    fn pricing(&self) -> Option<Pricing> {
        None
    }

    async fn propose(&self, request: &DreamRequest) -> Result<ProviderReply> {
        let name = self.name();
        let workdir = tempfile::tempdir()
            .map_err(|e| Error::provider(&name, format!("cannot create a working directory: {e}"), false))?;
        let schema_file = workdir.path().join("schema.json");
        let output_file = workdir.path().join("last-message.json");
        std::fs::write(&schema_file, request.schema.to_string())
            .map_err(|e| Error::provider(&name, format!("cannot write the schema file: {e}"), false))?;
        let args = self.arguments(request, &schema_file.to_string_lossy(), &output_file.to_string_lossy());
        let mut command = tokio::process::Command::new(&self.config.program);
        command
            .args(&args)
            .current_dir(workdir.path())
            .env(DREAM_ENV_VAR, "1")
            .envs(self.config.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(|e| {
            Error::provider(&name, format!("cannot run `{}`: {e}", self.config.program), false)
        })?;
        let stdin_text = self.stdin_prompt(request);
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let writer = async move {
            // A child that exits without reading its input is reported by its exit status instead.
            let _ = stdin.write_all(stdin_text.as_bytes()).await;
            drop(stdin);
        };
        let run = async {
            let (_, output) = tokio::join!(writer, child.wait_with_output());
            output
        };
        let output = match tokio::time::timeout(self.config.timeout, run).await {
            Ok(Ok(output)) => output,
            Ok(Err(e)) => {
                return Err(Error::provider(
                    &name,
                    format!("running `{}` failed: {e}", self.config.program),
                    false,
                ));
            }
            Err(_) => {
                return Err(Error::provider(
                    &name,
                    format!("`{}` did not finish within {:?}", self.config.program, self.config.timeout),
                    true,
                ));
            }
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let detail: String = if stderr.trim().is_empty() { stdout.trim() } else { stderr.trim() }
                .chars()
                .take(500)
                .collect();
            return Err(Error::provider(
                &name,
                format!("`{}` exited with {}: {detail}", self.config.program, output.status),
                false,
            ));
        }
        match self.config.kind {
            HarnessKind::Claude => parse_claude(&name, &stdout),
            HarnessKind::Codex => {
                let last = std::fs::read_to_string(&output_file).unwrap_or_default();
                parse_codex(&name, &stdout, &last)
            }
        }
    }
}

fn parse_claude(name: &str, stdout: &str) -> Result<ProviderReply> {
    let envelope: Value = serde_json::from_str(stdout.trim())
        .ok()
        .or_else(|| stdout.lines().rev().find_map(|line| serde_json::from_str(line.trim()).ok()))
        .ok_or_else(|| {
            Error::invalid_output(name, "the output is not a JSON result object", Usage::default())
        })?;
    let count = |key: &str| envelope.pointer(&format!("/usage/{key}")).and_then(Value::as_u64).unwrap_or(0);
    let usage = Usage {
        input_tokens: count("input_tokens")
            + count("cache_creation_input_tokens")
            + count("cache_read_input_tokens"),
        output_tokens: count("output_tokens"),
        cost_usd: envelope.get("total_cost_usd").or_else(|| envelope.get("cost_usd")).and_then(Value::as_f64),
    };
    if envelope.get("is_error").and_then(Value::as_bool) == Some(true) {
        let result = envelope.get("result").and_then(Value::as_str).unwrap_or("no details");
        let subtype = envelope.get("subtype").and_then(Value::as_str).unwrap_or("error");
        return Err(Error::provider(name, format!("the run failed ({subtype}): {result}"), false));
    }
    let operations: Operations = match envelope.get("structured_output").filter(|v| !v.is_null()) {
        Some(structured) => serde_json::from_value(structured.clone()).map_err(|e| {
            Error::invalid_output(name, format!("structured_output does not match the schema: {e}"), usage)
        })?,
        None => {
            let text = envelope.get("result").and_then(Value::as_str).unwrap_or_default();
            parse_operations_text(text).map_err(|e| {
                Error::invalid_output(name, format!("the result is not the operations JSON: {e}"), usage)
            })?
        }
    };
    Ok(ProviderReply { operations, usage })
}

fn parse_codex(name: &str, stdout: &str, last_message: &str) -> Result<ProviderReply> {
    let mut usage = Usage::default();
    let mut failure = None;
    for line in stdout.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else { continue };
        match event.get("type").and_then(Value::as_str) {
            Some("turn.completed") => {
                let count =
                    |key: &str| event.pointer(&format!("/usage/{key}")).and_then(Value::as_u64).unwrap_or(0);
                usage.input_tokens += count("input_tokens");
                usage.output_tokens += count("output_tokens");
            }
            Some("turn.failed") => {
                failure = event.pointer("/error/message").and_then(Value::as_str).map(str::to_owned);
            }
            Some("error") => failure = event.get("message").and_then(Value::as_str).map(str::to_owned),
            _ => (),
        }
    }
    if let Some(message) = failure {
        return Err(Error::provider(name, format!("the run failed: {message}"), false));
    }
    let operations = parse_operations_text(last_message).map_err(|e| {
        Error::invalid_output(name, format!("the last message is not the operations JSON: {e}"), usage)
    })?;
    Ok(ProviderReply { operations, usage })
}

/// Parses operations from text, accepting a surrounding Markdown code fence.
fn parse_operations_text(text: &str) -> std::result::Result<Operations, serde_json::Error> {
    let trimmed = text.trim();
    let unfenced = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|rest| rest.trim_end().strip_suffix("```"))
        .unwrap_or(trimmed);
    serde_json::from_str(unfenced.trim())
}

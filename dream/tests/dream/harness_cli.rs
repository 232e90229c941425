//! The harness command-line providers against stand-in `claude` and `codex` executables on `PATH`.
//!
//! Everything runs in one test, one scenario after another: writing an executable while another
//! thread forks a child can make the exec fail with "text file busy".

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use dream::{HarnessCliConfig, HarnessCliProvider, HarnessKind, NoProgress, StopReason, run};
use memory_core::{MemoryStore, NotePath, Scope};
use serde_json::json;

use crate::support::{all_notes, operations_json, options, plain_events, store_with};

const CLAUDE: &str = r#"#!/bin/sh
printf '%s\n' "$@" > "$LOG_DIR/claude-args"
printf '%s' "$AGENT_MEMORY_DREAM" > "$LOG_DIR/claude-env"
pwd > "$LOG_DIR/claude-pwd"
cat > "$LOG_DIR/claude-stdin"
cat "$LOG_DIR/claude-reply.json"
"#;

const CODEX: &str = r#"#!/bin/sh
printf '%s\n' "$@" > "$LOG_DIR/codex-args"
printf '%s' "$AGENT_MEMORY_DREAM" > "$LOG_DIR/codex-env"
out=""
schema=""
prev=""
for arg in "$@"; do
  if [ "$prev" = "-o" ]; then out="$arg"; fi
  if [ "$prev" = "--output-schema" ]; then schema="$arg"; fi
  prev="$arg"
done
cp "$schema" "$LOG_DIR/codex-schema.json"
cat > "$LOG_DIR/codex-stdin"
cp "$LOG_DIR/codex-reply.json" "$out"
echo '{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}'
echo '{"type":"turn.started"}'
echo '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"done"}}'
echo '{"type":"turn.completed","usage":{"input_tokens":1500,"cached_input_tokens":0,"output_tokens":90}}'
"#;

fn install(dir: &Path, name: &str, script: &str) {
    let path = dir.join(name);
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn provider(kind: HarnessKind, bin: &Path, logs: &Path, timeout: Duration) -> HarnessCliProvider {
    let mut config = HarnessCliConfig::new(kind);
    config.timeout = timeout;
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    config.env = vec![("PATH".into(), path), ("LOG_DIR".into(), logs.display().to_string())];
    HarnessCliProvider::new(config)
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[tokio::test]
async fn harness_command_lines() {
    let bin = tempfile::tempdir().unwrap();
    let logs = tempfile::tempdir().unwrap();
    install(bin.path(), "claude", CLAUDE);
    install(bin.path(), "codex", CODEX);
    let long = Duration::from_secs(20);

    // Claude Code: the schema-checked result arrives in `structured_output`.
    let store = store_with(&plain_events(1, None)).await;
    let source = store.events_after(0, 1).await.unwrap()[0].event.id.0.clone();
    let envelope = json!({
        "type": "result", "subtype": "success", "is_error": false, "duration_ms": 2100,
        "num_turns": 1, "result": "", "session_id": "5b2d", "total_cost_usd": 0.0123,
        "usage": {"input_tokens": 10, "cache_creation_input_tokens": 2000, "cache_read_input_tokens": 0, "output_tokens": 150},
        "structured_output": operations_json("profile/search.md", &source)
    });
    std::fs::write(logs.path().join("claude-reply.json"), envelope.to_string()).unwrap();
    let claude = provider(HarnessKind::Claude, bin.path(), logs.path(), long);
    let report = run(&store, &claude, &options(), &NoProgress).await.unwrap();
    assert_eq!((report.notes_created, report.tokens_in, report.tokens_out), (1, 2010, 150), "{report:?}");
    assert!((report.cost_usd - 0.0123).abs() < 1e-12, "the reported cost is used");
    let note =
        store.get_note(&Scope::User, &NotePath::new("profile/search.md").unwrap()).await.unwrap().unwrap();
    assert_eq!(note.meta.generator, "claude-cli");
    let args: Vec<String> = read(logs.path(), "claude-args").lines().map(str::to_owned).collect();
    assert_eq!(&args[..3], ["-p", "--output-format", "json"]);
    let schema_at = args.iter().position(|a| a == "--json-schema").unwrap();
    let schema: serde_json::Value = serde_json::from_str(&args[schema_at + 1]).unwrap();
    assert_eq!(schema, dream::operations_schema());
    assert!(args.contains(&"--no-session-persistence".to_owned()));
    assert_eq!(read(logs.path(), "claude-env"), "1", "AGENT_MEMORY_DREAM=1 keeps our hooks quiet");
    assert!(read(logs.path(), "claude-stdin").contains(&format!("[{source}]")));
    assert!(!read(logs.path(), "claude-pwd").trim().is_empty());

    // Claude Code reporting an error.
    let failed = json!({"type": "result", "subtype": "error_max_turns", "is_error": true, "result": "budget exceeded"});
    std::fs::write(logs.path().join("claude-reply.json"), failed.to_string()).unwrap();
    let store = store_with(&plain_events(1, None)).await;
    let report = run(&store, &claude, &options(), &NoProgress).await.unwrap();
    assert!(
        matches!(&report.stopped, Some(StopReason::ProviderFailed { message }) if message.contains("budget exceeded"))
    );

    // Codex: the final message is written to the `-o` file, usage comes from the JSONL events.
    let store = store_with(&plain_events(1, Some("acme"))).await;
    let source = store.events_after(0, 1).await.unwrap()[0].event.id.0.clone();
    let answer = format!("```json\n{}\n```", operations_json("profile/search.md", &source));
    std::fs::write(logs.path().join("codex-reply.json"), answer).unwrap();
    let codex = provider(HarnessKind::Codex, bin.path(), logs.path(), long);
    let report = run(&store, &codex, &options(), &NoProgress).await.unwrap();
    assert_eq!((report.notes_created, report.tokens_in, report.tokens_out), (1, 1500, 90), "{report:?}");
    let args: Vec<String> = read(logs.path(), "codex-args").lines().map(str::to_owned).collect();
    assert_eq!(args[0], "exec");
    for flag in ["--json", "--ephemeral", "--skip-git-repo-check"] {
        assert!(args.contains(&flag.to_owned()), "missing {flag} in {args:?}");
    }
    assert_eq!(args.last().map(String::as_str), Some("-"), "the prompt comes on stdin");
    let schema: serde_json::Value = serde_json::from_str(&read(logs.path(), "codex-schema.json")).unwrap();
    assert_eq!(schema, dream::operations_schema());
    assert_eq!(read(logs.path(), "codex-env"), "1");
    assert!(read(logs.path(), "codex-stdin").contains("Allowed scopes: project:acme, user"));

    // A harness that exits non-zero.
    install(bin.path(), "codex", "#!/bin/sh\necho 'not logged in' >&2\nexit 3\n");
    let store = store_with(&plain_events(1, None)).await;
    let report = run(&store, &codex, &options(), &NoProgress).await.unwrap();
    assert!(
        matches!(&report.stopped, Some(StopReason::ProviderFailed { message }) if message.contains("not logged in"))
    );
    assert!(all_notes(&store).await.is_empty());

    // A harness that hangs is killed at the timeout.
    install(bin.path(), "claude", "#!/bin/sh\nexec sleep 30\n");
    let slow = provider(HarnessKind::Claude, bin.path(), logs.path(), Duration::from_millis(300));
    let started = Instant::now();
    let report = run(&store, &slow, &options(), &NoProgress).await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        matches!(&report.stopped, Some(StopReason::ProviderFailed { message }) if message.contains("did not finish"))
    );
    assert!(store.watermarks().await.unwrap().is_empty());
}

#[test]
fn harness_config_from_the_environment() {
    let env = |name: &str| match name {
        "AGENT_MEMORY_CODEX_BIN" => Some("/opt/codex/bin/codex".to_owned()),
        "AGENT_MEMORY_CODEX_MODEL" => Some("gpt-5-codex".to_owned()),
        "AGENT_MEMORY_DREAM_TIMEOUT_SECS" => Some("90".to_owned()),
        _ => None,
    };
    let config = HarnessCliConfig::from_env_with(HarnessKind::Codex, &env).unwrap();
    assert_eq!(config.program, "/opt/codex/bin/codex");
    assert_eq!(config.model.as_deref(), Some("gpt-5-codex"));
    assert_eq!(config.timeout, Duration::from_secs(90));
    let defaults = HarnessCliConfig::from_env_with(HarnessKind::Claude, &|_| None).unwrap();
    assert_eq!(defaults.program, "claude");
}

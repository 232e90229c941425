//! What the read commands print: `--json` for every one of them (snapshots, with what changes
//! from run to run — times, ids, temporary folders, durations — replaced by placeholders), local
//! times with their zone, colour only where asked for, shell completions and manual pages.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor};

/// A morning in one project through all three harnesses, then the dream.
fn morning(m: &Machine) -> std::path::PathBuf {
    let dir = m.project("webshop");
    let bash = |id: &str, command: &str, response: Value| json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": { "command": command }, "tool_response": response });
    for (event, extra) in [
        ("SessionStart", json!({ "source": "startup" })),
        (
            "UserPromptSubmit",
            json!({ "prompt": "please always use pnpm here, not npm. I like small commits." }),
        ),
        (
            "PostToolUse",
            bash(
                "t1",
                "pnpm test",
                json!({ "stdout": "12 passed", "stderr": "", "interrupted": false, "isImage": false }),
            ),
        ),
        ("Stop", json!({ "stop_hook_active": false })),
    ] {
        m.hook("claude", &dir, &claude("c-1", &dir, event, extra));
    }
    for (event, extra) in [
        ("SessionStart", json!({ "source": "startup" })),
        (
            "UserPromptSubmit",
            json!({ "turn_id": "t-1", "prompt": "why does pnpm test fail on the api package?" }),
        ),
    ] {
        m.hook("codex", &dir, &codex("x-1", &dir, event, extra));
    }
    for (event, extra) in [
        (
            "sessionStart",
            json!({ "session_id": "u-1", "is_background_agent": false, "composer_mode": "agent" }),
        ),
        ("beforeSubmitPrompt", json!({ "prompt": "add a test for the cart total", "attachments": [] })),
    ] {
        m.hook("cursor", &dir, &cursor("u-1", &dir, event, extra));
    }
    m.run(&["dream"]);
    dir
}

/// `value` with what differs between runs replaced: times, ids, hashes, the machine's folders.
fn stable(value: &Value, root: &Path) -> Value {
    let root = root.to_string_lossy();
    let date = regex::Regex::new(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?")
        .unwrap();
    let hash = regex::Regex::new(r"-[0-9a-f]{8}\b").unwrap();
    let ms = regex::Regex::new(r"\d+ ms\b").unwrap();
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let volatile = matches!(
                        k.as_str(),
                        "id" | "trigger_event"
                            | "position"
                            | "sources"
                            | "duration_ms"
                            | "elapsed_ms"
                            | "pid"
                            | "version"
                            | "binary"
                            | "size_bytes"
                            | "bytes"
                            | "marker"
                    ) && !v.is_null();
                    (k.clone(), if volatile { json!("[volatile]") } else { stable(v, Path::new(&*root)) })
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| stable(v, Path::new(&*root))).collect()),
        Value::String(text) => {
            let text = text.replace(&*root, "[tmp]");
            let text = date.replace_all(&text, "[time]");
            let text = hash.replace_all(&text, "-[hash]");
            Value::String(ms.replace_all(&text, "[n] ms").into_owned())
        }
        other => other.clone(),
    }
}

#[test]
fn every_read_command_answers_in_json() {
    let m = Machine::new();
    let dir = morning(&m);
    let root = m.dir.path().canonicalize().unwrap();
    let read = |args: &[&str]| {
        let mut cmd = m.command(&[&["--json"], args].concat());
        let out = cmd.current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{args:?} printed no JSON ({e}): {}", String::from_utf8_lossy(&out.stdout))
        });
        stable(&value, &root)
    };
    insta::assert_json_snapshot!("sessions", read(&["sessions"]));
    insta::assert_json_snapshot!("sessions_page", read(&["sessions", "--limit", "1", "--offset", "1"]));
    insta::assert_json_snapshot!("timeline", read(&["timeline", "claude:c-1"]));
    insta::assert_json_snapshot!("notes_list", read(&["notes", "list"]));
    insta::assert_json_snapshot!(
        "notes_show",
        read(&["notes", "show", "user", "profile/preferences.md", "--history"])
    );
    insta::assert_json_snapshot!("search", read(&["search", "pnpm test"]));
    insta::assert_json_snapshot!("projects", read(&["projects"]));
    insta::assert_json_snapshot!("config", read(&["config"]));
    insta::assert_json_snapshot!("model_status", read(&["model", "status"]));
    insta::assert_json_snapshot!("sync", read(&["sync"]));
    insta::assert_json_snapshot!("prune_dry_run", read(&["prune", "--dry-run", "--older-than", "30d"]));
    insta::assert_json_snapshot!("forget_dry_run", read(&["forget", "session", "codex:x-1", "--dry-run"]));

    // The demo tells its story as one document too.
    let demo = m.run_json(&["demo"]);
    let steps = demo["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 5, "{demo:#}");
    let codex_start = &steps[2]["given"][0];
    assert_eq!(codex_start["harness"], "codex");
    assert!(codex_start["context"].as_str().unwrap().contains("<agent-memory>"), "{codex_start:#}");
}

#[test]
fn times_are_local_with_their_zone_unless_utc_is_asked_for() {
    let m = Machine::new();
    morning(&m);
    let sessions = |tz: &str, utc: bool| {
        let args: &[&str] = if utc { &["--utc", "sessions"] } else { &["sessions"] };
        let out = m.command(args).env("TZ", tz).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let zone = regex::Regex::new(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} (E[SD]T|IST|UTC)").unwrap();
    let zones = |text: &str| zone.captures_iter(text).map(|c| c[1].to_owned()).collect::<Vec<_>>();
    let new_york = sessions("America/New_York", false);
    assert!(new_york.starts_with("LAST ACTIVE"), "a header line first: {new_york}");
    assert!(
        !zones(&new_york).is_empty() && zones(&new_york).iter().all(|z| z.starts_with('E')),
        "{new_york}"
    );
    let kolkata = sessions("Asia/Kolkata", false);
    assert!(!zones(&kolkata).is_empty() && zones(&kolkata).iter().all(|z| z == "IST"), "{kolkata}");
    let utc = sessions("Asia/Kolkata", true);
    assert!(!zones(&utc).is_empty() && zones(&utc).iter().all(|z| z == "UTC"), "{utc}");
    assert!(utc.trim_end().ends_with("3 sessions, most recent first"), "{utc}");
}

#[test]
fn colour_reaches_only_a_terminal_that_asks_for_it() {
    let m = Machine::new();
    morning(&m);
    let run = |env: &[(&str, &str)]| {
        let mut cmd = m.command(&["timeline", "claude:c-1"]);
        cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE").env_remove("CLICOLOR");
        for (k, v) in env {
            cmd.env(k, v);
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    assert!(!run(&[]).contains('\u{1b}'), "a pipe gets plain text");
    assert!(run(&[("CLICOLOR_FORCE", "1")]).contains("\u{1b}[1m"), "forced colour paints the header");
    assert!(!run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\u{1b}'), "NO_COLOR wins");
    let json = m.command(&["--json", "timeline", "claude:c-1"]).env("CLICOLOR_FORCE", "1").output().unwrap();
    assert!(!String::from_utf8(json.stdout).unwrap().contains('\u{1b}'), "JSON never carries colour");
}

#[test]
fn completions_and_manual_pages_come_from_the_command_definitions() {
    let m = Machine::new();
    for (shell, marker) in
        [("bash", "complete -F"), ("zsh", "#compdef agent-memory"), ("fish", "complete -c agent-memory")]
    {
        let script = m.run(&["completions", shell]);
        assert!(script.contains(marker), "{shell}: {script:.300}");
        for command in ["timeline", "forget", "completions"] {
            assert!(script.contains(command), "{shell} completes `{command}`");
        }
    }
    let page = m.run(&["man"]);
    assert!(page.contains(".TH agent-memory 1"), "{page:.300}");
    assert!(page.contains("timeline"), "the main page lists the commands");
    let dir = m.dir.path().join("man1");
    let written = m.run_json(&["man", "--dir", dir.to_str().unwrap()]);
    let pages: Vec<&str> = written["pages"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(pages.contains(&"agent-memory.1") && pages.contains(&"agent-memory-search.1"), "{pages:?}");
    let search = std::fs::read_to_string(dir.join("agent-memory-search.1")).unwrap();
    assert!(search.contains("\\-\\-since"), "a command's page documents its flags: {search:.400}");
}

#[test]
fn a_history_hit_on_a_failure_shows_what_the_agent_did_next() {
    let m = Machine::new();
    let dir = m.project("ledger");
    let call = |id: &str, command: &str| json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": { "command": command } });
    let mut failed = call("t1", "cargo build");
    failed["error"] = json!("Could not find directory of OpenSSL installation");
    let mut fixed = call("t2", "cargo build --features vendored");
    fixed["tool_response"] =
        json!({ "stdout": "Finished", "stderr": "", "interrupted": false, "isImage": false });
    for (event, extra) in [
        ("SessionStart", json!({ "source": "startup" })),
        ("UserPromptSubmit", json!({ "prompt": "the build broke on the new CI image" })),
        ("PostToolUseFailure", failed),
        ("PostToolUse", fixed),
        ("UserPromptSubmit", json!({ "prompt": "thanks, now bump the version" })),
        ("PostToolUse", call("t3", "cargo set-version --bump minor")),
    ] {
        m.hook("claude", &dir, &claude("c-1", &dir, event, extra));
    }
    let found = m.run_json(&["search", "openssl installation", "--events"]);
    let failure =
        found["events"].as_array().unwrap().iter().find(|h| h["kind"] == "PostToolUseFailure").unwrap();
    assert_eq!(failure["then"], json!(["`cargo build --features vendored` passed"]), "{found:#}");
    let asked = m.run_json(&["search", "build broke on the CI image", "--events"]);
    let prompt =
        asked["events"].as_array().unwrap().iter().find(|h| h["kind"] == "UserPromptSubmit").unwrap();
    assert_eq!(
        prompt["then"],
        json!(["`cargo build` failed", "`cargo build --features vendored` passed"]),
        "what followed stops at the next prompt: {asked:#}"
    );
    let text = m.run(&["search", "openssl installation", "--events"]);
    assert!(text.contains("then: `cargo build --features vendored` passed"), "{text}");
}

#[test]
fn a_command_failing_again_and_again_is_one_history_hit_with_the_run_that_fixed_it() {
    let m = Machine::new();
    let dir = m.project("ledger");
    let call = |id: &str, command: &str| json!({ "tool_name": "Bash", "tool_use_id": id, "tool_input": { "command": command } });
    m.hook("claude", &dir, &claude("c-1", &dir, "SessionStart", json!({ "source": "startup" })));
    for i in 0..3 {
        let mut failed = call(&format!("t{i}"), "cargo test -p ledger");
        failed["error"] =
            json!(format!("error[E0425]: cannot find value `rate` in this scope (attempt {i})"));
        m.hook("claude", &dir, &claude("c-1", &dir, "PostToolUseFailure", failed));
    }
    let mut fixed = call("t9", "cargo test -p ledger rates");
    fixed["tool_response"] =
        json!({ "stdout": "test result: ok", "stderr": "", "interrupted": false, "isImage": false });
    m.hook("claude", &dir, &claude("c-1", &dir, "PostToolUse", fixed));
    let mut other = call("t10", "cargo clippy");
    other["error"] = json!("error: cannot find value `rate` in this scope");
    m.hook("claude", &dir, &claude("c-1", &dir, "PostToolUseFailure", other));

    let found = m.run_json(&["search", "cannot find value rate", "--events", "--limit", "5"]);
    let hits = found["events"].as_array().unwrap();
    let tests: Vec<&Value> =
        hits.iter().filter(|h| h["excerpt"].as_str().unwrap().contains("attempt")).collect();
    assert_eq!(tests.len(), 1, "three runs of one failing command are one hit: {found:#}");
    assert_eq!(tests[0]["count"], 3, "{found:#}");
    assert_eq!(tests[0]["fixed_by"]["command"], "cargo test -p ledger rates", "{found:#}");
    assert_eq!(tests[0]["fixed_by"]["seq"], 5, "{found:#}");
    let clippy =
        hits.iter().find(|h| !h["excerpt"].as_str().unwrap().contains("attempt")).expect("clippy's failure");
    assert!(
        clippy.get("count").is_none() && clippy.get("fixed_by").is_none(),
        "nothing fixed clippy: {found:#}"
    );
    let text = m.run(&["search", "cannot find value rate", "--events"]);
    assert!(text.contains("PostToolUseFailure ×3"), "{text}");
    assert!(text.contains("fixed by #5: `cargo test -p ledger rates` passed"), "{text}");
}

#[test]
fn history_asked_in_a_project_folder_is_about_that_project_first() {
    let m = Machine::new();
    let ledger = m.project("ledger");
    let webshop = m.project("webshop");
    let prompt = |dir: &std::path::Path, session: &str, text: &str| {
        m.hook("claude", dir, &claude(session, dir, "SessionStart", json!({ "source": "startup" })));
        m.hook("claude", dir, &claude(session, dir, "UserPromptSubmit", json!({ "prompt": text })));
    };
    prompt(&ledger, "c-ledger", "the linker could not find libssl until we set OPENSSL_DIR");
    // Each holds one word asked for more than the ledger's prompt; one more would outrank it.
    for (i, text) in [
        "the linker did not find libssl on the new runner image",
        "on the runner the linker cannot find libssl at all",
        "runner image: the linker still won't find libssl",
    ]
    .into_iter()
    .enumerate()
    {
        prompt(&webshop, &format!("c-webshop-{i}"), text);
    }
    let asked = "which flag made the linker find libssl on the runner";
    let first_project = |cwd: &std::path::Path| {
        let out = m.command(&["--json", "search", asked, "--events"]).current_dir(cwd).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let found: Value = serde_json::from_slice(&out.stdout).unwrap();
        found["events"][0]["project"].as_str().unwrap_or_default().to_owned()
    };
    assert_eq!(
        first_project(&ledger),
        "ledger",
        "the folder's own project first, though it holds fewer words"
    );
    assert_eq!(first_project(&webshop), "webshop");
    assert_eq!(first_project(m.dir.path()), "webshop", "outside any project, the most words first");
}

#[test]
fn sessions_have_titles_and_keys_by_a_unique_start_or_last() {
    let m = Machine::new();
    let dir = morning(&m);
    let listed = m.run(&["sessions"]);
    assert!(listed.contains("please always use pnpm here, not npm. I like small commits."), "{listed}");
    assert!(listed.contains("add a test for the cart total"), "{listed}");

    // The id alone, or a start of the key, names the session it is the start of.
    let timeline = m.run(&["timeline", "x-1"]);
    assert!(
        timeline.starts_with("why does pnpm test fail on the api package?\ncodex:x-1 · codex"),
        "{timeline}"
    );
    assert!(m.run(&["timeline", "claude:c"]).contains("claude:c-1 · claude"));
    // `last`: the most recent session, here or anywhere.
    let last = m.command(&["timeline", "last", "--here"]).current_dir(&dir).output().unwrap();
    assert!(String::from_utf8(last.stdout).unwrap().contains("cursor:u-1 · cursor"));
    // A start of several keys names none, and says which it could be.
    let out = m.command(&["timeline", "c"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{err}");
    for key in ["claude:c-1", "codex:x-1", "cursor:u-1"] {
        assert!(err.contains(key), "the candidates are listed: {err}");
    }
    let hits = m.run_json(&["search", "pnpm", "--session", "claude:c"]);
    assert!(hits.to_string().contains("claude:c-1") && !hits.to_string().contains("codex:x-1"), "{hits}");
}

#[test]
fn cursors_two_reports_of_one_shell_call_are_one_row() {
    let m = Machine::new();
    let dir = m.project("api");
    let command = "cargo test -p http-client retry";
    for (event, extra) in [
        ("beforeSubmitPrompt", json!({ "prompt": "run the retry tests", "attachments": [] })),
        (
            "postToolUse",
            json!({ "tool_name": "Shell", "tool_use_id": "tool_1", "cwd": dir,
                    "tool_input": { "command": command, "working_directory": dir },
                    "tool_output": "{\"exitCode\":0,\"stdout\":\"3 passed\"}", "duration": 812 }),
        ),
        ("afterShellExecution", json!({ "command": command, "output": "3 passed\n", "duration": 812 })),
    ] {
        m.hook("cursor", &dir, &cursor("u-2", &dir, event, extra));
    }
    let stored = m.run_json(&["timeline", "cursor:u-2"]);
    let shells = stored.as_array().unwrap().iter().filter(|e| e["event"]["tool"]["name"] == "Shell").count();
    assert_eq!(shells, 2, "the store keeps both reports: {stored:#}");
    let text = m.run(&["timeline", "cursor:u-2"]);
    assert_eq!(text.matches(command).count(), 1, "one row for one call: {text}");
}

#[test]
fn help_is_grouped_within_a_hundred_columns() {
    let m = Machine::new();
    let help = m.run(&["--help"]);
    for line in help.lines() {
        assert!(line.chars().count() <= 100, "{} columns: {line}", line.chars().count());
    }
    insta::assert_snapshot!("help", help);
    let notes = m.run(&["notes", "--help"]);
    for verb in ["list", "show", "add", "edit", "delete"] {
        assert!(notes.contains(verb), "{notes}");
    }
    let search = m.run(&["search", "--help"]);
    assert!(search.contains("claude, codex, cursor, gemini or copilot"), "{search}");
}

#[test]
fn config_says_where_each_setting_came_from() {
    let m = Machine::new();
    m.write_config("prompt_budget = 900\n");
    let out = m.command(&["config"]).env("AGENT_MEMORY_HOOK_INJECT_DEADLINE_MS", "6000").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().find(|l| l.starts_with("SETTING")).unwrap();
    let from = header.find("FROM").unwrap();
    for line in text.lines().skip_while(|l| !l.starts_with("SETTING")) {
        assert!(line.is_char_boundary(from) && !line[from..].starts_with(' '), "aligned: {line}");
        assert!(line[..from].ends_with("  "), "aligned: {line}");
    }
    let root = m.dir.path().canonicalize().unwrap();
    let text = text.replace(&*root.to_string_lossy(), "[tmp]");
    let text = text.replace(&*m.dir.path().to_string_lossy(), "[tmp]");
    let line = |key: &str| text.lines().find(|l| l.starts_with(&format!("{key} "))).unwrap_or_default();
    assert!(line("hook.prompt_budget").ends_with("config file"), "{text}");
    assert!(line("hook.deadline_ms").ends_with("config file"), "{text}");
    assert!(line("hook.inject_deadline_ms").ends_with("env AGENT_MEMORY_HOOK_INJECT_DEADLINE_MS"), "{text}");
    assert!(line("hook.session_start_budget").ends_with("default"), "{text}");
    insta::assert_snapshot!("config_text", text);
}

#[test]
fn the_demo_shows_what_each_prompt_taught_and_ends_with_the_next_step() {
    let m = Machine::new();
    let dir = m.dir.path().join("demo");
    // A zone without daylight saving time, far from UTC: the times shown are its own.
    let india = chrono::FixedOffset::east_opt(5 * 3600 + 1800).unwrap();
    let before = chrono::Utc::now().with_timezone(&india);
    let out =
        m.command(&["demo", "--dir", dir.to_str().unwrap()]).env("TZ", "Asia/Kolkata").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = chrono::Utc::now().with_timezone(&india);
    let text = String::from_utf8(out.stdout).unwrap();
    let minutes: Vec<String> =
        [before, after].iter().map(|t| t.format(" %H:%M local time").to_string()).collect();
    assert!(
        text.lines()
            .filter(|l| l.contains("last active"))
            .all(|l| minutes.iter().any(|m| l.contains(m.as_str()))),
        "times in the zone of TZ, {minutes:?}: {text}"
    );
    let text = text.replace(&*dir.to_string_lossy(), "[demo]");
    let report =
        regex::Regex::new(r"(?m)^   (the dream the session's end started|no dream started by itself).*$")
            .unwrap();
    let text = report.replace_all(&text, "   [the dream's report]").into_owned();
    let when = regex::Regex::new(r"last active [^()\n]* local time \([^)]*\)\.").unwrap();
    let text = when.replace_all(&text, "last active [when].").into_owned();
    assert!(text.contains("taught "), "{text}");
    assert!(text.trim_end().ends_with("your own sessions then teach your own notes."), "{text}");
    insta::assert_snapshot!("demo", text);
}

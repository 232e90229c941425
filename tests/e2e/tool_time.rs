//! Tool-time recall through the real binary: a command fails and gets fixed in one session; after
//! the dream, an agent in a new session about to run it again is handed the fix before the call
//! (Claude Code and Codex, through `PreToolUse`), once per session, and never for an unrelated
//! command, for the fixed invocation, in another project, or in Cursor, which takes no context
//! there.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, cursor};

fn bash(m: &Machine, project: &Path, session: &str, event: &str, command: &str, result: Value) {
    let mut extra = json!({
        "tool_name": "Bash",
        "tool_use_id": format!("toolu_{}_{}", event.len(), command.len()),
        "tool_input": { "command": command },
    });
    if let (Some(map), Value::Object(more)) = (extra.as_object_mut(), result) {
        map.extend(more);
    }
    m.hook("claude", project, &claude(session, project, event, extra));
}

/// What Claude Code is given before running `command` in `session`.
fn before_claude(m: &Machine, project: &Path, session: &str, command: &str) -> Option<String> {
    let payload = claude(
        session,
        project,
        "PreToolUse",
        json!({ "tool_name": "Bash", "tool_use_id": format!("toolu_pre_{}", command.len()), "tool_input": { "command": command } }),
    );
    m.hook("claude", project, &payload).context("claude")
}

fn before_codex(m: &Machine, project: &Path, session: &str, command: &str) -> Option<String> {
    let payload = codex(
        session,
        project,
        "PreToolUse",
        json!({ "tool_name": "Bash", "tool_use_id": "call_pre", "tool_input": { "command": command } }),
    );
    m.hook("codex", project, &payload).context("codex")
}

#[test]
fn a_command_that_failed_before_comes_with_its_fix() {
    let m = Machine::new();
    let ledger = m.project("ledger");
    let shop = m.project("shop");
    bash(
        &m,
        &ledger,
        "s1",
        "PostToolUseFailure",
        "cargo build",
        json!({
            "error": "Exit code 101\nerror: failed to run custom build command for `openssl-sys v0.9.103`\nCould not find directory of OpenSSL installation",
            "is_interrupt": false,
        }),
    );
    bash(
        &m,
        &ledger,
        "s1",
        "PostToolUse",
        "cargo build --features vendored",
        json!({
            "tool_response": { "stdout": "Finished `dev` profile [unoptimized + debuginfo] target(s) in 41.2s", "stderr": "", "interrupted": false },
        }),
    );
    m.run(&["dream", "--provider", "deterministic"]);

    let given = before_codex(&m, &ledger, "c1", "cargo build --release").expect("the fix is handed over");
    assert!(given.contains("--features vendored"), "it names the fix: {given}");
    assert!(given.contains("openssl-sys"), "and the error it fixed: {given}");
    assert_eq!(before_codex(&m, &ledger, "c1", "cargo build"), None, "once per session");
    let claude_given = before_claude(&m, &ledger, "k1", "cargo build").expect("Claude Code is handed it too");
    assert!(claude_given.contains("--features vendored"), "{claude_given}");

    assert_eq!(before_claude(&m, &ledger, "k2", "cargo fmt --check"), None, "an unrelated command");
    assert_eq!(before_claude(&m, &ledger, "k3", "git status"), None, "a command that only looks");
    assert_eq!(before_claude(&m, &ledger, "k4", "cargo build --features vendored"), None, "the fix is in it");
    assert_eq!(before_claude(&m, &shop, "k5", "cargo build"), None, "another project's failure");

    let payload = cursor(
        "u1",
        &ledger,
        "beforeShellExecution",
        json!({ "command": "cargo build", "cwd": ledger, "sandbox": false }),
    );
    let run = m.hook("cursor", &ledger, &payload);
    assert_eq!(run.context("cursor"), None, "Cursor takes no context before a tool call");

    let log = m.log("hook.log").join("\n");
    assert!(
        log.contains("PreToolUse") && log.contains("injected 1 notes"),
        "the log says what was given: {log}"
    );
}

/// A Codex tool call and its result, as Codex reports them: the result's text only, no exit code.
fn codex_tool(
    m: &Machine,
    project: &Path,
    session: &str,
    id: &str,
    name: &str,
    input: Value,
    response: &str,
) {
    for event in ["PreToolUse", "PostToolUse"] {
        let mut extra = json!({ "tool_name": name, "tool_use_id": id, "tool_input": input.clone() });
        if event == "PostToolUse" {
            extra["tool_response"] = json!(response);
        }
        m.hook("codex", project, &codex(session, project, event, extra));
    }
}

#[test]
fn a_retyped_command_meets_the_fix_of_the_failure_it_will_hit() {
    let m = Machine::new();
    let kiln = m.project("kiln");
    // Codex reports no exit code: the failure is read from what the command printed.
    codex_tool(
        &m,
        &kiln,
        "x1",
        "call_a",
        "Bash",
        json!({ "command": "bin/rails assets:precompile" }),
        "yarn run v1.22.22\n$ esbuild app/javascript/application.js --bundle --outdir=app/assets/builds\n/bin/sh: esbuild: command not found\nerror Command failed with exit code 127.\nbin/rails aborted!\n",
    );
    let patch = "*** Begin Patch\n*** Update File: package.json\n@@\n   \"devDependencies\": {\n+    \"esbuild\": \"^0.24.0\",\n*** End Patch\n";
    codex_tool(
        &m,
        &kiln,
        "x1",
        "call_b",
        "apply_patch",
        json!({ "command": patch }),
        "Success. Updated the following files:\nM package.json\n",
    );
    codex_tool(
        &m,
        &kiln,
        "x1",
        "call_c",
        "Bash",
        json!({ "command": "bin/rails assets:precompile" }),
        "yarn run v1.22.22\nDone in 0.41s.\n",
    );
    m.run(&["dream", "--provider", "deterministic"]);

    for (session, retyped) in [
        ("r1", "RAILS_ENV=production bin/rails assets:precompile --trace"),
        ("r2", "bundle exec rails assets:clobber assets:precompile"),
        ("r3", "cd /tmp && DISABLE_SPRING=1 ./bin/rails assets:precompile"),
    ] {
        let given =
            before_codex(&m, &kiln, session, retyped).unwrap_or_else(|| panic!("{retyped} gets the fix"));
        assert!(given.contains("\"esbuild\": \"^0.24.0\""), "the line the edit added: {given}");
        assert!(given.contains("assets:precompile"), "and the command that failed: {given}");
    }
    for (session, unrelated) in [
        ("n1", "bin/rails routes -g orders"),
        ("n2", "bin/rails --version"),
        ("n3", "bundle exec rspec spec/models"),
        ("n4", "git diff --stat"),
        ("n5", "cat package.json"),
    ] {
        assert_eq!(before_claude(&m, &kiln, session, unrelated), None, "{unrelated}");
    }
}

#[test]
fn a_script_of_the_project_meets_the_failure_of_the_tool_it_runs() {
    let m = Machine::new();
    let atlas = m.project("atlas");
    std::fs::write(
        atlas.join("package.json"),
        r#"{"name":"atlas","private":true,"scripts":{"check:types":"vue-tsc --noEmit -p tsconfig.app.json","ci":"npm run check:types && vitest run","lint":"eslint ."}}"#,
    )
    .unwrap();
    std::fs::write(atlas.join("justfile"), "types:\n    npx vue-tsc --noEmit\n\nserve:\n    npx vite\n")
        .unwrap();
    std::fs::write(
        atlas.join("Makefile"),
        ".PHONY: verify clean\nverify:\n\tnpm run ci\nclean:\n\trm -rf dist\n",
    )
    .unwrap();
    bash(
        &m,
        &atlas,
        "s1",
        "PostToolUseFailure",
        "npx vue-tsc --noEmit",
        json!({
            "error": "Exit code 2\nsrc/api/client.ts(4,24): error TS2307: Cannot find module './generated/schema' or its corresponding type declarations.",
            "is_interrupt": false,
        }),
    );
    bash(
        &m,
        &atlas,
        "s1",
        "PostToolUse",
        "npm run gen:api && npx vue-tsc --noEmit",
        json!({ "tool_response": { "stdout": "wrote src/api/generated/schema.ts", "stderr": "", "interrupted": false } }),
    );
    m.run(&["dream", "--provider", "deterministic"]);

    for (session, alias) in
        [("a1", "npm run check:types"), ("a2", "yarn run ci"), ("a3", "just types"), ("a4", "make verify")]
    {
        let given =
            before_claude(&m, &atlas, session, alias).unwrap_or_else(|| panic!("{alias} runs vue-tsc"));
        assert!(given.contains("npm run gen:api"), "{alias}: {given}");
    }
    for (session, unrelated) in [
        ("b1", "npm run lint"),
        ("b2", "just serve"),
        ("b3", "make clean"),
        ("b4", "npm --version"),
        ("b5", "npm run gen:api && npm run check:types"),
    ] {
        assert_eq!(before_claude(&m, &atlas, session, unrelated), None, "{unrelated}");
    }
}

#[test]
fn a_failure_of_the_tools_environment_meets_any_run_of_that_tool() {
    let m = Machine::new();
    let cluster = m.project("cluster");
    bash(
        &m,
        &cluster,
        "s1",
        "PostToolUseFailure",
        "kubectl get pods -A",
        json!({
            "error": "Exit code 1\nE1106 10:02:11.418220 48121 memcache.go:265] couldn't get current server API group list: Get \"http://localhost:8080/api?timeout=32s\": dial tcp 127.0.0.1:8080: connect: connection refused",
            "is_interrupt": false,
        }),
    );
    bash(
        &m,
        &cluster,
        "s1",
        "PostToolUse",
        "export KUBECONFIG=~/.kube/office.yaml && kubectl get pods -A",
        json!({ "tool_response": { "stdout": "NAMESPACE NAME READY\napps minio-0 1/1", "stderr": "", "interrupted": false } }),
    );
    m.run(&["dream", "--provider", "deterministic"]);

    for (session, retyped) in [
        ("r1", "kubectl -n apps get pods -o wide"),
        ("r2", "kubectl logs -n apps deploy/minio --tail=100"),
        ("r3", "kubectl --context office rollout restart deploy/minio -n apps"),
    ] {
        let given =
            before_claude(&m, &cluster, session, retyped).unwrap_or_else(|| panic!("{retyped} gets the fix"));
        assert!(given.contains("KUBECONFIG=~/.kube/office.yaml"), "{retyped}: {given}");
    }
    for (session, unrelated) in
        [("n1", "kubectl version --client"), ("n2", "git status --short"), ("n3", "ls apps")]
    {
        assert_eq!(before_claude(&m, &cluster, session, unrelated), None, "{unrelated}");
    }
}

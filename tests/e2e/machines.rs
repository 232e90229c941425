//! One person's machines on one Neo4j server: the same repository cloned on two machines is one
//! project there, notes distilled on either are injected on both, and two dreams started at once
//! on both distill each event once, one after the other, under the store's lease.

use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::forward::{Server, run_json, sync_wait};
use crate::neo4j_restart::{PrivateServer, tooling_available};
use crate::support::{Machine, claude, git};

/// A clone of the team's repository in `dir`: a git work tree whose origin is the shared remote
/// (spelt per machine), with a first commit of its own.
fn clone_at(dir: &Path, origin: &str) {
    git(dir, &["init", "-q"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", "start"]);
    git(dir, &["remote", "add", "origin", origin]);
}

/// A session on `m` in `cwd` where the user states `rule`, and the agent runs a command.
fn session_stating(m: &Machine, env: &[(&str, &str)], cwd: &Path, session: &str, rule: &str) {
    let events = [
        claude(session, cwd, "SessionStart", json!({ "source": "startup" })),
        claude(session, cwd, "UserPromptSubmit", json!({ "prompt": rule })),
        claude(
            session,
            cwd,
            "PostToolUse",
            json!({ "tool_name": "Bash", "tool_use_id": format!("toolu_{session}"),
                    "tool_input": { "command": "git status" },
                    "tool_response": { "stdout": "clean", "stderr": "", "interrupted": false, "isImage": false } }),
        ),
        claude(session, cwd, "Stop", json!({ "stop_hook_active": false })),
    ];
    for event in &events {
        let run = m.hook_env("claude", cwd, event, env);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
}

#[test]
fn two_machines_dreaming_at_once_distill_each_event_once_and_share_the_notes() {
    if !tooling_available() {
        return;
    }
    let private = PrivateServer::start();
    let server = Server::private(&private);
    let env = server.env();
    // Each home stands for a machine of its own name.
    let mut laptop_env = env.clone();
    laptop_env.push(("HOSTNAME", "laptop"));
    let mut desk_env = env.clone();
    desk_env.push(("HOSTNAME", "desk"));
    let (laptop, desk) = (Machine::new(), Machine::new());
    for m in [&laptop, &desk] {
        // No dream of its own after a session: the two runs below are the only ones.
        m.write_dream_config("auto = false");
    }
    let (at_laptop, at_desk) = (laptop.project("shop"), desk.project("shop-checkout"));
    clone_at(&at_laptop, "git@github.com:sam/shop.git");
    clone_at(&at_desk, "https://github.com/sam/shop");
    session_stating(&laptop, &laptop_env, &at_laptop, "laptop-1", "in this repo we use pnpm, never npm");
    session_stating(&desk, &desk_env, &at_desk, "desk-1", "tests here run with vitest, not jest");
    sync_wait(&laptop, &laptop_env);
    sync_wait(&desk, &desk_env);
    let projects: Vec<String> = run_json(&desk, &env, &["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["project"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(projects.len(), 2, "both machines' sessions are in the server: {projects:?}");
    assert_eq!(projects[0], projects[1], "one project on the server, whatever the folder");

    // Both dream at once.
    let dreams: Vec<_> = [(&laptop, &laptop_env), (&desk, &desk_env)]
        .iter()
        .map(|(m, env)| {
            m.command(&["--json", "dream", "--provider", "deterministic"])
                .envs(env.iter().copied())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let reports: Vec<(Value, String)> = dreams
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "dream failed: {}", String::from_utf8_lossy(&out.stderr));
            (serde_json::from_slice(&out.stdout).unwrap(), String::from_utf8_lossy(&out.stderr).into_owned())
        })
        .collect();
    let read: Vec<u64> = reports.iter().map(|(r, _)| r["events_read"].as_u64().unwrap()).collect();
    assert!(
        read.contains(&0) && read.iter().sum::<u64>() >= 8,
        "one run read every event, the other none: {read:?}"
    );
    let total: u64 = read.iter().sum();
    let stored: usize = ["claude:laptop-1", "claude:desk-1"]
        .iter()
        .map(|s| run_json(&laptop, &env, &["timeline", s]).as_array().unwrap().len())
        .sum();
    assert_eq!(total as usize, stored, "each event distilled once: {read:?}");

    // The notes of either machine are injected on both, once each has its local copy of the
    // notes brought up to date (what `sync` and the forwarder do).
    sync_wait(&laptop, &laptop_env);
    sync_wait(&desk, &desk_env);
    for (m, cwd, session) in [(&laptop, &at_laptop, "laptop-2"), (&desk, &at_desk, "desk-2")] {
        let run = m.hook_env(
            "claude",
            cwd,
            &claude(session, cwd, "SessionStart", json!({ "source": "startup" })),
            &env,
        );
        assert!(run.stdout.contains("pnpm") && run.stdout.contains("vitest"), "{session}: {}", run.stdout);
    }

    // Either machine's doctor names both, the one that wrote last first.
    let out = desk.command(&["doctor"]).envs(desk_env.iter().copied()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("machines writing to it:")).unwrap_or_default();
    assert!(line.contains("laptop, last") && line.contains("desk, last"), "{text}");
}

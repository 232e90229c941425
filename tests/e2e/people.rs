//! Two people sharing one project's notes through a team server (a real Neo4j server of this
//! test), each with their own embedded store: the server holds their published project notes and
//! nothing else; each sees the other's items attributed, never the other's profile or sessions;
//! a forget takes one person's item off the server and out of the other's memory. And every
//! event records its owner, each person's own, from their config or from what `install` found.

use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;

use memory_core::{MemoryStore, NoteFilter};
use serde_json::{Value, json};

use crate::neo4j_restart::{PrivateServer, tooling_available};
use crate::support::{Machine, claude, git};

const ALICE: &str = "alice@example.com";
const BOB: &str = "bob@example.com";

/// A clone of the team's repository in `dir`, its origin spelt as given.
fn clone_at(dir: &Path, origin: &str) {
    git(dir, &["init", "-q"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", "start"]);
    git(dir, &["remote", "add", "origin", origin]);
}

/// A session on `m` in `cwd` where the user says each of `prompts`.
fn session(m: &Machine, cwd: &Path, id: &str, prompts: &[&str]) {
    let mut events = vec![claude(id, cwd, "SessionStart", json!({ "source": "startup" }))];
    events.extend(prompts.iter().map(|p| claude(id, cwd, "UserPromptSubmit", json!({ "prompt": p }))));
    events.push(claude(id, cwd, "Stop", json!({ "stop_hook_active": false })));
    for event in &events {
        let run = m.hook("claude", cwd, event);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
}

/// `agent-memory --json <args>` in `cwd` with `env`; fails the test on a non-zero exit.
fn json_in(m: &Machine, cwd: &Path, env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = m.command(&all).current_dir(cwd).envs(env.iter().copied()).output().unwrap();
    assert!(out.status.success(), "agent-memory {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What a fresh session start in `cwd` is given.
fn start(m: &Machine, cwd: &Path, id: &str) -> String {
    let run = m.hook("claude", cwd, &claude(id, cwd, "SessionStart", json!({ "source": "startup" })));
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

/// Every note the team server holds, as `(path, generator, body)`, and its sessions.
fn on_server(server: &PrivateServer) -> (Vec<(String, String, String)>, usize) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let config =
            memory_store_neo4j::Neo4jConfig::new(server.uri.clone(), "neo4j", server.password.clone());
        let store = memory_store_neo4j::Neo4jStore::connect(&config).await.unwrap();
        let notes = store.list_notes(&NoteFilter::all()).await.unwrap();
        let sessions = store.sessions().await.unwrap().len();
        let notes = notes.into_iter().map(|n| (n.path.to_string(), n.meta.generator, n.body)).collect();
        (notes, sessions)
    })
}

fn bodies(notes: &Value) -> String {
    notes.as_array().unwrap().iter().map(|n| format!("{}\n{}\n", n["path"], n["body"])).collect()
}

#[test]
fn two_people_share_project_notes_with_attribution_and_nothing_of_their_own() {
    if !tooling_available() {
        return;
    }
    let server = PrivateServer::start();
    let (alice, bob) = (Machine::new(), Machine::new());
    for m in [&alice, &bob] {
        m.write_dream_config("auto = false");
    }
    let (at_alice, at_bob) = (alice.project("shop"), bob.project("webshop"));
    clone_at(&at_alice, "git@github.com:acme/shop.git");
    clone_at(&at_bob, "https://github.com/acme/shop");
    let secret_env = [("AGENT_MEMORY_TEAM_PASSWORD", server.password.as_str())];

    session(
        &alice,
        &at_alice,
        "alice-1",
        &[
            "In this repo we use pnpm, never npm.",
            "I prefer terse answers without emojis.",
            "In this repo we deploy with flyctl deploy from the main branch.",
        ],
    );
    alice.run(&["dream"]);
    // Alice joins with the password from the environment, Bob keeps his in his config file.
    let joined = json_in(&alice, &at_alice, &secret_env, &["team", "join", &server.uri, "--owner", ALICE]);
    assert!(joined["projects"][0]["published"].as_u64().unwrap() >= 1, "{joined:#}");

    session(
        &bob,
        &at_bob,
        "bob-1",
        &[
            "Tests here run with vitest, not jest.",
            "I'm Bob, a backend developer; I mostly write Go.",
            "In this repo we deploy with render, not fly.",
        ],
    );
    let mut join = bob
        .command(&["--json", "team", "join", &server.uri, "--password-stdin", "--owner", BOB])
        .current_dir(&at_bob)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    join.stdin.take().unwrap().write_all(format!("{}\n", server.password).as_bytes()).unwrap();
    let out = join.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // His dream publishes his notes and brings Alice's in; her next sync brings his.
    bob.run(&["dream"]);
    json_in(&alice, &at_alice, &secret_env, &["team", "sync"]);

    // Each is given the other's items, attributed, and their own.
    let bob_start = start(&bob, &at_bob, "bob-2");
    assert!(bob_start.contains("pnpm") && bob_start.contains(ALICE), "Alice's item reaches Bob: {bob_start}");
    assert!(bob_start.contains("vitest"), "{bob_start}");
    assert!(
        bob_start.contains("render") && bob_start.contains("flyctl"),
        "both deploy statements are kept: {bob_start}"
    );
    let alice_start = start(&alice, &at_alice, "alice-2");
    assert!(alice_start.contains("vitest") && alice_start.contains(BOB), "{alice_start}");
    // Nobody's profile or sessions reach the other: not injected, not listed, not found.
    assert!(!bob_start.contains("emojis") && !bob_start.contains("terse"), "{bob_start}");
    assert!(!alice_start.contains("Go.") && !alice_start.to_lowercase().contains("backend"), "{alice_start}");
    let bob_notes = bodies(&json_in(&bob, &at_bob, &[], &["notes", "list"]));
    assert!(!bob_notes.contains("emojis"), "{bob_notes}");
    // The project is named after its repository on both machines, whatever the folder.
    assert!(
        bob_notes.contains("project/shop/team/"),
        "Alice's notes are filed in the team folder: {bob_notes}"
    );
    let found = json_in(&bob, &at_bob, &[], &["search", "emojis terse answers"]);
    let hits = format!("{}{}", found["notes"], found["events"]);
    assert!(!hits.contains("emojis"), "{found:#}");
    // Nor through MCP, whose tools read the same memory.
    let replies = crate::write_paths::mcp_calls(
        &bob,
        &[
            ("search_notes", json!({ "query": "terse answers without emojis" })),
            ("search_history", json!({ "query": "emojis" })),
            ("list_notes", json!({})),
            ("list_sessions", json!({})),
        ],
    );
    let said = replies.iter().map(Value::to_string).collect::<String>();
    assert!(!said.contains("prefer terse"), "Alice's profile is not Bob's to find: {said}");
    assert!(!said.contains("alice-1"), "Alice's session is not Bob's to list: {said}");
    assert!(said.contains(ALICE), "her project items are, attributed: {said}");
    let sessions = json_in(&bob, &at_bob, &[], &["sessions"]);
    assert!(
        sessions.as_array().unwrap().iter().all(|s| s["key"].as_str().unwrap_or("").contains("bob")),
        "{sessions:#}"
    );

    // The server holds the two people's project notes, each under their name, and nothing else.
    let (notes, sessions) = on_server(&server);
    assert_eq!(sessions, 0, "no session or event reaches the team server");
    assert!(!notes.is_empty());
    for (path, generator, body) in &notes {
        assert!(
            generator == &format!("team:{ALICE}") || generator == &format!("team:{BOB}"),
            "{path}: {generator}"
        );
        assert!(
            !body.contains("emojis") && !body.contains("backend"),
            "a profile item on the server: {path}: {body}"
        );
        assert!(!path.contains("/team/"), "nothing brought in is published again: {path}");
    }

    // Alice forgets her deploy statement: it leaves her notes, the server and Bob's memory; Bob's
    // own items stay.
    let forgot = json_in(&alice, &at_alice, &secret_env, &["forget", "text", "flyctl", "--yes"]);
    assert!(forgot["team"]["projects"][0]["published"].as_u64().unwrap() >= 1, "{forgot:#}");
    let (notes, _) = on_server(&server);
    assert!(notes.iter().all(|(_, _, body)| !body.contains("flyctl")), "{notes:?}");
    assert!(notes.iter().any(|(_, _, body)| body.contains("pnpm")), "her other items stay: {notes:?}");
    bob.run(&["team", "sync"]);
    let bob_start = start(&bob, &at_bob, "bob-3");
    assert!(
        !bob_start.contains("flyctl") && bob_start.contains("pnpm") && bob_start.contains("render"),
        "{bob_start}"
    );

    // Status and doctor say what is shared with whom.
    let status = bob.command(&["team", "status"]).current_dir(&at_bob).output().unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(status.contains(&server.uri) && status.contains(BOB) && status.contains(ALICE), "{status}");

    // Leaving takes Bob's notes off the server and Alice's out of his memory.
    bob.run(&["team", "leave"]);
    let (notes, _) = on_server(&server);
    assert!(notes.iter().all(|(_, generator, _)| generator != &format!("team:{BOB}")), "{notes:?}");
    let bob_notes = bodies(&json_in(&bob, &at_bob, &[], &["notes", "list"]));
    assert!(!bob_notes.contains("/team/") && !bob_notes.contains(ALICE), "{bob_notes}");
    assert!(bob_notes.contains("vitest"), "his own notes stay: {bob_notes}");
}

#[test]
fn joining_an_unreachable_team_server_keeps_the_settings_and_says_so() {
    let m = Machine::new();
    let app = m.project("shop");
    clone_at(&app, "https://github.com/acme/shop");
    session(&m, &app, "solo-1", &["In this repo we use pnpm, never npm."]);

    // No server yet: adding a project, here or by name, is refused with nothing written.
    for args in
        [&["team", "add"][..], &["team", "add", "--project", "shop"], &["team", "add", "--project", "web"]]
    {
        let out = m.command(args).current_dir(&app).output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {said}");
        assert!(said.contains("no team server is set up") && said.lines().count() == 1, "{args:?}: {said}");
        let config = std::fs::read_to_string(m.dir.path().join("config.toml")).unwrap_or_default();
        assert!(!config.contains("[team]"), "{args:?}: {config}");
    }

    // Not a server address: refused, nothing written.
    let out = m.command(&["team", "join", "https://memory.example"]).current_dir(&app).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("not a team server address"), "{said}");
    let config = std::fs::read_to_string(m.dir.path().join("config.toml")).unwrap_or_default();
    assert!(!config.contains("[team]"), "{config}");

    // Nothing listens there: set up, the failure said in one line, a non-zero exit.
    let out = m
        .command(&["team", "join", "bolt://127.0.0.1:9", "--owner", ALICE])
        .current_dir(&app)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("first sync failed") && said.lines().count() == 1, "{said}");
    let config = std::fs::read_to_string(m.dir.path().join("config.toml")).unwrap();
    assert!(config.contains("bolt://127.0.0.1:9") && config.contains(ALICE), "{config}");
    let status = m.command(&["team", "status"]).current_dir(&app).output().unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(status.contains("FAILED") && status.contains("shop"), "{status}");
    let doctor = m.command(&["doctor"]).current_dir(&app).output().unwrap();
    let doctor = String::from_utf8_lossy(&doctor.stdout);
    assert!(doctor.contains("the last team sync failed"), "{doctor}");
    // The hooks go on as before: nothing of theirs reaches for the server.
    let run = m.hook("claude", &app, &claude("solo-2", &app, "SessionStart", json!({ "source": "startup" })));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    // The owner `join` wrote is whose the events are from then on.
    let sessions = m.run_json(&["sessions"]);
    let owner = |id: &str| {
        let listed = sessions.as_array().unwrap().iter().find(|s| s["key"].as_str().unwrap().ends_with(id));
        listed.unwrap_or_else(|| panic!("{id}: {sessions:#}")).get("owner").cloned()
    };
    assert_eq!((owner("solo-1"), owner("solo-2")), (None, Some(json!(ALICE))), "{sessions:#}");
}

/// Every event and note records whose it is, each person's own: one named in the config file,
/// the other git's `user.email`, which `install` recorded (a hook starts no process to learn it).
/// The person reads it back in their sessions, history and notes.
#[test]
fn every_event_and_note_records_its_owner_from_the_config_or_from_install() {
    let (alice, bob) = (Machine::new(), Machine::new());
    alice.write_config(&format!("[dream]\nauto = false\n[user]\nowner = \"{ALICE}\"\n"));
    bob.write_dream_config("auto = false");
    std::fs::write(bob.dir.path().join(".gitconfig"), format!("[user]\n\temail = {BOB}\n")).unwrap();
    let out = bob
        .command(&["install", "--harness", "claude", "--no-model"])
        .env_remove("GIT_CONFIG_GLOBAL")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && said.contains(BOB), "{said}{}", String::from_utf8_lossy(&out.stderr));
    let config = std::fs::read_to_string(bob.dir.path().join("config.toml")).unwrap();
    assert!(config.starts_with("[hook]\ndeadline_ms = 5000\n") && config.contains(BOB), "{config}");

    for (m, who, other) in [(&alice, ALICE, BOB), (&bob, BOB, ALICE)] {
        let app = m.project("shop");
        let id = format!("{}-1", &who[..3]);
        session(
            m,
            &app,
            &id,
            &["Deploy the shop with flyctl from main.", "I prefer terse answers without emojis."],
        );
        let sessions = m.run_json(&["sessions"]);
        assert_eq!(sessions[0]["owner"], json!(who), "{sessions:#}");
        let found = json_in(m, &app, &[], &["search", "flyctl deploy", "--events"]);
        let hits = found["events"].as_array().unwrap();
        assert!(!hits.is_empty() && hits.iter().all(|h| h["owner"] == json!(who)), "{found:#}");
        let timeline = m.run_json(&["timeline", &format!("claude:{id}")]);
        let events = timeline.as_array().unwrap();
        assert!(events.len() >= 3, "{timeline:#}");
        assert!(events.iter().all(|e| e["event"]["owner"] == json!(who)), "{timeline:#}");
        assert!(!timeline.to_string().contains(other));
        // The notes distilled from them are the same person's.
        m.run(&["dream"]);
        let notes = m.run_json(&["notes", "list"]);
        let listed = notes.as_array().unwrap();
        assert!(!listed.is_empty() && listed.iter().all(|n| n["meta"]["owner"] == json!(who)), "{notes:#}");
        let shown = m.run(&["notes", "show", "user", "profile/preferences.md"]);
        assert!(shown.contains(&format!("owner: {who}\n")), "{shown}");
    }
}

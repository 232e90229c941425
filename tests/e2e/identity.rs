//! A project keeps its memory when its folder changes: a remote added, the folder moved, a
//! `.agent-memory.toml` added. Commands and MCP tools name projects by name, refuse projects
//! nobody knows, and `projects` renames and merges them; all through the real binary.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use chrono::Utc;
use memory_core::{MemoryStore as _, Note, NoteKind, NoteMeta, NotePath, Scope};
use memory_store_sqlite::{SqliteConfig, SqliteStore};
use serde_json::{Value, json};

use crate::support::{Machine, claude, codex, git};

const RULE: &str = "Use pnpm here, never npm.";

/// A git repository with one commit, where a Claude Code session started (so the project is
/// known), with a project note planted in the project's folder. Returns the folder and the id.
fn known_project(m: &Machine, name: &str) -> (PathBuf, String) {
    let dir = m.project(name);
    git(&dir, &["init", "-q"]);
    git(&dir, &["commit", "-q", "--allow-empty", "-m", &format!("start {name}")]);
    m.hook("claude", &dir, &claude("first-session", &dir, "SessionStart", json!({ "source": "startup" })));
    let projects = m.run_json(&["projects"]);
    let id = projects
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == json!(name))
        .unwrap_or_else(|| panic!("{name} is listed: {projects}"))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    plant(m, &id, name, "conventions.md", RULE);
    (dir, id)
}

/// A note in project `id`'s folder (`project/<name>/<file>`), as the dream files it.
fn plant(m: &Machine, id: &str, name: &str, file: &str, body: &str) {
    plant_at(m, id, &format!("project/{name}/{file}"), body);
}

/// A note of project `id` at `path`, straight into the store.
fn plant_at(m: &Machine, id: &str, path: &str, body: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let store = SqliteStore::open(&SqliteConfig::new(m.db())).unwrap();
        let note = Note {
            path: NotePath::new(path).unwrap(),
            meta: NoteMeta {
                title: "Conventions".to_owned(),
                description: None,
                tags: vec!["conventions".to_owned()],
                scope: Scope::Project(id.to_owned()),
                kind: NoteKind::Convention,
                sources: Vec::new(),
                updated: Utc::now(),
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: format!("{body}\n"),
        };
        store.put_note(&note).await.unwrap();
    });
}

/// What a new Codex session in `dir` is given.
fn start(m: &Machine, dir: &Path, session: &str) -> String {
    let run = m.hook("codex", dir, &codex(session, dir, "SessionStart", json!({ "source": "startup" })));
    run.context("codex").unwrap_or_default()
}

fn project_of(m: &Machine, session: &str) -> String {
    let events = m.run_json(&["timeline", &format!("codex:{session}")]);
    events[0]["event"]["project_id"].as_str().unwrap().to_owned()
}

#[test]
fn notes_stay_injected_after_a_remote_is_added() {
    let m = Machine::new();
    let (dir, id) = known_project(&m, "webshop");
    assert!(start(&m, &dir, "before").contains(RULE));

    git(&dir, &["remote", "add", "origin", "https://token@github.com/org/webshop.git"]);
    let context = start(&m, &dir, "after-remote");
    assert!(context.contains(RULE), "the project's notes after `git remote add`: {context}");
    assert_eq!(project_of(&m, "after-remote"), id);
    let listed = m.run_json(&["projects"]);
    assert_eq!(listed[0]["entry"]["remotes"], json!(["github.com/org/webshop"]), "{listed}");
}

#[test]
fn notes_stay_injected_after_the_folder_is_moved_and_renamed() {
    let m = Machine::new();
    let (dir, id) = known_project(&m, "webshop");
    let moved = m.dir.path().join("elsewhere/shop-v2");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&dir, &moved).unwrap();

    let context = start(&m, &moved, "after-move");
    assert!(context.contains(RULE), "the project's notes in the moved folder: {context}");
    assert_eq!(project_of(&m, "after-move"), id);
    let text = m.run(&["projects"]);
    assert!(text.contains("shop-v2") && text.contains("(not there now)"), "{text}");
}

#[test]
fn notes_stay_injected_after_a_project_file_is_added() {
    let m = Machine::new();
    let (dir, id) = known_project(&m, "webshop");
    std::fs::write(dir.join(".agent-memory.toml"), "project = \"Shop Front\"\n").unwrap();

    let context = start(&m, &dir, "after-file");
    assert!(context.contains(RULE), "the project's notes after adding .agent-memory.toml: {context}");
    assert!(context.contains("## This project (shop-front)"), "the name the file gives is shown: {context}");
    assert!(context.contains("project:shop-front"), "{context}");
    assert_eq!(project_of(&m, "after-file"), id);
}

#[test]
fn commands_take_projects_by_name_and_refuse_unknown_ones() {
    let m = Machine::new();
    let (dir, id) = known_project(&m, "webshop");
    let path = "project/webshop/conventions.md";

    let shown = m.run(&["notes", "show", "project:webshop", path]);
    assert!(shown.contains(RULE), "{shown}");
    let by_id = m.run_json(&["notes", "list", "--scope", &format!("project:{id}")]);
    assert_eq!(by_id.as_array().unwrap().len(), 1);
    let here =
        m.command(&["--json", "notes", "list", "--scope", "project"]).current_dir(&dir).output().unwrap();
    let here: Value = serde_json::from_slice(&here.stdout).unwrap();
    assert_eq!(here[0]["path"], json!(path), "`project` is the current folder's");
    let listed = m.run(&["notes", "list"]);
    assert!(listed.contains("project:webshop ") && !listed.contains(&format!("project:{id} ")), "{listed}");
    let found = m.run(&["search", "pnpm", "--scope", "project:webshop"]);
    assert!(found.contains("project:webshop"), "{found}");

    for args in [
        vec!["notes", "list", "--scope", "project:nowhere"],
        vec!["notes", "show", "project:nowhere", "conventions.md"],
        vec!["search", "pnpm", "--scope", "project:nowhere"],
    ] {
        let out = m.command(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("no project `nowhere`"), "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("webshop ({id})")), "the known projects are listed: {stderr}");
    }
}

/// The MCP server over stdio, spoken to line by line as a client does.
struct Mcp {
    child: std::process::Child,
    stdout: BufReader<std::process::ChildStdout>,
    next: u64,
}

impl Mcp {
    fn start(m: &Machine, cwd: &Path) -> Self {
        let mut child = m
            .command(&["mcp"])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut mcp = Self { child, stdout, next: 1 };
        mcp.request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": { "name": "e2e", "version": "1" } }),
        );
        mcp.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        mcp
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server hung up");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message["result"].clone();
            }
        }
    }

    fn call(&mut self, tool: &str, arguments: Value) -> (bool, String) {
        let result = self.request("tools/call", json!({ "name": tool, "arguments": arguments }));
        let text =
            result["content"].as_array().into_iter().flatten().filter_map(|c| c["text"].as_str()).collect();
        (result["isError"] == json!(true), text)
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[test]
fn an_mcp_write_to_an_unknown_project_fails_and_one_by_name_lands_in_the_project() {
    let m = Machine::new();
    let (dir, id) = known_project(&m, "webshop");
    let mut mcp = Mcp::start(&m, &dir);
    let note = |scope: &str| {
        json!({ "scope": scope, "path": "deploy.md", "title": "Deploy", "kind": "procedure",
                "body": "Deploys go out on Tuesdays.\n" })
    };
    let (failed, text) = mcp.call("write_note", note("project:shop"));
    assert!(failed, "{text}");
    assert!(text.contains("no project `shop`") && text.contains(&format!("webshop ({id})")), "{text}");

    let (failed, text) = mcp.call("write_note", note("project:webshop"));
    assert!(!failed, "{text}");
    let (failed, text) = mcp.call("read_note", json!({ "scope": "project", "path": "deploy.md" }));
    assert!(!failed && text.contains("project:webshop"), "{text}");
    drop(mcp);

    let listed = m.run_json(&["notes", "list", "--scope", &format!("project:{id}")]);
    let filed = json!("project/webshop/deploy.md");
    assert!(
        listed.as_array().unwrap().iter().any(|n| n["path"] == filed),
        "in the project's folder: {listed}"
    );
    assert!(start(&m, &dir, "after-mcp").contains("Tuesdays"), "the note written by name is injected");
}

#[test]
fn projects_merge_moves_notes_and_rename_changes_the_name() {
    let m = Machine::new();
    let (old, old_id) = known_project(&m, "shop-old");
    let (new, new_id) = known_project(&m, "shop");
    plant(&m, &old_id, "shop-old", "deploy.md", "Deploys go out on Tuesdays.");

    let report = m.run_json(&["projects", "merge", "shop-old", "shop"]);
    assert_eq!(report["moved"].as_array().unwrap().len(), 2, "{report}");
    assert_eq!(report["collided"], json!(["project/shop/conventions.md"]), "{report}");
    let moved = m.run_json(&["notes", "list", "--scope", "project:shop"]);
    let paths: Vec<&str> = moved.as_array().unwrap().iter().map(|n| n["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["project/shop/conventions.md", "project/shop/deploy.md"], "in the target's folder");
    let gone = m.run_json(&["notes", "list", "--scope", &format!("project:{old_id}")]);
    assert_eq!(gone, moved, "the merged project's id names the project it joined");

    let context = start(&m, &old, "in-the-old-folder");
    assert!(context.contains("Tuesdays"), "the old folder is the merged project now: {context}");
    assert_eq!(project_of(&m, "in-the-old-folder"), new_id);
    let listed = m.run_json(&["projects"]);
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");

    let renamed = m.run(&["projects", "rename", "shop", "storefront"]);
    assert!(renamed.contains("renamed shop to storefront"), "{renamed}");
    let listed = m.run_json(&["notes", "list", "--scope", "project:storefront"]);
    let paths: Vec<&str> = listed.as_array().unwrap().iter().map(|n| n["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["project/storefront/conventions.md", "project/storefront/deploy.md"], "paths follow");
    assert!(start(&m, &new, "after-rename").contains("## This project (storefront)"));

    let tree = m.dir.path().join("tree");
    m.run(&["export", tree.to_str().unwrap()]);
    assert!(tree.join("project/storefront/deploy.md").is_file(), "export folders use the name, once");
}

/// Whether a text people read leaves out the hash of a project's id.
fn without(text: &str, hash: &str) -> bool {
    !text.contains(hash)
}

#[test]
fn a_project_reads_by_its_name_and_a_renamed_one_keeps_its_notes_under_the_new_name() {
    let m = Machine::new();
    let (dir, id) = known_project(&m, "webshop");
    let hash = id.rsplit_once('-').unwrap().1.to_owned();
    // A note written by hand at the top of the scope, where earlier versions filed such notes.
    plant_at(&m, &id, "procedures/deploy.md", "Deploys go out on Tuesdays.");

    let table = m.run(&["notes", "list"]);
    assert!(table.contains("project:webshop") && without(&table, &hash), "{table}");
    let listed = m.run_json(&["notes", "list"]);
    let paths: Vec<&str> = listed.as_array().unwrap().iter().map(|n| n["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        ["project/webshop/conventions.md", "project/webshop/procedures/deploy.md"],
        "one layout: the hand-written note moved into the project's folder"
    );
    assert!(without(&listed.to_string(), &hash), "{listed}");
    assert_eq!(listed[0]["meta"]["scope"], json!("project:webshop"));

    // The project once, by name; the path inside its folder.
    let shown = m.run(&["notes", "show", "webshop", "conventions.md"]);
    assert!(shown.contains(RULE) && shown.contains("scope: project:webshop\n"), "{shown}");
    assert!(without(&shown, &hash), "frontmatter without the hash: {shown}");
    let by_id = m.run(&["notes", "show", &format!("project:{id}"), "project/webshop/conventions.md"]);
    assert_eq!(by_id, shown, "the id keeps working");

    let sessions = m.run_json(&["sessions"]);
    assert_eq!(sessions[0]["project"], json!("webshop"), "{sessions}");
    assert!(without(&sessions.to_string(), &hash), "{sessions}");

    let mut mcp = Mcp::start(&m, &dir);
    let (failed, text) =
        mcp.call("read_note", json!({ "scope": "project:webshop", "path": "conventions.md" }));
    assert!(!failed && text.contains(RULE) && text.contains("scope: project:webshop"), "{text}");
    assert!(without(&text, &hash), "{text}");
    let (failed, text) = mcp.call("list_notes", json!({}));
    assert!(
        !failed && text.contains("project/webshop/procedures/deploy.md") && without(&text, &hash),
        "{text}"
    );
    let (failed, text) = mcp.call("list_sessions", json!({}));
    assert!(!failed && text.contains("webshop") && without(&text, &hash), "{text}");
    drop(mcp);

    // Renamed in its project file: the next session's hook learns the name.
    std::fs::write(dir.join(".agent-memory.toml"), "project = \"shop\"\n").unwrap();
    let context = start(&m, &dir, "after-rename");
    assert!(context.contains(RULE) && context.contains("Tuesdays"), "its notes are injected: {context}");
    assert!(context.contains("## This project (shop)"), "{context}");
    assert_eq!(project_of(&m, "after-rename"), id, "the same project");

    let listed = m.run_json(&["notes", "list"]);
    let paths: Vec<&str> = listed.as_array().unwrap().iter().map(|n| n["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["project/shop/conventions.md", "project/shop/procedures/deploy.md"], "paths follow");
    assert!(
        listed.as_array().unwrap().iter().all(|n| n["meta"]["scope"] == json!("project:shop")),
        "{listed}"
    );
    let shown = m.run(&["notes", "show", "project:shop", "procedures/deploy.md"]);
    assert!(shown.contains("Tuesdays") && shown.contains("scope: project:shop\n"), "{shown}");
    let sessions = m.run_json(&["sessions"]);
    assert!(sessions.as_array().unwrap().iter().all(|s| s["project"] == json!("shop")), "{sessions}");
    let mut mcp = Mcp::start(&m, &dir);
    let (failed, text) = mcp.call("list_notes", json!({ "scope": "shop" }));
    assert!(!failed && text.contains("project/shop/conventions.md") && !text.contains("webshop"), "{text}");
    drop(mcp);

    // Injection after the notes moved.
    let context = start(&m, &dir, "after-move");
    assert!(context.contains(RULE) && context.contains("Tuesdays"), "{context}");
    let tree = m.dir.path().join("tree");
    m.run(&["export", tree.to_str().unwrap()]);
    let file = std::fs::read_to_string(tree.join("project/shop/conventions.md")).unwrap();
    assert!(file.contains("scope: project:shop\n") && without(&file, &hash), "{file}");
}

#[test]
fn import_takes_the_scope_from_the_folder_a_note_sits_in() {
    let m = Machine::new();
    let (dir, _) = known_project(&m, "webshop");
    let tree = m.dir.path().join("tree");
    std::fs::create_dir_all(tree.join("project/webshop/procedures")).unwrap();
    std::fs::create_dir_all(tree.join("user/facts")).unwrap();
    std::fs::write(
        tree.join("project/webshop/procedures/release.md"),
        "---\ntitle: Release\nkind: procedure\n---\nTag the commit before every release.\n",
    )
    .unwrap();
    std::fs::write(tree.join("user/facts/editor.md"), "Helix is my editor.\n").unwrap();
    let report = m.run_json(&["import", tree.to_str().unwrap()]);
    assert_eq!(report["created"].as_array().unwrap().len(), 2, "{report}");
    assert_eq!(report["invalid"], json!([]), "{report}");

    let shown = m.run_json(&["notes", "show", "webshop", "procedures/release.md"]);
    assert_eq!(shown["note"]["path"], json!("project/webshop/procedures/release.md"), "{shown}");
    assert_eq!(shown["note"]["meta"]["scope"], json!("project:webshop"));
    let user = m.run_json(&["notes", "show", "user", "facts/editor.md"]);
    assert_eq!(user["note"]["body"], json!("Helix is my editor.\n"), "{user}");
    assert!(start(&m, &dir, "after-import").contains("Tag the commit"), "the imported note is injected");
}

//! Memory written by hand through the real binary: `notes add` with a default for every field,
//! `notes edit` through `$EDITOR` with history kept, `notes delete` that asks first, and `import`
//! of a file that leaves fields out.

use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::{Machine, claude};

fn run_in(m: &Machine, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    m.command(args).current_dir(dir).stdin(Stdio::null()).output().unwrap()
}

fn ok_json(out: std::process::Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn notes_written_by_hand_get_defaults_keep_history_and_are_deleted_only_when_confirmed() {
    let m = Machine::new();
    let app = m.project("app");
    // A hook makes the folder a known project.
    m.hook("claude", &app, &claude("h1", &app, "SessionStart", json!({ "source": "startup" })));

    let added = ok_json(run_in(
        &m,
        &app,
        &["--json", "notes", "add", "Deploy to staging", "--kind", "procedure", "--body", "Run `make ship`."],
    ));
    let note = &added["note"];
    assert_eq!(added["created"], json!(true));
    assert_eq!(
        note["path"],
        json!("project/app/procedures/deploy-to-staging.md"),
        "the path comes from kind and title, in the project's folder"
    );
    assert_eq!(note["meta"]["scope"], json!("project:app"), "this folder's project, by name: {note}");
    assert_eq!(note["meta"]["generator"], json!("user"));
    assert_eq!(note["body"], json!("Run `make ship`.\n"));
    let scope = note["meta"]["scope"].as_str().unwrap().to_owned();

    // Outside a project, the user's scope; the body from stdin.
    let mut child = m
        .command(&["--json", "notes", "add", "Tabs not spaces", "--kind", "preference"])
        .current_dir(m.dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"I indent with tabs.\n").unwrap();
    let user = ok_json(child.wait_with_output().unwrap());
    assert_eq!(user["note"]["meta"]["scope"], json!("user"));
    assert_eq!(user["note"]["path"], json!("profile/tabs-not-spaces.md"));
    let again =
        run_in(&m, &app, &["notes", "add", "Deploy to staging", "--kind", "procedure", "--body", "x"]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("notes edit"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );

    // Edited in $EDITOR: checked, saved, the previous version kept.
    let edit = |editor: &str| {
        m.command(&["notes", "edit", &scope, "procedures/deploy-to-staging.md"])
            .current_dir(&app)
            .env("EDITOR", editor)
            .env_remove("VISUAL")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = edit("sed -i s/ship/release/");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = ok_json(run_in(
        &m,
        &app,
        &["--json", "notes", "show", &scope, "procedures/deploy-to-staging.md", "--history"],
    ));
    assert_eq!(shown["note"]["body"], json!("Run `make release`.\n"));
    assert_eq!(shown["history"].as_array().unwrap().len(), 1, "the previous version is kept: {shown:#}");
    let broken = edit("sed -i s/procedure/nonsense/");
    assert!(!broken.status.success());
    let said = String::from_utf8_lossy(&broken.stderr);
    assert!(
        said.contains("nonsense") && said.contains("kept in"),
        "an invalid edit is refused and kept: {said}"
    );
    assert!(edit("true").status.success(), "an editor that changes nothing saves nothing");

    // Deleting asks first: without a terminal and without --yes, nothing goes.
    let refused = run_in(&m, &app, &["notes", "delete", &scope, "procedures/deploy-to-staging.md"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--yes"));
    assert!(run_in(&m, &app, &["notes", "show", &scope, "procedures/deploy-to-staging.md"]).status.success());
    let deleted = run_in(&m, &app, &["notes", "delete", &scope, "procedures/deploy-to-staging.md", "--yes"]);
    assert!(deleted.status.success(), "{}", String::from_utf8_lossy(&deleted.stderr));
    assert!(
        !run_in(&m, &app, &["notes", "show", &scope, "procedures/deploy-to-staging.md"]).status.success()
    );
}

#[test]
fn import_fills_the_fields_a_hand_written_file_leaves_out() {
    let m = Machine::new();
    let tree = m.dir.path().join("tree");
    m.run(&["export", tree.to_str().unwrap()]);
    std::fs::create_dir_all(tree.join("user/facts")).unwrap();
    std::fs::write(
        tree.join("user/facts/wifi.md"),
        "---\nscope: user\n---\nThe office wifi is on the 5 GHz band.\n",
    )
    .unwrap();
    let out = m.command(&["--json", "import", tree.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let note = ok_json(m.command(&["--json", "notes", "show", "user", "facts/wifi.md"]).output().unwrap());
    assert_eq!(note["note"]["meta"]["title"], json!("Wifi"), "the title from the file name");
    assert_eq!(note["note"]["meta"]["kind"], json!("fact"));
    assert_eq!(note["note"]["meta"]["generator"], json!("human"));
    assert!(note["note"]["meta"]["updated"].as_str().is_some());
}

//! What users say comes back right, through the real binary and the deterministic dream: a later
//! correction replaces the stale value everywhere it was shown (the stated fact and the commands
//! that used it), and a rule worded for one project stays in that project while a preference
//! worded for the user follows them into the next.

use std::path::Path;

use serde_json::json;

use crate::support::{Machine, claude, codex, cursor};

fn prompt(m: &Machine, project: &Path, session: &str, text: &str) {
    m.hook("claude", project, &claude(session, project, "UserPromptSubmit", json!({ "prompt": text })));
}

fn ran(m: &Machine, project: &Path, session: &str, command: &str, stdout: &str) {
    m.hook(
        "claude",
        project,
        &claude(
            session,
            project,
            "PostToolUse",
            json!({
                "tool_name": "Bash",
                "tool_use_id": format!("toolu_{}", command.len()),
                "tool_input": { "command": command },
                "tool_response": { "stdout": stdout, "stderr": "", "interrupted": false },
            }),
        ),
    );
}

fn dream(m: &Machine) {
    m.run(&["dream", "--provider", "deterministic"]);
}

/// What a fresh Codex session in `project` is given at its start.
fn codex_start(m: &Machine, project: &Path, session: &str) -> String {
    m.hook("codex", project, &codex(session, project, "SessionStart", json!({ "source": "startup" })))
        .context("codex")
        .unwrap_or_default()
}

/// What a fresh Cursor conversation in `project` is given at its start.
fn cursor_start(m: &Machine, project: &Path, conversation: &str) -> String {
    m.hook(
        "cursor",
        project,
        &cursor(conversation, project, "sessionStart", json!({ "session_id": conversation })),
    )
    .context("cursor")
    .unwrap_or_default()
}

#[test]
fn a_correction_replaces_the_stale_value() {
    let m = Machine::new();
    let shop = m.project("shop");
    prompt(&m, &shop, "s1", "the dev server runs on localhost:3000, check the cart page there");
    ran(&m, &shop, "s1", "curl -s -o /dev/null -w '%{http_code}' localhost:3000/cart", "200");
    dream(&m);
    let before = codex_start(&m, &shop, "c1");
    assert!(before.contains("localhost:3000"), "the first value is remembered: {before}");

    prompt(
        &m,
        &shop,
        "s2",
        "the dev server is on 5173 now, the port changed when we dropped the custom server.",
    );
    ran(&m, &shop, "s2", "curl -s -o /dev/null -w '%{http_code}' localhost:5173/checkout", "200");
    dream(&m);
    for start in [codex_start(&m, &shop, "c2"), cursor_start(&m, &shop, "u2")] {
        assert!(start.contains("5173"), "the corrected value is shown: {start}");
        assert!(!start.contains("3000"), "the stale value is gone, from the facts and the commands: {start}");
    }
    let notes = m.run(&["search", "dev server port", "--scope", "project:shop"]);
    assert!(!notes.contains("3000"), "search finds no stale value either: {notes}");
}

#[test]
fn a_rule_for_here_stays_in_its_project_and_a_preference_travels() {
    let m = Machine::new();
    let storefront = m.project("storefront");
    let admin = m.project("admin");
    prompt(&m, &storefront, "s1", "no, please always use pnpm here, not npm.");
    prompt(&m, &storefront, "s1", "I like small commits with conventional commit messages.");
    prompt(&m, &admin, "s2", "this one is still on yarn 1, so yarn add for deps and keep yarn.lock as is.");
    dream(&m);

    let in_storefront = codex_start(&m, &storefront, "c1");
    assert!(in_storefront.contains("always use pnpm here"), "the rule is in its project: {in_storefront}");
    let in_admin = codex_start(&m, &admin, "c2");
    assert!(!in_admin.contains("pnpm"), "the rule stays out of the other project: {in_admin}");
    assert!(in_admin.contains("yarn 1"), "the other project keeps its own: {in_admin}");
    assert!(
        in_admin.contains("small commits with conventional commit messages"),
        "a preference worded for the user follows them: {in_admin}"
    );
    let in_storefront_cursor = cursor_start(&m, &storefront, "u1");
    assert!(!in_storefront_cursor.contains("yarn 1"), "and the other way round: {in_storefront_cursor}");
}

#[test]
fn a_correction_of_the_users_own_said_in_one_project_clears_the_old_value_from_every_project() {
    let m = Machine::new();
    let shop = m.project("shop");
    let infra = m.project("infra");
    prompt(
        &m,
        &shop,
        "c-1",
        "I want PRs opened as drafts, always, and assign them to me, I'm rafa-ib on github.",
    );
    ran(&m, &shop, "c-1", "gh pr create --draft --assignee rafa-ib --title 'Cart' --body 'sweep job'", "");
    ran(&m, &shop, "c-1", "bundle exec rspec", "12 examples, 0 failures\n");
    ran(&m, &infra, "c-2", "gh pr create --draft --assignee rafa-ib --title 'Nodes' --body 'bump'", "");
    ran(&m, &infra, "c-2", "terragrunt plan", "No changes.\n");
    dream(&m);
    assert!(codex_start(&m, &infra, "x-0").contains("rafa-ib"), "the handle is given before the correction");
    m.hook(
        "codex",
        &shop,
        &codex(
            "x-1",
            &shop,
            "UserPromptSubmit",
            json!({ "turn_id": "t1", "prompt": "ignore what I told you about my github handle, the old one went away with the SSO migration, it's ribanez now." }),
        ),
    );
    dream(&m);
    for (i, project) in [&shop, &infra].into_iter().enumerate() {
        let codex = codex_start(&m, project, &format!("x-9{i}"));
        let cursor = cursor_start(&m, project, &format!("u-9{i}"));
        for context in [&codex, &cursor] {
            assert!(context.contains("ribanez"), "the new handle is given:\n{context}");
            assert!(!context.contains("rafa-ib"), "the old handle is still given:\n{context}");
        }
    }
    // What did not name the old value stays.
    let listed = m.run_json(&["notes", "list", "--json"]).to_string();
    assert!(listed.contains("terragrunt plan") && listed.contains("bundle exec rspec"), "{listed}");
}

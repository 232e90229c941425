//! Whose events: every event a hook records carries the owner the configuration names.

use super::HookFixtures;
use super::bench::{Bench, RELAXED_CONFIG};

/// Every event of a session (its start, a prompt, a tool call, the record of what was injected)
/// carries `[user] owner`, else the `[user] git_email` install recorded; with neither, none.
pub fn every_event_records_the_configured_owner(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    for (settings, owner) in [
        ("[user]\nowner = \"sam@example.com\"\ngit_email = \"sam@home.example\"\n", Some("sam@example.com")),
        ("[user]\ngit_email = \"kim@example.com\"\n", Some("kim@example.com")),
        ("", None),
    ] {
        bench.configure(&format!("{RELAXED_CONFIG}{settings}"));
        let (id, key) = bench.session("owner");
        let cwd = bench.cwd();
        for payload in [
            fixtures.session_start(&id, cwd),
            fixtures.prompt(&id, cwd, "deploy the shop"),
            fixtures.tool_call(&id, cwd, "cargo test"),
        ] {
            let ran = bench.run(&Bench::bytes(&payload));
            assert_eq!(ran.answer.exit_code, 0, "stderr: {}", ran.answer.stderr);
        }
        bench.drain_all();
        let events = bench.timeline(&key);
        assert!(events.len() >= 3, "{settings:?}: every event is stored: {events:?}");
        for stored in &events {
            assert_eq!(stored.event.owner.as_deref(), owner, "{settings:?}: {:?}", stored.event.kind);
        }
    }
}

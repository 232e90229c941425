//! Injection: notes given at most once per session, and due again after a compaction.

use memory_core::{EventKind, Note, NoteKind, Scope};

use super::HookFixtures;
use super::bench::Bench;
use crate::fixtures::note;

/// A user note of the profile, given at every fresh session start.
fn profile() -> Note {
    let mut note = note(
        &Scope::User,
        "profile/role.md",
        "Role",
        &["profile"],
        "The user maintains the zephyrine billing service.",
    );
    note.meta.kind = NoteKind::Profile;
    note
}

/// Whether the answer carries a note, found by its marker word.
fn carries(stdout: &str, marker: &str) -> bool {
    stdout.contains(marker)
}

/// What a session start gave the harness: its answer, or where the harness reads no answer at a
/// start (Cline), the context file the hook keeps in the project.
fn given_at_start(bench: &Bench<'_>, stdout: &str) -> String {
    let adapter = bench.adapter();
    if adapter.support(&EventKind::SessionStart).context {
        return stdout.to_owned();
    }
    adapter
        .context_file()
        .and_then(|file| std::fs::read_to_string(bench.project().root.join(file)).ok())
        .unwrap_or_default()
}

/// Notes are injected at most once per session: a session start gives the user's profile and the
/// project's notes; a prompt whose words match one of them gets nothing more (while a fresh
/// session's identical prompt does, and a note planted since is still given); a resumed start adds
/// nothing, not even a note written since the first start. Where the harness takes no context on a prompt, the prompt gets the pass answer.
pub fn notes_are_injected_once_per_session(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let adapter = bench.adapter();
    let cwd = bench.cwd();
    let project = Scope::Project(bench.project().id);
    bench.plant(&[
        profile(),
        note(
            &project,
            "conventions.md",
            "Checks",
            &["checks"],
            "Run the quartzlane checks before every commit.",
        ),
    ]);
    let (id, key) = bench.session("once");
    let start = fixtures.session_start(&id, cwd);
    let ran = bench.run(&Bench::bytes(&start));
    assert!(!ran.late(), "the session start answered in time: {}", ran.outcome.log);
    let given = given_at_start(&bench, &ran.answer.stdout);
    for marker in ["zephyrine", "quartzlane"] {
        assert!(carries(&given, marker), "the session start gives the note with `{marker}`: {given}");
    }
    // A note written since (the dream ran between two runs of the session) does not make the
    // resumed conversation's start block due again.
    bench.plant(&[note(
        &project,
        "deploy.md",
        "Deploying",
        &["deploy"],
        "Deploy with the xylophone script on Fridays.",
    )]);
    let resumed = fixtures.resumed_start(&id, cwd);
    assert!(adapter.start_keeps_context(&bench.parse(&resumed)), "a resume keeps the conversation");
    let ran = bench.run(&Bench::bytes(&resumed));
    assert_eq!(ran.answer, bench.pass(&resumed), "a resumed start adds nothing: {}", ran.outcome.log);

    bench.plant(&[note(
        &Scope::User,
        "tools/frobnicate.md",
        "Frobnicate",
        &["tools"],
        "Frobnicate with the marmalade flag.",
    )]);
    let words = "quartzlane checks before every commit; frobnicate with the marmalade flag";
    let prompt = fixtures.prompt(&id, cwd, words);
    let ran = bench.run(&Bench::bytes(&prompt));
    if adapter.support(&EventKind::UserPromptSubmit).context {
        assert!(
            !carries(&ran.answer.stdout, "quartzlane"),
            "a note is given once per session: {}",
            ran.answer.stdout
        );
        assert!(carries(&ran.answer.stdout, "marmalade"), "a note not given yet is: {}", ran.answer.stdout);
        let (other, _) = bench.session("control");
        let control = bench.run(&Bench::bytes(&fixtures.prompt(&other, cwd, words)));
        assert!(
            carries(&control.answer.stdout, "quartzlane"),
            "the same prompt in another session gets the note: {}",
            control.answer.stdout
        );
    } else {
        assert_eq!(ran.answer, bench.pass(&prompt), "the harness takes no context on a prompt");
    }
    let kinds: Vec<EventKind> = bench.timeline(&key).into_iter().map(|e| e.event.kind).collect();
    assert_eq!(
        kinds,
        [EventKind::SessionStart, EventKind::SessionStart, EventKind::UserPromptSubmit],
        "every hook's event is stored"
    );
}

/// After a compaction or a clear the conversation no longer holds what was injected: the next
/// start gives the notes again, and a prompt gets a note it already got before the compaction.
/// Where the harness reports no such start, a repeated start keeps the context and adds nothing.
pub fn compaction_makes_notes_due_again(fixtures: &dyn HookFixtures) {
    let bench = Bench::new(fixtures);
    let adapter = bench.adapter();
    let cwd = bench.cwd();
    bench.plant(&[
        profile(),
        // A note about a language's tool, in a project whose tools are not known yet: listed at a
        // session start, given whole when a prompt asks for it.
        note(
            &Scope::User,
            "tools/cargo/kestrel.md",
            "Kestrel deploys",
            &["deploy"],
            "Rotate the plover token before kestrel deploys.",
        ),
    ]);
    let (id, _) = bench.session("compacted");
    let prompts = adapter.support(&EventKind::UserPromptSubmit).context;
    let prompt = Bench::bytes(&fixtures.prompt(&id, cwd, "how do kestrel deploys rotate the plover token"));
    let ran = bench.run(&Bench::bytes(&fixtures.session_start(&id, cwd)));
    let given = given_at_start(&bench, &ran.answer.stdout);
    assert!(carries(&given, "zephyrine"), "a fresh start gives the profile: {given}");
    if prompts {
        let first = bench.run(&prompt);
        assert!(
            carries(&first.answer.stdout, "plover"),
            "the prompt gets the matching note: {}",
            first.answer.stdout
        );
        let again = bench.run(&prompt);
        assert!(!carries(&again.answer.stdout, "plover"), "only once per session: {}", again.answer.stdout);
    }
    let Some(compacted) = fixtures.compacted_start(&id, cwd) else {
        let repeated = fixtures.session_start(&id, cwd);
        assert!(
            adapter.start_keeps_context(&bench.parse(&repeated)),
            "a start the harness does not mark keeps context"
        );
        let ran = bench.run(&Bench::bytes(&repeated));
        assert_eq!(ran.answer, bench.pass(&repeated), "a repeated start adds nothing: {}", ran.outcome.log);
        return;
    };
    assert!(!adapter.start_keeps_context(&bench.parse(&compacted)), "a compacted start drops the context");
    let ran = bench.run(&Bench::bytes(&compacted));
    assert!(
        carries(&ran.answer.stdout, "zephyrine"),
        "after a compaction the profile is given again: {}",
        ran.answer.stdout
    );
    if prompts {
        let after = bench.run(&prompt);
        assert!(
            carries(&after.answer.stdout, "plover"),
            "after a compaction the prompt gets the note again: {}",
            after.answer.stdout
        );
    }
}

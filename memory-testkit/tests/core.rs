//! Unit tests of `memory-core`: note paths, the Markdown round trip, scopes, truncation, and the
//! conformance suite and model check against the in-memory reference store.

use std::sync::Arc;

use memory_core::{InMemoryStore, MemoryStore, Note, NotePath, Scope, TRUNCATION_MARKER, truncate_markdown};
use memory_testkit::{arb_note, arb_scope, model_check, run_conformance};
use proptest::prelude::*;

#[test]
fn note_paths_are_rejected() {
    let long_segment = format!("{}.md", "a".repeat(70));
    let long_path = format!("{0}/{0}/{0}/{1}.md", "a".repeat(60), "b".repeat(20));
    let deep = format!("{}x.md", "a/".repeat(8));
    let rejected: &[(&str, &str)] = &[
        ("", "empty"),
        ("../secret.md", "parent segment"),
        ("notes/../secret.md", "parent segment inside"),
        ("./notes.md", "current-dir segment"),
        ("/etc/passwd.md", "absolute"),
        ("notes\\win.md", "backslash"),
        ("notes/line\nbreak.md", "newline"),
        ("notes/nul\0.md", "NUL"),
        ("notes/tab\t.md", "tab"),
        ("notes//double.md", "empty segment"),
        ("notes/", "trailing slash"),
        (&long_segment, "over-long segment"),
        (&long_path, "over-long path"),
        (&deep, "too deep"),
        ("Notes/role.md", "uppercase"),
        ("profile/Role.md", "uppercase file"),
        ("profile/role.txt", "not markdown"),
        ("profile/role", "no extension"),
        (".md", ".md alone"),
        ("profile/.md", ".md alone as file"),
        (".hidden/role.md", "leading dot directory"),
        ("profile/.role.md", "leading dot file"),
        ("profile/ro le.md", "space"),
        ("profile/rôle.md", "non-ASCII"),
        ("profile/role.MD", "uppercase extension"),
    ];
    for (path, why) in rejected {
        let result = NotePath::new(*path);
        assert!(result.is_err(), "{why}: {path:?} must be rejected");
        assert!(
            matches!(result, Err(memory_core::Error::InvalidInput(_))),
            "{why}: rejection is InvalidInput"
        );
    }
    assert!(long_path.len() > memory_core::MAX_PATH_LEN);
}

#[test]
fn note_paths_are_accepted() {
    let max_segment = format!("{}.md", "a".repeat(memory_core::MAX_SEGMENT_LEN - 3));
    for path in [
        "profile/role.md",
        "tools/cargo/test-flags.md",
        "project/acme/conventions.md",
        "a.md",
        "x/y/z/w/v/u/t/s.md",
        "tools/node_modules/v1.2.md",
        "notes/2025-01-01.md",
        "_under/score_.md",
        &max_segment,
    ] {
        let parsed = NotePath::new(path).unwrap_or_else(|e| panic!("{path:?} must be accepted: {e}"));
        assert_eq!(parsed.as_str(), path);
        assert_eq!(parsed.to_string(), path);
    }
    let p = NotePath::new("tools/cargo/test-flags.md").expect("valid");
    assert_eq!((p.parent(), p.stem()), ("tools/cargo", "test-flags"));
    let top = NotePath::new("readme.md").expect("valid");
    assert_eq!((top.parent(), top.stem()), ("", "readme"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn markdown_round_trip_is_lossless(note in arb_note()) {
        let text = note.to_markdown();
        let back = Note::from_markdown(note.path.clone(), &text);
        prop_assert!(back.is_ok(), "{:?} does not parse back: {:?}\n{text}", note, back.err());
        prop_assert_eq!(back.ok(), Some(note));
    }

    #[test]
    fn markdown_round_trip_survives_crlf_fences(note in arb_note()) {
        let text = note.to_markdown();
        let yaml_end = text[4..].find("\n---\n").expect("closing fence") + 4;
        let crlf = format!("---\r\n{}\r\n---\r\n{}", text[4..yaml_end].replace('\n', "\r\n"), note.body);
        let back = Note::from_markdown(note.path.clone(), &crlf);
        prop_assert!(back.is_ok(), "CRLF frontmatter must parse: {:?}", back.err());
        prop_assert_eq!(back.ok().map(|n| n.body), Some(note.body));
    }

    #[test]
    fn scope_display_parse_round_trip(scope in arb_scope()) {
        let text = scope.to_string();
        let parsed: Scope = text.parse().expect("a displayed scope parses");
        prop_assert_eq!(&parsed, &scope);
        let json = serde_json::to_string(&scope).expect("serialise");
        let back: Scope = serde_json::from_str(&json).expect("deserialise");
        prop_assert_eq!(back, scope);
    }

    #[test]
    fn truncation_respects_the_cap(text in "[a-z \\n]{0,400}", cap in 60usize..300) {
        let out = truncate_markdown(&text, cap);
        if text.chars().count() <= cap {
            prop_assert_eq!(out.as_ref(), text.as_str());
        } else {
            prop_assert!(out.chars().count() <= cap, "{} chars over the cap {cap}", out.chars().count());
            prop_assert!(out.ends_with(TRUNCATION_MARKER));
            let kept = out.strip_suffix(TRUNCATION_MARKER).expect("marker");
            prop_assert!(text.starts_with(kept), "the kept part is a prefix of the text");
        }
    }
}

#[test]
fn scopes_parse_and_reject() {
    assert_eq!("user".parse::<Scope>().ok(), Some(Scope::User));
    assert_eq!("project:acme".parse::<Scope>().ok(), Some(Scope::Project("acme".to_owned())));
    assert_eq!("session:claude:abc".parse::<Scope>().ok(), Some(Scope::Session("claude:abc".to_owned())));
    for bad in ["", "users", "project", "project:", "team:x", "session:\n", "USER", "project:a\u{7}"] {
        assert!(bad.parse::<Scope>().is_err(), "{bad:?} must be rejected");
    }
    assert!(
        Scope::User < Scope::Project("a".into()) && Scope::Project("z".into()) < Scope::Session("a".into())
    );
}

#[test]
fn truncation_within_cap_is_unchanged() {
    let text = "# Notes\n\nshort\n";
    assert!(matches!(truncate_markdown(text, 100), std::borrow::Cow::Borrowed(t) if t == text));
    assert_eq!(truncate_markdown(text, text.chars().count()), text);
}

#[test]
fn truncation_cuts_at_a_boundary() {
    let para = "word ".repeat(30);
    let text = format!("# Title\n\n{para}\n\n{para}\n\n{para}\n");
    let cap = 200;
    let out = truncate_markdown(&text, cap);
    assert!(out.chars().count() <= cap);
    let kept = out.strip_suffix(TRUNCATION_MARKER).expect("ends with the marker");
    let rest = &text[kept.len()..];
    assert!(
        rest.starts_with("\n") || rest.starts_with(' '),
        "cut at a paragraph, line or word boundary, not mid-word: {rest:?}"
    );
    assert!(!kept.ends_with("wor"), "no partial word");
    let unicode = "日本語のテキスト ".repeat(100);
    let out = truncate_markdown(&unicode, 120);
    assert!(out.chars().count() <= 120, "the cap counts characters");
    assert!(out.ends_with(TRUNCATION_MARKER));
    assert!(unicode.starts_with(out.strip_suffix(TRUNCATION_MARKER).expect("marker")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_memory_store_passes_conformance() {
    let store = InMemoryStore::new();
    run_conformance(&store).await;
    // Twice on one store: the suite must tolerate data left by an earlier run.
    run_conformance(&store).await;
}

#[test]
fn in_memory_store_agrees_with_itself_under_the_model_check() {
    model_check(|| async { Arc::new(InMemoryStore::new()) as Arc<dyn MemoryStore> }, 64);
}

//! Notes changed by hand (`notes add`, `notes edit`, the viewer's editor): read back from
//! Markdown, marked as the user's so the dream merges into them instead of overwriting them,
//! redacted and checked like every other writer's notes, stored, then embedded when the model is
//! installed.

use chrono::Utc;
use memory_core::{GENERATOR_USER, MemoryStore, Note, NoteDefaults, ProjectNames};

use crate::config::Config;
use crate::error::Result;

/// The defaults a note written by hand takes for what its frontmatter leaves out: `note`'s scope
/// and kind, now, and the user as its generator.
pub fn defaults(note: &Note) -> NoteDefaults {
    NoteDefaults {
        scope: Some(note.meta.scope.clone()),
        kind: note.meta.kind,
        updated: Utc::now(),
        generator: GENERATOR_USER.to_owned(),
        owner: note.meta.owner.clone(),
    }
}

/// `current` as `markdown` (frontmatter and body, its project named as `names` name it) says it
/// now, checked: the same path and scope, updated now, written by the user.
pub fn edited(current: &Note, markdown: &str, names: &ProjectNames) -> Result<Note> {
    let mut note = Note::from_markdown_or(current.path.clone(), markdown, &defaults(current))?;
    note.meta.scope = names.resolve(note.meta.scope);
    note.validate()?;
    if note.meta.scope != current.meta.scope {
        return Err(memory_core::Error::InvalidInput(format!(
            "a note cannot change scope in an edit (it is {})",
            names.label(&current.meta.scope)
        ))
        .into());
    }
    note.meta.updated = Utc::now();
    note.meta.generator = GENERATOR_USER.to_owned();
    Ok(note)
}

/// Redacts, checks and stores a note written by hand (its previous version goes to its
/// history), then embeds the notes waiting for it when the model is installed. Returns the note
/// as stored.
pub async fn save(config: &Config, store: &dyn MemoryStore, mut note: Note) -> Result<Note> {
    stamp(config, &mut note);
    config.redactor().redact_note(&mut note);
    note.validate()?;
    store.put_note(&note).await?;
    // The note is saved either way; without its embedding it is found by its words.
    if let Some(embedder) = config.embedder() {
        let _ = memory_embed::refresh(store, &embedder, usize::MAX).await;
    }
    Ok(note)
}

/// Records this memory's owner ([`crate::owner::of`]) as `note`'s, when one is configured: the
/// person whose memory writes a note is its owner, as the events they record are theirs.
pub fn stamp(config: &Config, note: &mut Note) {
    if let Some(owner) = crate::owner::of(config) {
        note.meta.owner = Some(owner.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use memory_core::{GENERATOR_USER, Note, NoteKind, NoteMeta, NotePath, ProjectNames, Scope};

    use super::edited;

    fn note() -> Note {
        Note {
            path: NotePath::new("tools/cargo.md").unwrap(),
            meta: NoteMeta {
                title: "Cargo".to_owned(),
                description: None,
                tags: Vec::new(),
                scope: Scope::Project("acme-1".to_owned()),
                kind: NoteKind::Tool,
                sources: Vec::new(),
                updated: chrono::Utc::now() - chrono::Duration::days(3),
                generator: "deterministic".to_owned(),
                owner: None,
            },
            body: "- run `cargo test`\n".to_owned(),
        }
    }

    #[test]
    fn an_edit_is_the_users_and_keeps_its_scope() {
        let current = note();
        let names = ProjectNames::default();
        let text = current.to_markdown().replace("run `cargo test`", "run `cargo nextest run`");
        let changed = edited(&current, &text, &names).unwrap();
        assert_eq!(changed.body, "- run `cargo nextest run`\n");
        assert_eq!(changed.meta.generator, GENERATOR_USER);
        assert!(changed.meta.updated > current.meta.updated);
        let moved = current.to_markdown().replace("scope: project:acme-1", "scope: user");
        let refused = edited(&current, &moved, &names).unwrap_err().to_string();
        assert!(refused.contains("cannot change scope"), "{refused}");
        let untitled = current.to_markdown().replace("title: Cargo", "title: ' '");
        assert!(edited(&current, &untitled, &names).is_err(), "an edit is checked like every note");
    }

    #[test]
    fn a_note_written_by_hand_is_its_memorys_owners() {
        let config = |text: &str| crate::config::Config::parse(text).unwrap();
        for (settings, expected) in [
            ("[user]\nowner = \"sam@example.com\"\n", Some("sam@example.com")),
            ("[user]\ngit_email = \"ann@example.com\"\n", Some("ann@example.com")),
            ("", Some("kim@example.com")),
        ] {
            let mut written = note();
            written.meta.owner = Some("kim@example.com".to_owned());
            super::stamp(&config(settings), &mut written);
            assert_eq!(written.meta.owner.as_deref(), expected, "{settings}");
        }
        // An edit that leaves the owner out keeps the note's.
        let mut current = note();
        current.meta.owner = Some("sam@example.com".to_owned());
        let text = current.to_markdown().replace("owner: sam@example.com\n", "");
        assert!(!text.contains("owner"), "{text}");
        let changed = edited(&current, &text, &ProjectNames::default()).unwrap();
        assert_eq!(changed.meta.owner.as_deref(), Some("sam@example.com"));
    }

    #[test]
    fn an_edit_reads_its_project_by_name() {
        let current = note();
        let names = ProjectNames::new([("acme-1".to_owned(), "acme".to_owned())].into());
        let shown = names.markdown(&current);
        assert!(shown.contains("scope: project:acme\n"), "{shown}");
        let changed = edited(&current, &shown.replace("cargo test", "cargo t"), &names).unwrap();
        assert_eq!(changed.meta.scope, current.meta.scope, "stored by id");
    }
}

//! A project's notes follow its folder name. Notes written under another folder of the project's
//! scope — the project's id, as earlier versions filed them, or its name before a rename or a
//! merge — move with their history to `project/<slug of the name>/` the first time a dream works
//! on the project, so the dream keeps maintaining them and people read the name they know.

use std::collections::BTreeSet;

use memory_core::{MemoryStore, NoteChange, NoteFilter, NotePath, Result, Scope};

/// Moves the notes of `scope` that sit under a folder other than `folder`; returns how many
/// moved. A note whose new path is taken stays where it is: nothing is hidden in another note's
/// history (one scope can hold several folders after two projects were found to be one).
pub(crate) async fn relocate(store: &dyn MemoryStore, scope: &Scope, folder: &str) -> Result<usize> {
    let filter = NoteFilter { scope: Some(scope.clone()), prefix: Some("project/".to_owned()) };
    let notes = store.list_notes(&filter).await?;
    let mut changes = Vec::new();
    let mut planned: BTreeSet<String> = BTreeSet::new();
    for note in &notes {
        let Some(inner) = note.path.below_project_folder() else { continue };
        let target = format!("{folder}/{inner}");
        if note.path.as_str() == target
            || planned.contains(&target)
            || notes.iter().any(|n| n.path.as_str() == target)
        {
            continue;
        }
        let Ok(path) = NotePath::new(target.clone()) else { continue };
        let history = match store.note_history(scope, &note.path).await {
            Ok(history) => history,
            Err(memory_core::Error::Unsupported { .. }) => Vec::new(),
            Err(e) => return Err(e),
        };
        for version in history.iter().chain([note]) {
            let mut moved = version.clone();
            moved.path = path.clone();
            changes.push(NoteChange::Put(moved));
        }
        changes.push(NoteChange::Delete { scope: scope.clone(), path: note.path.clone() });
        planned.insert(target);
    }
    if !changes.is_empty() {
        store.commit(&changes, None).await?;
    }
    Ok(planned.len())
}

//! A project's notes follow its folder name. Notes written under another folder of the project's
//! scope — the project's id, as earlier versions filed them, or its name before a rename or a
//! merge — move with their history to `project/<slug of the name>/` the first time a dream works
//! on the project, so the dream keeps maintaining them and people read the name they know.

use std::collections::BTreeSet;

use memory_core::{MemoryStore, NoteChange, NoteFilter, NotePath, Result, Scope};

/// Moves the notes of `scope` that sit under a folder other than `folder`; returns how many
/// moved. A note whose new path is taken keeps the newer of the two as current and the other in
/// its history.
pub(crate) async fn relocate(store: &dyn MemoryStore, scope: &Scope, folder: &str) -> Result<usize> {
    let filter = NoteFilter { scope: Some(scope.clone()), prefix: Some("project/".to_owned()) };
    let notes = store.list_notes(&filter).await?;
    let mut changes = Vec::new();
    let mut planned: BTreeSet<String> = BTreeSet::new();
    for note in &notes {
        let Some(inner) = note.path.below_project_folder() else { continue };
        let target = format!("{folder}/{inner}");
        if note.path.as_str() == target || planned.contains(&target) {
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
        if let Some(there) = notes.iter().find(|n| n.path == path)
            && there.meta.updated >= note.meta.updated
        {
            changes.push(NoteChange::Put(there.clone()));
        }
        changes.push(NoteChange::Delete { scope: scope.clone(), path: note.path.clone() });
        planned.insert(target);
    }
    if !changes.is_empty() {
        store.commit(&changes, None).await?;
    }
    Ok(planned.len())
}

//! A project's notes sit in one folder, named after the project: `project/<slug of its name>/`.
//! Notes filed anywhere else in the project's scope — under its id, as earlier versions filed
//! them, under its name before a rename, or outside `project/` (notes written by hand before
//! every writer filed them there) — move with their history into that folder, keeping the rest of
//! their path, so the dream keeps maintaining them and people read the name they know. The dream
//! does it the first time a run works on a project; commands do it when a project's name changes.

use std::collections::BTreeSet;

use memory_core::{MemoryStore, NoteChange, NoteFilter, NotePath, Result, Scope};

/// Moves the notes of `scope` that sit outside `folder` into it, in one commit; returns how many
/// moved. A note whose new path is taken gets a free one (`deploy-2.md`): nothing is hidden in
/// another note's history (one scope can hold several folders after two projects were found to be
/// one).
pub async fn relocate(store: &dyn MemoryStore, scope: &Scope, folder: &str) -> Result<usize> {
    let filter = NoteFilter { scope: Some(scope.clone()), prefix: None };
    let notes = store.list_notes(&filter).await?;
    let inside = format!("{folder}/");
    let mut taken: BTreeSet<String> = notes.iter().map(|n| n.path.as_str().to_owned()).collect();
    let mut changes = Vec::new();
    let mut moved = 0;
    for note in notes.iter().filter(|n| !n.path.as_str().starts_with(&inside)) {
        let inner = note.path.below_project_folder().unwrap_or(note.path.as_str());
        let Some(path) = free_path(folder, inner, &taken) else { continue };
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
        taken.insert(path.as_str().to_owned());
        moved += 1;
    }
    if !changes.is_empty() {
        store.commit(&changes, None).await?;
    }
    Ok(moved)
}

/// `folder/inner`, else `folder/<inner's stem>-2.md`, `-3`…: the first path no note has.
fn free_path(folder: &str, inner: &str, taken: &BTreeSet<String>) -> Option<NotePath> {
    let stem = inner.strip_suffix(".md").unwrap_or(inner);
    std::iter::once(format!("{folder}/{inner}"))
        .chain((2..100).map(|n| format!("{folder}/{stem}-{n}.md")))
        .filter(|p| !taken.contains(p))
        .find_map(|p| NotePath::new(p).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_path_gets_a_numbered_one() {
        let taken: BTreeSet<String> =
            ["project/shop/deploy.md", "project/shop/deploy-2.md"].map(str::to_owned).into();
        let free = |inner: &str| free_path("project/shop", inner, &taken).unwrap().as_str().to_owned();
        assert_eq!(free("deploy.md"), "project/shop/deploy-3.md");
        assert_eq!(free("procedures/deploy.md"), "project/shop/procedures/deploy.md");
    }
}

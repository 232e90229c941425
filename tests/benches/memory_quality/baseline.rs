//! The naive baseline the product must beat, computed from the same notes: at session start the
//! whole notes tree of the user and the project in path order, cut to the same character budget;
//! per prompt the three notes sharing the most words with the prompt (at least two).

use crate::judge::{StoredNote, words};

/// The export tree's path of a note (`project/<id>/…` sorts before `user/…`).
fn tree_path(note: &StoredNote) -> String {
    match note.scope.strip_prefix("project:") {
        Some(id) => format!("project/{id}/{}", note.path),
        None => format!("{}/{}", note.scope, note.path),
    }
}

fn visible<'a>(notes: &'a [StoredNote], project_id: &str) -> Vec<&'a StoredNote> {
    let project = format!("project:{project_id}");
    let mut out: Vec<&StoredNote> =
        notes.iter().filter(|n| n.scope == "user" || n.scope == project).collect();
    out.sort_by_key(|n| tree_path(n));
    out
}

/// Every note of the user and the project, in path order, cut to `budget` characters.
pub(crate) fn session_start(notes: &[StoredNote], project_id: &str, budget: usize) -> String {
    let all: String = visible(notes, project_id).iter().map(|n| n.section(usize::MAX)).collect();
    all.chars().take(budget).collect()
}

/// The notes sharing at least two words with the prompt, most shared first (then path order),
/// at most `max_notes`, each cut to `note_cap` characters, within `budget`; empty when none
/// qualifies.
pub(crate) fn for_prompt(
    notes: &[StoredNote],
    project_id: &str,
    prompt: &str,
    (max_notes, note_cap, budget): (usize, usize, usize),
) -> String {
    let asked = words(prompt);
    let mut scored: Vec<(usize, &StoredNote)> = visible(notes, project_id)
        .into_iter()
        .map(|n| (words(&format!("{} {}", n.title, n.body)).intersection(&asked).count(), n))
        .filter(|(shared, _)| *shared >= 2)
        .collect();
    scored.sort_by_key(|(shared, _)| std::cmp::Reverse(*shared));
    let all: String = scored.iter().take(max_notes).map(|(_, n)| n.section(note_cap)).collect();
    all.chars().take(budget).collect()
}

//! What some events contribute to the deterministic notes, and notes without it: how a forget
//! takes out of a note the items only forgotten events support, and keeps the rest.
//!
//! Each item of a deterministic note counts its sightings (`- text (3×, …)`). Folding the
//! forgotten events alone, as a dream would, says how many sightings of which items they gave;
//! taking those off a note leaves the items other events support (with their count lowered) and
//! drops the items nothing else supports.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use memory_core::{EventKind, Scope, StoredEvent};

use crate::deterministic::fold;
use crate::deterministic::items::{self, Item};
use crate::{DreamRequest, Limits};

/// Sightings by note and item: the note's path relative to its project's folder
/// (`conventions.md`, `tools/cargo/build-flags.md`, `profile/preferences.md`), then the item's
/// key (its lowercase text), then how many.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sightings(BTreeMap<String, BTreeMap<String, u64>>);

impl Sightings {
    /// Whether the events gave no item at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The sightings of the note at `path` (as stored: `project/<folder>/…` or a user path).
    fn of(&self, path: &str) -> Option<&BTreeMap<String, u64>> {
        self.0.get(relative(path))
    }
}

/// A note's path without its project's folder: `project/<folder>/commands.md` → `commands.md`;
/// user paths as they are. Tool notes move between a project and the user's scope, so this is
/// what names "the same note" across them.
fn relative(path: &str) -> &str {
    match path.strip_prefix("project/") {
        Some(rest) => rest.split_once('/').map_or(rest, |(_, tail)| tail),
        None => path,
    }
}

/// The sightings `events` give, folded by group (project) in store order, each group from no
/// notes at all, as the deterministic provider folds them.
pub fn sightings(events: &[StoredEvent], now: DateTime<Utc>) -> Sightings {
    let mut groups: BTreeMap<Scope, Vec<StoredEvent>> = BTreeMap::new();
    for stored in events.iter().filter(|e| e.event.kind != EventKind::Injection) {
        groups.entry(crate::event_group(&stored.event)).or_default().push(stored.clone());
    }
    let mut out = Sightings::default();
    for (group, mut events) in groups {
        events.sort_by_key(|e| e.position);
        let allowed_scopes =
            if group == Scope::User { vec![Scope::User] } else { vec![group.clone(), Scope::User] };
        let request = DreamRequest {
            group,
            allowed_scopes,
            events,
            events_text: String::new(),
            notes: Vec::new(),
            tools_elsewhere: BTreeSet::new(),
            elsewhere: Vec::new(),
            schema: serde_json::Value::Null,
            previous_errors: Vec::new(),
            limits: Limits::default(),
            now,
            project_name: None,
        };
        for ((_, path), items) in fold::fold(&request, None).items() {
            let counts = out.0.entry(relative(&path).to_owned()).or_default();
            for (key, item) in items {
                *counts.entry(key).or_default() += item.count;
            }
        }
    }
    out
}

/// A note body without `sightings`: each item line (`- text (N×…)`) they name loses that many
/// sightings, and goes when none is left; every other line stays as it is. Returns the body and the lines that went
/// (an item whose count only fell is rewritten, not listed).
pub fn without_sightings(path: &str, body: &str, sightings: &Sightings) -> (String, Vec<String>) {
    let Some(counts) = sightings.of(path) else { return (body.to_owned(), Vec::new()) };
    let mut kept = String::with_capacity(body.len());
    let mut gone = Vec::new();
    for line in body.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        // Only lines in the items' own format: a line a person wrote without a count is theirs.
        let parsed = if items::ITEM_LINE.is_match(bare) { items::parse(bare) } else { Default::default() };
        let Some((key, item)) = parsed.into_iter().next() else {
            kept.push_str(line);
            continue;
        };
        match counts.get(&key) {
            Some(&seen) if seen >= item.count => gone.push(bare.to_owned()),
            Some(&seen) => {
                kept.push_str(&items::line(&Item { count: item.count - seen, ..item }));
                kept.push_str(&line[bare.len()..]);
            }
            None => kept.push_str(line),
        }
    }
    (kept, gone)
}

/// Whether a note body still has an item line.
pub fn has_items(body: &str) -> bool {
    !items::parse(body).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sightings_of(path: &str, items: &[(&str, u64)]) -> Sightings {
        let counts = items.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect();
        Sightings(BTreeMap::from([(path.to_owned(), counts)]))
    }

    #[test]
    fn items_only_the_events_support_go_and_the_rest_keep_what_is_left() {
        let body = "What we do here.\n\n- We use tabs (1×, last 2026-01-02)\n- We use thiserror (3×, last 2026-01-03)\n- Keep it (2×)\n- We use tabs\n";
        let seen = sightings_of("conventions.md", &[("we use tabs", 1), ("we use thiserror", 1)]);
        let (kept, gone) = without_sightings("project/app/conventions.md", body, &seen);
        assert_eq!(gone, ["- We use tabs (1×, last 2026-01-02)"]);
        assert_eq!(
            kept,
            "What we do here.\n\n- We use thiserror (2×, last 2026-01-03)\n- Keep it (2×)\n- We use tabs\n",
            "the intro, every other item and a line without a count stay"
        );
        let (same, none) = without_sightings("project/app/commands.md", body, &seen);
        assert_eq!((same.as_str(), none.len()), (body, 0), "another note's sightings change nothing");
    }

    #[test]
    fn paths_are_compared_without_the_project_folder() {
        assert_eq!(relative("project/webshop/tools/cargo/build-flags.md"), "tools/cargo/build-flags.md");
        assert_eq!(relative("tools/cargo/build-flags.md"), "tools/cargo/build-flags.md");
        assert_eq!(relative("profile/preferences.md"), "profile/preferences.md");
    }
}

//! The notes a chunk of events changes, each read back into items, changed in event order and
//! rendered into operations at the end.

use std::collections::BTreeMap;

use chrono::Duration;
use memory_core::{Note, NoteKind, Scope, StoredEvent};

use crate::deterministic::items::{self, Item, Items};
use crate::{Action, DreamRequest, NoteOperation};

/// Items of notes that retire with time (commands, files, tool flags) go once they were last seen
/// this many days before the note's latest item: the project stopped using them.
const RETIRE_AFTER_DAYS: i64 = 60;

/// What a note is: its frontmatter and the line above its items.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    pub(crate) title: String,
    pub(crate) description: String,
    pub(crate) kind: NoteKind,
    pub(crate) tags: Vec<String>,
    pub(crate) intro: String,
    /// Whether items not seen for a long while retire.
    pub(crate) ages: bool,
}

impl Spec {
    /// The spec a note already has: its frontmatter, and the text above its items.
    pub(crate) fn of(note: &Note) -> Self {
        let intro: Vec<&str> = note.body.lines().take_while(|line| !line.starts_with("- ")).collect();
        Self {
            title: note.meta.title.clone(),
            description: note.meta.description.clone().unwrap_or_default(),
            kind: note.meta.kind,
            tags: note.meta.tags.clone(),
            intro: intro.join("\n").trim().to_owned(),
            // Errors and fixes keep until what they depend on is ruled out.
            ages: note.meta.kind != NoteKind::Procedure,
        }
    }
}

/// One note being rewritten.
#[derive(Debug)]
pub(crate) struct Page {
    spec: Spec,
    items: Items,
    current: Option<Note>,
    /// A note a person edited: its text stays, new items are appended below it.
    human: bool,
    /// Source event ids by store position.
    sources: BTreeMap<u64, String>,
    observations: u64,
    changed: bool,
    delete: bool,
}

impl Page {
    /// Adds one sighting of `text`, seen in `stored`. A text carrying a credential or a redaction
    /// marker (a command run with a password in its URL) is never filed.
    pub(crate) fn observe(&mut self, text: &str, stored: &StoredEvent) {
        if crate::statements::carries_secret(text) {
            return;
        }
        // A person's note that has the item already, whatever words of what it was for it has.
        if self.human
            && self.current.as_ref().is_some_and(|n| n.body.to_lowercase().contains(&items::key(text)))
        {
            return;
        }
        items::observe(&mut self.items, text, stored.event.occurred_at.date_naive());
        self.cite(stored);
        self.observations += 1;
        self.changed = true;
        self.delete = false;
    }

    /// Adds another event as a source.
    pub(crate) fn cite(&mut self, stored: &StoredEvent) {
        self.sources.insert(stored.position, stored.event.id.0.clone());
    }

    /// Adds an earlier event as a source, by its position and id.
    pub(crate) fn cite_position(&mut self, position: u64, id: &str) {
        self.sources.insert(position, id.to_owned());
    }

    /// Removes the items `retired` selects, because of `stored` (nothing in a person's note), and
    /// returns their texts. The note's earlier version, which the store keeps, still has them.
    pub(crate) fn retire(&mut self, stored: &StoredEvent, retired: impl Fn(&Item) -> bool) -> Vec<String> {
        if self.human {
            return Vec::new();
        }
        let mut gone = Vec::new();
        self.items.retain(|_, item| {
            let retire = retired(item);
            if retire {
                gone.push(item.text.clone());
            }
            !retire
        });
        if !gone.is_empty() {
            self.cite(stored);
            self.changed = true;
        }
        gone
    }

    /// Gives the items `rewritten` has a new text for that text, because of `stored`, keeping
    /// their counts and dates (nothing in a person's note). The note's earlier version, which the
    /// store keeps, still has the old text.
    pub(crate) fn rewrite(&mut self, stored: &StoredEvent, rewritten: impl Fn(&Item) -> Option<String>) {
        if self.human {
            return;
        }
        let mut renamed = Items::new();
        self.items.retain(|_, item| match rewritten(item) {
            Some(text) => {
                items::merge(&mut renamed, Items::from([(items::key(&text), Item { text, ..item.clone() })]));
                false
            }
            None => true,
        });
        if !renamed.is_empty() {
            items::merge(&mut self.items, renamed);
            self.cite(stored);
            self.changed = true;
        }
    }

    /// The texts of the note's items (none of a person's note: those are theirs to change).
    pub(crate) fn texts(&self) -> Vec<String> {
        if self.human { Vec::new() } else { self.items.values().map(|item| item.text.clone()).collect() }
    }

    /// Takes over the items of another note (a project's tool note joining the user's), because
    /// of `stored`.
    pub(crate) fn absorb(&mut self, note: &Note, stored: &StoredEvent) {
        items::merge(&mut self.items, items::parse(&note.body));
        self.cite(stored);
        self.changed = true;
    }

    /// Marks the note for deletion.
    pub(crate) fn remove(&mut self) {
        if !self.human {
            self.delete = true;
            self.changed = true;
        }
    }
}

/// The pages of one request, by scope and path.
#[derive(Debug)]
pub(crate) struct Book<'a> {
    request: &'a DreamRequest,
    pages: BTreeMap<(Scope, String), Page>,
}

impl<'a> Book<'a> {
    pub(crate) fn new(request: &'a DreamRequest) -> Self {
        Self { request, pages: BTreeMap::new() }
    }

    /// The current note at a scope and path, if there is one: of the request's scopes, or one of
    /// another project's that records what the agent did there.
    pub(crate) fn note(&self, scope: &Scope, path: &str) -> Option<&'a Note> {
        self.request
            .notes
            .iter()
            .chain(&self.request.elsewhere)
            .find(|n| n.meta.scope == *scope && n.path.as_str() == path)
    }

    /// The current notes of a scope under a folder.
    pub(crate) fn notes_under(&self, scope: &Scope, folder: &str) -> Vec<&'a Note> {
        let prefix = format!("{}/", folder.trim_end_matches('/'));
        self.request
            .notes
            .iter()
            .chain(&self.request.elsewhere)
            .filter(|n| n.meta.scope == *scope && n.path.as_str().starts_with(&prefix))
            .collect()
    }

    /// The page at a scope and path, read back from its current note the first time.
    pub(crate) fn page(&mut self, scope: &Scope, path: &str, spec: impl FnOnce() -> Spec) -> &mut Page {
        let current = self.note(scope, path);
        self.pages.entry((scope.clone(), path.to_owned())).or_insert_with(|| {
            let human = current.is_some_and(Note::is_human_edited);
            let mut items = match current {
                Some(note) if !human && !is_legacy(note) => items::parse(&note.body),
                _ => Items::new(),
            };
            let legacy = current.is_some_and(is_legacy);
            if path == "profile/preferences.md" && !human {
                // Statements worded for one project, and one-offs, are nobody's profile; one that
                // says it holds everywhere may name a repo ("never in the repo, true everywhere").
                items.retain(|_, item| {
                    (!crate::statements::project_worded(&item.text)
                        || crate::statements::said_everywhere(&item.text))
                        && !crate::statements::one_off(&item.text)
                });
            }
            if !human {
                // A credential never stays in a note, whichever version of the distiller filed it.
                items.retain(|_, item| !crate::statements::secret(&item.text.to_lowercase()));
            }
            Page {
                spec: spec(),
                items,
                current: current.cloned(),
                human,
                sources: BTreeMap::new(),
                observations: 0,
                changed: legacy,
                delete: false,
            }
        })
    }

    /// The page at a scope and path if its note exists or the page is already open.
    pub(crate) fn existing(
        &mut self,
        scope: &Scope,
        path: &str,
        spec: impl FnOnce() -> Spec,
    ) -> Option<&mut Page> {
        let key = (scope.clone(), path.to_owned());
        if !self.pages.contains_key(&key) && self.note(scope, path).is_none() {
            return None;
        }
        Some(self.page(scope, path, spec))
    }

    /// Open pages of a scope under a folder.
    pub(crate) fn open_under(&self, scope: &Scope, folder: &str) -> Vec<String> {
        let prefix = format!("{}/", folder.trim_end_matches('/'));
        self.pages
            .keys()
            .filter(|(s, p)| s == scope && p.starts_with(&prefix))
            .map(|(_, p)| p.clone())
            .collect()
    }

    /// The items of every page, by scope and path, as the events left them (nothing retired
    /// by age, none left out for room).
    pub(crate) fn items(self) -> impl Iterator<Item = ((Scope, String), Items)> {
        self.pages.into_iter().map(|(key, page)| (key, page.items))
    }

    /// The operations that bring the notes up to date, each with its weight (observations), in
    /// scope and path order; notes left by the agent-memory versions that called the agent's
    /// commands the user's flags are deleted.
    pub(crate) fn operations(mut self) -> Vec<(u64, NoteOperation)> {
        for note in &self.request.notes {
            if is_legacy(note) {
                let key = (note.meta.scope.clone(), note.path.to_string());
                self.pages.entry(key).or_insert_with(|| Page {
                    spec: legacy_spec(note),
                    items: Items::new(),
                    current: Some(note.clone()),
                    human: false,
                    sources: BTreeMap::new(),
                    observations: 0,
                    changed: true,
                    delete: true,
                });
            }
        }
        let mut out = Vec::new();
        for ((scope, path), mut page) in self.pages {
            if !page.changed {
                continue;
            }
            if page.spec.ages
                && !page.human
                && let Some(newest) = items::newest(&page.items)
            {
                let cutoff = newest - Duration::days(RETIRE_AFTER_DAYS);
                page.items.retain(|_, item| item.last.is_none_or(|last| last >= cutoff));
            }
            if let Some(operation) = operation(&scope, &path, page) {
                out.push(operation);
            }
        }
        out
    }
}

/// A user note the old distiller wrote about flags "the user passes", from commands the agent
/// chose.
fn is_legacy(note: &Note) -> bool {
    note.meta.scope == Scope::User
        && note.meta.generator == crate::deterministic::GENERATOR
        && note.path.as_str().starts_with("tools/")
        && note.body.starts_with("Flags the user passes to")
}

fn legacy_spec(note: &Note) -> Spec {
    Spec {
        title: note.meta.title.clone(),
        description: note.meta.description.clone().unwrap_or_default(),
        kind: note.meta.kind,
        tags: note.meta.tags.clone(),
        intro: String::new(),
        ages: false,
    }
}

fn operation(scope: &Scope, path: &str, page: Page) -> Option<(u64, NoteOperation)> {
    let sources: Vec<String> = page.sources.values().cloned().collect();
    let base = NoteOperation {
        action: Action::Create,
        scope: scope.to_string(),
        path: path.to_owned(),
        title: Some(page.spec.title.clone()),
        description: Some(page.spec.description.clone()),
        kind: Some(page.spec.kind),
        tags: page.spec.tags.clone(),
        body: None,
        reason: format!("{} new observation(s) in {} event(s)", page.observations, sources.len()),
        sources,
    };
    let gone = NoteOperation {
        action: Action::Delete,
        title: None,
        description: None,
        kind: None,
        tags: vec![],
        body: None,
        sources: vec![],
        ..base.clone()
    };
    if page.delete || page.items.is_empty() {
        // A note with nothing left is deleted; a person's note never is.
        return match &page.current {
            Some(_) if !page.human => Some((
                u64::MAX,
                NoteOperation {
                    reason: if page.delete {
                        "retired: what it describes moved or was ruled out".to_owned()
                    } else {
                        "retired: every item was corrected, deleted or stopped being used".to_owned()
                    },
                    ..gone
                },
            )),
            _ => None,
        };
    }
    if base.sources.is_empty() {
        // Every change is made because of an event; a page without one has nothing to write.
        return None;
    }
    let Some(current) = page.current else {
        let body = items::render(&page.spec.intro, &page.items);
        return Some((page.observations, NoteOperation { body: Some(body), ..base }));
    };
    if page.human {
        let mut added: Vec<&Item> = page.items.values().collect();
        if added.is_empty() {
            return None;
        }
        added.sort_by(|a, b| a.text.cmp(&b.text));
        let mut body = current.body.trim_end().to_owned();
        let ends_with_list = body.lines().last().is_some_and(|line| line.starts_with("- "));
        body.push_str(if ends_with_list { "\n" } else { "\n\n" });
        for item in added {
            body.push_str(&items::line(item));
            body.push('\n');
        }
        return Some((
            page.observations,
            NoteOperation {
                action: Action::Update,
                title: Some(current.meta.title.clone()),
                description: current.meta.description.clone(),
                kind: Some(current.meta.kind),
                tags: current.meta.tags.clone(),
                body: Some(body),
                ..base
            },
        ));
    }
    let body = items::render(&page.spec.intro, &page.items);
    let same_meta = current.meta.title == page.spec.title
        && current.meta.description.as_deref() == Some(page.spec.description.as_str())
        && current.meta.kind == page.spec.kind
        && current.meta.tags == page.spec.tags;
    if body == current.body && same_meta {
        return None;
    }
    Some((page.observations, NoteOperation { action: Action::Update, body: Some(body), ..base }))
}

//! Adding and removing our entries in a hooks document, one handler at a time.
//!
//! Rules (also in `docs/install.md`):
//! - Only handlers whose command is ours (see [`super::entries`]) are ever changed or removed;
//!   every other handler, group, event and top-level key stays where it is, as it is.
//! - Install adds one handler per event we handle when the event has none of ours, appended at
//!   the end of that event's list (a new event key goes at the end of `hooks`, a missing `hooks`
//!   object at the end of the document). An entry of ours with another command (an old binary
//!   path) gets the new command in place, keeping its other fields; a second entry of ours for the
//!   same event is removed, and so is an entry of ours for an event we no longer handle.
//! - Removal cleans up only what it emptied: a group whose handler list became empty because we
//!   took ours out is removed; an event key whose list became empty because we took ours out is
//!   removed; `hooks` is removed when it became empty because we removed event keys from it.

use std::fmt;
use std::path::Path;

use memory_core::{HarnessAdapter, HookRegistration};

use super::entries;
use super::json::Json;

/// How a harness nests handlers under an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `{"hooks":{Event:[{"matcher"?, "hooks":[{"type":"command","command":…}]}]}}` (Claude, Codex,
    /// Gemini).
    Nested,
    /// `{"version":1,"hooks":{event:[{"command":…}]}}` (Cursor; Copilot's handlers carry
    /// `"type":"command"` and the command under `bash`).
    Flat,
}

/// What a harness's hooks file looks like and which events we register there.
#[derive(Debug)]
pub(crate) struct HarnessSpec {
    /// The name in our command (`hook <name>`).
    pub(crate) name: &'static str,
    pub(crate) shape: Shape,
    /// The harness's adapter, which lists the events we register.
    pub(crate) adapter: &'static dyn HarnessAdapter,
    /// Members a file we create starts with (Cursor's `"version": 1`).
    pub(crate) fresh_members: &'static [(&'static str, u64)],
    /// Whether the user-scope file is the harness's general settings file rather than a hooks
    /// file, so a new one starts empty (Copilot's `settings.json`).
    pub(crate) user_file_is_settings: bool,
    /// How our handler is written: its keys and units.
    pub(crate) handler: HandlerSpec,
}

/// How one handler is written in a harness's hooks file.
#[derive(Debug)]
pub(crate) struct HandlerSpec {
    /// Whether it starts with `"type": "command"`.
    pub(crate) typed: bool,
    /// A `name` it carries (Gemini shows it, and merges hooks of the same name and command).
    pub(crate) name: Option<&'static str>,
    /// The key of the command line (`command`; Copilot's `bash`).
    pub(crate) command_key: &'static str,
    /// The key of the timeout (`timeout`; Copilot's `timeoutSec`).
    pub(crate) timeout_key: &'static str,
    /// The timeout's units per second (1; Gemini's milliseconds, 1000).
    pub(crate) timeout_per_second: u64,
}

impl HandlerSpec {
    /// Claude Code's and Codex's handlers: `type`, `command`, `timeout` in seconds.
    pub(crate) const COMMAND: Self = Self {
        typed: true,
        name: None,
        command_key: "command",
        timeout_key: "timeout",
        timeout_per_second: 1,
    };
}

impl HarnessSpec {
    /// The events we handle and the timeout we give each handler.
    pub(crate) fn events(&self) -> &'static [HookRegistration] {
        self.adapter.hook_events()
    }
}

/// One change to one event's entries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub(crate) enum Change {
    /// Our handler was added.
    Added { event: String },
    /// Our handler's command was rewritten (it named another binary).
    Updated { event: String, from: String },
    /// A second handler of ours for the same event was removed.
    DuplicateRemoved { event: String },
    /// Our handler was removed (uninstall, or an event we no longer handle).
    Removed { event: String },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Added { event } => write!(f, "{event}: added"),
            Self::Updated { event, from } => write!(f, "{event}: command updated (was {from})"),
            Self::DuplicateRemoved { event } => write!(f, "{event}: duplicate entry removed"),
            Self::Removed { event } => write!(f, "{event}: removed"),
        }
    }
}

/// A document whose shape does not let us edit it safely.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShapeError(pub(crate) String);

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One entry of ours found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) event: String,
    pub(crate) command: String,
    pub(crate) program: std::path::PathBuf,
}

/// Where one handler sits in an event's list.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// Handler `handler` of group `group` (nested shape).
    Nested { group: usize, handler: usize },
    /// Item `index` (flat shape).
    Flat(usize),
}

/// A fresh, empty document for this harness.
pub(crate) fn fresh(spec: &HarnessSpec, user_scope: bool) -> Json {
    if user_scope && spec.user_file_is_settings {
        return Json::Object(Vec::new());
    }
    Json::Object(spec.fresh_members.iter().map(|(k, v)| ((*k).to_owned(), Json::int(*v))).collect())
}

/// Lists our entries, event by event in document order.
pub(crate) fn find(doc: &Json, spec: &HarnessSpec, binary: &Path) -> Result<Vec<Found>, ShapeError> {
    let Some(hooks) = hooks_object(doc)? else {
        return Ok(Vec::new());
    };
    let Json::Object(events) = hooks else { unreachable!("hooks_object checks the type") };
    let mut found = Vec::new();
    for (event, list) in events {
        let Json::Array(items) = list else { continue };
        for slot in our_slots(items, spec, binary) {
            let command =
                handler(items, slot).and_then(|h| h.get(spec.handler.command_key)).and_then(Json::as_str);
            if let Some(command) = command
                && let Some(program) = entries::ours(command, spec.name, binary)
            {
                found.push(Found { event: event.clone(), command: command.to_owned(), program });
            }
        }
    }
    Ok(found)
}

/// Makes the document hold exactly one handler of ours, running `command`, for each event we
/// handle, and none for any other event.
pub(crate) fn install(
    doc: &mut Json,
    spec: &HarnessSpec,
    binary: &Path,
    command: &str,
) -> Result<Vec<Change>, ShapeError> {
    let Json::Object(members) = doc else {
        return Err(ShapeError(format!("the top level is {}, expected an object", doc.type_name())));
    };
    if !members.iter().any(|(k, _)| k == "hooks") {
        members.push(("hooks".to_owned(), Json::Object(Vec::new())));
    }
    let hooks = doc.get_mut("hooks").ok_or_else(|| ShapeError("`hooks` vanished".to_owned()))?;
    let Json::Object(events) = hooks else {
        return Err(ShapeError(format!("`hooks` is {}, expected an object", hooks.type_name())));
    };
    for spec_event in spec.events() {
        if let Some((_, list)) = events.iter().rev().find(|(k, _)| k == spec_event.name)
            && !matches!(list, Json::Array(_))
        {
            return Err(ShapeError(format!(
                "`hooks.{}` is {}, expected an array",
                spec_event.name,
                list.type_name()
            )));
        }
    }
    let mut changes = Vec::new();
    for spec_event in spec.events() {
        if !events.iter().any(|(k, _)| k == spec_event.name) {
            events.push((spec_event.name.to_owned(), Json::Array(Vec::new())));
        }
        let Some((_, Json::Array(items))) = events.iter_mut().rev().find(|(k, _)| k == spec_event.name)
        else {
            continue;
        };
        let slots = our_slots(items, spec, binary);
        let Some((&first, rest)) = slots.split_first() else {
            items.push(new_entry(spec, spec_event, command));
            changes.push(Change::Added { event: spec_event.name.to_owned() });
            continue;
        };
        if let Some(Json::Object(fields)) = handler_mut(items, first)
            && let Some((_, value)) = fields.iter_mut().rev().find(|(k, _)| k == spec.handler.command_key)
            && value.as_str() != Some(command)
        {
            let from = value.as_str().unwrap_or_default().to_owned();
            *value = Json::string(command);
            changes.push(Change::Updated { event: spec_event.name.to_owned(), from });
        }
        for &slot in rest.iter().rev() {
            remove(items, slot);
            changes.push(Change::DuplicateRemoved { event: spec_event.name.to_owned() });
        }
    }
    // Entries of ours under events we no longer handle.
    let handled = |name: &str| spec.events().iter().any(|e| e.name == name);
    changes.extend(remove_ours(events, spec, binary, |name| !handled(name)));
    Ok(changes)
}

/// Removes every handler of ours, and the containers that became empty because of it.
pub(crate) fn uninstall(
    doc: &mut Json,
    spec: &HarnessSpec,
    binary: &Path,
) -> Result<Vec<Change>, ShapeError> {
    if hooks_object(doc)?.is_none() {
        return Ok(Vec::new());
    }
    let Some(Json::Object(events)) = doc.get_mut("hooks") else { return Ok(Vec::new()) };
    let before = events.len();
    let changes = remove_ours(events, spec, binary, |_| true);
    let emptied = events.is_empty() && before > 0 && !changes.is_empty();
    if emptied && let Json::Object(members) = doc {
        members.retain(|(k, v)| !(k == "hooks" && v.is_empty_container()));
    }
    Ok(changes)
}

/// The `hooks` object, if the document has one; an error when the document or `hooks` has the
/// wrong type.
fn hooks_object(doc: &Json) -> Result<Option<&Json>, ShapeError> {
    if !matches!(doc, Json::Object(_)) {
        return Err(ShapeError(format!("the top level is {}, expected an object", doc.type_name())));
    }
    match doc.get("hooks") {
        None => Ok(None),
        Some(hooks @ Json::Object(_)) => Ok(Some(hooks)),
        Some(other) => Err(ShapeError(format!("`hooks` is {}, expected an object", other.type_name()))),
    }
}

/// Removes our handlers under the events `selected` picks; drops event keys emptied by that.
fn remove_ours(
    events: &mut Vec<(String, Json)>,
    spec: &HarnessSpec,
    binary: &Path,
    selected: impl Fn(&str) -> bool,
) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut emptied = Vec::new();
    for (index, (event, list)) in events.iter_mut().enumerate() {
        if !selected(event) {
            continue;
        }
        let Json::Array(items) = list else { continue };
        let slots = our_slots(items, spec, binary);
        for &slot in slots.iter().rev() {
            remove(items, slot);
            changes.push(Change::Removed { event: event.clone() });
        }
        if !slots.is_empty() && items.is_empty() {
            emptied.push(index);
        }
    }
    for index in emptied.into_iter().rev() {
        events.remove(index);
    }
    changes
}

/// Positions of our handlers in an event's list, in document order.
fn our_slots(items: &[Json], spec: &HarnessSpec, binary: &Path) -> Vec<Slot> {
    let is_ours = |h: &Json| {
        h.get(spec.handler.command_key)
            .and_then(Json::as_str)
            .is_some_and(|c| entries::ours(c, spec.name, binary).is_some())
    };
    let mut slots = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match spec.shape {
            Shape::Flat => {
                if is_ours(item) {
                    slots.push(Slot::Flat(index));
                }
            }
            Shape::Nested => {
                if let Some(Json::Array(handlers)) = item.get("hooks") {
                    for (h, handler) in handlers.iter().enumerate() {
                        if is_ours(handler) {
                            slots.push(Slot::Nested { group: index, handler: h });
                        }
                    }
                }
            }
        }
    }
    slots
}

fn handler(items: &[Json], slot: Slot) -> Option<&Json> {
    match slot {
        Slot::Flat(index) => items.get(index),
        Slot::Nested { group, handler } => match items.get(group)?.get("hooks")? {
            Json::Array(handlers) => handlers.get(handler),
            _ => None,
        },
    }
}

fn handler_mut(items: &mut [Json], slot: Slot) -> Option<&mut Json> {
    match slot {
        Slot::Flat(index) => items.get_mut(index),
        Slot::Nested { group, handler } => match items.get_mut(group)?.get_mut("hooks")? {
            Json::Array(handlers) => handlers.get_mut(handler),
            _ => None,
        },
    }
}

/// Removes one handler; a group left with no handlers because of it goes too. Slots must be
/// removed from last to first.
fn remove(items: &mut Vec<Json>, slot: Slot) {
    match slot {
        Slot::Flat(index) => {
            items.remove(index);
        }
        Slot::Nested { group, handler } => {
            let emptied = match items.get_mut(group).and_then(|g| g.get_mut("hooks")) {
                Some(Json::Array(handlers)) => {
                    handlers.remove(handler);
                    handlers.is_empty()
                }
                _ => false,
            };
            if emptied {
                items.remove(group);
            }
        }
    }
}

/// The entry we add for one event.
fn new_entry(spec: &HarnessSpec, event: &HookRegistration, command: &str) -> Json {
    let spec_handler = &spec.handler;
    let mut handler = Vec::new();
    if spec_handler.typed {
        handler.push(("type".to_owned(), Json::string("command")));
    }
    if let Some(name) = spec_handler.name {
        handler.push(("name".to_owned(), Json::string(name)));
    }
    handler.push((spec_handler.command_key.to_owned(), Json::string(command)));
    if let Some(timeout) = event.timeout_secs {
        handler.push((
            spec_handler.timeout_key.to_owned(),
            Json::int(timeout * spec_handler.timeout_per_second),
        ));
    }
    match spec.shape {
        Shape::Flat => Json::Object(handler),
        Shape::Nested => Json::Object(vec![("hooks".to_owned(), Json::Array(vec![Json::Object(handler)]))]),
    }
}

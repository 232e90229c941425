//! Small builders for events and notes, and unique names so tests never collide with data already
//! in a store.

use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, Duration, TimeZone, Utc};
use memory_core::{
    EventId, EventKind, GENERATOR_HUMAN, Harness, HookEvent, Note, NoteKind, NoteMeta, NotePath, Scope,
    SessionKey,
};

/// A name no other call in any process returns: `label` followed by a lowercase hex suffix made of
/// the process id, the clock and a counter. Safe inside note path segments and scope ids.
pub fn unique(label: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    format!("{label}-{:x}-{nanos:x}-{count:x}", std::process::id())
}

/// A 32-hex-character event id derived from any text.
pub fn event_id(seed: &str) -> EventId {
    EventId::derive("testkit", seed, DateTime::UNIX_EPOCH, seed.as_bytes())
}

/// A fixed, readable base time for test events: 2025-01-01T00:00:00Z.
pub fn base_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 1, 1, 0, 0, 0).single().expect("valid date")
}

/// A prompt event in a session, `offset_secs` after [`base_time`], with an id derived from `seed`.
pub fn event(session: &SessionKey, seed: &str, offset_secs: i64) -> HookEvent {
    let harness = session.as_str().split_once(':').map_or("test", |(h, _)| h).to_owned();
    let mut event = HookEvent::new(
        event_id(&format!("{session}/{seed}")),
        Harness::named(harness),
        session.clone(),
        EventKind::UserPromptSubmit,
        base_time() + Duration::seconds(offset_secs),
        serde_json::json!({ "prompt": seed, "n": offset_secs }),
    );
    event.prompt = Some(format!("prompt {seed}"));
    event
}

/// A fresh session key for the `test` harness.
pub fn session(label: &str) -> SessionKey {
    SessionKey::new("test", &unique(label))
}

/// A fresh project scope.
pub fn project_scope(label: &str) -> Scope {
    Scope::Project(unique(label))
}

/// A note path; panics if the path is invalid.
pub fn path(path: &str) -> NotePath {
    NotePath::new(path).unwrap_or_else(|e| panic!("test note path {path:?}: {e}"))
}

/// A human-written note with a title, tags and body.
pub fn note(scope: &Scope, path_str: &str, title: &str, tags: &[&str], body: &str) -> Note {
    Note {
        path: path(path_str),
        meta: NoteMeta {
            title: title.to_owned(),
            description: None,
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            scope: scope.clone(),
            kind: NoteKind::Fact,
            sources: Vec::new(),
            updated: base_time(),
            generator: GENERATOR_HUMAN.to_owned(),
            owner: None,
        },
        body: body.to_owned(),
    }
}

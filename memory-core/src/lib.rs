#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod adapter;
mod error;
mod event;
mod in_memory;
mod note;
mod payload;
mod project_names;
mod response;
pub mod retention;
mod scope;
pub mod search;
pub mod shell;
mod store;

pub use adapter::{
    Delivery, HarnessAdapter, HookRegistration, Rendered, Support, TRUNCATION_MARKER, truncate_markdown,
};
pub use error::{Error, Result};
pub use event::{
    EVENT_SCHEMA_VERSION, EventId, EventKind, FileAction, FileTouch, Harness, HookEvent, SessionKey,
    ShellCall, StoredEvent, ToolCall, TranscriptRef,
};
pub use in_memory::InMemoryStore;
pub use note::{
    GENERATOR_HUMAN, GENERATOR_TEAM, GENERATOR_USER, MAX_BODY_LEN, MAX_DEPTH, MAX_PATH_LEN, MAX_SEGMENT_LEN,
    MAX_TAGS, MAX_TITLE_LEN, Note, NoteChange, NoteDefaults, NoteKind, NoteMeta, NotePath, PURPOSE_SEPARATOR,
    code_spans, item_text, project_folder, purpose_parts, slug, without_counts, without_purposes,
};
pub use payload::{missing_field, parse_payload};
pub use project_names::ProjectNames;
pub use response::{Decision, HookResponse};
pub use scope::{MAX_SCOPE_ID_LEN, Scope, scope_id_problem};
pub use store::{
    Appended, Capabilities, EVENT_SEARCH_MIN, EVENT_SEARCH_WINDOW, EventFilter, EventHit, EventQuery,
    EventVectorHit, EventVectorQuery, ForgetSet, Forgotten, Lease, MemoryStore, NoteFilter, PendingVector,
    SearchHit, SearchQuery, SessionInfo, TextMatch, VectorHit, VectorQuery, WatermarkAdvance, cosine,
    rank_event_hits, same_content,
};

/// Re-exported so implementers of [`MemoryStore`] use the same macro version.
pub use async_trait::async_trait;

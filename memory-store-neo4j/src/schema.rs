//! Constraints and indexes, created idempotently when a store connects.
//!
//! Every statement uses `IF NOT EXISTS`, and the existing names are checked first so an
//! up-to-date database costs two cheap `SHOW` queries. Only Community-edition features are used:
//! uniqueness constraints (composite ones included), range indexes, a full-text index and a vector
//! index.

use crate::cypher::{EVENT_INDEX, NOTE_INDEX, VECTOR_INDEX};

/// One schema object: its name and the statement creating it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SchemaItem {
    pub(crate) name: &'static str,
    pub(crate) create: &'static str,
}

const fn item(name: &'static str, create: &'static str) -> SchemaItem {
    SchemaItem { name, create }
}

/// Every constraint and index the store relies on.
pub(crate) const SCHEMA: &[SchemaItem] = &[
    item(
        "agent_memory_event_id",
        "CREATE CONSTRAINT agent_memory_event_id IF NOT EXISTS FOR (e:Event) REQUIRE e.id IS UNIQUE",
    ),
    item(
        "agent_memory_event_position",
        "CREATE CONSTRAINT agent_memory_event_position IF NOT EXISTS FOR (e:Event) REQUIRE e.position IS UNIQUE",
    ),
    item(
        "agent_memory_event_session_seq",
        "CREATE CONSTRAINT agent_memory_event_session_seq IF NOT EXISTS \
         FOR (e:Event) REQUIRE (e.session_id, e.seq) IS UNIQUE",
    ),
    item(
        "agent_memory_session_id",
        "CREATE CONSTRAINT agent_memory_session_id IF NOT EXISTS FOR (s:Session) REQUIRE s.id IS UNIQUE",
    ),
    item(
        "agent_memory_project_id",
        "CREATE CONSTRAINT agent_memory_project_id IF NOT EXISTS FOR (p:Project) REQUIRE p.id IS UNIQUE",
    ),
    item(
        "agent_memory_note_key",
        "CREATE CONSTRAINT agent_memory_note_key IF NOT EXISTS FOR (n:Note) REQUIRE n.key IS UNIQUE",
    ),
    item(
        "agent_memory_note_version",
        "CREATE CONSTRAINT agent_memory_note_version IF NOT EXISTS \
         FOR (v:NoteVersion) REQUIRE (v.key, v.version) IS UNIQUE",
    ),
    item(
        "agent_memory_watermark_name",
        "CREATE CONSTRAINT agent_memory_watermark_name IF NOT EXISTS FOR (w:Watermark) REQUIRE w.name IS UNIQUE",
    ),
    item(
        "agent_memory_lease_name",
        "CREATE CONSTRAINT agent_memory_lease_name IF NOT EXISTS FOR (l:Lease) REQUIRE l.name IS UNIQUE",
    ),
    item(
        "agent_memory_machine_name",
        "CREATE CONSTRAINT agent_memory_machine_name IF NOT EXISTS FOR (m:Machine) REQUIRE m.name IS UNIQUE",
    ),
    item(
        "agent_memory_counter_name",
        "CREATE CONSTRAINT agent_memory_counter_name IF NOT EXISTS FOR (c:Counter) REQUIRE c.name IS UNIQUE",
    ),
    item(
        "agent_memory_event_kind",
        "CREATE INDEX agent_memory_event_kind IF NOT EXISTS FOR (e:Event) ON (e.kind)",
    ),
    item(
        "agent_memory_event_project",
        "CREATE INDEX agent_memory_event_project IF NOT EXISTS FOR (e:Event) ON (e.project)",
    ),
    item(
        "agent_memory_note_scope",
        "CREATE INDEX agent_memory_note_scope IF NOT EXISTS FOR (n:Note) ON (n.scope)",
    ),
    item(
        NOTE_INDEX,
        "CREATE FULLTEXT INDEX agent_memory_note_text_2 IF NOT EXISTS FOR (n:Note) ON EACH [n.search_text] \
         OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words', \
         `fulltext.eventually_consistent`: false } }",
    ),
    item(
        EVENT_INDEX,
        "CREATE FULLTEXT INDEX agent_memory_event_text IF NOT EXISTS FOR (e:Event) ON EACH [e.search_text] \
         OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words', \
         `fulltext.eventually_consistent`: false } }",
    ),
    item(
        "agent_memory_note_vector_model",
        "CREATE INDEX agent_memory_note_vector_model IF NOT EXISTS FOR (v:NoteVector) ON (v.model, v.scope)",
    ),
    item(
        "agent_memory_note_vector_key",
        "CREATE INDEX agent_memory_note_vector_key IF NOT EXISTS FOR (v:NoteVector) ON (v.key)",
    ),
    item(
        VECTOR_INDEX,
        "CREATE VECTOR INDEX agent_memory_note_vector IF NOT EXISTS FOR (v:NoteVector) ON (v.vector) \
         OPTIONS { indexConfig: { `vector.dimensions`: 384, `vector.similarity_function`: 'cosine' } }",
    ),
];

/// Lists the names of existing constraints.
pub(crate) const SHOW_CONSTRAINTS: &str = "SHOW CONSTRAINTS YIELD name RETURN name";

/// Lists the names of existing indexes (constraint-backed ones included) and whether they are online.
pub(crate) const SHOW_INDEXES: &str = "SHOW INDEXES YIELD name, state RETURN name, state";

/// Waits until new indexes are online, for fewer seconds than a statement may take.
pub(crate) const AWAIT_INDEXES: &str = "CALL db.awaitIndexes(10)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statement_creates_its_name_idempotently() {
        let mut names: Vec<&str> = SCHEMA.iter().map(|i| i.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SCHEMA.len(), "schema names are unique");
        for item in SCHEMA {
            assert!(item.create.contains(&format!(" {} IF NOT EXISTS ", item.name)), "{}", item.create);
        }
    }
}

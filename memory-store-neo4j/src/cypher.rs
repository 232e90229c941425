//! Every Cypher statement the store runs. User data only ever travels in parameters.
//!
//! Graph model:
//!
//! ```text
//! (:Project {id})-[:HAS_SESSION]->(:Session {id, last_seq, harness, project, owner, …})
//! (:Session)-[:HAS_FIRST_EVENT]->(:Event)   (:Session)-[:LAST_EVENT]->(:Event)
//! (:Event {id, session_id, seq, position, kind, harness, project, owner, occurred_at, json})-[:NEXT]->(:Event)
//! (:Note {key, scope, path, json, search_text, version, …})-[:DERIVED_FROM]->(:Event)
//! (:Note)-[:PREVIOUS_VERSION]->(:NoteVersion {key, version, json})-[:PREVIOUS_VERSION]->(:NoteVersion)
//! (:Watermark {name, position})   (:Counter {name: 'events', position})
//! (:Counter {name: 'events_indexed', position})   events up to it carry `search_text`
//! ```

/// Name of the node holding the last store-wide event position.
pub(crate) const COUNTER_NAME: &str = "events";

/// Name of the counter up to which events carry their `search_text` (set lazily, by searches).
pub(crate) const EVENTS_INDEXED: &str = "events_indexed";

/// Name of the full-text index over events' words.
pub(crate) const EVENT_INDEX: &str = "agent_memory_event_text";

/// Name of the full-text index over notes. Its number is the version of what a note's
/// `search_text` holds: a database without this index holds notes indexed by an earlier rule,
/// whose text is written anew when a store connects ([`NOTE_TEXTS`], [`SET_NOTE_TEXTS`]).
pub(crate) const NOTE_INDEX: &str = "agent_memory_note_text_2";
/// Full-text indexes over notes by earlier rules, dropped once the notes are indexed anew.
pub(crate) const EARLIER_NOTE_INDEXES: &[&str] = &["agent_memory_note_text"];

/// Every note's key and JSON, to write its `search_text` anew.
pub(crate) const NOTE_TEXTS: &str = "MATCH (n:Note) RETURN n.key AS key, n.json AS json";

/// Sets the `search_text` of notes by key (`$rows`: `{key, text}`).
pub(crate) const SET_NOTE_TEXTS: &str =
    "UNWIND $rows AS r MATCH (n:Note {key: r.key}) SET n.search_text = r.text";
/// The vector index over notes' embeddings.
pub(crate) const VECTOR_INDEX: &str = "agent_memory_note_vector";
/// The length of the vectors the vector index holds (the embedding model's).
pub(crate) const VECTOR_DIMENSIONS: usize = 384;

/// Creates the position counter if it is missing.
pub(crate) const ENSURE_COUNTER: &str = "
MERGE (c:Counter {name: $name})
  ON CREATE SET c.position = 0";

/// Write-locks the position counter and reads it. Every append takes this lock first, so appends
/// commit in position order and never wait on each other in a cycle.
pub(crate) const LOCK_COUNTER: &str = "
MERGE (c:Counter {name: $name})
  ON CREATE SET c.position = 0
SET c._lock = true
REMOVE c._lock
RETURN c.position AS position";

/// Which of `$ids` are stored already, with their session and seq.
pub(crate) const EXISTING_EVENTS: &str = "
UNWIND $ids AS id
MATCH (e:Event {id: id})
RETURN e.id AS id, e.session_id AS session, e.seq AS seq";

/// Creates (or finds) and write-locks each session, and reads its state.
pub(crate) const LOCK_SESSIONS: &str = "
UNWIND $sessions AS sid
MERGE (s:Session {id: sid})
  ON CREATE SET s.last_seq = 0
SET s._lock = true
REMOVE s._lock
WITH s
OPTIONAL MATCH (s)-[:LAST_EVENT]->(last:Event)
RETURN s.id AS id, s.last_seq AS last_seq, last.id AS last_id, s.harness AS harness,
       s.project AS project, s.owner AS owner, s.started_s AS started_s, s.started_ns AS started_ns,
       s.last_s AS last_s, s.last_ns AS last_ns";

/// [`LOCK_COUNTER`] and [`LOCK_SESSIONS`] in one statement, in that order (one round trip fewer
/// when no stored ids need checking first): each session's row carries the counter's position.
pub(crate) const LOCK_COUNTER_AND_SESSIONS: &str = "
MERGE (c:Counter {name: $name})
  ON CREATE SET c.position = 0
SET c._lock = true
REMOVE c._lock
WITH c.position AS position
UNWIND $sessions AS sid
MERGE (s:Session {id: sid})
  ON CREATE SET s.last_seq = 0
SET s._lock = true
REMOVE s._lock
WITH position, s
OPTIONAL MATCH (s)-[:LAST_EVENT]->(last:Event)
RETURN position, s.id AS id, s.last_seq AS last_seq, last.id AS last_id, s.harness AS harness,
       s.project AS project, s.owner AS owner, s.started_s AS started_s, s.started_ns AS started_ns,
       s.last_s AS last_s, s.last_ns AS last_ns";

/// Writes a batch in one statement: creates the new events (seqs and positions computed under the
/// locks; one parameter list per property, see `crate::batch`) and links each into its session's
/// chain (`$inner_*` link two new events by their index, `$outer_*` a stored event, by id, to a
/// new one, `$first_*` a new session to its first event), moves each session's `LAST_EVENT`
/// pointer and stores its summary (`$sessions`, the last event by index), and stores the last
/// position handed out. New events are reached through the list of created nodes, not through
/// index lookups.
pub(crate) const CREATE_EVENTS: &str = "
UNWIND range(0, size($ids) - 1) AS i
CREATE (e:Event {
  id: $ids[i], session_id: $event_sessions[i], seq: $seqs[i], position: $first_position + i,
  kind: $kinds[i], harness: $harnesses[i], project: $projects[i], owner: $owners[i],
  occurred_at: $occurred[i], json: $jsons[i]
})
WITH collect(e) AS created
CALL (created) {
  UNWIND range(0, size($inner_to) - 1) AS k
  WITH created[$inner_from[k]] AS a, created[$inner_to[k]] AS b
  CREATE (a)-[:NEXT]->(b)
}
CALL (created) {
  UNWIND range(0, size($outer_to) - 1) AS k
  MATCH (a:Event {id: $outer_from[k]})
  WITH a, created[$outer_to[k]] AS b
  CREATE (a)-[:NEXT]->(b)
}
CALL (created) {
  UNWIND range(0, size($first_to) - 1) AS k
  MATCH (s:Session {id: $first_sessions[k]})
  WITH s, created[$first_to[k]] AS e
  CREATE (s)-[:HAS_FIRST_EVENT]->(e)
}
CALL (created) {
  UNWIND $sessions AS u
  MATCH (s:Session {id: u.id})
  CALL (s) {
    MATCH (s)-[old:LAST_EVENT]->()
    DELETE old
  }
  WITH s, u, created[u.last] AS e
  CREATE (s)-[:LAST_EVENT]->(e)
  SET s.last_seq = u.last_seq, s.harness = u.harness, s.project = u.project, s.owner = u.owner,
      s.started_s = u.started_s, s.started_ns = u.started_ns, s.last_s = u.last_s, s.last_ns = u.last_ns
}
CALL () {
  MATCH (c:Counter {name: $counter})
  SET c.position = $position
}";

/// Files sessions under their project once it is known.
pub(crate) const LINK_PROJECTS: &str = "
UNWIND $projects AS p
MERGE (project:Project {id: p.project})
WITH project, p
MATCH (s:Session {id: p.session})
CREATE (project)-[:HAS_SESSION]->(s)";

/// A page of one session's events.
pub(crate) const TIMELINE: &str = "
MATCH (e:Event {session_id: $session})
WHERE e.seq > $after
RETURN e.seq AS seq, e.position AS position, e.json AS json
ORDER BY e.seq
LIMIT $limit";

/// A page of events by store position.
pub(crate) const EVENTS_AFTER: &str = "
MATCH (e:Event)
WHERE e.position > $after
RETURN e.seq AS seq, e.position AS position, e.json AS json
ORDER BY e.position
LIMIT $limit";

/// Events by id, in the order asked (repeats included).
pub(crate) const EVENTS_BY_ID: &str = "
UNWIND range(0, size($ids) - 1) AS i
MATCH (e:Event {id: $ids[i]})
RETURN e.seq AS seq, e.position AS position, e.json AS json
ORDER BY i";

/// Every session with at least one event.
pub(crate) const SESSIONS: &str = "
MATCH (s:Session)
WHERE s.last_seq > 0
RETURN s.id AS id, s.harness AS harness, s.project AS project, s.owner AS owner, s.last_seq AS events,
       s.started_s AS started_s, s.started_ns AS started_ns, s.last_s AS last_s, s.last_ns AS last_ns";

/// Creates (or finds) and write-locks a note, and reads its current version.
pub(crate) const LOCK_NOTE: &str = "
MERGE (n:Note {key: $key})
SET n._lock = true
REMOVE n._lock
RETURN n.json AS json";

/// Moves a note's current version into its history (newest version first in the chain).
pub(crate) const ARCHIVE_NOTE: &str = "
MATCH (n:Note {key: $key})
CREATE (v:NoteVersion {key: n.key, version: n.version, json: n.json})
WITH n, v
OPTIONAL MATCH (n)-[head:PREVIOUS_VERSION]->(older:NoteVersion)
DELETE head
WITH n, v, older
FOREACH (_ IN CASE WHEN older IS NULL THEN [] ELSE [1] END | CREATE (v)-[:PREVIOUS_VERSION]->(older))
CREATE (n)-[:PREVIOUS_VERSION]->(v)";

/// Writes a note's current version and its links to the events it came from.
pub(crate) const WRITE_NOTE: &str = "
MATCH (n:Note {key: $key})
SET n.scope = $scope, n.path = $path, n.json = $json, n.search_text = $search_text,
    n.title = $title, n.kind = $kind, n.generator = $generator, n.updated = $updated,
    n.version = coalesce(n.version, 0) + 1
WITH n
CALL (n) {
  MATCH (n)-[old:DERIVED_FROM]->()
  DELETE old
}
CALL (n) {
  UNWIND $sources AS source
  MATCH (e:Event {id: source})
  MERGE (n)-[:DERIVED_FROM]->(e)
}";

/// Deletes a note's history.
pub(crate) const DELETE_NOTE_VERSIONS: &str = "
MATCH (v:NoteVersion {key: $key})
DETACH DELETE v";

/// Deletes a note's embeddings.
pub(crate) const DELETE_NOTE_VECTORS: &str = "
MATCH (v:NoteVector {key: $key})
DETACH DELETE v";

/// Replaces a locked note's embeddings with `$vectors` (lists of floats) by `$model`.
pub(crate) const WRITE_NOTE_VECTORS: &str = "
MATCH (n:Note {key: $key})
CALL (n) {
  MATCH (old:NoteVector {key: $key})
  DETACH DELETE old
}
WITH n
UNWIND range(0, size($vectors) - 1) AS chunk
CREATE (n)-[:EMBEDDED_AS]->(:NoteVector {key: n.key, scope: n.scope, model: $model, chunk: chunk, vector: $vectors[chunk]})";

/// The vectors by `$model` of the notes keyed `$keys`, in chunk order; notes with none are left out.
pub(crate) const NOTE_VECTORS: &str = "
UNWIND $keys AS key
MATCH (v:NoteVector {key: key, model: $model})
WITH key, v
ORDER BY v.chunk
RETURN key, collect(v.vector) AS vectors";

/// Current notes with no embedding by `$model`.
pub(crate) const NOTES_WITHOUT_VECTORS: &str = "
MATCH (n:Note)
WHERE n.json IS NOT NULL AND NOT EXISTS { MATCH (n)-[:EMBEDDED_AS]->(:NoteVector {model: $model}) }
RETURN n.json AS json
ORDER BY n.scope, n.path
LIMIT $limit";

/// The best `$fetch` vectors by the vector index, kept when of `$model` and in `$scopes`, each
/// note by its closest one. The index scores cosine as `(1 + cos) / 2`. Each row also reports how
/// many vectors were fetched; one row with a null `json` stands for no hit.
pub(crate) const SEARCH_VECTORS_TOP: &str = "
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH collect(CASE WHEN node.model = $model AND (size($scopes) = 0 OR node.scope IN $scopes)
                  THEN {key: node.key, chunk: node.chunk, score: score} END) AS kept,
     count(*) AS fetched
UNWIND (CASE WHEN size(kept) = 0 THEN [null] ELSE kept END) AS hit
WITH hit, fetched
ORDER BY hit.score DESC, hit.chunk
WITH hit.key AS key, collect(hit)[0] AS best, fetched
ORDER BY best.score DESC, key
LIMIT $limit
OPTIONAL MATCH (n:Note {key: key})
RETURN n.json AS json, best.score AS score, best.chunk AS chunk, fetched";

/// Every vector of `$model` in `$scopes` compared with `$vector`, each note by its closest one.
pub(crate) const SEARCH_VECTORS: &str = "
MATCH (v:NoteVector {model: $model})
WHERE (size($scopes) = 0 OR v.scope IN $scopes) AND size(v.vector) = size($vector)
WITH v.key AS key, v.chunk AS chunk, vector.similarity.cosine(v.vector, $vector) AS score
ORDER BY score DESC, chunk
WITH key, collect({chunk: chunk, score: score})[0] AS best
ORDER BY best.score DESC, key
LIMIT $limit
MATCH (n:Note {key: key})
RETURN n.json AS json, best.score AS score, best.chunk AS chunk";

/// Deletes a note; returns how many were deleted (0 or 1).
pub(crate) const DELETE_NOTE: &str = "
MATCH (n:Note {key: $key})
WITH n, n.key AS key
DETACH DELETE n
RETURN count(key) AS deleted";

/// One note's current version.
pub(crate) const GET_NOTE: &str = "
MATCH (n:Note {key: $key})
WHERE n.json IS NOT NULL
RETURN n.json AS json";

/// A note's previous versions, oldest first.
pub(crate) const NOTE_HISTORY: &str = "
MATCH (v:NoteVersion {key: $key})
RETURN v.json AS json
ORDER BY v.version";

/// Notes of one scope under a path prefix.
pub(crate) const LIST_NOTES_IN_SCOPE: &str = "
MATCH (n:Note {scope: $scope})
WHERE n.path STARTS WITH $prefix AND n.json IS NOT NULL
RETURN n.json AS json";

/// Notes of every scope under a path prefix.
pub(crate) const LIST_NOTES: &str = "
MATCH (n:Note)
WHERE n.path STARTS WITH $prefix AND n.json IS NOT NULL
RETURN n.json AS json";

/// Full-text search over the best `$fetch` matches only (Lucene ranks them without reading the
/// nodes), filtered to some scopes. Each row also reports how many matches were fetched, so the
/// caller can tell whether every match was seen; one row with a null `json` stands for no hit.
pub(crate) const SEARCH_NOTES_TOP: &str = "
CALL db.index.fulltext.queryNodes($index, $query, {limit: $fetch}) YIELD node, score
WITH collect(CASE WHEN size($scopes) = 0 OR node.scope IN $scopes THEN {node: node, score: score} END) AS kept,
     count(*) AS fetched
UNWIND (CASE WHEN size(kept) = 0 THEN [null] ELSE kept END) AS hit
WITH hit, fetched
ORDER BY hit.score DESC, hit.node.key
LIMIT $limit
RETURN hit.node.json AS json, hit.score AS score, fetched";

/// Full-text search over every match, optionally limited to some scopes.
///
/// A common word matches thousands of notes, so the filter and the ranking read only small
/// properties and the (large) note text is read for the returned rows alone. Only written notes
/// carry `search_text`, so every indexed node has its `json`.
pub(crate) const SEARCH_NOTES: &str = "
CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score
WHERE size($scopes) = 0 OR node.scope IN $scopes
WITH node, score
ORDER BY score DESC, node.key
LIMIT $limit
RETURN node.json AS json, score";

/// One watermark.
pub(crate) const GET_WATERMARK: &str = "
MATCH (w:Watermark {name: $name})
RETURN w.position AS position";

/// Every watermark.
pub(crate) const WATERMARKS: &str = "
MATCH (w:Watermark)
RETURN w.name AS name, w.position AS position";

/// Sets a watermark.
pub(crate) const SET_WATERMARK: &str = "
MERGE (w:Watermark {name: $name})
SET w.position = $position";

/// Takes a lease when it is free, lapsed or the holder's already, and returns it as it stands.
/// Writing the node first takes its lock, so the holder read after is the latest committed one.
pub(crate) const TAKE_LEASE: &str = "
MERGE (l:Lease {name: $name})
ON CREATE SET l.holder = $holder, l.until = $until
SET l.taken = $now
WITH l, (l.holder = $holder OR l.until < $now) AS free
SET l.holder = CASE WHEN free THEN $holder ELSE l.holder END,
    l.until = CASE WHEN free THEN $until ELSE l.until END
RETURN l.holder AS holder, l.until AS until";

/// Gives a lease back when `holder` holds it.
pub(crate) const RELEASE_LEASE: &str = "
MATCH (l:Lease {name: $name, holder: $holder})
DELETE l";

/// A lease as it stands.
pub(crate) const GET_LEASE: &str = "
MATCH (l:Lease {name: $name})
RETURN l.holder AS holder, l.until AS until";

/// Records when a machine last wrote (the latest time kept; times are RFC 3339 in UTC with
/// nanoseconds, whose text order is time order).
pub(crate) const NOTE_MACHINE: &str = "
MERGE (m:Machine {name: $name})
SET m.last = CASE WHEN m.last IS NULL OR m.last < $at THEN $at ELSE m.last END";

/// Every machine, the most recent first.
pub(crate) const MACHINES: &str = "
MATCH (m:Machine)
RETURN m.name AS name, m.last AS last
ORDER BY m.last DESC, m.name";

/// Probes the connection.
pub(crate) const PING: &str = "RETURN 1 AS one";

/// How far events carry their search text (creating the counter at 0).
pub(crate) const EVENTS_INDEXED_MARK: &str = "
MERGE (c:Counter {name: $name})
  ON CREATE SET c.position = 0
RETURN c.position AS position";

/// Events past the mark, to give their search text.
pub(crate) const EVENTS_TO_INDEX: &str = "
MATCH (e:Event)
WHERE e.position > $after
RETURN e.position AS position, e.json AS json
ORDER BY e.position
LIMIT $limit";

/// Stores events' search text (`$rows`: `{position, text}`) and moves the mark forward.
pub(crate) const SET_EVENT_TEXT: &str = "
UNWIND $rows AS r
MATCH (e:Event {position: r.position})
SET e.search_text = r.text
WITH count(*) AS done
MATCH (c:Counter {name: $name})
SET c.position = CASE WHEN c.position < $position THEN $position ELSE c.position END";

/// Events whose search text matches a Lucene query, in the asked session, project, harness and
/// owner, in the order given.
macro_rules! search_events {
    ($order:literal) => {
        concat!(
            "
CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score
WHERE ($session IS NULL OR node.session_id = $session)
  AND ($project IS NULL OR node.project = $project)
  AND ($harness IS NULL OR node.harness = $harness)
  AND ($owner IS NULL OR node.owner = $owner)
RETURN node.seq AS seq, node.position AS position, node.json AS json, score
ORDER BY ",
            $order,
            "
LIMIT $limit"
        )
    };
}

/// Events matching a search, best first (ties newest first).
pub(crate) const SEARCH_EVENTS: &str = search_events!("score DESC, position DESC");

/// The same, newest first.
pub(crate) const SEARCH_EVENTS_NEWEST: &str = search_events!("position DESC");

/// Events in the asked session, project, harness and owner, newest first.
pub(crate) const FILTER_EVENTS: &str = "
MATCH (e:Event)
WHERE ($session IS NULL OR e.session_id = $session)
  AND ($project IS NULL OR e.project = $project)
  AND ($harness IS NULL OR e.harness = $harness)
  AND ($owner IS NULL OR e.owner = $owner)
RETURN e.seq AS seq, e.position AS position, e.json AS json
ORDER BY e.position DESC
LIMIT $limit";

/// Keeps each of `$rows` (`{position, vector}`) as the embedding by `$model` of the event at its
/// position, replacing the one it had (an event holds one model's); an empty vector records that
/// the event has nothing to embed. Returns how many events were found.
pub(crate) const WRITE_EVENT_VECTORS: &str = "
UNWIND $rows AS row
MATCH (e:Event {position: row.position})
SET e.vector_model = $model, e.vector = row.vector
RETURN count(e) AS kept";

/// The events passing the session, project, harness and owner filters whose embedding by
/// `$model` is closest to `$vector` (scored `(1 + cos) / 2`), best first, newest first among equals.
pub(crate) const SEARCH_EVENT_VECTORS: &str = "
MATCH (e:Event)
WHERE e.vector_model = $model AND size(e.vector) = size($vector)
  AND ($session IS NULL OR e.session_id = $session)
  AND ($project IS NULL OR e.project = $project)
  AND ($harness IS NULL OR e.harness = $harness)
  AND ($owner IS NULL OR e.owner = $owner)
WITH e, vector.similarity.cosine(e.vector, $vector) AS score
ORDER BY score DESC, e.position DESC
LIMIT $limit
RETURN e.seq AS seq, e.position AS position, e.json AS json, score";

/// Deletes one event, joining its neighbours so the session's chain stays whole (its first and
/// last pointers move to them when it was either).
pub(crate) const FORGET_EVENT: &str = "
MATCH (e:Event {id: $id})
OPTIONAL MATCH (p:Event)-[:NEXT]->(e)
OPTIONAL MATCH (e)-[:NEXT]->(n:Event)
OPTIONAL MATCH (s:Session {id: e.session_id})
OPTIONAL MATCH (s)-[first:HAS_FIRST_EVENT]->(e)
OPTIONAL MATCH (s)-[last:LAST_EVENT]->(e)
WITH e, p, n, s, first IS NOT NULL AS was_first, last IS NOT NULL AS was_last
FOREACH (_ IN CASE WHEN p IS NOT NULL AND n IS NOT NULL THEN [1] ELSE [] END | CREATE (p)-[:NEXT]->(n))
FOREACH (_ IN CASE WHEN was_first AND n IS NOT NULL THEN [1] ELSE [] END | CREATE (s)-[:HAS_FIRST_EVENT]->(n))
FOREACH (_ IN CASE WHEN was_last AND p IS NOT NULL THEN [1] ELSE [] END | CREATE (s)-[:LAST_EVENT]->(p))
DETACH DELETE e
RETURN count(*) AS deleted";

/// Deletes a session's events with their links.
pub(crate) const FORGET_SESSION_EVENTS: &str = "
MATCH (e:Event {session_id: $session})
DETACH DELETE e
RETURN count(*) AS deleted";

/// Deletes a session (and its link to its project).
pub(crate) const FORGET_SESSION: &str = "
MATCH (s:Session {id: $session})
DETACH DELETE s
RETURN count(*) AS deleted";

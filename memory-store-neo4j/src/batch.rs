//! The new events of one append, as the parameters of [`crate::cypher::CREATE_EVENTS`].
//!
//! Each property travels as a column (one list per property, one entry per event) rather than as
//! a map per event: the driver copies and encodes a batch's parameters, and a thousand small maps
//! cost it more than the statement itself costs the server.

use neo4rs::{BoltType, Query};

/// Events to create, their chain links, in creation order.
#[derive(Debug, Default)]
pub(crate) struct EventColumns {
    ids: Vec<BoltType>,
    sessions: Vec<BoltType>,
    seqs: Vec<BoltType>,
    kinds: Vec<BoltType>,
    harnesses: Vec<BoltType>,
    projects: Vec<BoltType>,
    owners: Vec<BoltType>,
    occurred: Vec<BoltType>,
    jsons: Vec<BoltType>,
    /// Links between two new events, by index.
    inner_from: Vec<BoltType>,
    inner_to: Vec<BoltType>,
    /// Links from a stored event, by id, to a new one.
    outer_from: Vec<BoltType>,
    outer_to: Vec<BoltType>,
    /// A new session's first event.
    first_sessions: Vec<BoltType>,
    first_to: Vec<BoltType>,
}

/// One event's stored properties.
#[derive(Debug)]
pub(crate) struct NewEvent<'a> {
    pub(crate) id: &'a str,
    pub(crate) session: &'a str,
    pub(crate) seq: i64,
    pub(crate) kind: &'a str,
    pub(crate) harness: &'a str,
    pub(crate) project: Option<&'a str>,
    pub(crate) owner: Option<&'a str>,
    pub(crate) occurred_at: String,
    pub(crate) json: String,
}

/// Where a new event hangs in its session's chain.
#[derive(Debug)]
pub(crate) enum Link {
    /// After another new event of this batch (its index).
    AfterNew(i64),
    /// After an event already stored (its id).
    AfterStored(String),
    /// First of a new session.
    First,
}

impl EventColumns {
    pub(crate) fn with_capacity(n: usize) -> Self {
        let column = || Vec::with_capacity(n);
        Self {
            ids: column(),
            sessions: column(),
            seqs: column(),
            kinds: column(),
            harnesses: column(),
            projects: column(),
            owners: column(),
            occurred: column(),
            jsons: column(),
            inner_from: column(),
            inner_to: column(),
            ..Self::default()
        }
    }

    /// Index the next pushed event gets.
    pub(crate) fn next_index(&self) -> i64 {
        i64::try_from(self.ids.len()).unwrap_or(i64::MAX)
    }

    pub(crate) fn push(&mut self, event: NewEvent<'_>, link: Link) {
        let index = self.next_index();
        match link {
            Link::AfterNew(from) => {
                self.inner_from.push(from.into());
                self.inner_to.push(index.into());
            }
            Link::AfterStored(id) => {
                self.outer_from.push(id.into());
                self.outer_to.push(index.into());
            }
            Link::First => {
                self.first_sessions.push(event.session.into());
                self.first_to.push(index.into());
            }
        }
        self.ids.push(event.id.into());
        self.sessions.push(event.session.into());
        self.seqs.push(event.seq.into());
        self.kinds.push(event.kind.into());
        self.harnesses.push(event.harness.into());
        self.projects.push(event.project.map(str::to_owned).into());
        self.owners.push(event.owner.map(str::to_owned).into());
        self.occurred.push(event.occurred_at.into());
        self.jsons.push(event.json.into());
    }

    /// Adds the columns to `query`; the events get positions `first_position`, `first_position + 1`, ….
    pub(crate) fn into_params(self, query: Query, first_position: i64) -> Query {
        query
            .param("first_position", first_position)
            .param("ids", self.ids)
            .param("event_sessions", self.sessions)
            .param("seqs", self.seqs)
            .param("kinds", self.kinds)
            .param("harnesses", self.harnesses)
            .param("projects", self.projects)
            .param("owners", self.owners)
            .param("occurred", self.occurred)
            .param("jsons", self.jsons)
            .param("inner_from", self.inner_from)
            .param("inner_to", self.inner_to)
            .param("outer_from", self.outer_from)
            .param("outer_to", self.outer_to)
            .param("first_sessions", self.first_sessions)
            .param("first_to", self.first_to)
    }
}

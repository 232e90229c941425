//! Live updates: a server-sent event stream of the events hooks append, read by polling the
//! store's position index from where the page was rendered.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use memory_core::{MemoryStore, SessionInfo, StoredEvent};
use memory_hook::sessions;
use serde::Deserialize;
use serde_json::json;

use crate::pages::{catalog, event_row, session_row};
use crate::{Result, Shared};

/// How often the store is asked for new events.
const POLL: Duration = Duration::from_millis(300);
/// Most events sent per poll.
const BATCH: usize = 200;

/// The store position of the newest event (0 for an empty store), found by doubling then
/// halving over `events_after`: a few dozen indexed lookups of one event each, whatever the store.
pub(crate) async fn end_position(store: &dyn MemoryStore) -> Result<u64> {
    let beyond = |after: u64| async move { store.events_after(after, 1).await.map(|e| !e.is_empty()) };
    if !beyond(0).await? {
        return Ok(0);
    }
    // Some event lies past `low`, none past `high`.
    let (mut low, mut high) = (0u64, 1u64);
    while beyond(high).await? {
        low = high;
        high = high.saturating_mul(2);
        if high == u64::MAX {
            break;
        }
    }
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if beyond(mid).await? {
            low = mid;
        } else {
            high = mid;
        }
    }
    Ok(high)
}

#[derive(Debug, Deserialize)]
pub(crate) struct LiveQuery {
    #[serde(default)]
    after: u64,
}

/// `/live?after=POSITION`: every event appended past `POSITION`, as it arrives, with the HTML of
/// its row in a session and of its session's row in the timeline.
pub(crate) async fn stream(
    State(state): State<Shared>,
    Query(q): Query<LiveQuery>,
    headers: axum::http::HeaderMap,
) -> Sse<impl Stream<Item = std::result::Result<Event, Infallible>>> {
    // A reconnecting browser says what it saw last.
    let seen = headers.get("last-event-id").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let after = seen.unwrap_or(0).max(q.after);
    let events = futures_util::stream::unfold(
        (state, after, Vec::<Event>::new()),
        |(state, mut cursor, mut queue)| async move {
            loop {
                if !queue.is_empty() {
                    let next = queue.remove(0);
                    return Some((Ok(next), (state, cursor, queue)));
                }
                tokio::time::sleep(POLL).await;
                let Ok(batch) = state.store.events_after(cursor, BATCH).await else { continue };
                if batch.is_empty() {
                    continue;
                }
                let names = catalog(&state).await.ok();
                for stored in batch {
                    cursor = cursor.max(stored.position);
                    if twin_of_earlier(&state, &stored).await {
                        continue;
                    }
                    let title =
                        sessions::title(state.store.as_ref(), &stored.event.session).await.ok().flatten();
                    let e = &stored.event;
                    let project = e.project.as_deref().map(|id| {
                        names
                            .as_ref()
                            .and_then(|c| c.projects().iter().find(|k| k.id == id))
                            .map_or(id, |k| k.name.as_str())
                            .to_owned()
                    });
                    let info = SessionInfo {
                        key: e.session.clone(),
                        harness: e.harness.name.clone(),
                        project: e.project.clone(),
                        owner: e.owner.clone(),
                        started_at: e.occurred_at,
                        last_at: e.occurred_at,
                        events: stored.seq,
                    };
                    let data = json!({
                        "position": stored.position,
                        "session": e.session.as_str(),
                        "seq": stored.seq,
                        "event_html": event_row(&stored, &names.as_ref().map(|c| c.naming()).unwrap_or_default()),
                        "session_html": session_row(&info, project.as_deref(), title.as_deref()),
                    });
                    queue.push(
                        Event::default()
                            .event("event")
                            .id(stored.position.to_string())
                            .data(data.to_string()),
                    );
                }
            }
        },
    );
    Sse::new(events).keep_alive(KeepAlive::default())
}

/// Whether `stored` is the second report of a call an earlier event of its session reported
/// ([`sessions::merge_twins`]): the page shows that call once.
async fn twin_of_earlier(state: &Shared, stored: &StoredEvent) -> bool {
    let from = stored.seq.saturating_sub(sessions::TWIN_REACH as u64 + 1);
    let Ok(mut earlier) = state.store.timeline(&stored.event.session, from, sessions::TWIN_REACH + 1).await
    else {
        return false;
    };
    earlier.retain(|e| e.seq < stored.seq);
    let count = earlier.len();
    earlier.push(stored.clone());
    sessions::merge_twins(earlier).len() == count
}

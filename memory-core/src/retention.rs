//! Retention: which events a prune removes, the same rule for every store.
//!
//! An event goes once it is older than the configured age and the dream has distilled it (its
//! position is at or below every dream watermark). Sessions lose a prefix of their events, never
//! one in the middle: a session's chain stays whole from its first remaining event, whose `seq`
//! keeps its number, and later appends continue the numbering. Notes keep their ids and the ids
//! of the events they were derived from, even once those events are gone.

use chrono::{DateTime, Utc};

/// For each session, the last `seq` a prune removes: the longest run of its events, from its
/// first stored one, that occurred before `before`. `events` are `(session, seq, occurred_at)`
/// of the events at or below the prune's position limit, ordered by session then seq (within a
/// session they are a prefix of its chain, since positions grow with seqs). Sessions that lose
/// nothing are left out.
pub fn prefix_cuts<S: AsRef<str>>(
    events: impl IntoIterator<Item = (S, u64, DateTime<Utc>)>,
    before: DateTime<Utc>,
) -> Vec<(String, u64)> {
    let mut cuts: Vec<(String, u64)> = Vec::new();
    // The session being read, and whether its prefix is still running.
    let mut current: Option<(String, bool)> = None;
    for (session, seq, at) in events {
        let session = session.as_ref();
        if current.as_ref().is_none_or(|(s, _)| s != session) {
            current = Some((session.to_owned(), true));
        }
        let Some((_, running)) = current.as_mut() else { continue };
        if !*running {
            continue;
        }
        if at >= before {
            *running = false;
            continue;
        }
        match cuts.last_mut() {
            Some((s, last)) if s == session => *last = seq,
            _ => cuts.push((session.to_owned(), seq)),
        }
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_old_prefix_of_each_session_goes() {
        let t = |h: i64| DateTime::from_timestamp(h * 3600, 0).unwrap();
        let events = [
            ("a", 1, t(1)),
            ("a", 2, t(2)),
            ("a", 3, t(9)), // young: ends a's prefix
            ("a", 4, t(2)), // old, but after a young one
            ("b", 5, t(9)),
            ("c", 7, t(1)),
        ];
        assert_eq!(prefix_cuts(events, t(5)), [("a".to_owned(), 2), ("c".to_owned(), 7)]);
        assert!(prefix_cuts(Vec::<(&str, u64, DateTime<Utc>)>::new(), t(5)).is_empty());
    }
}

//! Times as people read them: in the local time zone (the `TZ` variable, else the system's),
//! with the zone named, or in UTC with `--utc`.

use chrono::{DateTime, Utc};
use jiff::tz::TimeZone;

/// The zone times are shown in.
#[derive(Debug, Clone)]
pub(crate) struct Clock {
    zone: TimeZone,
}

impl Clock {
    /// The local zone: `TZ` when set, else the system's; UTC when neither can be read.
    pub(crate) fn local() -> Self {
        Self { zone: TimeZone::try_system().unwrap_or(TimeZone::UTC) }
    }

    /// UTC.
    pub(crate) fn utc() -> Self {
        Self { zone: TimeZone::UTC }
    }

    /// A named IANA zone (`America/New_York`).
    #[cfg(test)]
    pub(crate) fn named(name: &str) -> Self {
        Self { zone: TimeZone::get(name).expect("a known zone") }
    }

    fn zoned(&self, at: DateTime<Utc>) -> jiff::ZonedDateTime {
        let nanos = i128::from(at.timestamp()) * 1_000_000_000 + i128::from(at.timestamp_subsec_nanos());
        jiff::Timestamp::from_nanosecond(nanos)
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
            .to_zoned_datetime(self.zone.clone())
    }

    /// Date and minute with the zone's abbreviation: `2026-12-01 08:40 EST`.
    pub(crate) fn minute(&self, at: DateTime<Utc>) -> String {
        self.zoned(at).strftime("%Y-%m-%d %H:%M %Z").to_string()
    }

    /// Date and second, without the zone (for columns whose header names it).
    pub(crate) fn second(&self, at: DateTime<Utc>) -> String {
        self.zoned(at).strftime("%Y-%m-%d %H:%M:%S").to_string()
    }

    /// How long before `now` `at` was, with the local time: `2 minutes ago (14:02)`, the date
    /// too when it was another day (`3 days ago (2026-12-01 14:02)`).
    pub(crate) fn ago(&self, at: DateTime<Utc>, now: DateTime<Utc>) -> String {
        let seconds = (now - at).num_seconds().max(0);
        let span = match seconds {
            0..60 => "just now".to_owned(),
            60..3_600 => plural(seconds / 60, "minute"),
            3_600..86_400 => plural(seconds / 3_600, "hour"),
            _ => plural(seconds / 86_400, "day"),
        };
        let (then, today) = (self.zoned(at), self.zoned(now));
        let time = if then.date() == today.date() {
            then.strftime("%H:%M").to_string()
        } else {
            then.strftime("%Y-%m-%d %H:%M").to_string()
        };
        format!("{span} ({time})")
    }

    /// The zone's abbreviation at `at` (`EST`, `UTC`).
    pub(crate) fn abbreviation(&self, at: DateTime<Utc>) -> String {
        self.zoned(at).strftime("%Z").to_string()
    }
}

fn plural(n: i64, unit: &str) -> String {
    if n == 1 { format!("1 {unit} ago") } else { format!("{n} {unit}s ago") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_times_carry_their_zone() {
        let at = DateTime::parse_from_rfc3339("2026-12-01T12:40:05Z").unwrap().with_timezone(&Utc);
        assert_eq!(Clock::named("America/New_York").minute(at), "2026-12-01 07:40 EST");
        assert_eq!(Clock::named("Asia/Kolkata").second(at), "2026-12-01 18:10:05");
        assert_eq!(Clock::utc().minute(at), "2026-12-01 12:40 UTC");
        let summer = DateTime::parse_from_rfc3339("2026-07-01T12:00:00Z").unwrap().with_timezone(&Utc);
        assert_eq!(Clock::named("America/New_York").abbreviation(summer), "EDT");
    }

    #[test]
    fn how_long_ago_in_local_time() {
        let now = DateTime::parse_from_rfc3339("2026-12-01T13:04:00Z").unwrap().with_timezone(&Utc);
        let berlin = Clock::named("Europe/Berlin");
        let before = |seconds: i64| now - chrono::Duration::seconds(seconds);
        assert_eq!(berlin.ago(before(20), now), "just now (14:03)");
        assert_eq!(berlin.ago(before(120), now), "2 minutes ago (14:02)");
        assert_eq!(berlin.ago(before(3_600), now), "1 hour ago (13:04)");
        assert_eq!(berlin.ago(before(3 * 86_400), now), "3 days ago (2026-11-28 14:04)");
    }
}

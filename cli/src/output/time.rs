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

    /// Date and second with the zone's abbreviation: `2026-12-01 08:40:05 EST`.
    pub(crate) fn exact(&self, at: DateTime<Utc>) -> String {
        self.zoned(at).strftime("%Y-%m-%d %H:%M:%S %Z").to_string()
    }

    /// Date and second, without the zone (for columns whose header names it).
    pub(crate) fn second(&self, at: DateTime<Utc>) -> String {
        self.zoned(at).strftime("%Y-%m-%d %H:%M:%S").to_string()
    }

    /// The zone's abbreviation at `at` (`EST`, `UTC`).
    pub(crate) fn abbreviation(&self, at: DateTime<Utc>) -> String {
        self.zoned(at).strftime("%Z").to_string()
    }
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
        assert_eq!(Clock::named("America/New_York").exact(at), "2026-12-01 07:40:05 EST");
        let summer = DateTime::parse_from_rfc3339("2026-07-01T12:00:00Z").unwrap().with_timezone(&Utc);
        assert_eq!(Clock::named("America/New_York").abbreviation(summer), "EDT");
    }
}

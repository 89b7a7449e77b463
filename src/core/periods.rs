//! The operator's time zone and the calendar periods a campaign's per-employee limit counts in:
//! the day, the ISO week (from Monday) and the month as they are in that zone, or the campaign's
//! whole life. Time-zone rules are jiff's, from the IANA database bundled in the binary, so a
//! server's own zone files (or their absence) change nothing.

use jiff::tz::TimeZone;
use jiff::{Span, Timestamp};
use time::OffsetDateTime;

/// The operator's time zone when `serve --time-zone` names none.
pub const DEFAULT_ZONE: &str = "Asia/Baku";

/// The zone periods are counted in (`serve --time-zone`).
#[derive(Clone, Debug)]
pub struct OperatorZone {
    name: String,
    zone: TimeZone,
}

impl OperatorZone {
    /// The zone of an IANA name (`Asia/Baku`, `Europe/Istanbul`, `UTC`); an unknown name is
    /// refused in one line that says what is wanted.
    pub fn named(name: &str) -> Result<OperatorZone, String> {
        let zone = jiff::tz::db().get(name).map_err(|_| {
            format!("'{name}' is not a time zone of the IANA database (e.g. Asia/Baku, Europe/Istanbul, UTC)")
        })?;
        Ok(OperatorZone { name: name.to_string(), zone })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// When the `period` that holds `now` began, in UTC; `None` for the campaign's life, which
    /// has no start of its own (every use counts).
    pub fn period_start(&self, period: Period, now: OffsetDateTime) -> Option<OffsetDateTime> {
        let now = Timestamp::from_second(now.unix_timestamp()).ok()?.to_zoned(self.zone.clone());
        let today = now.date();
        let first_day = match period {
            Period::Campaign => return None,
            Period::Day => today,
            Period::Week => today.checked_sub(Span::new().days(today.weekday().to_monday_zero_offset())).ok()?,
            Period::Month => today.first_of_month(),
        };
        // The first moment of that day in the zone (a day that starts at 01:00 after a change of
        // clocks starts then).
        let start = first_day.to_zoned(self.zone.clone()).and_then(|day| day.start_of_day()).ok()?;
        OffsetDateTime::from_unix_timestamp(start.timestamp().as_second()).ok()
    }
}

impl Default for OperatorZone {
    fn default() -> OperatorZone {
        OperatorZone::named(DEFAULT_ZONE).unwrap_or_else(|_| OperatorZone { name: "UTC".into(), zone: TimeZone::UTC })
    }
}

/// What a per-employee limit counts uses over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    Day,
    Week,
    Month,
    Campaign,
}

impl Period {
    /// The stored and sent names.
    pub const NAMES: [&'static str; 4] = ["day", "week", "month", "campaign"];

    pub fn parse(name: &str) -> Option<Period> {
        match name {
            "day" => Some(Period::Day),
            "week" => Some(Period::Week),
            "month" => Some(Period::Month),
            "campaign" => Some(Period::Campaign),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn start(zone: &str, period: Period, now: OffsetDateTime) -> Option<OffsetDateTime> {
        OperatorZone::named(zone).unwrap().period_start(period, now)
    }

    #[test]
    fn periods_begin_at_the_zones_midnight() {
        // 2026-11-28 is a Saturday; in Baku (UTC+4) 01:30 UTC is already 05:30 that day.
        let now = datetime!(2026-11-28 01:30 UTC);
        assert_eq!(start("Asia/Baku", Period::Day, now), Some(datetime!(2026-11-27 20:00 UTC)));
        assert_eq!(start("Asia/Baku", Period::Week, now), Some(datetime!(2026-11-22 20:00 UTC)));
        assert_eq!(start("Asia/Baku", Period::Month, now), Some(datetime!(2026-10-31 20:00 UTC)));
        assert_eq!(start("Asia/Baku", Period::Campaign, now), None);
        // 22:00 UTC on Sunday is Monday in Baku: a new week.
        let late = datetime!(2026-11-29 22:00 UTC);
        assert_eq!(start("Asia/Baku", Period::Week, late), Some(datetime!(2026-11-29 20:00 UTC)));
        assert_eq!(start("UTC", Period::Week, late), Some(datetime!(2026-11-23 00:00 UTC)));
    }

    #[test]
    fn a_day_after_a_change_of_clocks_starts_when_the_zone_says() {
        // Berlin moves from UTC+1 to UTC+2 on 2026-03-29: that day began at 23:00 UTC the day
        // before, and the month at 23:00 UTC on the last day of February.
        let now = datetime!(2026-03-29 12:00 UTC);
        assert_eq!(start("Europe/Berlin", Period::Day, now), Some(datetime!(2026-03-28 23:00 UTC)));
        assert_eq!(start("Europe/Berlin", Period::Month, now), Some(datetime!(2026-02-28 23:00 UTC)));
    }

    #[test]
    fn unknown_zones_are_refused_in_one_line() {
        let refused = OperatorZone::named("Mars/Olympus").unwrap_err();
        assert!(refused.contains("'Mars/Olympus' is not a time zone"), "{refused}");
        assert_eq!(OperatorZone::default().name(), "Asia/Baku");
    }
}

//! Times as the database stores them: UTC, ISO 8601 with milliseconds (`2026-11-28T08:14:51.000Z`),
//! which sort as text in time order on both engines.

/// The current time as stored in the database.
pub fn now_iso() -> String {
    format_iso(time::OffsetDateTime::now_utc())
}

pub fn format_iso(at: time::OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.millisecond()
    )
}

//! Times as the database stores them: UTC, ISO 8601 with milliseconds (`2026-11-28T08:14:51.000Z`),
//! which sort as text in time order on both engines.

/// The current time as stored in the database.
pub fn now_iso() -> String {
    format_iso(time::OffsetDateTime::now_utc())
}

/// `at` as stored. Written digit by digit: a use formats its moment and its rules' windows some
/// nine times, and `format!` made that a thirtieth of the inbound write's instructions.
pub fn format_iso(at: time::OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    let year = match u32::try_from(at.year()) {
        Ok(year) if year <= 9999 => year,
        // A year of more or fewer than four digits (none that perkdesk stores) as `format!` writes it.
        _ => return format_with_formatter(at),
    };
    let mut text = String::with_capacity(24);
    push_digits(&mut text, year, 4);
    for (separator, value, width) in [
        ('-', u8::from(at.month()).into(), 2),
        ('-', at.day().into(), 2),
        ('T', at.hour().into(), 2),
        (':', at.minute().into(), 2),
        (':', at.second().into(), 2),
        ('.', at.millisecond().into(), 3),
    ] {
        text.push(separator);
        push_digits(&mut text, value, width);
    }
    text.push('Z');
    text
}

/// The last `width` (at most four) decimal digits of `value`, zero-padded.
fn push_digits(text: &mut String, value: u32, width: usize) {
    const PLACES: [u32; 4] = [1000, 100, 10, 1];
    for place in &PLACES[PLACES.len().saturating_sub(width)..] {
        let digit = (value / place % 10) as u8;
        text.push(char::from(b'0' + digit));
    }
}

fn format_with_formatter(at: time::OffsetDateTime) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_the_formatter_does() {
        for at in [
            time::macros::datetime!(2026-11-28 08:14:51.007 UTC),
            time::macros::datetime!(0001-01-01 00:00:00 UTC),
            time::macros::datetime!(9999-12-31 23:59:59.999 UTC),
            time::macros::datetime!(2026-03-01 01:02:03.450 +04:00),
            time::macros::datetime!(-0044-03-15 12:00:00 UTC),
        ] {
            assert_eq!(format_iso(at), format_with_formatter(at.to_offset(time::UtcOffset::UTC)), "{at}");
        }
        assert_eq!(format_iso(time::macros::datetime!(2026-11-28 08:14:51.007 UTC)), "2026-11-28T08:14:51.007Z");
    }
}

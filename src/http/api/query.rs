//! Query parameter schemas that say exactly what `extract::QueryMap` and the list parser accept:
//! values are trimmed (numbers too: `%0D+4` is 4), and a blank value counts as not given.
use crate::core::patterns::{self, white_space};
use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Type};
use utoipa::openapi::{RefOr, Schema};

/// Blank (white space only): the parameter is not applied.
use crate::core::patterns::BLANK;
fn blank() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String).pattern(Some(BLANK))
}

/// A whole number in `min..=max`, or blank.
pub fn int(min: i64, max: i64) -> RefOr<Schema> {
    any_of([Some(integer(min, max)), padded(min, max), fraction_spelled(min, max, true), Some(blank())])
}

/// A whole number in `min..=max` (a required parameter, which cannot be blank).
pub fn whole(min: i64, max: i64) -> RefOr<Schema> {
    any_of([Some(integer(min, max)), padded(min, max), fraction_spelled(min, max, true)])
}

/// A numeric id in a path, read untrimmed (`extract::PathId`).
pub fn path_id() -> RefOr<Schema> {
    let int64 = utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64);
    any_of([Some(integer(i64::MIN, i64::MAX).format(Some(int64))), fraction_spelled(i64::MIN, i64::MAX, false)])
}

fn any_of<const N: usize>(alternatives: [Option<ObjectBuilder>; N]) -> RefOr<Schema> {
    let any_of = alternatives.into_iter().flatten().fold(AnyOfBuilder::new(), |any_of, item| any_of.item(item));
    RefOr::T(Schema::AnyOf(any_of.build()))
}

fn integer(min: i64, max: i64) -> ObjectBuilder {
    // As integers: a float bound (i64::MAX as f64) would round past what the server parses.
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(utoipa::Number::Int(min as isize)))
        .maximum(Some(utoipa::Number::Int(max as isize)))
}

/// The range's numbers with white space around them, which a query's trimming reads as the number
/// (`Take=%0D+4` is 4): without it the document would call refused what the server accepts.
fn padded(min: i64, max: i64) -> Option<ObjectBuilder> {
    let number = whole_numbers_pattern(min, max, ALL_DIGITS)?;
    let pattern = format!(r"^{ws}*({number}){ws}*$", ws = patterns::WHITE_SPACE);
    Some(ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern)))
}

/// Digits enough for every `i64` (`-9223372036854775808`).
const ALL_DIGITS: usize = 19;

/// The same numbers written as a client that holds numbers as floats writes a whole one (`7.0`),
/// as `core::validation::parse_whole` reads them: the range's numbers of at most
/// `FRACTION_SPELLED_DIGITS` digits, without a leading zero, then a point and zeros; around them
/// white space where the value is trimmed (a query's, not a path's).
fn fraction_spelled(min: i64, max: i64, trimmed: bool) -> Option<ObjectBuilder> {
    let number = whole_numbers_pattern(min, max, crate::core::validation::FRACTION_SPELLED_DIGITS)?;
    let pattern = if trimmed {
        format!(r"^{ws}*({number})\.0+{ws}*$", ws = patterns::WHITE_SPACE)
    } else {
        format!(r"^({number})\.0+$")
    };
    Some(ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern)))
}

/// A regular expression (alternatives, unanchored) for the whole numbers in `min..=max` with at
/// most `digits` digits, written without a leading zero, a negative one with `-` (never `-0`);
/// `None` when there is none.
fn whole_numbers_pattern(min: i64, max: i64, digits: usize) -> Option<String> {
    let largest = 10u64.saturating_pow(digits as u32).saturating_sub(1);
    let (min, max) = (i128::from(min), i128::from(max));
    let mut alternatives = Vec::new();
    // The negative ones by their magnitude.
    if min < 0 {
        let low = (-max.min(-1)) as u128;
        let high = ((-min) as u128).min(u128::from(largest));
        alternatives.extend(same_sign(low, high).into_iter().map(|magnitude| format!("-{}", group(&magnitude))));
    }
    if max >= 0 {
        alternatives.extend(same_sign(min.max(0) as u128, (max as u128).min(u128::from(largest))));
    }
    (!alternatives.is_empty()).then(|| alternatives.join("|"))
}

/// The numbers in `low..=high` (none when `low > high`): one alternative per digit count, the
/// counts whose every number is in the range as one (`[1-9][0-9]{1,14}`).
fn same_sign(low: u128, high: u128) -> Vec<String> {
    let mut alternatives = Vec::new();
    // The digit counts after the first whose numbers are all in, as (first, last) of their rests.
    let mut whole_run: Option<(u32, u32)> = None;
    let close_run = |run: &mut Option<(u32, u32)>, alternatives: &mut Vec<String>| {
        if let Some((first, last)) = run.take() {
            let rest = if first == last { format!("{{{first}}}") } else { format!("{{{first},{last}}}") };
            alternatives.push(format!("[1-9][0-9]{rest}"));
        }
    };
    let mut length = low.to_string().len() as u32;
    while low <= high && length <= high.to_string().len() as u32 {
        let first = if length == 1 { 0 } else { 10u128.pow(length - 1) };
        let last = 10u128.pow(length) - 1;
        let (from, to) = (low.max(first), high.min(last));
        if length > 1 && from == first && to == last {
            whole_run = Some(whole_run.map_or((length - 1, length - 1), |(first, _)| (first, length - 1)));
        } else {
            close_run(&mut whole_run, &mut alternatives);
            if from <= to {
                alternatives.push(same_length(&from.to_string(), &to.to_string()));
            }
        }
        length += 1;
    }
    close_run(&mut whole_run, &mut alternatives);
    alternatives
}

/// The numbers from `low` to `high`, both written with the same number of digits.
fn same_length(low: &str, high: &str) -> String {
    if low == high {
        return low.to_string();
    }
    let (low_first, low_rest) = low.split_at(1);
    let (high_first, high_rest) = high.split_at(1);
    if low_rest.is_empty() {
        return format!("[{low_first}-{high_first}]");
    }
    if low_first == high_first {
        return format!("{low_first}{}", group(&same_length(low_rest, high_rest)));
    }
    let rest = low_rest.len();
    let (low_digit, high_digit) = (digit(low_first), digit(high_first));
    let mut alternatives = Vec::new();
    // From `low` to the end of its first digit's run, unless that is the whole run.
    let middle_from = if low_rest.bytes().all(|b| b == b'0') {
        low_digit
    } else {
        alternatives.push(format!("{low_first}{}", group(&same_length(low_rest, &"9".repeat(rest)))));
        low_digit + 1
    };
    let high_whole = high_rest.bytes().all(|b| b == b'9');
    let middle_to = if high_whole { high_digit } else { high_digit - 1 };
    if middle_from <= middle_to {
        let first =
            if middle_from == middle_to { middle_from.to_string() } else { format!("[{middle_from}-{middle_to}]") };
        alternatives.push(format!("{first}[0-9]{{{rest}}}"));
    }
    if !high_whole {
        alternatives.push(format!("{high_first}{}", group(&same_length(&"0".repeat(rest), high_rest))));
    }
    alternatives.join("|")
}

fn digit(text: &str) -> u32 {
    text.bytes().next().map_or(0, |b| u32::from(b - b'0'))
}

/// `pattern` as one unit to follow or be followed by more.
fn group(pattern: &str) -> String {
    if pattern.contains('|') { format!("({pattern})") } else { pattern.to_string() }
}

/// `true`, `false`, `1` or `0` in any case, or blank.
pub fn bool() -> RefOr<Schema> {
    let text = ObjectBuilder::new().schema_type(Type::String).pattern(Some(concat!(
        "^",
        white_space!(),
        "*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01])?",
        white_space!(),
        "*$"
    )));
    RefOr::T(Schema::AnyOf(
        AnyOfBuilder::new().item(ObjectBuilder::new().schema_type(Type::Boolean)).item(text).build(),
    ))
}

/// Free text without control characters (a search term); the value is trimmed first, so
/// white space that is a control character (a line break) may surround it.
pub fn text() -> RefOr<Schema> {
    const PATTERN: &str = concat!("^", white_space!(), r"*[^\x00-\x1f\x7f-\x9f]*", white_space!(), "*$");
    RefOr::T(Schema::Object(ObjectBuilder::new().schema_type(Type::String).pattern(Some(PATTERN)).build()))
}

/// One of `names`, matched case-insensitively, or blank.
pub fn one_of(names: &[&str]) -> RefOr<Schema> {
    let alternatives: Vec<String> = names
        .iter()
        .map(|name| {
            name.chars()
                .map(|c| {
                    if c.is_ascii_alphabetic() {
                        format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
                    } else {
                        regex_escape(c)
                    }
                })
                .collect()
        })
        .collect();
    let pattern = format!("^{ws}*({})?{ws}*$", alternatives.join("|"), ws = patterns::WHITE_SPACE);
    RefOr::T(Schema::Object(ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern)).build()))
}

/// A day (`2026-11-22`, a UTC day) or an RFC 3339 instant (`2026-11-22T00:00:00+04:00`),
/// from 0001-01-01 to 9999-12-30. The server reads a day from the first ten characters of
/// anything that is not an instant, so the pattern allows text after the day.
pub fn date() -> RefOr<Schema> {
    // Years 0001-9998 and real month lengths; 29 February is left out, since a pattern cannot
    // tell leap years (the server accepts it in leap years only).
    let year = r"(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])";
    let month_day =
        r"((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))";
    let pattern = format!(r"^{ws}*({year}-{month_day}[\s\S]*)?$", ws = patterns::WHITE_SPACE);
    RefOr::T(Schema::Object(ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern)).build()))
}

/// A body of ids: `{"id": [..]}`, `{"ids": [..]}` or a bare `[..]`, 1 to 1000 ids;
/// `description` says what they are for.
pub fn id_list(description: &'static str) -> RefOr<Schema> {
    use utoipa::openapi::schema::{ArrayBuilder, OneOfBuilder};
    let ids = || {
        ArrayBuilder::new()
            .items(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64))),
            )
            .min_items(Some(1))
            .max_items(Some(1000))
    };
    // `id` and `ids` are one field under two names: an object holds exactly one of them.
    let keyed = |key: &str| {
        ObjectBuilder::new()
            .property(key, ids())
            .required(key)
            .additional_properties(Some(utoipa::openapi::schema::AdditionalProperties::FreeForm(false)))
    };
    RefOr::T(Schema::OneOf(
        OneOfBuilder::new().item(keyed("id")).item(keyed("ids")).item(ids()).description(Some(description)).build(),
    ))
}

fn regex_escape(c: char) -> String {
    if r"\.^$|?*+()[]{}-/".contains(c) { format!("\\{c}") } else { c.to_string() }
}

#[cfg(test)]
mod tests {
    use super::{ALL_DIGITS, whole_numbers_pattern};
    use crate::core::validation::FRACTION_SPELLED_DIGITS;
    use regex_automata::meta::Regex;

    fn within(min: i64, max: i64, n: i64, digits: usize) -> bool {
        (min..=max).contains(&n) && n.unsigned_abs().to_string().len() <= digits
    }

    #[test]
    fn the_whole_numbers_pattern_matches_exactly_the_range() {
        let edges: Vec<i64> = (0..=18u32)
            .flat_map(|power| {
                let ten = 10i64.pow(power);
                [ten - 2, ten - 1, ten, ten + 1, 2 * ten - 1, 5 * ten, 9 * ten - 1]
            })
            .flat_map(|n| [n, -n])
            .chain(-2_000..=2_000)
            .chain([i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1, 10_000, 9_999, 999_999_999_999_999])
            .collect();
        for (min, max) in [
            (0, i64::MAX),
            (1, 100),
            (i64::MIN, i64::MAX),
            (1, i64::MAX),
            (1, 9999),
            (-57, 1234),
            (-1234, -57),
            (190, 2100),
            (5, 5),
            (-3, -3),
            (10, 9),
        ] {
            for digits in [FRACTION_SPELLED_DIGITS, ALL_DIGITS] {
                let Some(numbers) = whole_numbers_pattern(min, max, digits) else {
                    assert!(min > max, "{min}..={max} has numbers");
                    continue;
                };
                let pattern = format!("^({numbers})$");
                let regex = Regex::new(&pattern).unwrap();
                for &n in &edges {
                    let expected = within(min, max, n, digits);
                    assert_eq!(regex.is_match(&n.to_string()), expected, "{n} in {min}..={max}: {pattern}");
                }
                for spelled in ["007", "-0", "00", "+5", "", "-"] {
                    assert!(!regex.is_match(spelled), "{spelled} in {min}..={max}: {pattern}");
                }
            }
        }
    }
}

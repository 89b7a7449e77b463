//! Query parameter schemas that say exactly what `extract::QueryMap` and the list parser accept:
//! values are trimmed, and a blank value counts as not given.
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
    RefOr::T(Schema::AnyOf(AnyOfBuilder::new().item(whole(min, max)).item(blank()).build()))
}

/// A whole number in `min..=max` (a required parameter, which cannot be blank).
pub fn whole(min: i64, max: i64) -> ObjectBuilder {
    // As integers: a float bound (i64::MAX as f64) would round past what the server parses.
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(utoipa::Number::Int(min as isize)))
        .maximum(Some(utoipa::Number::Int(max as isize)))
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

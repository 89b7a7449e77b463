//! Reading and checking a form's values against its declared fields, in declared order with the
//! specification's messages, from a multipart form or a JSON object; and the values as read,
//! column by column, for the write.

use crate::db::sql::Value as SqlValue;
use serde_json::Value;

use super::{Bounds, Columns, Field, FieldKind, Mode, OnEdit};
use crate::core::error::{AppError, AppResult};
use crate::core::validation::{self, Validator};
use crate::db::sql::on_constraint;
use crate::http::fields::{self, Number};
use crate::http::forms::Form;

impl Field {
    /// Reads a decimal for a whole number that names its fraction refusal, or a flag, as their
    /// kinds say; `None` for every other field, which is read as a number or as text.
    fn read_special(&self, source: &dyn Source, v: &mut Validator) -> Option<String> {
        match self.kind {
            FieldKind::Whole(bounds @ Bounds { fraction: Some(fraction), .. }) => {
                Some(match source.decimal(self.name) {
                    Decimal::Missing => {
                        if let Some(message) = self.required {
                            v.check(self.name, false, message);
                        }
                        String::new()
                    }
                    Decimal::Invalid => {
                        v.check(self.name, false, bounds.invalid);
                        String::new()
                    }
                    Decimal::Value(x) => {
                        v.check(self.name, x >= bounds.min as f64, bounds.below)
                            .check(self.name, x <= bounds.max as f64, bounds.above)
                            .check(self.name, x.fract() == 0.0, fraction);
                        if v.has(self.name) { String::new() } else { (x as i64).to_string() }
                    }
                })
            }
            FieldKind::Flag { invalid } => {
                let flag = source.flag(self.name);
                v.check(self.name, flag.is_some(), invalid);
                Some(if flag == Some(true) { "1" } else { "0" }.to_string())
            }
            _ => None,
        }
    }

    /// Checks `value` (trimmed) with the field's rules, first failure first; a maximum length
    /// counts the `sent` characters (before trimming), as the document does.
    fn check(&self, v: &mut Validator, value: &str, sent: usize) {
        match self.kind {
            // The e-mail rule names its own required message.
            FieldKind::Email => {
                if let Some(message) = self.required {
                    v.email(self.name, value, message).at_most_sent(self.name, sent, 50);
                } else if !value.is_empty() {
                    v.check(self.name, validation::is_email(value), validation::EMAIL_FORMAT)
                        .length(self.name, value, 3, 50)
                        .at_most_sent(self.name, sent, 50);
                }
                return;
            }
            _ => {
                if let Some(message) = self.required {
                    v.required(self.name, value, message);
                }
            }
        }
        match self.kind {
            FieldKind::Phone => {
                v.phone(self.name, value);
            }
            FieldKind::Checked(check) if !value.is_empty() => {
                v.check(self.name, (check.test)(value), check.message);
            }
            _ => {}
        }
        if let Some((min, max)) = self.length
            && (self.required.is_some() || !value.is_empty())
        {
            v.length(self.name, value, min, max).at_most_sent(self.name, sent, max);
        }
    }

    /// Checks a number field; the value as text (empty when missing or refused).
    fn check_number(&self, v: &mut Validator, sent: Number) -> String {
        match (self.kind, sent) {
            (FieldKind::Id { .. }, Number::Whole(id)) if id > 0 => id.to_string(),
            (FieldKind::Whole(bounds), Number::Whole(n)) if (bounds.min..=bounds.max).contains(&n) => n.to_string(),
            (FieldKind::Whole(bounds), Number::Whole(n)) => {
                v.check(self.name, false, if n < bounds.min { bounds.below } else { bounds.above });
                String::new()
            }
            (FieldKind::Id { .. }, Number::Whole(_)) | (_, Number::Missing) => {
                match self.required {
                    Some(message) => v.check(self.name, false, message),
                    // An optional id that is sent as 0 or less names no row.
                    None if sent != Number::Missing => v.check(self.name, false, self.refusal()),
                    None => v,
                };
                String::new()
            }
            _ => {
                v.check(self.name, false, self.refusal());
                String::new()
            }
        }
    }

    fn refusal(&self) -> &'static str {
        match self.kind {
            FieldKind::Id { invalid } => invalid,
            FieldKind::Whole(bounds) => bounds.invalid,
            _ => "",
        }
    }
}

/// What a form sent for one field.
pub enum Sent {
    /// Not sent (or JSON `null`).
    Missing,
    /// Text (trimmed, except a password, which is checked as typed).
    Text(String),
    /// A JSON value that is not text (a number, a list): refused as "{field} must be text".
    NotText,
}

/// What a decimal field held.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decimal {
    Missing,
    Invalid,
    Value(f64),
}

/// A decimal typed with a point or a comma; not a finite number is `Invalid`.
fn decimal_text(text: &str) -> Decimal {
    match text.trim() {
        "" => Decimal::Missing,
        text => text
            .replace(',', ".")
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map_or(Decimal::Invalid, Decimal::Value),
    }
}

/// Where a form's values come from: a multipart form, or a JSON body read as an object.
pub trait Source {
    fn value(&self, name: &str) -> Sent;
    /// A number field: a JSON number, or numeric text.
    fn number(&self, name: &str) -> Number;
    /// A decimal: a JSON number, or text with a point or a comma.
    fn decimal(&self, name: &str) -> Decimal;
    /// A yes/no; `Some(false)` when missing or empty, `None` when it is neither.
    fn flag(&self, name: &str) -> Option<bool>;
    /// The characters a text field was sent with before trimming: a maximum length counts them,
    /// as the document's `maxLength` does (a value padded past it with blanks is refused).
    fn sent_chars(&self, name: &str) -> usize;
    /// Whether the field was sent as blank text where the body's types name a number or null (a
    /// JSON body); a form's empty part is a field left empty, as not sent.
    fn sent_blank(&self, _name: &str) -> bool {
        false
    }
}

/// A flag's text: `true`/`on`/`1`, or `false`/`off`/`0`/empty.
fn flag_text(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Some(true),
        "" | "false" | "off" | "0" => Some(false),
        _ => None,
    }
}

impl Source for Form {
    fn value(&self, name: &str) -> Sent {
        if self.has(name) { Sent::Text(self.text(name)) } else { Sent::Missing }
    }

    fn sent_chars(&self, name: &str) -> usize {
        Form::sent_chars(self, name)
    }

    /// The number, or blank for none, as the document says of every form number: the text `null`
    /// is no number (the panel leaves a missing value out of its form).
    fn number(&self, name: &str) -> Number {
        fields::number(Some(&Value::String(self.text(name))))
    }

    fn decimal(&self, name: &str) -> Decimal {
        decimal_text(&self.text(name))
    }

    fn flag(&self, name: &str) -> Option<bool> {
        flag_text(&self.text(name))
    }
}

impl Source for serde_json::Map<String, Value> {
    fn value(&self, name: &str) -> Sent {
        match self.get(name) {
            None | Some(Value::Null) => Sent::Missing,
            Some(Value::String(text)) if validation::is_password(name) => Sent::Text(text.clone()),
            Some(Value::String(text)) => Sent::Text(text.trim().to_string()),
            Some(_) => Sent::NotText,
        }
    }

    fn sent_chars(&self, name: &str) -> usize {
        self.get(name).and_then(Value::as_str).map_or(0, |text| text.chars().count())
    }

    fn sent_blank(&self, name: &str) -> bool {
        self.get(name).and_then(Value::as_str).is_some_and(|text| text.trim().is_empty())
    }

    fn number(&self, name: &str) -> Number {
        fields::number(self.get(name))
    }

    fn decimal(&self, name: &str) -> Decimal {
        match self.get(name) {
            None | Some(Value::Null) => Decimal::Missing,
            Some(Value::Number(n)) => n.as_f64().map_or(Decimal::Invalid, Decimal::Value),
            Some(Value::String(text)) => decimal_text(text),
            Some(_) => Decimal::Invalid,
        }
    }

    fn flag(&self, name: &str) -> Option<bool> {
        match self.get(name) {
            None | Some(Value::Null) => Some(false),
            Some(Value::String(text)) => flag_text(text),
            value => fields::flag(value),
        }
    }
}

/// A JSON body (already read into its typed struct, so its types are checked) as the object
/// its declared fields are read from.
pub fn json_object(body: &impl serde::Serialize) -> AppResult<serde_json::Map<String, Value>> {
    match serde_json::to_value(body).map_err(|e| AppError::Internal(e.into()))? {
        Value::Object(object) => Ok(object),
        _ => Err(AppError::Internal(anyhow::anyhow!("a form body is not a JSON object"))),
    }
}

/// Reads and checks `fields` in their declared order, recording failures in `v`: the declared
/// form of a write, or of a form that writes no row of its own (signing in).
pub fn read_fields(fields: &'static [Field], source: &dyn Source, mode: Mode, v: &mut Validator) -> Values {
    let mut values = Vec::with_capacity(fields.len());
    for field in fields.iter().filter(|field| field.read_on(mode)) {
        if let Some(value) = field.read_special(source, v) {
            values.push((field, Some(value)));
            continue;
        }
        if field.is_number() {
            let mut sent = source.number(field.name);
            // A JSON body names an optional row by its id or null (the document's types): blank
            // text there names none, refused as an id that is no row's. A required one keeps its
            // required message.
            if matches!(field.kind, FieldKind::Id { .. }) && field.required.is_none() && source.sent_blank(field.name) {
                sent = Number::Whole(0);
            }
            if sent == Number::Missing && mode == Mode::Update && field.on_edit == OnEdit::KeptUnlessSent {
                values.push((field, None));
            } else {
                values.push((field, Some(field.check_number(v, sent))));
            }
            continue;
        }
        let value = match source.value(field.name) {
            Sent::Missing if mode == Mode::Update && field.on_edit == OnEdit::KeptUnlessSent => {
                values.push((field, None));
                continue;
            }
            Sent::Missing => String::new(),
            Sent::Text(text) => text,
            Sent::NotText => {
                v.check(field.name, false, &format!("{} must be text", field.name));
                String::new()
            }
        };
        field.check(v, &value, source.sent_chars(field.name));
        values.push((field, Some(value)));
    }
    Values { values }
}

/// Reads a JSON body that is only these fields (a create), refusing it with every failure.
pub fn read_json_fields(fields: &'static [Field], body: &Value) -> AppResult<Values> {
    let mut v = Validator::new();
    let values = read_fields(fields, crate::http::fields::object(body)?, Mode::Create, &mut v);
    v.finish()?;
    Ok(values)
}

/// The declared fields' values as read: per field, `None` for a kept field an edit did not send.
pub struct Values {
    values: Vec<(&'static Field, Option<String>)>,
}

impl Values {
    /// The value of the field sent as `name` (empty when it was not sent).
    pub fn get(&self, name: &str) -> &str {
        self.values.iter().find(|(field, _)| field.name == name).and_then(|(_, value)| value.as_deref()).unwrap_or("")
    }

    /// A number field's value (`None` when it was not sent, or refused).
    pub fn number(&self, name: &str) -> Option<i64> {
        self.get(name).parse().ok()
    }

    /// The stored fields by column: text, a number (NULL when an optional one was not sent), or
    /// kept, for a kept field an edit did not send.
    pub fn stored(&self) -> Columns {
        self.values.iter().fold(Columns::new(), |columns, (field, value)| {
            let Some(column) = field.column else { return columns };
            let numeric = field.is_number() || matches!(field.kind, FieldKind::Flag { .. });
            let value = value.as_ref().map(|text| match (numeric, text.parse::<i64>()) {
                (true, Ok(number)) => SqlValue::Integer(number),
                (true, Err(_)) => SqlValue::Null,
                (false, _) => SqlValue::Text(text.clone()),
            });
            columns.set_or_keep(column, value)
        })
    }

    /// The first unique field, with the message a taken value answers (tables here hold one
    /// unique column at most).
    pub fn unique(&self) -> Option<(&'static str, &'static str)> {
        self.values.iter().find_map(|(field, _)| field.unique.map(|message| (field.name, message)))
    }

    /// Turns a taken unique value into the 409 of the first unique field.
    pub fn on_constraint(&self) -> impl Fn(crate::db::sql::Error) -> AppError {
        let unique = self.unique();
        move |error| match unique {
            Some((field, message)) => on_constraint(field, message)(error),
            None => error.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static FIELDS: &[Field] = &[
        Field::input("campaignId", FieldKind::Id { invalid: "Campaign id must be a number" })
            .required("Campaign is required"),
        Field::input("branchId", FieldKind::Id { invalid: "branchId must be an id" }),
        Field::input("rating", FieldKind::Whole(&Bounds::one_message(1, 5, "Rating must be 1 to 5"))),
        Field::input("text", FieldKind::Text).required("Text is required").max_length(5),
    ];

    fn read(body: serde_json::Value) -> (Values, Validator) {
        let mut v = Validator::new();
        let object = body.as_object().cloned().unwrap_or_default();
        let values = read_fields(FIELDS, &object, Mode::Create, &mut v);
        (values, v)
    }

    fn errors(body: serde_json::Value) -> serde_json::Value {
        match read(body).1.finish() {
            Ok(()) => json!({}),
            Err(AppError::Validation { errors, .. }) => json!(errors),
            Err(other) => json!(other.to_string()),
        }
    }

    #[test]
    fn blank_text_for_an_optional_id_in_json_is_refused_and_for_a_required_one_is_required() {
        let body = json!({"campaignId": "  ", "branchId": "", "text": "x"});
        let mut v = Validator::new();
        read_fields(FIELDS, body.as_object().unwrap(), Mode::Create, &mut v);
        let Err(AppError::Validation { errors, .. }) = v.finish() else { panic!("refused") };
        assert_eq!(errors["campaignId"], "Campaign is required");
        assert_eq!(errors["branchId"], "branchId must be an id");
    }

    #[test]
    fn numbers_are_read_from_json_numbers_and_numeric_text() {
        let (values, v) = read(json!({"campaignId": 7, "branchId": "3", "rating": 5.0, "text": "abc"}));
        assert!(v.finish().is_ok());
        assert_eq!(
            (values.number("campaignId"), values.number("branchId"), values.number("rating")),
            (Some(7), Some(3), Some(5))
        );
        let (values, v) = read(json!({"campaignId": 7, "text": "abc"}));
        assert!(v.finish().is_ok());
        assert_eq!((values.number("branchId"), values.number("rating")), (None, None));
    }

    #[test]
    fn each_number_rule_answers_its_own_message() {
        assert_eq!(
            errors(json!({"text": "abc"})),
            json!({"campaignId": "Campaign is required"}),
            "a missing required id"
        );
        assert_eq!(errors(json!({"campaignId": 0, "text": "abc"}))["campaignId"], "Campaign is required");
        assert_eq!(errors(json!({"campaignId": "x", "text": "abc"}))["campaignId"], "Campaign id must be a number");
        assert_eq!(
            errors(json!({"campaignId": 1, "branchId": 0, "text": "abc"}))["branchId"],
            "branchId must be an id"
        );
        assert_eq!(
            errors(json!({"campaignId": 1, "branchId": true, "text": "abc"}))["branchId"],
            "branchId must be an id"
        );
        for rating in [json!(0), json!(6), json!(1.5), json!("five")] {
            assert_eq!(
                errors(json!({"campaignId": 1, "rating": rating, "text": "abc"}))["rating"],
                "Rating must be 1 to 5"
            );
        }
        assert_eq!(errors(json!({"campaignId": 1, "text": "abcdef"}))["text"], "Maximum 5 symbols");
        assert_eq!(errors(json!({"campaignId": 1, "text": 5}))["text"], "text must be text");
    }

    #[test]
    fn a_number_is_stored_as_a_number_and_a_missing_optional_one_as_null() {
        let (values, _) = read(json!({"campaignId": 7, "text": "abc"}));
        let stored = values.stored();
        assert!(stored.is_empty(), "input fields have no column: {stored:?}");
        static STORED: &[Field] = &[
            Field::new("campaign_id", "campaign_id", FieldKind::Id { invalid: "x" }),
            Field::new("rating", "rating", FieldKind::Whole(&Bounds::one_message(1, 5, "x"))),
        ];
        let mut v = Validator::new();
        let object = json!({"campaign_id": "12"}).as_object().cloned().unwrap_or_default();
        let values = read_fields(STORED, &object, Mode::Create, &mut v);
        assert_eq!(values.stored(), Columns::new().set("campaign_id", 12).set("rating", SqlValue::Null));
    }
}

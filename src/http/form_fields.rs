//! A form's fields, declared once: name as the wire spells it, column, kind, the required and
//! unique messages and how an edit treats each. From the declaration come the checks (in
//! declared order, with the specification's messages), the document's rules and messages
//! (`x-messages`, which the client's generated contract carries), and, in `crud::writes`, the
//! plain INSERT and UPDATE. A form that writes no row of its own (signing in) uses the fields
//! alone.

use crate::db::sql::Value as SqlValue;
use serde_json::Value;

use crate::core::error::{AppError, AppResult};
use crate::core::patterns;
use crate::core::validation::{self, Validator};
use crate::db::sql::on_constraint;
use crate::http::api::Doc;
use crate::http::api::Rule::{self, Pattern, Required};
use crate::http::fields::{self, Number};
use crate::http::forms::Form;

/// Which write a form is read for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Create,
    Update,
}

/// What a field holds, and so its format rule.
#[derive(Clone, Copy)]
pub enum FieldKind {
    /// One line of text, trimmed.
    Text,
    /// 994 + operator code + 7 digits; empty is allowed unless the field is required.
    Phone,
    /// The specification's e-mail rule: a valid address of 3 to 50 characters.
    Email,
    /// Text with its own format rule.
    Checked(&'static Check),
    /// A row's id: a whole number from 1, sent as a JSON number or as numeric text. Missing, 0 or
    /// negative is the required message (when the field is required), anything else not a whole
    /// number is `invalid`; an optional id that is sent must be valid too.
    Id { invalid: &'static str },
    /// A whole number within its bounds (JSON number or numeric text).
    Whole(&'static Bounds),
    /// A yes/no: `true`/`false`, `on`/`off`, `1`/`0` (JSON booleans and numbers too); missing or
    /// empty is false, anything else is refused with `invalid`.
    Flag { invalid: &'static str },
}

/// A whole number's bounds, with the message of each refusal.
pub struct Bounds {
    pub min: i64,
    pub max: i64,
    /// Not a whole number.
    pub invalid: &'static str,
    pub below: &'static str,
    pub above: &'static str,
    /// When set, a decimal (`12.5`, or `12,5` as typed in some languages) is read and, within the
    /// bounds, refused with this message; otherwise it is `invalid` like any other non-number.
    pub fraction: Option<&'static str>,
}

impl Bounds {
    /// Bounds with one message for every refusal ("Rating must be a whole number from 1 to 5").
    pub const fn one_message(min: i64, max: i64, message: &'static str) -> Bounds {
        Bounds { min, max, invalid: message, below: message, above: message, fraction: None }
    }
}

/// A format rule of one field: text that must pass `test` (documented by `pattern`), or be
/// refused with `message`. `example` passes it and `refused` does not (examples and tests).
pub struct Check {
    pub pattern: &'static str,
    pub test: fn(&str) -> bool,
    pub message: &'static str,
    pub example: &'static str,
    pub refused: &'static str,
}

/// How an edit treats a field.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OnEdit {
    /// Written (and checked) on every edit.
    Written,
    /// Checked and written only when the edit sends it; otherwise the stored value stays.
    KeptUnlessSent,
    /// Set on create only; an edit neither reads nor writes it.
    Ignored,
}

/// One declared form field.
#[derive(Clone, Copy)]
pub struct Field {
    /// The name as the wire spells it (`contactPerson`, `phoneNumber`).
    pub name: &'static str,
    /// The column it is stored in; `None` for a field the resource's writer turns into something
    /// else (a password into its hash).
    pub column: Option<&'static str>,
    pub kind: FieldKind,
    /// The message when it is missing or blank; `None` when it may be left empty.
    pub required: Option<&'static str>,
    pub on_edit: OnEdit,
    /// The message when the value is taken (a unique column); the write answers 409 on the field.
    pub unique: Option<&'static str>,
    /// The fewest and most characters a text may have ("Minimum n symbols", "Maximum n
    /// symbols"); an optional text left empty is not held to the minimum.
    pub length: Option<(usize, usize)>,
}

impl Field {
    const fn new(name: &'static str, column: &'static str, kind: FieldKind) -> Field {
        Field { name, column: Some(column), kind, required: None, on_edit: OnEdit::Written, unique: None, length: None }
    }

    /// A field a form reads that is not a column (a sign-in's e-mail, a password to hash).
    pub const fn input(name: &'static str, kind: FieldKind) -> Field {
        Field { name, column: None, kind, required: None, on_edit: OnEdit::Written, unique: None, length: None }
    }

    pub const fn text(name: &'static str, column: &'static str) -> Field {
        Field::new(name, column, FieldKind::Text)
    }

    pub const fn phone(name: &'static str, column: &'static str) -> Field {
        Field::new(name, column, FieldKind::Phone)
    }

    pub const fn email(name: &'static str, column: &'static str) -> Field {
        Field::new(name, column, FieldKind::Email)
    }

    /// A row id stored in `column` (a link to another table's row).
    pub const fn id(name: &'static str, column: &'static str, invalid: &'static str) -> Field {
        Field::new(name, column, FieldKind::Id { invalid })
    }

    pub const fn checked(name: &'static str, column: &'static str, check: &'static Check) -> Field {
        Field::new(name, column, FieldKind::Checked(check))
    }

    /// A value that passes the field's rules (for examples and tests).
    pub fn example(&self) -> &'static str {
        match self.kind {
            FieldKind::Text => "Example",
            FieldKind::Phone => "994501234567",
            FieldKind::Email => "example@perk.az",
            FieldKind::Checked(check) => check.example,
            FieldKind::Id { .. } => "1",
            FieldKind::Whole(bounds) if bounds.min <= 1 && bounds.max >= 1 => "1",
            FieldKind::Whole(_) => "1000000",
            FieldKind::Flag { .. } => "true",
        }
    }

    /// A value its format rule refuses, with the refusal; `None` for free text.
    pub fn refused_example(&self) -> Option<(&'static str, &'static str)> {
        match self.kind {
            FieldKind::Text => None,
            FieldKind::Phone => Some(("12345", validation::PHONE_FORMAT)),
            FieldKind::Email => Some(("not-an-address", validation::EMAIL_FORMAT)),
            FieldKind::Checked(check) => Some((check.refused, check.message)),
            FieldKind::Id { invalid } => Some(("x", invalid)),
            FieldKind::Whole(bounds) => Some(("x", bounds.invalid)),
            FieldKind::Flag { invalid } => Some(("maybe", invalid)),
        }
    }

    pub const fn required(mut self, message: &'static str) -> Field {
        self.required = Some(message);
        self
    }

    pub const fn kept_unless_sent(mut self) -> Field {
        self.on_edit = OnEdit::KeptUnlessSent;
        self
    }

    pub const fn create_only(mut self) -> Field {
        self.on_edit = OnEdit::Ignored;
        self
    }

    pub const fn max_length(self, characters: usize) -> Field {
        self.length(0, characters)
    }

    pub const fn length(mut self, min: usize, max: usize) -> Field {
        self.length = Some((min, max));
        self
    }

    /// A number field (an id or a whole number), read as a number rather than as text.
    pub fn is_number(&self) -> bool {
        matches!(self.kind, FieldKind::Id { .. } | FieldKind::Whole(_))
    }

    /// The part's type in a multipart body's document.
    pub fn wire_type(&self) -> utoipa::openapi::schema::Type {
        use utoipa::openapi::schema::Type;
        match self.kind {
            FieldKind::Id { .. } | FieldKind::Whole(_) => Type::Integer,
            FieldKind::Flag { .. } => Type::Boolean,
            _ => Type::String,
        }
    }

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

    pub const fn unique(mut self, message: &'static str) -> Field {
        self.unique = Some(message);
        self
    }

    /// Read and checked, but stored by the resource's writer (it is not a column as sent).
    pub const fn unstored(mut self) -> Field {
        self.column = None;
        self
    }

    /// Whether a write of `mode` reads this field at all.
    pub fn read_on(&self, mode: Mode) -> bool {
        mode == Mode::Create || self.on_edit != OnEdit::Ignored
    }

    /// The message a write of `mode` answers when the field is missing, if it must be sent.
    pub fn required_on(&self, mode: Mode) -> Option<&'static str> {
        self.required.filter(|_| mode == Mode::Create || self.on_edit == OnEdit::Written)
    }

    /// The OpenAPI rules this field's declaration implies for `mode`.
    pub fn rules(&self, mode: Mode) -> Vec<Rule> {
        let mut rules = if self.required_on(mode).is_some() { vec![Required] } else { vec![] };
        let pattern = match self.kind {
            FieldKind::Text if self.required.is_some() => Some(patterns::NOT_BLANK),
            FieldKind::Text => None,
            FieldKind::Phone if self.required.is_some() => Some(patterns::PHONE),
            FieldKind::Phone => Some(patterns::OPTIONAL_PHONE),
            FieldKind::Email => Some(patterns::EMAIL),
            FieldKind::Checked(check) => Some(check.pattern),
            FieldKind::Id { .. } | FieldKind::Whole(_) | FieldKind::Flag { .. } => None,
        };
        rules.extend(pattern.map(Pattern));
        match self.kind {
            FieldKind::Id { .. } => rules.push(Rule::Range(1, i64::MAX)),
            FieldKind::Whole(bounds) => rules.push(Rule::Range(bounds.min, bounds.max)),
            _ => {}
        }
        if let Some((min, max)) = self.length {
            rules.push(Rule::Length(min.max(usize::from(self.required.is_some())), max));
        }
        if self.on_edit == OnEdit::KeptUnlessSent && mode == Mode::Update {
            rules.push(Rule::Note("Unchanged when not sent."));
        }
        // The messages the checks answer, for the client's form.
        rules.extend(self.required.map(|message| Rule::Message("required", message)));
        match self.kind {
            FieldKind::Text => {}
            FieldKind::Phone => rules.push(Rule::Message("format", validation::PHONE_FORMAT)),
            FieldKind::Email => rules.extend([
                Rule::Message("format", validation::EMAIL_FORMAT),
                Rule::Message("minLength", validation::MIN_3),
                Rule::Message("maxLength", validation::MAX_50),
            ]),
            FieldKind::Checked(check) => rules.push(Rule::Message("format", check.message)),
            FieldKind::Id { invalid } => rules.push(Rule::Message("format", invalid)),
            FieldKind::Whole(bounds) => {
                rules.extend([
                    Rule::Message("format", bounds.invalid),
                    Rule::Message("minimum", bounds.below),
                    Rule::Message("maximum", bounds.above),
                ]);
                rules.extend(bounds.fraction.map(|message| Rule::Message("whole", message)));
            }
            FieldKind::Flag { invalid } => rules.push(Rule::Message("format", invalid)),
        }
        rules.extend(self.unique.map(|message| Rule::Message("taken", message)));
        rules
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

    fn number(&self, name: &str) -> Number {
        match self.text(name).as_str() {
            // A browser's FormData sends a missing value as the text `null`.
            "null" => Number::Missing,
            text => fields::number(Some(&Value::String(text.to_string()))),
        }
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
            let sent = source.number(field.name);
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

/// Adds `fields`' rules and messages to `doc`.
pub fn document_fields(fields: &[Field], doc: Doc, mode: Mode) -> Doc {
    fields.iter().filter(|f| f.read_on(mode)).fold(doc, |doc, f| doc.rules(f.name, &f.rules(mode)))
}

impl Doc {
    /// Documents the fields of a form that only creates (their rules and messages), in a chain.
    pub fn rules_of(self, fields: &[Field]) -> Doc {
        document_fields(fields, self, Mode::Create)
    }
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

    /// (column, value) of each stored field: text, a number (NULL when an optional one was not
    /// sent), or `None` for a kept field an edit did not send.
    pub fn stored(&self) -> Vec<(&'static str, Option<SqlValue>)> {
        self.values
            .iter()
            .filter_map(|(field, value)| {
                let numeric = field.is_number() || matches!(field.kind, FieldKind::Flag { .. });
                let value = value.as_ref().map(|text| match (numeric, text.parse::<i64>()) {
                    (true, Ok(number)) => SqlValue::Integer(number),
                    (true, Err(_)) => SqlValue::Null,
                    (false, _) => SqlValue::Text(text.clone()),
                });
                field.column.map(|column| (column, value))
            })
            .collect()
    }

    /// Turns a taken unique value into the 409 of the first unique field (tables here hold one
    /// unique column at most).
    pub fn on_constraint(&self) -> impl Fn(crate::db::sql::Error) -> AppError {
        let unique = self.values.iter().find_map(|(field, _)| field.unique.map(|message| (field.name, message)));
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
    fn number_fields_are_documented_as_ranges_with_their_messages() {
        let rules = FIELDS[0].rules(Mode::Create);
        assert!(rules.contains(&Rule::Required) && rules.contains(&Rule::Range(1, i64::MAX)));
        assert!(rules.contains(&Rule::Message("format", "Campaign id must be a number")));
        assert!(FIELDS[2].rules(Mode::Create).contains(&Rule::Range(1, 5)));
        assert!(FIELDS[3].rules(Mode::Create).contains(&Rule::Length(1, 5)));
    }

    #[test]
    fn a_number_is_stored_as_a_number_and_a_missing_optional_one_as_null() {
        let (values, _) = read(json!({"campaignId": 7, "text": "abc"}));
        let stored: Vec<(&str, Option<SqlValue>)> = values.stored();
        assert!(stored.is_empty(), "input fields have no column: {stored:?}");
        static STORED: &[Field] = &[
            Field::new("campaign_id", "campaign_id", FieldKind::Id { invalid: "x" }),
            Field::new("rating", "rating", FieldKind::Whole(&Bounds::one_message(1, 5, "x"))),
        ];
        let mut v = Validator::new();
        let object = json!({"campaign_id": "12"}).as_object().cloned().unwrap_or_default();
        let values = read_fields(STORED, &object, Mode::Create, &mut v);
        assert_eq!(
            values.stored(),
            vec![("campaign_id", Some(SqlValue::Integer(12))), ("rating", Some(SqlValue::Null))]
        );
    }
}

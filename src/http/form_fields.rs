//! A form's fields, declared once: name as the wire spells it, column, kind, the required and
//! unique messages and how an edit treats each. From the declaration come the checks (in
//! declared order, with the specification's messages), the document's rules and messages
//! (`x-messages`, which the client's generated contract carries), and, in `crud::writes`, the
//! plain INSERT and UPDATE. A form that writes no row of its own (signing in) uses the fields
//! alone.

use serde_json::Value;

use crate::core::error::{AppError, AppResult, on_constraint};
use crate::core::patterns;
use crate::core::validation::{self, Validator};
use crate::http::api::Doc;
use crate::http::api::Rule::{self, Pattern, Required};
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
}

impl Field {
    const fn new(name: &'static str, column: &'static str, kind: FieldKind) -> Field {
        Field { name, column: Some(column), kind, required: None, on_edit: OnEdit::Written, unique: None }
    }

    /// A field a form reads that is not a column (a sign-in's e-mail, a password to hash).
    pub const fn input(name: &'static str, kind: FieldKind) -> Field {
        Field { name, column: None, kind, required: None, on_edit: OnEdit::Written, unique: None }
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
        }
    }

    /// A value its format rule refuses, with the refusal; `None` for free text.
    pub fn refused_example(&self) -> Option<(&'static str, &'static str)> {
        match self.kind {
            FieldKind::Text => None,
            FieldKind::Phone => Some(("12345", validation::PHONE_FORMAT)),
            FieldKind::Email => Some(("not-an-address", validation::EMAIL_FORMAT)),
            FieldKind::Checked(check) => Some((check.refused, check.message)),
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
        };
        rules.extend(pattern.map(Pattern));
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
        }
        rules.extend(self.unique.map(|message| Rule::Message("taken", message)));
        rules
    }

    /// Checks `value` (trimmed) with the field's rules, first failure first.
    fn check(&self, v: &mut Validator, value: &str) {
        match self.kind {
            // The e-mail rule names its own required message.
            FieldKind::Email => {
                if let Some(message) = self.required {
                    v.email(self.name, value, message);
                } else if !value.is_empty() {
                    v.check(self.name, validation::is_email(value), validation::EMAIL_FORMAT)
                        .length(self.name, value, 3, 50);
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

/// Where a form's values come from: a multipart form, or a JSON body read as an object.
pub trait Source {
    fn value(&self, name: &str) -> Sent;
}

impl Source for Form {
    fn value(&self, name: &str) -> Sent {
        if self.has(name) { Sent::Text(self.text(name)) } else { Sent::Missing }
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
        field.check(v, &value);
        values.push((field, Some(value)));
    }
    Values { values }
}

/// Adds `fields`' rules and messages to `doc`.
pub fn document_fields(fields: &[Field], doc: Doc, mode: Mode) -> Doc {
    fields.iter().filter(|f| f.read_on(mode)).fold(doc, |doc, f| doc.rules(f.name, &f.rules(mode)))
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

    /// (column, value) of each stored field; `None` for a kept field an edit did not send.
    pub fn stored(&self) -> impl Iterator<Item = (&'static str, &Option<String>)> {
        self.values.iter().filter_map(|(field, value)| field.column.map(|column| (column, value)))
    }

    /// Turns a taken unique value into the 409 of the first unique field (tables here hold one
    /// unique column at most).
    pub fn on_constraint(&self) -> impl Fn(rusqlite::Error) -> AppError {
        let unique = self.values.iter().find_map(|(field, _)| field.unique.map(|message| (field.name, message)));
        move |error| match unique {
            Some((field, message)) => on_constraint(field, message)(error),
            None => error.into(),
        }
    }
}

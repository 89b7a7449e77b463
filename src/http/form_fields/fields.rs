//! The field declarations: a field's wire name, column, kind, messages and how an edit treats
//! it, with the builders resources declare their forms with.

use crate::core::validation;

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
    pub(super) const fn new(name: &'static str, column: &'static str, kind: FieldKind) -> Field {
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

    /// A whole number stored in `column`.
    pub const fn whole(name: &'static str, column: &'static str, bounds: &'static Bounds) -> Field {
        Field::new(name, column, FieldKind::Whole(bounds))
    }

    /// A yes/no stored in `column` as 1 or 0.
    pub const fn flag(name: &'static str, column: &'static str, invalid: &'static str) -> Field {
        Field::new(name, column, FieldKind::Flag { invalid })
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
}

//! The document's side of a declaration: each field's OpenAPI rules and the messages its checks
//! answer (`x-messages`, which the client's generated contract carries).

use super::{Field, FieldKind, Mode, OnEdit};
use crate::core::patterns;
use crate::core::validation;
use crate::http::api::Doc;
use crate::http::api::Rule::{self, Pattern, Required};

impl Field {
    /// The part's type in a multipart body's document.
    pub fn wire_type(&self) -> utoipa::openapi::schema::Type {
        use utoipa::openapi::schema::Type;
        match self.kind {
            FieldKind::Id { .. } | FieldKind::Whole(_) => Type::Integer,
            FieldKind::Flag { .. } => Type::Boolean,
            _ => Type::String,
        }
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
        // How long what is sent may be. An e-mail without a length of its own: the pattern bounds
        // the address without its blanks; the server also counts what was sent (an address padded
        // past 50 characters is refused), and so does the document.
        let length = match (self.length, self.kind) {
            (Some((min, max)), _) => Some((min.max(usize::from(self.required.is_some())), max)),
            (None, FieldKind::Email) => Some((3, 50)),
            (None, _) => None,
        };
        // Where that bound is 50 characters or less, the e-mail's own bounds need no lookahead.
        let pattern = pattern.map(|pattern| match length {
            Some((_, max)) if max <= 50 && pattern == patterns::EMAIL => patterns::EMAIL_SHAPE,
            _ => pattern,
        });
        rules.extend(pattern.map(Pattern));
        match self.kind {
            FieldKind::Id { .. } => rules.push(Rule::Range(1, i64::MAX)),
            FieldKind::Whole(bounds) => rules.push(Rule::Range(bounds.min, bounds.max)),
            _ => {}
        }
        rules.extend(length.map(|(min, max)| Rule::Length(min, max)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::form_fields::Bounds;

    #[test]
    fn number_fields_are_documented_as_ranges_with_their_messages() {
        let campaign = Field::input("campaignId", FieldKind::Id { invalid: "Campaign id must be a number" })
            .required("Campaign is required");
        let rules = campaign.rules(Mode::Create);
        assert!(rules.contains(&Rule::Required) && rules.contains(&Rule::Range(1, i64::MAX)));
        assert!(rules.contains(&Rule::Message("format", "Campaign id must be a number")));
        const RATING: Bounds = Bounds::one_message(1, 5, "Rating must be 1 to 5");
        let rating = Field::input("rating", FieldKind::Whole(&RATING));
        assert!(rating.rules(Mode::Create).contains(&Rule::Range(1, 5)));
        let text = Field::input("text", FieldKind::Text).required("Text is required").max_length(5);
        assert!(text.rules(Mode::Create).contains(&Rule::Length(1, 5)));
        // An e-mail padded with blanks past 50 characters is refused, so the document bounds
        // what is sent too (schemathesis sent one the pattern alone allowed).
        let email = Field::input("email", FieldKind::Email).required("Email is required");
        assert!(email.rules(Mode::Create).contains(&Rule::Length(3, 50)));
        // Bounded to 50 as sent, the address's shape alone says the rest; a longer bound keeps
        // the pattern's own count of the trimmed address.
        assert!(email.rules(Mode::Create).contains(&Pattern(patterns::EMAIL_SHAPE)));
        const ADDRESS: crate::http::form_fields::Check = crate::http::form_fields::Check {
            pattern: patterns::EMAIL,
            test: validation::is_email,
            message: "Wrong email format",
            example: "a@b.az",
            refused: "a",
        };
        let long = Field::input("email", FieldKind::Checked(&ADDRESS)).length(3, 100);
        assert!(long.rules(Mode::Create).contains(&Pattern(patterns::EMAIL)));
        let short = Field::input("email", FieldKind::Checked(&ADDRESS)).length(3, 50);
        assert!(short.rules(Mode::Create).contains(&Pattern(patterns::EMAIL_SHAPE)));
    }
}

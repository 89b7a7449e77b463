//! Every text the server may send in a refusal (`message` and the per-field `errors`), declared
//! where it is sent and published in the OpenAPI document (`x-refusals`, beside each form field's
//! `x-messages`), so that the panel can show it in its operator's language and so that a text sent
//! without being declared is caught by the tests (debug builds answer it as a 500, see
//! `error::AppError::into_response`).
//!
//! A text may be a template: `{name}` stands for a part filled in when it is sent (a record's
//! label, a count). Declared texts keep the specification's English wording as their identity.

use std::sync::OnceLock;

/// Who reads a refusal: the panel's operators (their language's catalogue must translate it) or
/// the machines calling the inbound API and malformed requests the panel never makes (their
/// contract is English).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Audience {
    People,
    Machines,
}

/// The refusals that every layer may send, whatever the route: the error type's own texts and
/// the validator's, declared here because the layer that sends them knows no route.
pub const EVERYWHERE: &[&str] = &[
    super::error::INVALID_CREDENTIALS,
    super::error::LOCKED,
    super::error::FORBIDDEN,
    super::error::INTERNAL,
    super::error::CONTENDED,
    super::error::NOT_RECORDED,
    super::error::METHOD_NOT_ALLOWED,
    super::validation::EMAIL_FORMAT,
    super::validation::STRONG_PASSWORD,
    super::validation::LETTER_AND_NUMBER_PASSWORD,
    super::validation::NUMBER_PASSWORD,
    super::validation::DUPLICATE_EMAIL,
    super::validation::PASSWORD_REQUIRED,
    super::validation::CONFIRM_PASSWORD_REQUIRED,
    super::validation::PASSWORDS_DIFFER,
    super::validation::NEW_PASSWORD_REQUIRED,
    super::validation::CONFIRM_NEW_PASSWORD_REQUIRED,
    super::validation::NEW_PASSWORDS_DIFFER,
    super::validation::PHONE_FORMAT,
    super::validation::MIN_3,
    super::validation::MAX_50,
    super::validation::MINIMUM_SYMBOLS,
    super::validation::MAXIMUM_SYMBOLS,
    super::validation::CONTROL_CHARACTERS,
];

static DECLARED: OnceLock<Vec<String>> = OnceLock::new();

/// Makes `texts` the declared refusals (once per process: every router is built from the same
/// declarations, so a later call is ignored).
pub fn declare(texts: impl IntoIterator<Item = String>) {
    let _ = DECLARED.set(texts.into_iter().collect());
}

/// Whether `text` is a declared refusal or an instance of a declared template; `None` before
/// any router has declared them (a unit test rendering an error on its own).
pub fn is_declared(text: &str) -> Option<bool> {
    DECLARED.get().map(|declared| declared.iter().any(|template| fills(template, text)))
}

/// Whether `text` is `template` with each `{name}` replaced by some text (possibly empty).
pub fn fills(template: &str, text: &str) -> bool {
    let parts = literal_parts(template);
    let [first, middle @ .., last] = parts.as_slice() else {
        return template == text;
    };
    let Some(mut rest) = text.strip_prefix(first) else { return false };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// The template's text between its `{name}` placeholders (a brace around anything but a plain
/// name, as in `{"id": [1, 2]}`, is text).
fn literal_parts(template: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut search = 0;
    while let Some(open) = template[search..].find('{').map(|at| search + at) {
        match template[open + 1..].find('}').map(|at| open + 1 + at) {
            Some(close) if is_name(&template[open + 1..close]) => {
                parts.push(&template[start..open]);
                start = close + 1;
                search = close + 1;
            }
            _ => search = open + 1,
        }
    }
    parts.push(&template[start..]);
    parts
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_text_declares_only_itself() {
        assert!(fills("Image not found.", "Image not found."));
        assert!(!fills("Image not found.", "Image not found. "));
    }

    #[test]
    fn a_template_declares_every_text_it_can_be_filled_into() {
        let template = "{kind} «{label}» cannot be restored: its {field} now belongs to another record.";
        assert!(fills(template, "Merchant «Ann Lee» cannot be restored: its email now belongs to another record."));
        assert!(!fills(template, "Merchant «Ann Lee» cannot be restored."));
        assert!(fills("Minimum {min} symbols", "Minimum 3 symbols"));
        assert!(!fills("Minimum {min} symbols", "Maximum 3 symbols"));
        assert!(fills("There is no asset with id {id}.", "There is no asset with id 7."));
    }

    #[test]
    fn a_brace_around_anything_but_a_name_is_text() {
        let template = "{subject} must be a list of ids, e.g. {\"id\": [1, 2]}.";
        assert!(fills(template, "The field 'id' must be a list of ids, e.g. {\"id\": [1, 2]}."));
        assert!(!fills(template, "The field 'id' must be a list of ids, e.g. [1, 2]."));
    }
}

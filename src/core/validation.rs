//! Field validation with the specification's exact messages. A validator collects the first
//! failure of each field; the response's `message` is the first failure of the form.

use std::collections::BTreeMap;

use crate::core::error::{AppError, AppResult};

pub const EMAIL_FORMAT: &str = "Wrong email format. E.g. name@example.com";
pub const STRONG_PASSWORD: &str =
    "Password must consist of an uppercase letter, a lowercase letter, a number and a character.";
pub const LETTER_AND_NUMBER_PASSWORD: &str = "Password must consist of a letter, a number.";
pub const NUMBER_PASSWORD: &str = "Password must consist of a number.";
pub const DUPLICATE_EMAIL: &str = "A user with this e-mail already exists.";
pub const PHONE_FORMAT: &str = "Wrong phone format. E.g. 994501234567";
pub const PASSWORD_REQUIRED: &str = "Password is required";
pub const CONFIRM_PASSWORD_REQUIRED: &str = "Confirm Password is required";
pub const PASSWORDS_DIFFER: &str = "Both password need to be the same";
pub const NEW_PASSWORD_REQUIRED: &str = "New password is required";
pub const CONFIRM_NEW_PASSWORD_REQUIRED: &str = "Confirm password is required";
pub const NEW_PASSWORDS_DIFFER: &str = "Both new password need to be the same";
pub const MIN_3: &str = "Minimum 3 symbols";
pub const MAX_50: &str = "Maximum 50 symbols";
/// A text's length out of its bounds, and a control character in a text (templates, see `refusals`).
pub const MINIMUM_SYMBOLS: &str = "Minimum {min} symbols";
pub const MAXIMUM_SYMBOLS: &str = "Maximum {max} symbols";
pub const CONTROL_CHARACTERS: &str = "{field} must not contain control characters.";

/// Mobile operator codes, without their leading zero as they appear after 994.
pub const OPERATOR_CODES: [&str; 7] = ["50", "51", "55", "70", "77", "99", "10"];
const PASSWORD_SYMBOLS: &str = "!@#$%^&*_-";

#[derive(Default)]
pub struct Validator {
    order: Vec<String>,
    errors: BTreeMap<String, String>,
}

impl Validator {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `message` for `field` unless `ok`, keeping only the field's first failure.
    pub fn check(&mut self, field: &str, ok: bool, message: &str) -> &mut Self {
        if !ok && !self.errors.contains_key(field) {
            self.order.push(field.to_string());
            self.errors.insert(field.to_string(), message.to_string());
        }
        self
    }

    pub fn has(&self, field: &str) -> bool {
        self.errors.contains_key(field)
    }

    pub fn required(&mut self, field: &str, value: &str, message: &str) -> &mut Self {
        self.check(field, !value.trim().is_empty(), message)
    }

    /// The specification's e-mail rule: required, valid, 3 to 50 characters.
    pub fn email(&mut self, field: &str, value: &str, required_message: &str) -> &mut Self {
        let value = value.trim();
        self.required(field, value, required_message)
            .check(field, is_email(value), EMAIL_FORMAT)
            .length(field, value, 3, 50)
    }

    pub fn length(&mut self, field: &str, value: &str, min: usize, max: usize) -> &mut Self {
        let count = value.chars().count();
        self.check(field, count >= min, &MINIMUM_SYMBOLS.replace("{min}", &min.to_string())).check(
            field,
            count <= max,
            &MAXIMUM_SYMBOLS.replace("{max}", &max.to_string()),
        )
    }

    /// A maximum length held to the characters the field was sent with (`sent`, before trimming),
    /// as the API document's `maxLength` counts them: a value padded past it with blanks is
    /// refused, not trimmed into it.
    pub fn at_most_sent(&mut self, field: &str, sent: usize, max: usize) -> &mut Self {
        self.check(field, sent <= max, &MAXIMUM_SYMBOLS.replace("{max}", &max.to_string()))
    }

    /// A phone that is optional but, when given, must be 994 + operator code + 7 digits.
    pub fn phone(&mut self, field: &str, value: &str) -> &mut Self {
        self.check(field, value.is_empty() || is_phone(value), PHONE_FORMAT)
    }

    /// The rules of a new password with its confirmation (own change and reset link).
    pub fn new_password(&mut self, new_password: &str, confirm: &str) -> &mut Self {
        self.required("newPassword", new_password, NEW_PASSWORD_REQUIRED)
            .check("newPassword", has_letter_and_number(new_password), LETTER_AND_NUMBER_PASSWORD)
            .required("newPasswordConfirm", confirm, CONFIRM_NEW_PASSWORD_REQUIRED)
            .check("newPasswordConfirm", has_number(confirm), NUMBER_PASSWORD)
            .check("newPasswordConfirm", confirm == new_password, NEW_PASSWORDS_DIFFER)
    }

    pub fn finish(self) -> AppResult<()> {
        match self.order.first() {
            None => Ok(()),
            Some(first) => Err(AppError::Validation { message: self.errors[first].clone(), errors: self.errors }),
        }
    }
}

/// Whether a field's text may span lines (descriptions and free texts such as a notification's):
/// tab and line breaks are allowed inside it. Every other text field is one line.
pub fn is_multiline(field: &str) -> bool {
    let name = field.rsplit('.').next().unwrap_or(field).to_ascii_lowercase();
    name.starts_with("description") || name == "text"
}

/// Whether a field holds a password: it is hashed and never shown, so any character may be in it.
pub fn is_password(field: &str) -> bool {
    field.to_ascii_lowercase().contains("password")
}

/// The refusal of a text field holding a control character (NUL, the other C0 and C1 controls,
/// DEL), or `None`. `text` is the value as stored, trimmed; tab and line breaks may stand inside
/// a multi-line field. No stored text holds another control character, and a NUL would cut a
/// C string (a search index's query, an exported cell).
pub fn control_character_refusal(field: &str, text: &str) -> Option<String> {
    if is_password(field) {
        return None;
    }
    let multiline = is_multiline(field);
    let refused = |c: char| c.is_control() && !(multiline && matches!(c, '\t' | '\n' | '\r'));
    text.trim().chars().any(refused).then(|| CONTROL_CHARACTERS.replace("{field}", field))
}

/// A query's text term (a list filter, a picker's search) holding a control character is refused
/// rather than looked for: no stored text holds one (the writes refuse them), a NUL would end a
/// search index's query string early, and PostgreSQL refuses a NUL in any text it is sent.
pub fn refuse_control_characters(param: &str, term: &str) -> AppResult<()> {
    if term.chars().any(char::is_control) {
        return Err(AppError::BadRequest(CONTROL_CHARACTERS.replace("{field}", param)));
    }
    Ok(())
}

/// A pragmatic address check: one `@`, a non-empty local part, a dotted domain of letters, digits
/// and `-`, every character printable ASCII. ASCII only because that is where both engines' rule for
/// "the same address" is one rule (docs/decisions.md, "E-mail addresses"): SQLite's NOCASE folds
/// A–Z alone, PostgreSQL's ICU collation every script; an internationalised domain is written in
/// its `xn--` form, as mail servers exchange it.
pub fn is_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    let domain_ok = domain.split('.').count() >= 2
        && domain
            .split('.')
            .all(|label| !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    !local.is_empty() && !domain.contains('@') && value.chars().all(|c| c.is_ascii_graphic()) && domain_ok
}

/// The digits a whole number written with a fraction of zeros (`7.0`) may have: what a JSON
/// number spells exactly (below 2^53), and what the document's pattern for that spelling allows.
pub const FRACTION_SPELLED_DIGITS: usize = 15;

/// A whole number as a query string, path segment or form field spells one: digits with an
/// optional `-` (`7`, `-3`, `007`), or the same number as a client that holds numbers as floats
/// writes it, with a fraction of zeros (`7.0`, `-3.00`; no leading zero, no `-0.0`, at most
/// [`FRACTION_SPELLED_DIGITS`] digits). Exactly what the document's integer and its pattern for the
/// fraction spelling admit (`http::api::query`): a fuzzer fills an integer parameter with a whole
/// float it read in an answer (`RoleId=2.0`), and takes `0.0` for a schema violation where the
/// document had no such pattern. Read as text, so a value beyond 64 bits is refused rather than
/// rounded into range.
pub fn parse_whole(text: &str) -> Option<i64> {
    let (number, fraction) = match text.split_once('.') {
        Some((number, zeros)) => (number, Some(zeros)),
        None => (text, None),
    };
    let (negative, digits) = match number.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, number),
    };
    // Rust's parser also takes a leading `+`, which neither JSON nor the document's pattern does.
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Some(zeros) = fraction {
        let spelled_as_a_float = !zeros.is_empty()
            && zeros.bytes().all(|b| b == b'0')
            && digits.len() <= FRACTION_SPELLED_DIGITS
            && (!digits.starts_with('0') || (digits == "0" && !negative));
        if !spelled_as_a_float {
            return None;
        }
    }
    number.parse::<i64>().ok()
}

/// An asset's barcode prefix: 1 to 3 letters or digits.
pub fn is_barcode_prefix(value: &str) -> bool {
    value.chars().count() <= 3 && value.chars().all(|c| c.is_ascii_alphanumeric())
}

pub fn is_phone(value: &str) -> bool {
    value.len() == 12
        && value.starts_with("994")
        && OPERATOR_CODES.contains(&&value[3..5])
        && value.chars().all(|c| c.is_ascii_digit())
}

/// Create-user rule: 8+ characters with a lowercase and an uppercase letter, a digit and a symbol.
pub fn is_strong_password(value: &str) -> bool {
    value.chars().count() >= 8
        && value.chars().any(|c| c.is_lowercase())
        && value.chars().any(|c| c.is_uppercase())
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| PASSWORD_SYMBOLS.contains(c))
}

/// Own-change-password and HR rule: 8+ characters with a letter and a digit.
pub fn has_letter_and_number(value: &str) -> bool {
    value.chars().count() >= 8 && value.chars().any(|c| c.is_alphabetic()) && value.chars().any(|c| c.is_ascii_digit())
}

/// Admin-change-password rule: 8+ characters with a digit.
pub fn has_number(value: &str) -> bool {
    value.chars().count() >= 8 && value.chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_as_text_carriers_spell_them() {
        for (text, expected) in [
            ("7", 7),
            ("-3", -3),
            ("007", 7),
            ("-9223372036854775808", i64::MIN),
            ("2.0", 2),
            ("0.0", 0),
            ("-3.00", -3),
            ("999999999999999.0", 999_999_999_999_999),
        ] {
            assert_eq!(parse_whole(text), Some(expected), "{text}");
        }
        for text in [
            "2.",
            "02.0",
            "-0.0",
            "1000000000000000.0",
            "2.0 ",
            "-",
            "--1",
            "2.5",
            "2.01",
            ".0",
            "abc",
            "",
            "NaN",
            "1e3",
            "9223372036854775808",
            "-9223372036854775809.0",
            "7 ",
            "+4",
            "+0.0",
        ] {
            assert_eq!(parse_whole(text), None, "{text}");
        }
    }

    #[test]
    fn emails() {
        assert!(is_email("aysel@perk.az"));
        assert!(is_email("a.b-c@mail.example.com"));
        assert!(is_email("o'neil+tag@xn--mteri-kuaz.az"));
        for bad in ["", "aysel", "aysel@", "@perk.az", "a@b", "a b@perk.az", "a@@perk.az", "a@perk..az", "a@perk_az.az"]
        {
            assert!(!is_email(bad), "{bad}");
        }
        // Outside ASCII: the engines would disagree on which addresses are the same.
        for bad in
            ["əli@perk.az", "ALİ@perk.az", "ali@müştəri.az", "ali\u{200b}@perk.az", "иван@perk.az", "a\u{a0}b@perk.az"]
        {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn phones() {
        assert!(is_phone("994501234567"));
        assert!(is_phone("994101234567"));
        assert!(!is_phone("994521234567"));
        assert!(!is_phone("99450123456"));
        assert!(!is_phone("0501234567"));
        assert!(!is_phone("99450123456a"));
    }

    #[test]
    fn password_rules() {
        assert!(is_strong_password("Secret-123"));
        assert!(!is_strong_password("secret-123"));
        assert!(!is_strong_password("SECRET-123"));
        assert!(!is_strong_password("Secret1234"));
        assert!(!is_strong_password("Sec-12"));
        assert!(has_letter_and_number("secret123"));
        assert!(!has_letter_and_number("12345678"));
        assert!(has_number("12345678"));
        assert!(!has_number("abcdefgh"));
    }

    #[test]
    fn first_failure_per_field_and_first_field_is_the_message() {
        let mut v = Validator::new();
        v.required("firstName", "", "Firstname is required").email("email", "", "Email is required").required(
            "firstName",
            "",
            "other",
        );
        let AppError::Validation { message, errors } = v.finish().unwrap_err() else { panic!() };
        assert_eq!(message, "Firstname is required");
        assert_eq!(errors["firstName"], "Firstname is required");
        assert_eq!(errors["email"], "Email is required");
        let mut v = Validator::new();
        v.email("email", "ab", "Email is required");
        let AppError::Validation { message, .. } = v.finish().unwrap_err() else { panic!() };
        assert_eq!(message, EMAIL_FORMAT);
        let mut v = Validator::new();
        v.email("email", &format!("{}@perk.az", "a".repeat(50)), "Email is required");
        let AppError::Validation { message, .. } = v.finish().unwrap_err() else { panic!() };
        assert_eq!(message, "Maximum 50 symbols");
    }
}

//! Patterns that say in the OpenAPI document what the server's validation accepts, below the
//! route registry that writes them into the document and the validators that enforce the same
//! rules. The server trims text before checking it, so the patterns allow surrounding white space.

/// White space as Rust's `char::is_whitespace` (and so `str::trim`) reads it, the characters of a
/// pattern class: `\s` differs between regex dialects (U+0085 is white space to Rust and Python,
/// not to ECMA; U+FEFF is white space to ECMA only). Every "blank" of the document is this.
macro_rules! white_space_chars {
    () => {
        r"\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
    };
}

macro_rules! white_space {
    () => {
        concat!("[", $crate::core::patterns::white_space_chars!(), "]")
    };
}

/// The control characters `validation::control_character_refusal` refuses inside a one-line
/// text (C0, DEL, C1; `char::is_control`).
macro_rules! controls {
    () => {
        r"\x00-\x1f\x7f-\x9f"
    };
}

/// The same inside a multi-line text, where tab, line feed and carriage return may stand.
macro_rules! multiline_controls {
    () => {
        r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
    };
}

/// A character that is neither white space nor a control.
macro_rules! visible {
    () => {
        concat!("[^", white_space_chars!(), controls!(), "]")
    };
}

/// Text as the server reads it: trimmed, then `$inner` characters between two visible ones (or
/// one visible character); `$optional` lets the trimmed text be empty.
macro_rules! trimmed_text {
    ($inner:expr, required) => {
        concat!("^", white_space!(), "*", visible!(), "(?:", $inner, "*", visible!(), ")?", white_space!(), "*$")
    };
    ($inner:expr, optional) => {
        concat!("^", white_space!(), "*(?:", visible!(), "(?:", $inner, "*", visible!(), ")?)?", white_space!(), "*$")
    };
}

/// For the registry's own run-time and blank patterns.
pub(crate) use {white_space, white_space_chars};

/// Required one-line text: something besides white space, and no control character inside.
/// A multi-line field (`validation::is_multiline`) gets [`NOT_BLANK_MULTILINE`] instead.
pub const NOT_BLANK: &str = trimmed_text!(concat!("[^", controls!(), "]"), required);
/// Required multi-line text: tab and line breaks may stand inside.
pub const NOT_BLANK_MULTILINE: &str = trimmed_text!(concat!("[^", multiline_controls!(), "]"), required);
/// Any one-line text (may be blank): every text field without a rule of its own gets it.
pub const TEXT: &str = trimmed_text!(concat!("[^", controls!(), "]"), optional);
/// Any multi-line text (may be blank).
pub const MULTILINE_TEXT: &str = trimmed_text!(concat!("[^", multiline_controls!(), "]"), optional);
/// An address as `validation::is_email` reads it: printable ASCII but `@`, then a dotted domain
/// of ASCII letters, digits and `-`.
macro_rules! email_address {
    () => {
        concat!("[!-?A-~]+", r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
    };
}

/// `validation::is_email`: printable ASCII with one `@`, a dotted domain of letters, digits and
/// `-`, 3 to 50 characters once the white space around it is trimmed (the lookahead: a
/// length rule would count that white space too, which the server does not).
pub const EMAIL: &str = concat!(
    "^",
    white_space!(),
    "*(?=",
    "[^",
    white_space_chars!(),
    "]",
    "{3,50}",
    white_space!(),
    "*$)",
    email_address!(),
    white_space!(),
    "*$"
);
/// [`EMAIL`] without its length lookahead, for a field whose document also bounds what is sent to
/// at most 50 characters (`maxLength`): the address's shape is at least five characters with no
/// white space inside, so "3 to 50 once trimmed" follows. The two accept the same strings there,
/// and this one a generator can draw from directly, where a lookahead is met only by drawing
/// strings and discarding those that fail it (the API fuzzer spent most of its time so).
pub const EMAIL_SHAPE: &str = concat!("^", white_space!(), "*", email_address!(), white_space!(), "*$");
/// `validation::is_phone`: 994, an operator code, 7 digits.
pub const PHONE: &str = concat!("^", white_space!(), "*994(?:50|51|55|70|77|99|10)[0-9]{7}", white_space!(), "*$");
/// A phone that may be left empty.
pub const OPTIONAL_PHONE: &str =
    concat!("^", white_space!(), "*(?:994(?:50|51|55|70|77|99|10)[0-9]{7})?", white_space!(), "*$");
/// `validation::is_strong_password`: 8+ with a lower- and an upper-case letter, a digit, a symbol.
/// Any character counts in a password (it is hashed, never shown), control characters too.
pub const STRONG_PASSWORD: &str =
    r"^(?=[\s\S]*[a-z])(?=[\s\S]*[A-Z])(?=[\s\S]*[0-9])(?=[\s\S]*[!@#$%^&*_-])[\s\S]{8,}$";
/// `validation::has_letter_and_number`: 8+ with a letter and a digit.
pub const LETTER_AND_NUMBER_PASSWORD: &str = r"^(?=[\s\S]*[^\W\d_])(?=[\s\S]*[0-9])[\s\S]{8,}$";
/// `validation::has_number`: 8+ with a digit.
pub const NUMBER_PASSWORD: &str = r"^(?=[\s\S]*[0-9])[\s\S]{8,}$";
/// An asset's barcode prefix: up to three letters or digits.
pub const BARCODE_PREFIX: &str = concat!("^", white_space!(), "*[A-Za-z0-9]{1,3}", white_space!(), "*$");
/// The shapes `campaigns::parse_instant` reads: a day, or a day and time with an optional offset.
pub const INSTANT: &str = concat!(
    "^",
    white_space!(),
    r"*[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?",
    white_space!(),
    "*$"
);
/// The white-space class, for patterns built at run time.
pub const WHITE_SPACE: &str = white_space!();

/// Nothing but white space (or nothing): an optional field left empty.
pub const BLANK: &str = concat!("^", white_space!(), "*$");

/// A campaign's per-employee limit period, or nothing (the field is optional).
pub const LIMIT_PERIOD: &str = concat!("^", white_space!(), "*(?:day|week|month|campaign)?", white_space!(), "*$");

//! Reading the JSON bodies of the employee, merchant, promo-code and status calls field by field,
//! so that a value of the wrong type (`"count": "abc"`, `"partnerId": true`) is a validation error
//! naming that field in `errors`, like a missing one, instead of a whole-body refusal.

use serde_json::Value;

use crate::core::validation::Validator;

/// How a JSON body's fields are refused when they are not of their kind (`core::refusals`).
pub const REFUSALS: &[&str] = &["{field} must be text", "The request body must be an object."];

/// What a numeric field held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Number {
    /// Absent, `null` or blank text.
    Missing,
    /// Something that is not a whole number (text, a fraction, a boolean, a list).
    Invalid,
    Whole(i64),
}

/// Reads a whole number sent as a JSON number or as numeric text (forms often send `"12"`).
pub fn number(value: Option<&Value>) -> Number {
    match value {
        None | Some(Value::Null) => Number::Missing,
        // JSON has one number type: 2.0 is the whole number 2 to every client and validator.
        Some(Value::Number(n)) => match (n.as_i64(), n.as_f64()) {
            (Some(whole), _) => Number::Whole(whole),
            (None, Some(x)) if x.fract() == 0.0 && x.abs() < 9.0e15 => Number::Whole(x as i64),
            _ => Number::Invalid,
        },
        Some(Value::String(text)) if text.trim().is_empty() => Number::Missing,
        Some(Value::String(text)) => text.trim().parse().map_or(Number::Invalid, Number::Whole),
        Some(_) => Number::Invalid,
    }
}

/// A required id: missing, 0 or negative is `required`; anything else that is not a whole number
/// is refused with `invalid`. Returns 0 when refused (the validator then fails the request).
pub fn id(v: &mut Validator, field: &str, value: Option<&Value>, required: &str, invalid: &str) -> i64 {
    match number(value) {
        Number::Whole(id) if id > 0 => id,
        Number::Whole(_) | Number::Missing => {
            v.check(field, false, required);
            0
        }
        Number::Invalid => {
            v.check(field, false, invalid);
            0
        }
    }
}

/// Text, trimmed; a value that is not text (a number, a list) is refused as `invalid`.
pub fn text(v: &mut Validator, field: &str, value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.trim().to_string(),
        Some(_) => {
            v.check(field, false, &format!("{field} must be text"));
            String::new()
        }
    }
}

/// A flag sent as `true`/`false`, `1`/`0` or their text; `None` when missing or not a flag.
pub fn flag(value: Option<&Value>) -> Option<bool> {
    match value? {
        Value::Bool(flag) => Some(*flag),
        Value::Number(n) => match n.as_i64() {
            Some(1) => Some(true),
            Some(0) => Some(false),
            _ => None,
        },
        Value::String(text) => match text.trim().to_ascii_lowercase().as_str() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The JSON body as an object; anything else (a list, a number) is refused naming the body.
pub fn object(body: &Value) -> Result<&serde_json::Map<String, Value>, crate::core::error::AppError> {
    body.as_object()
        .ok_or_else(|| crate::core::error::AppError::BadRequest("The request body must be an object.".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_come_as_numbers_or_numeric_text() {
        assert_eq!(number(Some(&json!(12))), Number::Whole(12));
        assert_eq!(number(Some(&json!(12.0))), Number::Whole(12));
        assert_eq!(number(Some(&json!(" 12 "))), Number::Whole(12));
        assert_eq!(number(Some(&json!(""))), Number::Missing);
        assert_eq!(number(None), Number::Missing);
        assert_eq!(number(Some(&json!(null))), Number::Missing);
        for bad in [json!("abc"), json!(1.5), json!(true), json!([1])] {
            assert_eq!(number(Some(&bad)), Number::Invalid, "{bad}");
        }
    }

    #[test]
    fn a_whole_number_written_with_a_point_is_read_exactly() {
        // Found by schemathesis: without serde_json's exact float parsing, this was read one unit
        // in the last place away from the whole number, so a valid campaignId was refused.
        for text in ["2141610226902971.0", "4006078019634494.0", "7.0"] {
            let value: Value = serde_json::from_str(text).unwrap();
            let whole: i64 = text.trim_end_matches(".0").parse().unwrap();
            assert_eq!(number(Some(&value)), Number::Whole(whole), "{text}");
        }
    }

    #[test]
    fn flags() {
        assert_eq!(flag(Some(&json!(true))), Some(true));
        assert_eq!(flag(Some(&json!(0))), Some(false));
        assert_eq!(flag(Some(&json!("TRUE"))), Some(true));
        assert_eq!(flag(Some(&json!(2))), None);
        assert_eq!(flag(None), None);
    }
}

//! Request extractors whose rejections are `AppError`s, so bad JSON or queries get the same
//! `{message}` body as every other failure.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::core::error::AppError;

use crate::http::declared::{DeclaredRequest, Scope};
use crate::http::state::AppState;

/// `axum::Json` with errors rendered as `{message}`.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        // Read as JSON first (media type, size and syntax as axum::Json checks them), then give
        // whole numbers written with a fraction (`1.0`) as integers: JSON has one number type, and
        // `1.0` is the integer 1 to every JSON Schema validator and client, so a field documented
        // as an integer must accept it.
        let declared = DeclaredRequest::of(req.extensions(), req.method());
        let axum::Json(mut value) =
            axum::Json::<serde_json::Value>::from_request(req, state).await.map_err(json_rejection)?;
        integral_floats_to_integers(&mut value);
        if let Some((field, message)) = control_character_in(&value, "", declared.scope("application/json")) {
            return Err(AppError::field(&field, message));
        }
        // Back to bytes, so a refusal names the field's path as axum::Json reports it.
        let bytes = serde_json::to_vec(&value).map_err(|e| AppError::Internal(e.into()))?;
        axum::Json::<T>::from_bytes(&bytes).map(|axum::Json(value)| ApiJson(value)).map_err(json_rejection)
    }
}

/// The first text in a JSON body that holds a control character, as (its field's path, the
/// refusal): `firstName`, `items[2].name`. Only the fields the route declares are looked at.
fn control_character_in(value: &serde_json::Value, path: &str, scope: Scope) -> Option<(String, String)> {
    use serde_json::Value;
    match value {
        Value::String(text) => {
            crate::core::validation::control_character_refusal(path, text).map(|m| (path.to_string(), m))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(index, item)| control_character_in(item, &format!("{path}[{index}]"), scope.items())),
        Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            let scope = scope.property(key)?;
            let path = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
            control_character_in(item, &path, scope)
        }),
        _ => None,
    }
}

/// Turns every float without a fraction that fits an i64 into an integer; true when any changed.
fn integral_floats_to_integers(value: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::Number(number) if !number.is_i64() && !number.is_u64() => match number.as_f64() {
            Some(float) if float.fract() == 0.0 && float >= i64::MIN as f64 && float < i64::MAX as f64 => {
                *value = Value::from(float as i64);
                true
            }
            _ => false,
        },
        Value::Array(items) => {
            items.iter_mut().fold(false, |changed, item| integral_floats_to_integers(item) | changed)
        }
        Value::Object(fields) => {
            fields.values_mut().fold(false, |changed, item| integral_floats_to_integers(item) | changed)
        }
        _ => false,
    }
}

/// How the readers of a JSON body, a query and an id in the address refuse (`core::refusals`).
pub const REFUSALS: &[&str] = &[
    "The request body is too large.",
    "Send the request body as application/json.",
    "The field '{field}' is required.",
    "{subject} must be a list of ids, e.g. {\"id\": [1, 2]}.",
    "{subject} does not have the expected shape.",
    "{subject} must be {expected}, not {found}.",
    "{subject} must be {expected}; {found} is out of range.",
    "The request body is not complete JSON.",
    "The request body is not valid JSON.",
    "The request body is not valid: {problem}.",
    "{name} must be a whole number.",
    "{name} must be true or false.",
    "The query parameter {name} is given more than once.",
    "The id in the address is missing.",
    "'{raw}' is not a valid id.",
];

fn json_rejection(rejection: JsonRejection) -> AppError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge("The request body is too large.".into()),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            AppError::UnsupportedMediaType("Send the request body as application/json.".into())
        }
        _ => {
            let detail = match &rejection {
                JsonRejection::JsonDataError(e) => e.body_text(),
                JsonRejection::JsonSyntaxError(e) => e.body_text(),
                other => other.body_text(),
            };
            AppError::BadRequest(describe_json_error(&detail))
        }
    }
}

/// Says what was wrong with a JSON body in the caller's terms (which field, what was expected),
/// never in the server's (`expected struct NewUser`, `untagged enum IdList`, `expected i64`).
fn describe_json_error(detail: &str) -> String {
    let detail = detail
        .trim_start_matches("Failed to deserialize the JSON body into the target type: ")
        .trim_start_matches("Failed to parse the request body as JSON: ");
    // serde_json ends its messages with the position, which a person does not need.
    let detail = detail.split(" at line ").next().unwrap_or(detail);
    // axum puts the field's path first: `assets[2]: invalid type: ...`.
    let (field, problem) = match detail.split_once(": ") {
        Some((path, rest)) if !path.contains(' ') => (Some(path), rest),
        _ => (None, detail),
    };
    let subject = field.map_or_else(|| "The request body".to_string(), |field| format!("The field '{field}'"));
    if let Some(missing) = problem.strip_prefix("missing field `").and_then(|rest| rest.strip_suffix('`')) {
        return match field {
            Some(parent) => format!("The field '{parent}.{missing}' is required."),
            None => format!("The field '{missing}' is required."),
        };
    }
    if problem.starts_with("data did not match any variant of untagged enum IdList") {
        return format!("{subject} must be a list of ids, e.g. {{\"id\": [1, 2]}}.");
    }
    if problem.starts_with("data did not match any variant") {
        return format!("{subject} does not have the expected shape.");
    }
    if let Some(rest) = problem.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!("{subject} must be {}, not {}.", in_plain_words(expected), in_plain_words(found));
    }
    if let Some(rest) = problem.strip_prefix("invalid value: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!("{subject} must be {}; {} is out of range.", in_plain_words(expected), found.replace('`', ""));
    }
    if problem.starts_with("EOF while parsing") {
        return "The request body is not complete JSON.".into();
    }
    if problem.starts_with("expected") || problem.starts_with("key must be") || problem.starts_with("trailing") {
        return "The request body is not valid JSON.".into();
    }
    format!("The request body is not valid: {problem}.")
}

/// A serde type description (`i64`, `struct NewUser`, `a sequence`, `string "x"`) in plain words.
fn in_plain_words(serde: &str) -> String {
    let serde = serde.trim();
    let words = match serde {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a sequence" | "sequence" => "a list",
        "a map" | "map" => "an object",
        "a boolean" | "boolean" => "true or false",
        "a string" | "string" | "a borrowed string" => "text",
        "null" => "null",
        "unit value" => "null",
        _ if serde.starts_with("struct ") || serde.starts_with("a map") => "an object",
        _ if serde.starts_with("enum ") || serde.starts_with("variant ") => "one of the allowed values",
        _ if serde.starts_with("string ") => "text",
        _ if serde.starts_with("integer ") => {
            return format!("the number {}", serde["integer ".len()..].replace('`', ""));
        }
        _ if serde.starts_with("floating point ") => "a number",
        _ if serde.starts_with("boolean ") => "true or false",
        other => other,
    };
    words.to_string()
}

/// Query parameters with case-insensitive names (`skip`, `Skip` and `SKIP` are one parameter),
/// as the original back end accepted them. Every parameter is one value: a name sent twice is
/// refused (`repeated`) rather than read as one of its values, which would let `Skip=x&Skip=`
/// pass as no `Skip` at all.
#[derive(Debug, Default, Clone)]
pub struct QueryMap {
    values: HashMap<String, String>,
    /// The first name sent more than once, as the client spelled it.
    repeated: Option<String>,
}

impl QueryMap {
    pub fn parse(query: Option<&str>) -> QueryMap {
        let mut map = QueryMap::default();
        for (name, value) in query.map(|q| form_urlencoded::parse(q.as_bytes())).into_iter().flatten() {
            let previous = map.values.insert(name.to_ascii_lowercase(), value.into_owned());
            if previous.is_some() && map.repeated.is_none() {
                map.repeated = Some(name.into_owned());
            }
        }
        map
    }

    /// A 400 naming the first parameter sent more than once, if any.
    fn refuse_repeated(&self) -> Result<(), AppError> {
        match &self.repeated {
            Some(name) => Err(AppError::BadRequest(format!("The query parameter {name} is given more than once."))),
            None => Ok(()),
        }
    }

    /// The same query with `name` set to `value`, whatever the caller sent for it.
    pub fn with(mut self, name: &str, value: String) -> QueryMap {
        self.values.insert(name.to_ascii_lowercase(), value);
        self
    }

    /// The trimmed value, `None` when missing or blank.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(&name.to_ascii_lowercase()).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// A whole number, or a 400 naming the parameter.
    pub fn int(&self, name: &str) -> Result<Option<i64>, AppError> {
        self.get(name)
            .map(|v| {
                crate::core::validation::parse_whole(v)
                    .ok_or_else(|| AppError::BadRequest(format!("{name} must be a whole number.")))
            })
            .transpose()
    }

    pub fn bool(&self, name: &str) -> Result<Option<bool>, AppError> {
        self.get(name)
            .map(|v| match v.to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(AppError::BadRequest(format!("{name} must be true or false."))),
            })
            .transpose()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for QueryMap {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, AppError> {
        let query = QueryMap::parse(parts.uri.query());
        query.refuse_repeated()?;
        Ok(query)
    }
}

/// The client's address; unknown (e.g. in router tests) counts as loopback. When the peer is one
/// of the operator's trusted proxies (`Settings::trusted_proxies`: the balancer in front of a
/// cluster), the client is the last address in `X-Forwarded-For` that is not a trusted proxy
/// itself: what the client wrote there is to its left and never believed.
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        Ok(ClientIp(client_address(peer, &parts.headers, &state.settings.trusted_proxies)))
    }
}

/// The client behind `peer` (see [`ClientIp`]).
pub fn client_address(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .collect();
    // From the right: each trusted proxy appended the address it heard from.
    let mut client = peer;
    for hop in hops.iter().rev() {
        let Ok(address) = hop.trim().parse::<IpAddr>() else { break };
        client = address;
        if !trusted.contains(&address) {
            break;
        }
    }
    client
}

/// A numeric `{id}` path segment with a JSON 400 when it is not a number.
pub struct PathId(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let axum::extract::Path(raw) = axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::BadRequest("The id in the address is missing.".into()))?;
        // `7` or `7.0`, as queries and forms read whole numbers (`core::validation::parse_whole`).
        crate::core::validation::parse_whole(&raw)
            .map(PathId)
            .ok_or_else(|| AppError::BadRequest(format!("'{raw}' is not a valid id.")))
    }
}

#[cfg(test)]
mod tests {
    use super::describe_json_error;

    #[test]
    fn json_errors_name_the_field_and_what_was_expected_in_plain_words() {
        let cases = [
            (
                "id: invalid type: string \"abc\", expected i64 at line 1 column 11",
                "The field 'id' must be a whole number, not text.",
            ),
            (
                "invalid type: integer `5`, expected struct NewUser at line 1 column 1",
                "The request body must be an object, not the number 5.",
            ),
            (
                "data did not match any variant of untagged enum IdList",
                "The request body must be a list of ids, e.g. {\"id\": [1, 2]}.",
            ),
            ("missing field `firstName` at line 1 column 2", "The field 'firstName' is required."),
            (
                "isActive: invalid type: string \"yes\", expected a boolean at line 1 column 20",
                "The field 'isActive' must be true or false, not text.",
            ),
            (
                "ids[1]: invalid type: string \"x\", expected i64 at line 1 column 9",
                "The field 'ids[1]' must be a whole number, not text.",
            ),
            (
                "status: invalid value: integer `-1`, expected u16 at line 1 column 12",
                "The field 'status' must be a whole number; integer -1 is out of range.",
            ),
            ("EOF while parsing an object at line 1 column 9", "The request body is not complete JSON."),
            ("expected value at line 1 column 1", "The request body is not valid JSON."),
        ];
        for (serde, expected) in cases {
            assert_eq!(describe_json_error(serde), expected, "{serde}");
        }
        for (serde, _) in cases {
            let said = describe_json_error(serde);
            for internal in ["struct", "enum", "i64", "u16", "NewUser", "IdList", "line 1"] {
                assert!(!said.contains(internal), "{said}");
            }
        }
    }
}

#[cfg(test)]
mod client_address_tests {
    use super::client_address;
    use axum::http::HeaderMap;
    use std::net::IpAddr;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_client_is_read_from_forwarded_for_only_behind_a_trusted_proxy() {
        let balancer = ip("10.0.0.5");
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "6.6.6.6, 203.0.113.7".parse().unwrap());
        // What the client wrote (6.6.6.6) is never believed; the balancer appended 203.0.113.7.
        assert_eq!(client_address(balancer, &headers, &[balancer]), ip("203.0.113.7"));
        // From anyone else the header is the client's own words: the peer is the client.
        assert_eq!(client_address(ip("198.51.100.1"), &headers, &[balancer]), ip("198.51.100.1"));
        assert_eq!(client_address(balancer, &headers, &[]), balancer);
        // Two trusted hops (a proxy behind the balancer), and junk to the left of them.
        headers.insert("x-forwarded-for", "junk, 203.0.113.9, 10.0.0.6".parse().unwrap());
        assert_eq!(client_address(balancer, &headers, &[balancer, ip("10.0.0.6")]), ip("203.0.113.9"));
        // No header: the peer.
        assert_eq!(client_address(balancer, &HeaderMap::new(), &[balancer]), balancer);
    }
}

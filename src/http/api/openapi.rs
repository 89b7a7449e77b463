//! The OpenAPI document built from the registry's endpoints: each operation with its parameters,
//! body (its rules applied), answers and every refusal it may send, and the components.

use axum::http::Method;
use utoipa::openapi::encoding::EncodingBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, Paths, Ref, RefOr, Required,
    ResponseBuilder, Schema,
};

use crate::core::patterns::{self, white_space};
use crate::core::refusals::{self, Audience};

use super::Endpoint;
use super::doc::*;

/// The document's list of refusal texts by audience (`people`, `machines`).
pub const REFUSALS: &str = "x-refusals";

/// The refusals every route may send (the core's and the request readers'), with the routes'
/// own, each once and sorted; a text declared for both audiences is for people.
pub(super) fn refusals(declared: Vec<(Audience, String)>) -> serde_json::Value {
    let everywhere = refusals::EVERYWHERE.iter().map(|text| (Audience::People, text.to_string()));
    let readers =
        REQUEST_REFUSALS.iter().flat_map(|texts| texts.iter()).map(|text| (Audience::Machines, text.to_string()));
    let mut all: Vec<(Audience, String)> = everywhere.chain(readers).chain(declared).collect();
    all.sort_by(|a, b| (&a.1, a.0).cmp(&(&b.1, b.0)));
    all.dedup_by(|later, earlier| later.1 == earlier.1);
    let texts =
        |audience| all.iter().filter(|(a, _)| *a == audience).map(|(_, text)| text.as_str()).collect::<Vec<_>>();
    serde_json::json!({ "people": texts(Audience::People), "machines": texts(Audience::Machines) })
}

/// What the request readers refuse a malformed request with (a body, a query, an id in the
/// address, a form): the panel never sends one, so these are for machines.
const REQUEST_REFUSALS: &[&[&str]] = &[
    super::super::extract::REFUSALS,
    super::super::fields::REFUSALS,
    super::super::forms::REFUSALS,
    super::super::web::REFUSALS,
];

fn error_schema() -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name("Error"))
}

/// The security scheme of the inbound API (`Authorization: Bearer pk_...`).
pub const API_KEY_SCHEME: &str = "apiKey";

/// The longest `x-requestid` the server takes (a longer one is a 400).
const MAX_REQUEST_ID: usize = 100;

pub(super) fn build_openapi(endpoints: Vec<Endpoint>) -> OpenApi {
    let mut paths = Paths::new();
    let mut components = ComponentsBuilder::new()
        .schema(
            "Error",
            ObjectBuilder::new()
                .description(Some("Every refusal: a message for people, and per-field messages on validation"))
                .property("message", ObjectBuilder::new().schema_type(Type::String))
                .required("message")
                .property(
                    "errors",
                    ObjectBuilder::new()
                        .schema_type(SchemaType::Type(Type::Object))
                        .additional_properties(Some(ObjectBuilder::new().schema_type(Type::String)))
                        .description(Some("Field name to message, for refusals caused by one or more fields")),
                ),
        )
        .security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        )
        .security_scheme(
            API_KEY_SCHEME,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("pk_...")
                    .description(Some(
                        "An API client's key, `Authorization: Bearer pk_...`, made by an Admin on the API \
                         clients screen or with `perkdesk api-client create`. Staff sign-in tokens are not \
                         accepted here, and keys are not accepted on the back-office API.",
                    ))
                    .build(),
            ),
        );
    let body_names: std::collections::HashSet<String> =
        endpoints.iter().filter_map(|endpoint| endpoint.doc.body_name.clone()).collect();
    // Debug builds (every test) check that one name is one schema; release builds skip the copies.
    let mut named: std::collections::HashMap<String, RefOr<Schema>> = std::collections::HashMap::new();
    for endpoint in endpoints {
        let Endpoint { method, path, doc } = endpoint;
        // A body's `id` (or `...Id`) names a row: ids start at 1, and one that names no row is a 404.
        let mut names_rows = false;
        // A body type shared by several operations is one component, so one operation's rules
        // go into an inline copy of it rather than into the component the others see.
        let mut ruled_body = None;
        for (name, mut schema) in doc.schemas {
            // A type that is some operation's body documents the server's text rule wherever it
            // stands (the same component may also describe an answer).
            if body_names.contains(&name) {
                text_patterns(&mut schema);
            }
            if doc.body_name.as_deref() == Some(name.as_str()) {
                names_rows |= ids_from_one(&mut schema);
                if !doc.rules.is_empty() {
                    let mut copy = schema.clone();
                    apply_rules(&mut copy, &doc.rules);
                    ruled_body = Some(copy);
                }
            }
            // One name, one schema: two declarations naming their rows alike must agree.
            if cfg!(debug_assertions) {
                assert!(
                    named.get(&name).is_none_or(|seen| seen == &schema),
                    "two different schemas are both named {name}"
                );
                named.insert(name.clone(), schema.clone());
            }
            components = components.schema(name, schema);
        }
        // Every status the operation can answer, collected first so each is described once.
        let mut errors: Vec<(u16, &str)> = Vec::new();
        let mut op = OperationBuilder::new().summary(Some(doc.summary)).tag(doc.tag);
        if let Some(roles) = doc.roles {
            op = op
                .description(Some(format!("Roles: {}.", roles.names().join(", "))))
                .security(SecurityRequirement::new("bearer", Vec::<String>::new()));
            errors.push((401, "Not signed in, or the session ended"));
            errors.push((403, "The caller's role may not do this"));
        }
        if let Some(kind) = doc.api_key {
            op = op
                .description(Some(format!("API key of kind {kind}.")))
                .security(SecurityRequirement::new(API_KEY_SCHEME, Vec::<String>::new()));
            errors.push((401, "No API key, an unknown or revoked one, or a staff token"));
            errors.push((403, "The key is of another kind"));
            errors.push((429, "The client sent more requests than its rate limit allows"));
        }
        for segment in path.split('/').filter(|s| s.starts_with('{')) {
            let name = segment.trim_matches(|c| c == '{' || c == '}');
            let schema: RefOr<Schema> = if let Some(description) = doc.text_path {
                errors.push((400, "The path segment is not valid; the message names it"));
                RefOr::T(Schema::Object(
                    ObjectBuilder::new().schema_type(Type::String).description(Some(description)).build(),
                ))
            } else if doc.file_path {
                RefOr::T(Schema::Object(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .description(Some("The file's public name and extension, as in a row's filePath"))
                        .build(),
                ))
            } else {
                errors.push((400, "The id is not a whole number"));
                super::query::path_id()
            };
            op = op.parameter(
                ParameterBuilder::new()
                    .name(name)
                    .parameter_in(ParameterIn::Path)
                    .required(Required::True)
                    .schema(Some(schema)),
            );
            errors.push((404, "Not found"));
        }
        if !doc.query.is_empty() {
            errors.push((400, "A query parameter is not valid; the message names it"));
        }
        for param in doc.query {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(param.name)
                    .parameter_in(ParameterIn::Query)
                    .required(if param.required { Required::True } else { Required::False })
                    .description(Some(param.description))
                    .schema(Some(param.schema)),
            );
        }
        if doc.revalidates {
            op = op.parameter(
                ParameterBuilder::new()
                    .name("If-None-Match")
                    .parameter_in(ParameterIn::Header)
                    .required(Required::False)
                    .description(Some(
                        "The ETag of an earlier answer to the same request: 304, no body, while the data it \
                         was read from has not changed",
                    ))
                    // Any length: a value naming no current tag is answered as if it were absent.
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String))),
            );
            op = op.response(
                "304",
                ResponseBuilder::new()
                    .description("Not modified: the answer whose ETag was sent in If-None-Match still holds")
                    .build(),
            );
        }
        let mutation = super::super::reply::is_mutation(&method);
        if mutation {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(super::super::reply::REQUEST_ID)
                    .parameter_in(ParameterIn::Header)
                    .required(Required::False)
                    .description(Some(
                        "Makes a retry safe: the same id with the same request from the same session gets \
                         the first answer back without the work being done again",
                    ))
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String).max_length(Some(MAX_REQUEST_ID)))),
            );
            errors.push((400, "x-requestid is longer than 100 characters"));
            // Any request of a signed-in session (a bearer token sent even where none is needed)
            // goes through the x-requestid store.
            errors.push((409, "A request with this x-requestid is still being processed"));
            errors.push((422, "This x-requestid was already used for a different request"));
            errors.push((
                503,
                "Nothing was saved: on PostgreSQL the write lost to concurrent writes on other app servers on \
                 every retry (Retry-After says when to try again), or the change could not be recorded in the \
                 activity log (the server's log says why)",
            ));
        }
        if let Some((content_type, mut schema)) = doc.body {
            if let Some(ruled) = ruled_body {
                schema = ruled;
            }
            apply_rules(&mut schema, &doc.rules);
            one_of_required(&mut schema, doc.one_of_required);
            text_patterns(&mut schema);
            names_rows |= ids_from_one(&mut schema);
            if content_type == "multipart/form-data" {
                blank_means_absent(&mut schema);
            }
            op = op.request_body(Some(
                RequestBodyBuilder::new()
                    .content(content_type, body_content(content_type, schema))
                    .required(Some(Required::True))
                    .build(),
            ));
            errors.push((400, "Validation failed; `errors` names the fields"));
            errors.push((413, "The request body is too large"));
            errors.push((415, "The body is not of the documented media type"));
        }
        if names_rows {
            errors.push((404, "A row the body names does not exist"));
        }
        errors.extend(doc.answers.iter().copied());
        errors.sort_by_key(|(status, _)| *status);
        errors.dedup_by_key(|(status, _)| *status);
        for (status, description) in errors {
            op = op.response(status.to_string(), error_response(status, description));
        }
        let (status, body) = doc.response;
        let successes = std::iter::once((status, "Success")).chain(doc.also_succeeds.iter().copied());
        for (status, description) in successes {
            let mut response = ResponseBuilder::new().description(description);
            if doc.revalidates {
                response = response.header(
                    "ETag",
                    utoipa::openapi::HeaderBuilder::new()
                        .schema(ObjectBuilder::new().schema_type(Type::String))
                        .description(Some("Names this answer's data, for If-None-Match"))
                        .build(),
                );
            }
            if let Some((content_type, schema)) = &body {
                response = response.content(*content_type, ContentBuilder::new().schema(Some(schema.clone())).build());
            }
            op = op.response(status.to_string(), response.build());
        }
        let method = match method {
            Method::POST => HttpMethod::Post,
            Method::PUT => HttpMethod::Put,
            Method::PATCH => HttpMethod::Patch,
            Method::DELETE => HttpMethod::Delete,
            _ => HttpMethod::Get,
        };
        let mut operation = op.build();
        if doc.carries_secret {
            operation
                .extensions
                .get_or_insert_with(Default::default)
                .insert(super::super::secrets::EXTENSION.to_string(), serde_json::Value::Bool(true));
        }
        paths.add_path_operation(path, vec![method], operation);
    }
    OpenApiBuilder::new()
        .info(InfoBuilder::new().title("perkdesk API").version(env!("CARGO_PKG_VERSION")).description(Some(
            "Back-office API. Lists take Skip, Take, SortField and OrderBy (true = ascending) and \
                     answer {data, totalCount}. Mutations may carry x-requestid for safe retries. \
                     Paths and query names are case-insensitive. Every refusal is {message, errors}.",
        )))
        .paths(paths)
        .components(Some(components.build()))
        .build()
}

/// A request body's content; a multipart body's file fields are declared as images, so a client
/// (or a fuzzer) knows a file part must be a PNG, JPEG, WebP or GIF, unless the field names its
/// own media type (`contentMediaType`, e.g. the employee import's .xlsx).
fn body_content(content_type: &str, schema: RefOr<Schema>) -> utoipa::openapi::Content {
    let mut content = ContentBuilder::new().schema(Some(schema.clone()));
    if content_type == "multipart/form-data"
        && let RefOr::T(Schema::Object(object)) = &schema
    {
        for (name, field) in &object.properties {
            if let RefOr::T(Schema::Object(field)) = field
                && matches!(field.format, Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            {
                let media_type = match field.content_media_type.as_str() {
                    "" => IMAGE_TYPES.to_string(),
                    own => own.to_string(),
                };
                content = content.encoding(name.clone(), EncodingBuilder::new().content_type(Some(media_type)).build());
            }
        }
    }
    content.build()
}

/// Writes the server's rules into an object schema (a referenced schema is patched where it is
/// defined; a `$ref` here is left alone).
/// `fields` are required one at a time: none is in `required`, and `anyOf` asks for one of them
/// sent and not blank (each may be blank when another is given: the server reads the one that is
/// not). The object keeps its properties, so each field's messages stay where the client reads
/// them.
fn one_of_required(schema: &mut RefOr<Schema>, fields: &[&str]) {
    let RefOr::T(Schema::Object(object)) = schema else { return };
    if fields.is_empty() {
        return;
    }
    object.required.retain(|field| !fields.contains(&field.as_str()));
    for field in fields {
        if let Some(RefOr::T(Schema::Object(property))) = object.properties.get_mut(*field) {
            property.pattern = Some(patterns::TEXT.to_string());
        }
    }
    let choices: Vec<serde_json::Value> = fields
        .iter()
        .map(|field| {
            serde_json::json!({ "required": [field], "properties": { *field: { "pattern": patterns::NOT_BLANK } } })
        })
        .collect();
    object
        .extensions
        .get_or_insert_with(Default::default)
        .insert("anyOf".to_string(), serde_json::Value::from(choices));
}

fn apply_rules(schema: &mut RefOr<Schema>, rules: &[(&'static str, Vec<Rule>)]) {
    let RefOr::T(Schema::Object(object)) = schema else { return };
    for (field, rules) in rules {
        for rule in rules {
            if let Rule::RequiredWith(other) = rule {
                required_with(object, field, other);
                continue;
            }
            if let Rule::Required = rule {
                if !object.required.iter().any(|r| r == field) {
                    object.required.push(field.to_string());
                }
                // A required `Option<T>` field is documented as `T | null`; null is refused too.
                if let Some(RefOr::T(Schema::Object(property))) = object.properties.get_mut(*field)
                    && let SchemaType::Array(types) = &property.schema_type
                {
                    let types: Vec<Type> = types.iter().filter(|t| **t != Type::Null).cloned().collect();
                    property.schema_type = match types.as_slice() {
                        [single] => SchemaType::Type(single.clone()),
                        _ => SchemaType::Array(types),
                    };
                }
                continue;
            }
            let Some(RefOr::T(Schema::Object(property))) = object.properties.get_mut(*field) else { continue };
            match *rule {
                Rule::Required | Rule::RequiredWith(_) => {}
                // "Required text" of a field that spans lines allows line breaks inside.
                Rule::Pattern(pattern)
                    if pattern == patterns::NOT_BLANK && crate::core::validation::is_multiline(field) =>
                {
                    property.pattern = Some(patterns::NOT_BLANK_MULTILINE.to_string())
                }
                Rule::Pattern(pattern) => property.pattern = Some(pattern.to_string()),
                Rule::Length(min, max) => {
                    property.min_length = Some(min);
                    property.max_length = Some(max);
                }
                Rule::Range(min, max) => {
                    property.minimum = Some(utoipa::Number::Int(min as isize));
                    property.maximum = Some(utoipa::Number::Int(max as isize));
                }
                Rule::Message(key, message) => {
                    let extensions = property.extensions.get_or_insert_with(Default::default);
                    let messages = extensions.entry("x-messages".to_string()).or_insert_with(|| serde_json::json!({}));
                    if let Some(messages) = messages.as_object_mut() {
                        messages.insert(key.to_string(), serde_json::Value::from(message));
                    }
                }
                Rule::Repeated => {
                    property
                        .extensions
                        .get_or_insert_with(Default::default)
                        .insert(REPEATED.to_string(), serde_json::Value::Bool(true));
                    add_note(property, "Repeated, one part per value.");
                }
                Rule::Note(note) => add_note(property, note),
            }
        }
    }
}

/// A property's extension saying a multipart part may repeat (`Rule::Repeated`).
pub const REPEATED: &str = "x-repeated";

fn add_note(property: &mut utoipa::openapi::schema::Object, note: &str) {
    // The rules may be applied to a copy that already has them: a note is added once.
    property.description = Some(match property.description.take() {
        Some(text) if text.contains(note) => text,
        Some(text) => format!("{text} {note}"),
        None => note.to_string(),
    })
}

/// `field` must be sent, not blank, when `other` is sent and not blank: the object is either
/// without `other` (absent or blank text) or has `field`. Said with `anyOf` (beside any other
/// `anyOf` of the object, in `allOf`), which schemathesis's generator honours.
fn required_with(object: &mut utoipa::openapi::schema::Object, field: &str, other: &str) {
    let condition = serde_json::json!({ "anyOf": [
        { "properties": { other: { "type": "string", "pattern": patterns::BLANK } } },
        { "required": [field], "properties": { field: { "type": "string", "pattern": patterns::NOT_BLANK } } },
    ] });
    let extensions = object.extensions.get_or_insert_with(Default::default);
    let mut conditions = match extensions.remove("allOf") {
        Some(serde_json::Value::Array(conditions)) => conditions,
        _ => Vec::new(),
    };
    if !conditions.contains(&condition) {
        conditions.push(condition);
    }
    extensions.insert("allOf".to_string(), serde_json::Value::from(conditions));
}

/// Gives every text field of a body that has no pattern of its own the server's text rule: no
/// control character inside (tab and line breaks only in a multi-line field), as
/// `validation::control_character_refusal` refuses. Nested objects and lists of objects too.
fn text_patterns(schema: &mut RefOr<Schema>) {
    let RefOr::T(Schema::Object(object)) = schema else { return };
    for (name, property) in object.properties.iter_mut() {
        let RefOr::T(Schema::Object(field)) = property else { continue };
        let text = match &field.schema_type {
            SchemaType::Type(Type::String) => true,
            SchemaType::Array(types) => types.contains(&Type::String),
            _ => false,
        };
        let unpatterned = field.pattern.is_none() && field.format.is_none() && field.enum_values.is_none();
        if text && unpatterned && !crate::core::validation::is_password(name) {
            let multiline = crate::core::validation::is_multiline(name);
            field.pattern = Some(if multiline { patterns::MULTILINE_TEXT } else { patterns::TEXT }.to_string());
        }
        if matches!(field.schema_type, SchemaType::Type(Type::Object)) {
            text_patterns(property);
        }
    }
}

/// Gives the integer `id` and `...Id` fields of an object body a minimum of 1 (row ids start
/// there; the server refuses 0 as "required" or answers 404); true when the body has any.
fn ids_from_one(schema: &mut RefOr<Schema>) -> bool {
    let RefOr::T(Schema::Object(object)) = schema else { return false };
    let mut found = false;
    for (name, property) in object.properties.iter_mut() {
        // A branch row's own `Cities[i].Id` may be 0 (a new row). An indexed integer part
        // (`deletedCities[0]`) lists rows by id.
        let is_id = ((name == "id" || name.ends_with("Id")) && !name.ends_with("].Id")) || name.ends_with("[0]");
        let RefOr::T(Schema::Object(field)) = property else { continue };
        let integer = match &field.schema_type {
            SchemaType::Type(Type::Integer) => true,
            SchemaType::Array(types) => types.contains(&Type::Integer),
            _ => false,
        };
        if is_id && integer {
            found = true;
            if field.minimum.is_none() {
                field.minimum = Some(utoipa::Number::Int(1));
                // A `#[serde(default)]` body documents `default: 0`, which names no row and is
                // below that minimum: an id has no default.
                field.default = None;
            }
            // Ids are 64-bit; a larger number names no row the server could hold.
            if field.maximum.is_none() {
                field.maximum = Some(utoipa::Number::Int(i64::MAX as isize));
            }
        }
    }
    found
}

/// A form's text is trimmed and an optional number left blank counts as not sent: such fields
/// are documented as "the number, or blank".
fn blank_means_absent(schema: &mut RefOr<Schema>) {
    let RefOr::T(Schema::Object(object)) = schema else { return };
    // Other fields are ignored, but a part's name travels in a header, where a control character
    // or a quote cannot be written: such a form is unreadable (400).
    object.property_names = Some(Box::new(Schema::Object(
        ObjectBuilder::new().schema_type(Type::String).pattern(Some(r#"^[^\x00-\x1f\x7f"]*$"#)).build(),
    )));
    let required = object.required.clone();
    for (name, property) in object.properties.iter_mut() {
        let numeric = matches!(
            property,
            RefOr::T(Schema::Object(field))
                if matches!(field.schema_type, SchemaType::Type(Type::Integer) | SchemaType::Type(Type::Number))
        );
        if numeric && !required.contains(name) {
            let number = std::mem::replace(property, RefOr::T(Schema::Object(Default::default())));
            let blank =
                ObjectBuilder::new().schema_type(Type::String).pattern(Some(concat!("^", white_space!(), "*$")));
            *property =
                RefOr::T(Schema::AnyOf(utoipa::openapi::schema::AnyOfBuilder::new().item(number).item(blank).build()));
        }
    }
}

/// The media types of an accepted image, as an `encoding.contentType` list.
const IMAGE_TYPES: &str = "image/png, image/jpeg, image/webp, image/gif";

/// A refusal's answer: `{message, errors}`; a 429 also says in `Retry-After` when to try again.
fn error_response(status: u16, description: &str) -> utoipa::openapi::Response {
    let mut response = ResponseBuilder::new()
        .description(description)
        .content(JSON, ContentBuilder::new().schema(Some(error_schema())).build());
    if status == 429 {
        response = response.header(
            "Retry-After",
            utoipa::openapi::HeaderBuilder::new()
                .schema(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(1)))
                .description(Some("Seconds to wait before trying again"))
                .build(),
        );
    }
    response.build()
}

//! The API route registry: every endpoint is added with its OpenAPI description in the same
//! call, so `/api/openapi.json` cannot fall behind the router.

use axum::Router;
use axum::http::Method;
use axum::routing::MethodRouter;
use utoipa::openapi::encoding::EncodingBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, Paths, Ref, RefOr, Required,
    ResponseBuilder, Schema,
};
use utoipa::{PartialSchema, ToSchema};

use crate::core::patterns::{self, white_space};
use crate::core::refusals::{self, Audience};
use crate::core::roles::Roles;
use crate::http::state::AppState;

/// Query parameter schemas that say exactly what `extract::QueryMap` and the list parser accept:
/// values are trimmed, and a blank value counts as not given.
pub mod query {
    use crate::core::patterns::{self, white_space};
    use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Type};
    use utoipa::openapi::{RefOr, Schema};

    /// Blank (white space only): the parameter is not applied.
    const BLANK: &str = concat!("^", white_space!(), "*$");

    fn blank() -> ObjectBuilder {
        ObjectBuilder::new().schema_type(Type::String).pattern(Some(BLANK))
    }

    /// A whole number in `min..=max`, or blank.
    pub fn int(min: i64, max: i64) -> RefOr<Schema> {
        RefOr::T(Schema::AnyOf(AnyOfBuilder::new().item(whole(min, max)).item(blank()).build()))
    }

    /// A whole number in `min..=max` (a required parameter, which cannot be blank).
    pub fn whole(min: i64, max: i64) -> ObjectBuilder {
        // As integers: a float bound (i64::MAX as f64) would round past what the server parses.
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(utoipa::Number::Int(min as isize)))
            .maximum(Some(utoipa::Number::Int(max as isize)))
    }

    /// `true`, `false`, `1` or `0` in any case, or blank.
    pub fn bool() -> RefOr<Schema> {
        let text = ObjectBuilder::new().schema_type(Type::String).pattern(Some(concat!(
            "^",
            white_space!(),
            "*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01])?",
            white_space!(),
            "*$"
        )));
        RefOr::T(Schema::AnyOf(
            AnyOfBuilder::new().item(ObjectBuilder::new().schema_type(Type::Boolean)).item(text).build(),
        ))
    }

    /// Free text without control characters (a search term); the value is trimmed first, so
    /// white space that is a control character (a line break) may surround it.
    pub fn text() -> RefOr<Schema> {
        const PATTERN: &str = concat!("^", white_space!(), r"*[^\x00-\x1f\x7f-\x9f]*", white_space!(), "*$");
        RefOr::T(Schema::Object(ObjectBuilder::new().schema_type(Type::String).pattern(Some(PATTERN)).build()))
    }

    /// One of `names`, matched case-insensitively, or blank.
    pub fn one_of(names: &[&str]) -> RefOr<Schema> {
        let alternatives: Vec<String> = names
            .iter()
            .map(|name| {
                name.chars()
                    .map(|c| {
                        if c.is_ascii_alphabetic() {
                            format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
                        } else {
                            regex_escape(c)
                        }
                    })
                    .collect()
            })
            .collect();
        let pattern = format!("^{ws}*({})?{ws}*$", alternatives.join("|"), ws = patterns::WHITE_SPACE);
        RefOr::T(Schema::Object(ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern)).build()))
    }

    /// A day (`2026-11-22`, a UTC day) or an RFC 3339 instant (`2026-11-22T00:00:00+04:00`),
    /// from 0001-01-01 to 9999-12-30. The server reads a day from the first ten characters of
    /// anything that is not an instant, so the pattern allows text after the day.
    pub fn date() -> RefOr<Schema> {
        // Years 0001-9998 and real month lengths; 29 February is left out, since a pattern cannot
        // tell leap years (the server accepts it in leap years only).
        let year = r"(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])";
        let month_day =
            r"((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))";
        let pattern = format!(r"^{ws}*({year}-{month_day}[\s\S]*)?$", ws = patterns::WHITE_SPACE);
        RefOr::T(Schema::Object(ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern)).build()))
    }

    /// A body of ids: `{"id": [..]}`, `{"ids": [..]}` or a bare `[..]`, 1 to 1000 ids;
    /// `description` says what they are for.
    pub fn id_list(description: &'static str) -> RefOr<Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, OneOfBuilder};
        let ids = || {
            ArrayBuilder::new()
                .items(
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64))),
                )
                .min_items(Some(1))
                .max_items(Some(1000))
        };
        // `id` and `ids` are one field under two names: an object holds exactly one of them.
        let keyed = |key: &str| {
            ObjectBuilder::new()
                .property(key, ids())
                .required(key)
                .additional_properties(Some(utoipa::openapi::schema::AdditionalProperties::FreeForm(false)))
        };
        RefOr::T(Schema::OneOf(
            OneOfBuilder::new().item(keyed("id")).item(keyed("ids")).item(ids()).description(Some(description)).build(),
        ))
    }

    fn regex_escape(c: char) -> String {
        if r"\.^$|?*+()[]{}-/".contains(c) { format!("\\{c}") } else { c.to_string() }
    }
}

/// What the server's validation requires of one body field, written into the body's schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The field must be sent (the server refuses the request without it).
    Required,
    /// The text must match this (ECMA-262) pattern.
    Pattern(&'static str),
    /// The text's length in characters.
    Length(usize, usize),
    /// The number's range, inclusive.
    Range(i64, i64),
    /// A free-text note (e.g. "the same as newPassword").
    Note(&'static str),
    /// The server's exact message when the field breaks the rule named by the key (`required`,
    /// `format`, `minLength`, `maxLength`, `taken`), as `x-messages` on the property: the client's
    /// form shows the same words (its rules are generated from the document).
    Message(&'static str, &'static str),
}

/// How one endpoint is described in the OpenAPI document.
pub struct Doc {
    tag: &'static str,
    summary: String,
    roles: Option<Roles>,
    /// Called with an inbound API key of this kind (`Authorization: Bearer pk_...`).
    api_key: Option<&'static str>,
    body: Option<(&'static str, RefOr<Schema>)>,
    query: Vec<Param>,
    response: (u16, Option<(&'static str, RefOr<Schema>)>),
    /// Other success statuses with the same body (an upsert's 201 beside its 200).
    also_succeeds: Vec<(u16, &'static str)>,
    schemas: Vec<(String, RefOr<Schema>)>,
    file_path: bool,
    /// The path parameter is text with this description (an e-mail), not an id.
    text_path: Option<&'static str>,
    /// Refusals particular to this operation (404 for an unknown id, 409 for a taken e-mail,
    /// 423 when locked, 429 when rate limited...), beside those every operation of its kind gets.
    answers: Vec<(u16, &'static str)>,
    /// Validation rules per body field, applied to the body's schema.
    rules: Vec<(&'static str, Vec<Rule>)>,
    /// The component name of a JSON body's schema, to apply `rules` to.
    body_name: Option<String>,
    /// The answer carries a secret its field names do not tell (`secrets`).
    carries_secret: bool,
    /// Body fields of which one, any one, is required (each in place of the others).
    one_of_required: &'static [&'static str],
}

/// A schema the document names among its components.
pub struct Component {
    pub name: &'static str,
    pub schema: RefOr<Schema>,
}

/// A query parameter: its name as the specification spells it, and its schema.
struct Param {
    name: String,
    description: String,
    schema: RefOr<Schema>,
    required: bool,
}

const JSON: &str = "application/json";
pub const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

impl Doc {
    pub fn new(tag: &'static str, summary: impl Into<String>) -> Doc {
        Doc {
            tag,
            summary: summary.into(),
            roles: None,
            api_key: None,
            body: None,
            query: vec![],
            response: (200, None),
            also_succeeds: vec![],
            schemas: vec![],
            file_path: false,
            text_path: None,
            answers: vec![],
            rules: vec![],
            body_name: None,
            carries_secret: false,
            one_of_required: &[],
        }
    }

    /// One of these body fields is required, any one of them (each stands in place of the
    /// others): the document says so with `anyOf` instead of requiring each.
    pub fn one_of_required(mut self, fields: &'static [&'static str]) -> Doc {
        self.one_of_required = fields;
        self
    }

    /// The answer carries a secret that its field names do not tell (a QR code of an
    /// authenticator's key): never cached, never replayed (`secrets`).
    pub fn carries_secret(mut self) -> Doc {
        self.carries_secret = true;
        self
    }

    /// Signed-in callers with one of these roles; others get 401 or 403.
    pub fn roles(mut self, roles: Roles) -> Doc {
        self.roles = Some(roles);
        self
    }

    /// Called with an API key of this kind (`employee-app` or `partner`); staff tokens are refused.
    pub fn api_key(mut self, kind: &'static str) -> Doc {
        self.api_key = Some(kind);
        self
    }

    fn named<T: ToSchema>(&mut self) -> RefOr<Schema> {
        let name = T::name().to_string();
        T::schemas(&mut self.schemas);
        self.schemas.push((name.clone(), T::schema()));
        RefOr::Ref(Ref::from_schema_name(name))
    }

    /// Says what the server requires of a body field (required, pattern, length, range).
    pub fn rules(mut self, field: &'static str, rules: &[Rule]) -> Doc {
        self.rules.push((field, rules.to_vec()));
        self
    }

    pub fn json_body<T: ToSchema>(mut self) -> Doc {
        self.body_name = Some(T::name().to_string());
        let schema = self.named::<T>();
        self.body = Some((JSON, schema));
        self
    }

    pub fn body_schema(mut self, content_type: &'static str, schema: RefOr<Schema>) -> Doc {
        self.body = Some((content_type, schema));
        self
    }

    /// A `multipart/form-data` body with these fields (files as binary strings).
    pub fn multipart(mut self, fields: &[(&str, Type)]) -> Doc {
        let object = fields.iter().fold(ObjectBuilder::new(), |object, (name, kind)| {
            let mut field = ObjectBuilder::new().schema_type(kind.clone());
            if *name == "file" || name.ends_with("File") {
                field = field.format(Some(utoipa::openapi::schema::SchemaFormat::KnownFormat(
                    utoipa::openapi::KnownFormat::Binary,
                )));
            }
            object.property(*name, field)
        });
        self.body = Some(("multipart/form-data", RefOr::T(Schema::Object(object.build()))));
        self
    }

    pub fn query(self, name: &str, description: &str, kind: Type) -> Doc {
        self.query_schema(name, description, ObjectBuilder::new().schema_type(kind))
    }

    /// An optional query parameter with a full schema (ranges, patterns, enumerations).
    pub fn query_schema(mut self, name: &str, description: &str, schema: impl Into<RefOr<Schema>>) -> Doc {
        self.query.push(Param {
            name: name.to_string(),
            description: description.to_string(),
            schema: schema.into(),
            required: false,
        });
        self
    }

    /// A query parameter the operation cannot do without (400 when missing).
    pub fn required_query(mut self, name: &str, description: &str, schema: impl Into<RefOr<Schema>>) -> Doc {
        self = self.query_schema(name, description, schema);
        if let Some(param) = self.query.last_mut() {
            param.required = true;
        }
        self
    }

    /// A refusal this operation can answer with, as `{message, errors}`.
    pub fn answers(mut self, status: u16, description: &'static str) -> Doc {
        self.answers.push((status, description));
        self
    }

    /// Answers with a JSON array of `T`, which is named among the components.
    pub fn returns_list_of<T: ToSchema>(mut self, status: u16) -> Doc {
        let item = self.named::<T>();
        let list = RefOr::T(Schema::Array(utoipa::openapi::schema::ArrayBuilder::new().items(item).build()));
        self.response = (status, Some((JSON, list)));
        self
    }

    pub fn returns<T: ToSchema>(mut self, status: u16) -> Doc {
        let schema = self.named::<T>();
        self.response = (status, Some((JSON, schema)));
        self
    }

    /// Answers with a named component (a resource's `UserRow`), which joins the document's
    /// components so that every answer with those rows, and the client's generated type, name it.
    pub fn returns_component(mut self, status: u16, component: Component) -> Doc {
        let reference = RefOr::Ref(Ref::from_schema_name(component.name));
        self = self.with_component(component);
        self.response = (status, Some((JSON, reference)));
        self
    }

    /// Adds a named component that this operation's schemas refer to (a list's rows).
    pub fn with_component(mut self, component: Component) -> Doc {
        self.schemas.push((component.name.to_string(), component.schema));
        self
    }

    pub fn returns_schema(mut self, status: u16, schema: RefOr<Schema>) -> Doc {
        self.response = (status, Some((JSON, schema)));
        self
    }

    /// Another success status answered with the same body as the main one, e.g. an upsert's
    /// 201 when it created the row.
    pub fn also_returns(mut self, status: u16, description: &'static str) -> Doc {
        self.also_succeeds.push((status, description));
        self
    }

    pub fn returns_file(mut self) -> Doc {
        let binary = ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::schema::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Binary)));
        self.response = (200, Some((XLSX, RefOr::T(Schema::Object(binary.build())))));
        self
    }

    /// The `/cdn/{file}` path parameter: a file's public name and extension, not a number.
    pub fn file_path(mut self) -> Doc {
        self.file_path = true;
        self
    }

    /// The path parameter is text (e.g. an e-mail), described thus, not a numeric id.
    pub fn text_path(mut self, description: &'static str) -> Doc {
        self.text_path = Some(description);
        self
    }

    /// An image body (`/cdn/...`): PNG, JPEG, WebP or GIF bytes.
    pub fn returns_image(mut self) -> Doc {
        let binary = ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::schema::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Binary)));
        self.response = (200, Some(("image/*", RefOr::T(Schema::Object(binary.build())))));
        self
    }

    pub fn no_content(mut self) -> Doc {
        self.response = (204, None);
        self
    }
}

/// Who may call one endpoint: staff of these roles, holders of an API key of this kind, or,
/// with neither, anyone.
#[derive(Debug)]
pub struct Access {
    pub method: Method,
    pub path: String,
    pub roles: Option<Vec<&'static str>>,
    pub api_key: Option<&'static str>,
}

struct Endpoint {
    method: Method,
    path: String,
    doc: Doc,
}

/// Routes plus their descriptions. Paths are written as the specification spells them and
/// routed lower-cased (requests are lower-cased before routing: paths are case-insensitive).
#[derive(Default)]
pub struct Api {
    router: Router<AppState>,
    endpoints: Vec<Endpoint>,
    /// The refusal texts these routes may send beyond their fields' `x-messages`.
    refusals: Vec<(Audience, String)>,
    /// Top-level extensions of the document.
    extensions: Vec<(&'static str, serde_json::Value)>,
}

impl Api {
    pub fn new() -> Api {
        Api::default()
    }

    /// Adds a route and its description. A route that documents roles or a kind of API key is
    /// closed to every other caller here, before its handler or any of its extractors runs
    /// (`gate`).
    pub fn add(mut self, method: Method, path: &str, handler: MethodRouter<AppState>, doc: Doc) -> Api {
        let admits = match (doc.roles, doc.api_key) {
            (Some(roles), _) => Some(super::gate::Admits::Roles(roles)),
            (None, Some(kind)) => Some(super::gate::Admits::Key(kind)),
            (None, None) => None,
        };
        let handler = match admits {
            Some(admits) => handler
                .route_layer(axum::middleware::from_fn(move |request, next| super::gate::admit(admits, request, next))),
            None => handler,
        };
        self.router = self.router.route(&path.to_ascii_lowercase(), handler);
        self.endpoints.push(Endpoint { method, path: path.to_string(), doc });
        self
    }

    pub fn merge(mut self, other: Api) -> Api {
        self.router = self.router.merge(other.router);
        self.endpoints.extend(other.endpoints);
        self.refusals.extend(other.refusals);
        self.extensions.extend(other.extensions);
        self
    }

    /// Declares refusal texts (or templates, `core::refusals`) these routes may send, for
    /// `audience`; the document lists them as `x-refusals`.
    pub fn refuses<T: ToString>(mut self, audience: Audience, texts: impl IntoIterator<Item = T>) -> Api {
        self.refusals.extend(texts.into_iter().map(|text| (audience, text.to_string())));
        self
    }

    /// Adds a top-level extension to the document (`x-...`): what the client is generated from
    /// beyond the operations (the record kinds, say).
    pub fn extension(mut self, name: &'static str, value: serde_json::Value) -> Api {
        self.extensions.push((name, value));
        self
    }

    /// Who may call each endpoint, as documented (and, for roles, enforced by its gate).
    pub fn access(&self) -> Vec<Access> {
        self.endpoints
            .iter()
            .map(|e| Access {
                method: e.method.clone(),
                path: e.path.clone(),
                roles: e.doc.roles.map(Roles::names),
                api_key: e.doc.api_key,
            })
            .collect()
    }

    /// (method, path) of every endpoint, as documented.
    pub fn endpoints(&self) -> Vec<(String, String)> {
        self.endpoints.iter().map(|e| (e.method.to_string(), e.path.clone())).collect()
    }

    pub fn into_parts(self) -> (Router<AppState>, OpenApi) {
        let mut openapi = build_openapi(self.endpoints);
        let extensions = openapi.extensions.get_or_insert_with(Default::default);
        extensions.insert(REFUSALS.to_string(), refusals(self.refusals));
        for (name, value) in self.extensions {
            extensions.insert(name.to_string(), value);
        }
        let router = super::secrets::protect(self.router, &mut openapi);
        (router, openapi)
    }
}

/// Every refusal text the document declares: its `x-refusals` and each field's `x-messages`.
pub fn declared_refusals(document: &serde_json::Value) -> Vec<String> {
    fn messages(value: &serde_json::Value, found: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(object) => {
                for (key, inner) in object {
                    match (key.as_str(), inner) {
                        ("x-messages", serde_json::Value::Object(texts)) => {
                            found.extend(texts.values().filter_map(|text| text.as_str().map(str::to_string)))
                        }
                        _ => messages(inner, found),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|item| messages(item, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    messages(document, &mut found);
    for audience in ["people", "machines"] {
        let texts = document[REFUSALS][audience].as_array().into_iter().flatten();
        found.extend(texts.filter_map(|text| text.as_str().map(str::to_string)));
    }
    found.sort();
    found.dedup();
    found
}

/// The document's list of refusal texts by audience (`people`, `machines`).
pub const REFUSALS: &str = "x-refusals";

/// The refusals every route may send (the core's and the request readers'), with the routes'
/// own, each once and sorted; a text declared for both audiences is for people.
fn refusals(declared: Vec<(Audience, String)>) -> serde_json::Value {
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
const REQUEST_REFUSALS: &[&[&str]] =
    &[super::extract::REFUSALS, super::fields::REFUSALS, super::forms::REFUSALS, super::web::REFUSALS];

fn error_schema() -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name("Error"))
}

/// The security scheme of the inbound API (`Authorization: Bearer pk_...`).
pub const API_KEY_SCHEME: &str = "apiKey";

/// The longest `x-requestid` the server takes (a longer one is a 400).
const MAX_REQUEST_ID: usize = 100;

fn build_openapi(endpoints: Vec<Endpoint>) -> OpenApi {
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
                i64::schema()
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
        let mutation = super::reply::is_mutation(&method);
        if mutation {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(super::reply::REQUEST_ID)
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
            op = op.response(status.to_string(), error_response(description));
        }
        let (status, body) = doc.response;
        let successes = std::iter::once((status, "Success")).chain(doc.also_succeeds.iter().copied());
        for (status, description) in successes {
            let mut response = ResponseBuilder::new().description(description);
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
                .insert(super::secrets::EXTENSION.to_string(), serde_json::Value::Bool(true));
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
/// `fields` are required one at a time: none is in `required`, and `anyOf` asks for one of them.
/// (The object keeps its properties, so each field's messages stay where the client reads them.)
fn one_of_required(schema: &mut RefOr<Schema>, fields: &[&str]) {
    let RefOr::T(Schema::Object(object)) = schema else { return };
    if fields.is_empty() {
        return;
    }
    object.required.retain(|field| !fields.contains(&field.as_str()));
    let choices: Vec<serde_json::Value> =
        fields.iter().map(|field| serde_json::json!({ "required": [field] })).collect();
    object
        .extensions
        .get_or_insert_with(Default::default)
        .insert("anyOf".to_string(), serde_json::Value::from(choices));
}

fn apply_rules(schema: &mut RefOr<Schema>, rules: &[(&'static str, Vec<Rule>)]) {
    let RefOr::T(Schema::Object(object)) = schema else { return };
    for (field, rules) in rules {
        for rule in rules {
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
                Rule::Required => {}
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
                Rule::Note(note) => {
                    // The rules may be applied to a copy that already has them: a note is added once.
                    property.description = Some(match property.description.take() {
                        Some(text) if text.contains(note) => text,
                        Some(text) => format!("{text} {note}"),
                        None => note.to_string(),
                    })
                }
            }
        }
    }
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

fn error_response(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(JSON, ContentBuilder::new().schema(Some(error_schema())).build())
        .build()
}

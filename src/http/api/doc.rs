//! How one endpoint is described: its [`Doc`] (roles or key kind, body, query, answers, rules)
//! and the body fields' [`Rule`]s; the registry (`super::Api`) keeps it beside the route.

use utoipa::ToSchema;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{Ref, RefOr, Schema};

use crate::core::roles::Roles;

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
    /// The field must be sent, not blank, whenever the named field is sent and not blank (a
    /// limit's period with the limit).
    RequiredWith(&'static str),
    /// A free-text note (e.g. "the same as newPassword").
    Note(&'static str),
    /// A multipart part that may be sent more than once, one part per value (a list of ids):
    /// `x-repeated` on the property, which the form reader reads. Any other declared part sent
    /// twice is refused.
    Repeated,
    /// The server's exact message when the field breaks the rule named by the key (`required`,
    /// `format`, `minLength`, `maxLength`, `taken`), as `x-messages` on the property: the client's
    /// form shows the same words (its rules are generated from the document).
    Message(&'static str, &'static str),
}

/// How one endpoint is described in the OpenAPI document.
pub struct Doc {
    pub(super) tag: &'static str,
    pub(super) summary: String,
    pub(super) roles: Option<Roles>,
    /// Called with an inbound API key of this kind (`Authorization: Bearer pk_...`).
    pub(super) api_key: Option<&'static str>,
    pub(super) body: Option<(&'static str, RefOr<Schema>)>,
    pub(super) query: Vec<Param>,
    pub(super) response: (u16, Option<(&'static str, RefOr<Schema>)>),
    /// Other success statuses with the same body (an upsert's 201 beside its 200).
    pub(super) also_succeeds: Vec<(u16, &'static str)>,
    pub(super) schemas: Vec<(String, RefOr<Schema>)>,
    pub(super) file_path: bool,
    /// The path parameter is text with this description (an e-mail), not an id.
    pub(super) text_path: Option<&'static str>,
    /// Refusals particular to this operation (404 for an unknown id, 409 for a taken e-mail,
    /// 423 when locked, 429 when rate limited...), beside those every operation of its kind gets.
    pub(super) answers: Vec<(u16, &'static str)>,
    /// Validation rules per body field, applied to the body's schema.
    pub(super) rules: Vec<(&'static str, Vec<Rule>)>,
    /// The component name of a JSON body's schema, to apply `rules` to.
    pub(super) body_name: Option<String>,
    /// The answer carries a secret its field names do not tell (`secrets`).
    pub(super) carries_secret: bool,
    /// Body fields of which one, any one, is required (each in place of the others).
    pub(super) one_of_required: &'static [&'static str],
    /// The answer carries an `ETag`, and `If-None-Match` with it answers 304 while the data has
    /// not changed (the lists).
    pub(super) revalidates: bool,
    /// When the role gate checks the caller against the database (`gate::Checking`).
    pub(super) checking: crate::http::gate::Checking,
    /// How the route's writes are kept apart from others' (`Isolation`): the transaction an
    /// `x-requestid` claim begins for the request is begun so (`WriteIsolation`).
    pub(super) isolation: crate::db::dialect::Isolation,
}

/// A schema the document names among its components.
pub struct Component {
    pub name: &'static str,
    pub schema: RefOr<Schema>,
}

/// A query parameter: its name as the specification spells it, and its schema.
pub(super) struct Param {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) schema: RefOr<Schema>,
    pub(super) required: bool,
}

pub(super) const JSON: &str = "application/json";
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
            revalidates: false,
            checking: crate::http::gate::Checking::Before,
            isolation: crate::db::dialect::Isolation::Serializable,
        }
    }

    /// The answer carries an `ETag`; `If-None-Match` with it answers 304, no body, while the data
    /// it was read from has not changed.
    pub fn revalidates(mut self) -> Doc {
        self.revalidates = true;
        self
    }

    /// The handler checks its caller's session with its first read and answers only once that
    /// check confirms the caller, so the role gate may admit a session checked before on what that
    /// check found (`gate::Checking::WithFirstRead`). Only for a handler that reads and never
    /// writes, and confirms on every path to its answer.
    pub fn checks_caller_with_its_read(mut self) -> Doc {
        self.checking = crate::http::gate::Checking::WithFirstRead;
        self
    }

    /// One of these body fields is required, any one of them (each stands in place of the
    /// others): the document says so with `anyOf` instead of requiring each.
    pub fn one_of_required(mut self, fields: &'static [&'static str]) -> Doc {
        self.one_of_required = fields;
        self
    }

    /// The route's writes take the rows they decide on with row locks (`Isolation::RowLocks`),
    /// as its handler's own write says: a request's transaction begun for its `x-requestid`
    /// claim is begun so, and the handler's write goes on in it.
    pub fn writes_with_row_locks(mut self) -> Doc {
        self.isolation = crate::db::dialect::Isolation::RowLocks;
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

//! The API route registry: every endpoint is added with its OpenAPI description in the same
//! call, so `/api/openapi.json` cannot fall behind the router.

use axum::Router;
use axum::http::Method;
use axum::routing::MethodRouter;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, Paths, Ref, RefOr, Required,
    ResponseBuilder, Schema,
};
use utoipa::{PartialSchema, ToSchema};

use crate::auth::Roles;
use crate::state::AppState;

/// How one endpoint is described in the OpenAPI document.
pub struct Doc {
    tag: &'static str,
    summary: String,
    roles: Option<Roles>,
    body: Option<(&'static str, RefOr<Schema>)>,
    query: Vec<(String, String, Type)>,
    response: (u16, Option<(&'static str, RefOr<Schema>)>),
    schemas: Vec<(String, RefOr<Schema>)>,
    file_path: bool,
}

const JSON: &str = "application/json";
pub const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

impl Doc {
    pub fn new(tag: &'static str, summary: impl Into<String>) -> Doc {
        Doc {
            tag,
            summary: summary.into(),
            roles: None,
            body: None,
            query: vec![],
            response: (200, None),
            schemas: vec![],
            file_path: false,
        }
    }

    /// Signed-in callers with one of these roles; others get 401 or 403.
    pub fn roles(mut self, roles: Roles) -> Doc {
        self.roles = Some(roles);
        self
    }

    fn named<T: ToSchema>(&mut self) -> RefOr<Schema> {
        let name = T::name().to_string();
        T::schemas(&mut self.schemas);
        self.schemas.push((name.clone(), T::schema()));
        RefOr::Ref(Ref::from_schema_name(name))
    }

    pub fn json_body<T: ToSchema>(mut self) -> Doc {
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

    pub fn query(mut self, name: &str, description: &str, kind: Type) -> Doc {
        self.query.push((name.to_string(), description.to_string(), kind));
        self
    }

    pub fn returns<T: ToSchema>(mut self, status: u16) -> Doc {
        let schema = self.named::<T>();
        self.response = (status, Some((JSON, schema)));
        self
    }

    pub fn returns_schema(mut self, status: u16, schema: RefOr<Schema>) -> Doc {
        self.response = (status, Some((JSON, schema)));
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
}

impl Api {
    pub fn new() -> Api {
        Api::default()
    }

    pub fn add(mut self, method: Method, path: &str, handler: MethodRouter<AppState>, doc: Doc) -> Api {
        self.router = self.router.route(&path.to_ascii_lowercase(), handler);
        self.endpoints.push(Endpoint { method, path: path.to_string(), doc });
        self
    }

    pub fn merge(mut self, other: Api) -> Api {
        self.router = self.router.merge(other.router);
        self.endpoints.extend(other.endpoints);
        self
    }

    /// (method, path) of every endpoint, as documented.
    pub fn endpoints(&self) -> Vec<(String, String)> {
        self.endpoints.iter().map(|e| (e.method.to_string(), e.path.clone())).collect()
    }

    pub fn into_parts(self) -> (Router<AppState>, OpenApi) {
        let openapi = build_openapi(self.endpoints);
        (self.router, openapi)
    }
}

fn error_schema() -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name("Error"))
}

fn build_openapi(endpoints: Vec<Endpoint>) -> OpenApi {
    let mut paths = Paths::new();
    let mut components = ComponentsBuilder::new()
        .schema(
            "Error",
            ObjectBuilder::new()
                .property("message", ObjectBuilder::new().schema_type(Type::String))
                .required("message")
                .property(
                    "errors",
                    ObjectBuilder::new()
                        .schema_type(SchemaType::Type(Type::Object))
                        .description(Some("Field name to message, for validation failures")),
                ),
        )
        .security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    for endpoint in endpoints {
        let Endpoint { method, path, doc } = endpoint;
        for (name, schema) in doc.schemas {
            components = components.schema(name, schema);
        }
        let mut op = OperationBuilder::new().summary(Some(doc.summary)).tag(doc.tag);
        if let Some(roles) = doc.roles {
            op = op
                .description(Some(format!("Roles: {}.", roles.names().join(", "))))
                .security(SecurityRequirement::new("bearer", Vec::<String>::new()))
                .response("401", error_response("Not signed in, or the session ended"))
                .response("403", error_response("The caller's role may not do this"));
        }
        for segment in path.split('/').filter(|s| s.starts_with('{')) {
            let name = segment.trim_matches(|c| c == '{' || c == '}');
            op = op
                .parameter(
                    ParameterBuilder::new()
                        .name(name)
                        .parameter_in(ParameterIn::Path)
                        .required(Required::True)
                        .schema(Some(i64::schema())),
                )
                .response("404", error_response("Not found"));
        }
        for (name, description, kind) in doc.query {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(name)
                    .parameter_in(ParameterIn::Query)
                    .required(Required::False)
                    .description(Some(description))
                    .schema(Some(ObjectBuilder::new().schema_type(kind))),
            );
        }
        if let Some((content_type, schema)) = doc.body {
            op = op
                .request_body(Some(
                    RequestBodyBuilder::new()
                        .content(content_type, ContentBuilder::new().schema(Some(schema)).build())
                        .required(Some(Required::True))
                        .build(),
                ))
                .response("400", error_response("Validation failed; `errors` names the fields"));
        }
        let (status, body) = doc.response;
        let mut response = ResponseBuilder::new().description("Success");
        if let Some((content_type, schema)) = body {
            response = response.content(content_type, ContentBuilder::new().schema(Some(schema)).build());
        }
        op = op.response(status.to_string(), response.build());
        let method = match method {
            Method::POST => HttpMethod::Post,
            Method::PUT => HttpMethod::Put,
            Method::PATCH => HttpMethod::Patch,
            Method::DELETE => HttpMethod::Delete,
            _ => HttpMethod::Get,
        };
        paths.add_path_operation(path, vec![method], op.build());
    }
    OpenApiBuilder::new()
        .info(InfoBuilder::new().title("perkdesk API").version(env!("CARGO_PKG_VERSION")).description(Some(
            "Back-office API. Lists take Skip, Take, SortField and OrderBy (true = ascending) and \
                     answer {data, totalCount}. Mutations may carry x-requestid for safe retries. \
                     Paths and query names are case-insensitive.",
        )))
        .paths(paths)
        .components(Some(components.build()))
        .build()
}

fn error_response(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(JSON, ContentBuilder::new().schema(Some(error_schema())).build())
        .build()
}

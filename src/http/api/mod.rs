//! The API route registry: every endpoint is added with its OpenAPI description in the same
//! call, so `/api/openapi.json` cannot fall behind the router.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::http::Method;
use axum::routing::MethodRouter;
use utoipa::openapi::OpenApi;

use crate::core::refusals::Audience;
use crate::core::roles::Roles;
use crate::db::dialect::Isolation;
use crate::http::state::AppState;

mod doc;
mod openapi;
pub mod query;

pub use doc::{Component, Doc, Rule, XLSX};
pub use openapi::{API_KEY_SCHEME, REFUSALS, REPEATED};
use openapi::{build_openapi, refusals};

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

/// How each route's writes are kept apart from others' (`Doc::writes_with_row_locks`), by
/// method and path as routed (`MatchedPath`): what the `x-requestid` middleware begins a request's transaction
/// with when it claims the request (`Db::claim_then_look_up`). An extension of every request.
#[derive(Clone, Default)]
pub struct WriteIsolation(Arc<HashMap<(Method, String), Isolation>>);

impl WriteIsolation {
    /// The isolation of the writes of the route `matched` (its path as routed, `MatchedPath`):
    /// serializable unless it says otherwise.
    pub fn of(&self, method: &Method, matched: Option<&str>) -> Isolation {
        matched.and_then(|path| self.0.get(&(method.clone(), path.to_string()))).copied().unwrap_or_default()
    }
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
            (Some(roles), _) => Some(super::gate::Admits::Roles(roles, doc.checking)),
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

    pub fn into_parts(self) -> (Router<AppState>, OpenApi, WriteIsolation) {
        // The routes whose writes are not serializable, as routed.
        let isolation = self
            .endpoints
            .iter()
            .filter(|endpoint| endpoint.doc.isolation != Isolation::default())
            .map(|endpoint| ((endpoint.method.clone(), endpoint.path.to_ascii_lowercase()), endpoint.doc.isolation))
            .collect();
        let mut openapi = build_openapi(self.endpoints);
        let extensions = openapi.extensions.get_or_insert_with(Default::default);
        extensions.insert(REFUSALS.to_string(), refusals(self.refusals));
        for (name, value) in self.extensions {
            extensions.insert(name.to_string(), value);
        }
        let router = super::secrets::protect(self.router, &mut openapi);
        (router, openapi, WriteIsolation(Arc::new(isolation)))
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

/// The document as JSON, the same bytes from every process: an object's extensions (`x-...`)
/// are held in a hash map, so a property with two of them (`x-messages` and `x-repeated`) came
/// out in either order; they are put in name order, after the object's other keys as before.
pub fn document_json(document: &OpenApi, pretty: bool) -> serde_json::Result<String> {
    fn extensions_in_order(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(object) => {
                let mut extensions: Vec<(String, serde_json::Value)> = Vec::new();
                for key in object.keys().filter(|key| key.starts_with("x-")).cloned().collect::<Vec<_>>() {
                    if let Some(inner) = object.shift_remove(&key) {
                        extensions.push((key, inner));
                    }
                }
                extensions.sort_by(|a, b| a.0.cmp(&b.0));
                object.extend(extensions);
                object.values_mut().for_each(extensions_in_order);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(extensions_in_order),
            _ => {}
        }
    }
    let mut value = serde_json::to_value(document)?;
    extensions_in_order(&mut value);
    if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }
}

//! What each route's documented request body declares, read from the OpenAPI document the
//! router was built with. The body extractors refuse control characters only in the fields a
//! route declares (and so reads): a property the route ignores is ignored whatever it holds, as
//! the document allows extra properties.

use std::sync::Arc;

use axum::extract::MatchedPath;
use axum::http::Method;
use serde_json::Value;

#[derive(Clone)]
pub struct DeclaredBodies(Arc<Value>);

/// One route's body schema within the document, for walking a request body alongside it.
#[derive(Clone, Copy)]
pub struct BodySchema<'a> {
    doc: &'a Value,
    schema: &'a Value,
}

impl DeclaredBodies {
    pub fn new(mut openapi: Value) -> DeclaredBodies {
        // The router matches paths lowercased (`Api::add`), so its matched path is the document's
        // path in lower case: the paths are keyed so here.
        if let Some(paths) = openapi.get_mut("paths").and_then(Value::as_object_mut) {
            *paths = std::mem::take(paths).into_iter().map(|(path, item)| (path.to_ascii_lowercase(), item)).collect();
        }
        DeclaredBodies(Arc::new(openapi))
    }

    /// The declared body of a route in this media type; `None` when the route or its body is not
    /// in the document. `route` is the router's matched path, already lower case.
    fn schema_of<'a>(&'a self, method: &Method, route: &str, media_type: &str) -> Option<BodySchema<'a>> {
        let operation = self.0.get("paths")?.get(route)?.get(method_key(method)?)?;
        let schema = operation.get("requestBody")?.get("content")?.get(media_type)?.get("schema")?;
        Some(BodySchema { doc: &self.0, schema }.resolved())
    }
}

/// One request's route and the declarations its body is read against, taken from the request
/// before its body extractor consumes it.
pub struct DeclaredRequest {
    bodies: Option<DeclaredBodies>,
    route: Option<String>,
    method: Method,
}

impl DeclaredRequest {
    pub fn of(extensions: &axum::http::Extensions, method: &Method) -> DeclaredRequest {
        DeclaredRequest {
            bodies: extensions.get::<DeclaredBodies>().cloned(),
            route: extensions.get::<MatchedPath>().map(|path| path.as_str().to_owned()),
            method: method.clone(),
        }
    }

    /// Which fields of a body in this media type are checked.
    pub fn scope(&self, media_type: &str) -> Scope<'_> {
        let (Some(bodies), Some(route)) = (&self.bodies, &self.route) else { return Scope::All };
        Scope::of(bodies.schema_of(&self.method, route, media_type))
    }
}

/// Which fields of a body are checked: all of them, or those a schema declares.
#[derive(Clone, Copy)]
pub enum Scope<'a> {
    All,
    Declared(BodySchema<'a>),
}

impl<'a> Scope<'a> {
    pub fn of(schema: Option<BodySchema<'a>>) -> Scope<'a> {
        match schema {
            Some(schema) if schema.declares_properties() => Scope::Declared(schema),
            Some(schema) if schema.schema.get("items").is_some() => Scope::Declared(schema),
            _ => Scope::All,
        }
    }

    /// The scope of a property: `None` when the schema does not declare it (it is not read).
    pub fn property(self, name: &str) -> Option<Scope<'a>> {
        match self {
            Scope::All => Some(Scope::All),
            Scope::Declared(schema) => schema.property(name).map(|schema| Scope::of(Some(schema))),
        }
    }

    /// Whether the schema declares property `name` as one value, not a list: a form that sends
    /// such a field twice is refused rather than read by its first part.
    pub fn single_valued(self, name: &str) -> bool {
        match self {
            Scope::All => false,
            Scope::Declared(schema) => {
                schema.property(name).is_some_and(|property| !property.is_list() && !property.repeats())
            }
        }
    }

    pub fn items(self) -> Scope<'a> {
        match self {
            Scope::All => Scope::All,
            Scope::Declared(schema) => Scope::of(schema.items()),
        }
    }
}

fn method_key(method: &Method) -> Option<&'static str> {
    Some(match *method {
        Method::POST => "post",
        Method::PUT => "put",
        Method::PATCH => "patch",
        Method::DELETE => "delete",
        Method::GET => "get",
        _ => return None,
    })
}

impl<'a> BodySchema<'a> {
    /// Follows `$ref`s into the document's components (a bounded number of hops).
    fn resolved(self) -> BodySchema<'a> {
        let mut schema = self.schema;
        for _ in 0..8 {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else { break };
            let Some(target) =
                reference.strip_prefix("#/").and_then(|pointer| self.doc.pointer(&format!("/{pointer}")))
            else {
                break;
            };
            schema = target;
        }
        BodySchema { doc: self.doc, schema }
    }

    /// Whether the schema names its properties (a free-form object names none: all count).
    fn declares_properties(self) -> bool {
        self.schema.get("properties").is_some()
            || ["allOf", "oneOf", "anyOf"].iter().any(|key| self.schema.get(*key).is_some())
    }

    /// The schema of property `name` (as a JSON body or a form names it), if declared here or in
    /// one of the schemas this one combines.
    pub fn property(self, name: &str) -> Option<BodySchema<'a>> {
        if let Some(properties) = self.schema.get("properties").and_then(Value::as_object) {
            let wanted = form_key(name);
            if let Some((_, schema)) = properties.iter().find(|(declared, _)| form_key(declared) == wanted) {
                return Some(BodySchema { doc: self.doc, schema }.resolved());
            }
        }
        ["allOf", "oneOf", "anyOf"]
            .iter()
            .filter_map(|key| self.schema.get(*key).and_then(Value::as_array))
            .flatten()
            .find_map(|schema| BodySchema { doc: self.doc, schema }.resolved().property(name))
    }

    /// Whether the schema is an array (`type: array`, or a type list naming it, or items).
    fn is_list(self) -> bool {
        let named = |t: &Value| t.as_str() == Some("array");
        self.schema.get("items").is_some()
            || self.schema.get("type").is_some_and(|t| named(t) || t.as_array().is_some_and(|ts| ts.iter().any(named)))
    }

    /// Whether the document lets a multipart part of this name repeat (`Rule::Repeated`).
    fn repeats(self) -> bool {
        // A part that may be blank is documented as a choice of the value and blank text: the
        // extension stands on the value's branch.
        let marked = |schema: &Value| schema.get(crate::http::api::REPEATED) == Some(&Value::Bool(true));
        marked(self.schema)
            || ["anyOf", "oneOf"]
                .iter()
                .filter_map(|key| self.schema.get(*key).and_then(Value::as_array))
                .flatten()
                .any(marked)
    }

    /// The schema of an array's items.
    pub fn items(self) -> Option<BodySchema<'a>> {
        Some(BodySchema { doc: self.doc, schema: self.schema.get("items")? }.resolved())
    }
}

/// A field name as the form reader matches it: case-insensitive, and any row index read as the
/// first row's (`Cities[3].Address` is declared as `Cities[0].Address`).
fn form_key(name: &str) -> String {
    let mut key = String::with_capacity(name.len());
    let mut in_index = false;
    for c in name.chars() {
        match c {
            '[' => {
                in_index = true;
                key.push_str("[0]");
            }
            ']' if in_index => in_index = false,
            _ if in_index => {}
            _ => key.extend(c.to_lowercase()),
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn form_names_match_their_declaration_whatever_the_case_and_row() {
        assert_eq!(form_key("Cities[3].Address"), form_key("cities[0].address"));
        assert_ne!(form_key("Cities[3].Address"), form_key("cities.address"));
    }

    #[test]
    fn properties_are_found_through_references_and_combinations() {
        let doc = json!({
            "components": {"schemas": {"City": {"type": "object", "properties": {"address": {"type": "string"}}}}},
            "root": {"allOf": [{"properties": {"cities": {"type": "array", "items": {"$ref": "#/components/schemas/City"}}}}]}
        });
        let root = BodySchema { doc: &doc, schema: &doc["root"] };
        let city = root.property("cities").and_then(BodySchema::items);
        assert!(city.and_then(|city| city.property("address")).is_some());
        assert!(city.and_then(|city| city.property("other")).is_none());
        assert!(root.property("unknown").is_none());
    }

    #[test]
    fn a_field_is_single_valued_unless_declared_a_list() {
        let doc = json!({"root": {"type": "object", "properties": {
            "name": {"type": "string"},
            "assets": {"type": "array", "items": {"type": "integer"}},
            "tags": {"type": ["array", "null"], "items": {"type": "string"}},
            "cityIds": {"type": "integer", "x-repeated": true},
            "linked": {"anyOf": [{"type": "integer", "x-repeated": true}, {"type": "string"}]}
        }}});
        let scope = Scope::of(Some(BodySchema { doc: &doc, schema: &doc["root"] }));
        assert!(scope.single_valued("Name"));
        assert!(!scope.single_valued("assets"));
        assert!(!scope.single_valued("tags"));
        assert!(!scope.single_valued("cityIds"));
        assert!(!scope.single_valued("linked"));
        assert!(!scope.single_valued("undeclared"));
        assert!(!Scope::All.single_valued("name"));
    }
}

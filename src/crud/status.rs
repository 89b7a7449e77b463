//! The status actions: `PUT {path}` with `{id, status}` sets one enumerated or yes/no column of a
//! live row and answers the row as its list shows it (a usage record confirmed or cancelled, a
//! wish-list request's progress, a complaint read or unread). A resource declares the action;
//! the reading, the messages, the write and the document come from here.

use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::put;
use serde_json::Value;
use utoipa::ToSchema;

use super::Resource;
use crate::auth::Roles;
use crate::core::error::AppResult;
use crate::core::refusals::Audience;
use crate::core::validation::Validator;
use crate::http::api::Rule::{Range, Required};
use crate::http::api::{Api, Doc};
use crate::http::extract::ApiJson;
use crate::http::fields;
use crate::http::state::AppState;

/// What a status takes.
pub enum StatusValues {
    /// Whole numbers `0..=highest`; another number is refused with `out_of_range`.
    UpTo { highest: i64, out_of_range: &'static str },
    /// `true` or `false`; anything else (or nothing) is refused with `refused`.
    Flag { refused: &'static str },
}

/// One status action of a resource.
pub struct StatusAction {
    /// The full path, as the specification spells it.
    pub path: &'static str,
    pub summary: &'static str,
    /// The column of `Resource::table` it writes (a declaration, never request input).
    pub column: &'static str,
    pub values: StatusValues,
    /// Who may set it (it may differ from who may delete: Call Center marks complaints read).
    pub roles: Roles,
    /// The 404's description in the document.
    pub not_found: &'static str,
}

const ID_REQUIRED: &str = "Id is required";
const ID_NOT_A_NUMBER: &str = "Id must be a number";
const STATUS_REQUIRED: &str = "Status is required";

impl StatusAction {
    /// Reads `{id, status}`: both are checked and refused together, each on its field.
    fn read(&self, body: &Value) -> AppResult<(i64, i64)> {
        let body = fields::object(body)?;
        let mut v = Validator::new();
        let id = fields::id(&mut v, "id", body.get("id"), ID_REQUIRED, ID_NOT_A_NUMBER);
        let status = match self.values {
            StatusValues::UpTo { highest, out_of_range } => match fields::number(body.get("status")) {
                fields::Number::Whole(status) if (0..=highest).contains(&status) => status,
                fields::Number::Missing => {
                    v.check("status", false, STATUS_REQUIRED);
                    0
                }
                _ => {
                    v.check("status", false, out_of_range);
                    0
                }
            },
            StatusValues::Flag { refused } => {
                let flag = fields::flag(body.get("status"));
                v.check("status", flag.is_some(), refused);
                i64::from(flag.unwrap_or(false))
            }
        };
        v.finish()?;
        Ok((id, status))
    }
}

/// `{id, status}` of a status action on a numbered column.
#[derive(serde::Deserialize, ToSchema)]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct StatusChange {
    id: i64,
    status: i64,
}

/// `{id, status}` of a status action on a yes/no column.
#[derive(serde::Deserialize, ToSchema)]
#[allow(dead_code)] // describes the body for the OpenAPI document; read field by field
pub struct FlagChange {
    id: i64,
    status: bool,
}

/// The route of `action` on the rows of `resource`.
pub fn status_route(resource: &'static Resource, action: &'static StatusAction) -> Api {
    let doc = Doc::new(resource.tag, action.summary).roles(action.roles);
    let (doc, status_rules) = match action.values {
        StatusValues::UpTo { highest, .. } => (doc.json_body::<StatusChange>(), vec![Required, Range(0, highest)]),
        StatusValues::Flag { .. } => (doc.json_body::<FlagChange>(), vec![Required]),
    };
    let value_refused = match action.values {
        StatusValues::UpTo { out_of_range, .. } => out_of_range,
        StatusValues::Flag { refused } => refused,
    };
    let refusals = [ID_REQUIRED, ID_NOT_A_NUMBER, STATUS_REQUIRED, value_refused, action.not_found];
    Api::new().refuses(Audience::People, refusals).add(
        Method::PUT,
        action.path,
        put(move |state, body| set_status(resource, action, state, body)),
        doc.rules("id", &[Required, Range(1, i64::MAX)])
            .rules("status", &status_rules)
            .answers(404, action.not_found)
            .returns_component(200, super::row_schema(resource)),
    )
}

async fn set_status(
    resource: &'static Resource,
    action: &'static StatusAction,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<Value>,
) -> AppResult<Json<Value>> {
    let (id, status) = action.read(&body)?;
    super::save_then_fetch(&state, resource, move |tx| {
        let changed = tx.execute(
            &format!("UPDATE {} SET {} = ?2 WHERE id = ?1 AND deleted_at IS NULL", resource.table, action.column),
            (id, status),
        )?;
        resource.updated(changed, id)
    })
    .await
    .map(Json)
}

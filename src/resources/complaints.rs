//! Complaints employees send from the app: a read-only list (the whole description; the screen
//! cuts it to four words), the read flag that Call Center may set too, a Read/Unread filter and
//! the unread count for the side menu.

use crate::crud::Recorded;
use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Roles;
use crate::core::error::AppResult;
use crate::crud::{self, Column, Filter, Kind, Resource, Total, ValueKind};
use crate::crud::{StatusAction, StatusValues};
use crate::http::api::{Api, Doc};
use crate::http::state::AppState;

/// A complaint an employee sent through the app (its asset is the employee's).
pub static COMPLAINT_EVENTS: crate::crud::events::Events = crate::crud::events::Events {
    created: Some("complaint.created"),
    updated: None,
    deleted: None,
    named: &[],
    partner: None,
    asset: Some("(SELECT e.asset_id FROM employees e WHERE e.id = c.employee_id)"),
};

pub static COMPLAINTS: Resource = Resource {
    path: "complaint",
    row: "ComplaintRow",
    tag: "Complaints",
    name: "Complaint",
    table: "complaints",
    from: "complaints c JOIN complaint_reasons r ON r.id = c.reason_id",
    scope: "c.deleted_at IS NULL",
    id: "c.id",
    total: Total::Maintained("complaints"),
    columns: &[
        Column::new("id", "c.id", Kind::Int),
        Column::new("fullName", "c.full_name", Kind::Text).never_null(),
        Column::new("email", "c.email", Kind::Text).never_null(),
        Column::new("phone", "c.phone", Kind::Phone).never_null(),
        Column::new("reasonId", "c.reason_id", Kind::Int).never_null(),
        // A system word in the caller's language (Accept-Language), as a category's name.
        Column::localized("reasonName", ["r.name_az", "r.name_en", "r.name_ru"]).never_null(),
        Column::new("description", "c.description", Kind::Text).unsorted().never_null(),
        Column::new("isRead", "c.is_read", Kind::Bool).never_null(),
        Column::new("recordDate", "c.record_date", Kind::DateTime).never_null(),
    ],
    filters: &[
        Filter::equals("IsRead", "c.is_read", ValueKind::Bool),
        Filter::equals("ReasonId", "c.reason_id", ValueKind::Int),
        Filter::contains("FullName", "c.full_name"),
    ],
    export: None,
    read: Roles::ANYONE,
    // Marking read is the one change Call Center may make (docs/architecture.md, the roles).
    write: Roles::ANYONE,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
    plural: "complaints",
    label: Some("{row}.full_name"),
    history: &[Recorded::table("complaints")],
    trash: None,
    events: Some(&COMPLAINT_EVENTS),
    unrecorded: &[],
};

/// `PUT complaint`: `{id, status}`, status the new read flag; Call Center may too.
static READ: StatusAction = StatusAction {
    path: "/api/complaint",
    summary: "Mark a complaint read (status true) or unread (false); Call Center may too",
    column: "is_read",
    values: StatusValues::Flag { refused: "Status must be true (read) or false (unread)" },
    roles: COMPLAINTS.write,
    not_found: "No such complaint",
};

pub fn routes() -> Api {
    const TAG: &str = "Complaints";
    crud::routes(&COMPLAINTS).merge(crud::status_route(&COMPLAINTS, &READ)).add(
        Method::GET,
        "/api/complaint/unreadCount",
        get(unread_count),
        Doc::new(TAG, "How many complaints nobody has read, for the side menu")
            .roles(COMPLAINTS.read)
            .returns::<UnreadCount>(200),
    )
}

#[derive(Serialize, ToSchema)]
pub struct UnreadCount {
    count: i64,
}

async fn unread_count(State(state): State<AppState>) -> AppResult<Json<UnreadCount>> {
    state
        .db
        .run(|conn| {
            // Answered from the (is_read, id) index of live complaints.
            let count = conn
                .prepare_cached("SELECT COUNT(*) AS n FROM complaints WHERE deleted_at IS NULL AND is_read = 0")?
                .query_row([], |r| r.get("n"))?;
            Ok(UnreadCount { count })
        })
        .await
        .map(Json)
}

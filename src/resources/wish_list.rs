//! Requests by Employee (`/requests`, `wishList`): employees' wishes for new partners or
//! campaigns. A read-only list with its export (WishLists.xlsx), plus the status staff set from
//! the row (0 new, 1 in review, 2 done), since a request nobody can mark as handled is not useful.

use crate::auth::Roles;
use crate::crud::Recorded;
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Total, ValueKind};
use crate::crud::{StatusAction, StatusValues};
use crate::http::api::Api;

pub const STATUS_NAME_SQL: &str = "CASE w.status WHEN 0 THEN 'New' WHEN 1 THEN 'In review' ELSE 'Done' END";

pub static WISH_LIST: Resource = Resource {
    path: "wishList",
    row: "WishListRow",
    tag: "Requests by employee",
    name: "Request",
    table: "wish_list_requests",
    from: "wish_list_requests w JOIN employees e ON e.id = w.employee_id JOIN assets a ON a.id = e.asset_id",
    scope: "w.deleted_at IS NULL",
    id: "w.id",
    total: Total::Maintained("wish_list_requests"),
    columns: &[
        Column::new("id", "w.id", Kind::Int),
        Column::new("employeeId", "w.employee_id", Kind::Int).detail_only().never_null(),
        Column::new("employeeFullName", "e.first_name || ' ' || e.last_name", Kind::Text).never_null(),
        Column::new("employeeEmail", "e.email", Kind::Text).detail_only().never_null(),
        Column::new("assetId", "e.asset_id", Kind::Int).detail_only().never_null(),
        Column::new("assetName", "a.name", Kind::Text).never_null(),
        Column::new("text", "w.text", Kind::Text).never_null(),
        Column::new("requestDate", "w.request_date", Kind::DateTime).never_null(),
        Column::new("status", "w.status", Kind::Int).never_null(),
        Column::new("statusName", STATUS_NAME_SQL, Kind::Text).unsorted().never_null(),
    ],
    filters: &[
        Filter::contains("EmployeeFullName", "(e.first_name || ' ' || e.last_name)"),
        Filter::equals("AssetId", "e.asset_id", ValueKind::Int),
        Filter::contains("Text", "w.text"),
        Filter::on_date("RequestDate", "w.request_date"),
        Filter::equals("Status", "w.status", ValueKind::Int),
    ],
    export: Some(Export {
        file_name: "WishLists.xlsx",
        columns: &[
            ("Employee full name", "employeeFullName"),
            ("Asset name", "assetName"),
            ("Text", "text"),
            ("Request date", "requestDate"),
            ("Status", "statusName"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
    plural: "wish list requests",
    label: Some("(SELECT e.first_name || ' ' || e.last_name FROM employees e WHERE e.id = {row}.employee_id)"),
    history: &[Recorded::table("wish_list_requests")],
    trash: None,
    events: None,
    unrecorded: &[],
};

pub const STATUS_RANGE: &str = "Status must be 0 (new), 1 (in review) or 2 (done)";

/// `PUT wishList/updateStatus`.
static STATUS: StatusAction = StatusAction {
    path: "/api/wishList/updateStatus",
    summary: "Set a request's status: 0 new, 1 in review, 2 done",
    column: "status",
    values: StatusValues::UpTo { highest: 2, out_of_range: STATUS_RANGE },
    roles: Roles::EDITORS,
    not_found: "No such request",
};

pub fn routes() -> Api {
    crud::routes(&WISH_LIST).merge(crud::status_route(&WISH_LIST, &STATUS))
}

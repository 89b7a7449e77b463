//! The activity log's screen (Admins only): every entry the database recorded (`db::activity`),
//! filtered by who, resource, action and dates, exported as Activity.xlsx; and each resource's
//! History tab, `GET {path}/{id}/history`, the same entries narrowed to one record. Entries have
//! no write route: they leave only by the server's retention.

use crate::auth::Roles;
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Total, ValueKind};
use crate::db::activity;
use crate::http::api::Api;

pub static ACTIVITY: Resource = Resource {
    path: "activity",
    row: "ActivityRow",
    tag: "Activity",
    name: "Activity entry",
    table: "activity",
    from: "activity a",
    scope: "a.id > 0",
    id: "a.id",
    total: Total::IdSpan,
    columns: &[
        Column::new("id", "a.id", Kind::Int),
        // The id grows with time: the list's id order is its time order, so `at` needs no index.
        Column::new("at", "a.at", Kind::DateTime).unsorted().never_null(),
        Column::new("actorKind", "a.actor_kind", Kind::Text).unsorted().never_null(),
        Column::new("actorId", "a.actor_id", Kind::Int).unsorted(),
        Column::new("actorName", "a.actor_name", Kind::Text).unsorted().never_null(),
        Column::new("resource", "a.resource", Kind::Text).unsorted().never_null(),
        Column::new("recordId", "a.record_id", Kind::Int).unsorted(),
        // The record's name as it is now (as the Trash names it); none once it is deleted for good.
        Column::new("recordName", RECORD_NAME, Kind::Text).unsorted(),
        Column::new("action", "a.action", Kind::Text).unsorted().never_null(),
        // A JSON object: {"field": [old, new]}, a secret {"field": "changed"}; null but for updates.
        Column::new("changes", "a.changes", Kind::Text).unsorted(),
    ],
    filters: &[
        Filter::equals("ActorKind", "a.actor_kind", ValueKind::Text),
        // A staff user's entries, through the index of users' entries (the inbound API's many
        // entries, written by clients, stay out of that index and cost it nothing).
        Filter::equals_among("UserId", "a.actor_kind = 'user'", "a.actor_id", ValueKind::Int),
        Filter::equals("Resource", "a.resource", ValueKind::Text),
        Filter::equals("RecordId", "a.record_id", ValueKind::Int),
        Filter::equals("Action", "a.action", ValueKind::Text),
        Filter::from("StartDate", "a.at"),
        Filter::to("EndDate", "a.at"),
    ],
    export: Some(Export {
        file_name: "Activity.xlsx",
        columns: &[
            ("Date", "at"),
            ("Who", "actorName"),
            ("Kind", "actorKind"),
            ("Resource", "resource"),
            ("Record", "recordId"),
            ("Name", "recordName"),
            ("Action", "action"),
            ("Changes", "changes"),
        ],
    }),
    read: Roles::ADMIN,
    write: Roles::ADMIN,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
};

/// The name of an entry's record, looked up in its resource's table (only for the page's rows).
const RECORD_NAME: &str = "CASE a.resource
    WHEN 'user' THEN (SELECT x.first_name || ' ' || x.last_name FROM users x WHERE x.id = a.record_id)
    WHEN 'humanResource' THEN (SELECT u.first_name || ' ' || u.last_name FROM hr_accounts x JOIN users u ON u.id = x.user_id WHERE x.id = a.record_id)
    WHEN 'city' THEN (SELECT x.name_en FROM cities x WHERE x.id = a.record_id)
    WHEN 'asset' THEN (SELECT x.name FROM assets x WHERE x.id = a.record_id)
    WHEN 'partner' THEN (SELECT x.name FROM partners x WHERE x.id = a.record_id)
    WHEN 'partner/merchant' THEN (SELECT x.first_name || ' ' || x.last_name FROM merchants x WHERE x.id = a.record_id)
    WHEN 'campaign/category' THEN (SELECT x.name_en FROM campaign_categories x WHERE x.id = a.record_id)
    WHEN 'campaign' THEN (SELECT x.name_en FROM campaigns x WHERE x.id = a.record_id)
    WHEN 'notification' THEN (SELECT x.header FROM notifications x WHERE x.id = a.record_id)
    WHEN 'employee' THEN (SELECT x.first_name || ' ' || x.last_name FROM employees x WHERE x.id = a.record_id)
    WHEN 'wishList' THEN (SELECT e.first_name || ' ' || e.last_name FROM wish_list_requests x JOIN employees e ON e.id = x.employee_id WHERE x.id = a.record_id)
    WHEN 'apply' THEN (SELECT x.partner_name FROM merchant_applications x WHERE x.id = a.record_id)
    WHEN 'usageHistory' THEN (SELECT x.campaign_name || ' · ' || x.employee_email FROM usage_history x WHERE x.id = a.record_id)
    WHEN 'complaint' THEN (SELECT x.full_name FROM complaints x WHERE x.id = a.record_id)
    WHEN 'promoCode' THEN (SELECT x.code FROM promo_codes x WHERE x.id = a.record_id)
    WHEN 'apiClient' THEN (SELECT x.name FROM api_clients x WHERE x.id = a.record_id)
END";

/// The Activity screen's calls, and the History tab's call of every recorded resource.
pub fn routes(resources: &[&'static Resource]) -> Api {
    let mut api = crud::routes(&ACTIVITY);
    for resource in resources.iter().filter(|r| activity::resource_of(r.table) == Some(r.path)) {
        api = api.merge(crud::history_route(resource, &ACTIVITY));
    }
    api
}

//! The activity log's screen (Admins only): every entry the database recorded (`db::activity`),
//! filtered by who, resource, action and dates, exported as Activity.xlsx; and each resource's
//! History tab, `GET {path}/{id}/history`, the same entries narrowed to one record. Entries have
//! no write route: they leave only by the server's retention.

use crate::auth::Roles;
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Total, ValueKind};
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
        // The record's name as it is now (its declared label, a person's name without the e-mail
        // the Trash adds); none once it is deleted for good.
        Column::made("recordName", record_name, Kind::Text),
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
    plural: "activity entries",
    label: None,
    history: &[],
    trash: None,
    events: None,
    unrecorded: &[("activity", "the log itself")],
};

/// The name of an entry's record, looked up with its resource's declared label in its table (for
/// the page's rows only): `CASE a.resource WHEN 'asset' THEN (SELECT <label> FROM assets x WHERE
/// x.id = a.record_id) ... END`, made once from the declarations.
fn record_name() -> &'static str {
    static MADE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        let cases: String = super::all()
            .iter()
            .filter(|resource| !resource.history.is_empty())
            .filter_map(|resource| {
                let label = resource.label?;
                Some(format!(
                    " WHEN '{}' THEN (SELECT {} FROM {} x WHERE x.id = a.record_id)",
                    resource.path,
                    label.replace("{row}", "x"),
                    resource.table
                ))
            })
            .collect();
        format!("CASE a.resource{cases} END")
    })
}

/// The Activity screen's calls, and the History tab's call of every recorded resource.
pub fn routes(resources: &[&'static Resource]) -> Api {
    let mut api = crud::routes(&ACTIVITY);
    // Every resource whose writes the log records has a History tab.
    for resource in resources.iter().filter(|r| !r.history.is_empty()) {
        api = api.merge(crud::history_route(resource, &ACTIVITY));
    }
    api
}

//! Requests by Merchant (`/by-merchant`, `apply`): businesses applying to become partners, with
//! the file they sent (a link to `/cdn/...`, which downloads it) and the cities they want to
//! serve. Read-only; the spec shows an export without a call, so it is `GET apply/export`
//! (MerchantRequests.xlsx).

use crate::auth::Roles;
use crate::crud::Recorded;
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Sql, Total};
use crate::http::api::Api;
use crate::http::files;

/// The applicant's cities, named in the caller's language, as one text. The order is the
/// aggregate's own (`ORDER BY` inside it, which both engines keep), not a subquery's.
const CITIES_SQL: Sql = Sql::Localized([
    "(SELECT group_concat(c.name_az, ', ' ORDER BY c.name_az COLLATE az) FROM merchant_application_cities mac \
     JOIN cities c ON c.id = mac.city_id WHERE mac.application_id = ma.id)",
    "(SELECT group_concat(c.name_en, ', ' ORDER BY c.name_en COLLATE az) FROM merchant_application_cities mac \
     JOIN cities c ON c.id = mac.city_id WHERE mac.application_id = ma.id)",
    "(SELECT group_concat(c.name_ru, ', ' ORDER BY c.name_ru COLLATE az) FROM merchant_application_cities mac \
     JOIN cities c ON c.id = mac.city_id WHERE mac.application_id = ma.id)",
]);

/// The same cities as the spec's entity has them, `[{id, cityName}]`, in the caller's language.
const CITY_LIST_SQL: Sql = Sql::Localized([
    "(SELECT json_group_array(json_object('id', c.id, 'cityName', c.name_az) ORDER BY c.name_az COLLATE az) \
     FROM merchant_application_cities mac JOIN cities c ON c.id = mac.city_id WHERE mac.application_id = ma.id)",
    "(SELECT json_group_array(json_object('id', c.id, 'cityName', c.name_en) ORDER BY c.name_en COLLATE az) \
     FROM merchant_application_cities mac JOIN cities c ON c.id = mac.city_id WHERE mac.application_id = ma.id)",
    "(SELECT json_group_array(json_object('id', c.id, 'cityName', c.name_ru) ORDER BY c.name_ru COLLATE az) \
     FROM merchant_application_cities mac JOIN cities c ON c.id = mac.city_id WHERE mac.application_id = ma.id)",
]);

/// A business applied to become a merchant (no partner or asset of ours yet).
pub static APPLICATION_EVENTS: crate::crud::events::Events = crate::crud::events::Events {
    created: Some("application.created"),
    updated: None,
    deleted: None,
    named: &[],
    partner: None,
    asset: None,
};

pub static APPLICATIONS: Resource = Resource {
    path: "apply",
    row: "MerchantRequestRow",
    tag: "Requests by merchant",
    name: "Merchant request",
    table: "merchant_applications",
    from: "merchant_applications ma LEFT JOIN files f ON f.id = ma.file_id",
    scope: "ma.deleted_at IS NULL",
    id: "ma.id",
    total: Total::Maintained("merchant_applications"),
    columns: &[
        Column::new("id", "ma.id", Kind::Int),
        Column::new("partnerName", "ma.partner_name", Kind::Text).never_null(),
        Column::new("fullName", "ma.full_name", Kind::Text).never_null(),
        Column::new("email", "ma.email", Kind::Text).never_null(),
        Column::new("phone", "ma.phone", Kind::Phone).never_null(),
        Column::new("file", files::FILE_PATH_SQL, Kind::File),
        Column {
            field: "cityNames",
            sql: CITIES_SQL,
            kind: Kind::Text,
            sortable: false,
            in_list: true,
            never_null: false,
        },
        Column {
            field: "cities",
            sql: CITY_LIST_SQL,
            kind: Kind::Objects(&[("id", Kind::Int), ("cityName", Kind::Text)]),
            sortable: false,
            in_list: true,
            never_null: false,
        },
        Column::new("createdAt", "ma.created_at", Kind::DateTime).never_null(),
    ],
    filters: &[
        Filter::contains("PartnerName", "ma.partner_name"),
        Filter::contains("FullName", "ma.full_name"),
        Filter::contains("Email", "ma.email"),
    ],
    export: Some(Export {
        file_name: "MerchantRequests.xlsx",
        columns: &[
            ("Partner name", "partnerName"),
            ("Full name", "fullName"),
            ("Email", "email"),
            ("Phone", "phone"),
            ("Cities", "cityNames"),
            ("File", "file"),
            ("Date", "createdAt"),
        ],
    }),
    read: Roles::ANYONE,
    write: Roles::EDITORS,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
    plural: "merchant applications",
    label: Some("{row}.partner_name"),
    history: &[Recorded::table("merchant_applications")],
    trash: None,
    events: Some(&APPLICATION_EVENTS),
    unrecorded: &[("merchant_application_cities", "the cities an application names, written once with it")],
};

pub fn routes() -> Api {
    crud::routes(&APPLICATIONS)
}

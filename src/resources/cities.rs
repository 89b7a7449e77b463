//! Cities: seeded reference data for partner branches, named in the caller's language.

use crate::auth::Roles;
use crate::crud::Recorded;
use crate::crud::{self, Column, Filter, Kind, Resource, Total};
use crate::http::api::Api;

pub static CITIES: Resource = Resource {
    path: "city",
    row: "CityRow",
    tag: "Cities",
    name: "City",
    table: "cities",
    from: "cities c",
    scope: "1 = 1",
    id: "c.id",
    total: Total::Counted,
    columns: &[
        Column::new("id", "c.id", Kind::Int),
        Column::localized("name", ["c.name_az", "c.name_en", "c.name_ru"]).never_null(),
        Column::new("nameAz", "c.name_az", Kind::Text).detail_only().never_null(),
        Column::new("nameEn", "c.name_en", Kind::Text).detail_only().never_null(),
        Column::new("nameRu", "c.name_ru", Kind::Text).detail_only().never_null(),
    ],
    filters: &[Filter::contains("Name", "(c.name_az || ' ' || c.name_en || ' ' || c.name_ru)")],
    export: None,
    read: Roles::ANYONE,
    write: Roles::ADMIN,
    toggle: false,
    delete: false,
    on_change: None,
    detail_extra: None,
    plural: "cities",
    label: Some("{row}.name_en"),
    history: &[Recorded::table("cities")],
    trash: None,
    events: None,
    unrecorded: &[],
};

pub fn routes() -> Api {
    crud::routes(&CITIES)
}

//! Usage history: one row per use of a campaign by an employee, the table that grows to
//! millions of rows. Every sortable column walks an index (the names are stored as they were at
//! the time of use), the campaign-name search goes through the trigram index, and the unfiltered
//! total is a maintained counter. Status 0 confirmed / 1 cancelled is set from the drawer; delete
//! is for Admins; the export by date range is saved as UsageHistory.xlsx (see docs/decisions.md).

use crate::crud::{Change, Recorded, Trash};
use crate::db::sql::Connection;
use axum::http::Method;

use crate::auth::{CurrentUser, Roles};
use crate::core::error::AppResult;
use crate::crud::{self, Column, Export, Filter, Kind, Resource, Search, Total, ValueKind};
use crate::crud::{StatusAction, StatusValues};
use crate::http::api::{Api, Doc, query};

/// A use's branch by its city's name in a language and its address.
const BRANCH_AZ: &str = "(SELECT ci.name_az || ', ' || pc.address FROM partner_cities pc JOIN cities ci ON ci.id = pc.city_id WHERE pc.id = h.partner_city_id)";
const BRANCH_EN: &str = "(SELECT ci.name_en || ', ' || pc.address FROM partner_cities pc JOIN cities ci ON ci.id = pc.city_id WHERE pc.id = h.partner_city_id)";
const BRANCH_RU: &str = "(SELECT ci.name_ru || ', ' || pc.address FROM partner_cities pc JOIN cities ci ON ci.id = pc.city_id WHERE pc.id = h.partner_city_id)";

/// A use made (by the employee app, or a redemption code confirmed at the till, which also
/// raises `redemption.confirmed`) and a use voided (by the review queue or a delete).
pub static USAGE_EVENTS: crate::crud::events::Events = crate::crud::events::Events {
    created: Some("usage.created"),
    updated: None,
    deleted: Some("usage.voided"),
    named: &[REDEMPTION_CONFIRMED],
    partner: Some("h.partner_id"),
    asset: Some("h.asset_id"),
};

/// A redemption code confirmed at the partner's till: the use it became.
pub const REDEMPTION_CONFIRMED: &str = "redemption.confirmed";

pub static USAGE_HISTORY: Resource = Resource {
    path: "usageHistory",
    row: "UsageRow",
    tag: "Usage history",
    name: "Usage record",
    table: "usage_history",
    from: "usage_history h",
    scope: "h.deleted_at IS NULL",
    id: "h.id",
    total: Total::Maintained("usage_history"),
    columns: &[
        Column::new("id", "h.id", Kind::Int),
        Column::new("employeeId", "h.employee_id", Kind::Int).detail_only().never_null(),
        Column::new("employeeEmail", "h.employee_email", Kind::Text).never_null(),
        Column::new("assetId", "h.asset_id", Kind::Int).detail_only().never_null(),
        Column::new("assetName", "h.asset_name", Kind::Text).never_null(),
        Column::new("partnerId", "h.partner_id", Kind::Int).detail_only().never_null(),
        Column::new("partnerName", "h.partner_name", Kind::Text).never_null(),
        Column::new("campaignId", "h.campaign_id", Kind::Int).detail_only().never_null(),
        Column::new("campaignName", "h.campaign_name", Kind::Text).never_null(),
        Column::new("categoryId", "h.category_id", Kind::Int).detail_only().never_null(),
        Column::new("merchantCategory", "h.category_name", Kind::Text).never_null(),
        Column::new("createdDate", "h.created_at", Kind::DateTime).never_null(),
        Column::new("discountPercent", "h.discount_percent", Kind::Int).never_null(),
        // Not sortable: no screen sorts by it, and an index for it would cost every insert.
        Column::new("status", "h.status", Kind::Int).unsorted().never_null(),
        Column::new("statusName", "CASE h.status WHEN 0 THEN 'Confirmed' ELSE 'Cancelled' END", Kind::Text)
            .unsorted()
            .never_null(),
        Column::new("rating", "h.rating", Kind::Int).detail_only(),
        // Confirmed by the partner at the till with a redemption code.
        Column::new("verified", "h.verified", Kind::Bool).unsorted().never_null(),
        Column::new("partnerCityId", "h.partner_city_id", Kind::Int).detail_only(),
        // The branch where it was used, when the use named one: its city and address.
        Column::localized("branchName", [BRANCH_AZ, BRANCH_EN, BRANCH_RU]).unsorted(),
    ],
    filters: &[
        Filter::equals("AssetId", "h.asset_id", ValueKind::Int),
        Filter::equals("PartnerId", "h.partner_id", ValueKind::Int),
        Filter::equals("EmployeeId", "h.employee_id", ValueKind::Int),
        Filter::searched(
            "CampaignName",
            "h.campaign_name",
            Search { key: "h.id", of: "usage_history", columns: "campaign_name", scoped: true },
        ),
        Filter::from("StartDate", "h.created_at"),
        Filter::to("EndDate", "h.created_at"),
        Filter::equals("Verified", "h.verified", ValueKind::Bool),
    ],
    export: Some(Export {
        file_name: "UsageHistory.xlsx",
        columns: &[
            ("Employee email", "employeeEmail"),
            ("Asset name", "assetName"),
            ("Partner name", "partnerName"),
            ("Campaign name", "campaignName"),
            ("Merchant category", "merchantCategory"),
            ("Date", "createdDate"),
            ("Discount percent", "discountPercent"),
            ("Status", "statusName"),
            ("Verified", "verified"),
            ("Branch", "branchName"),
        ],
    }),
    read: Roles::ANYONE,
    // Delete (an id list) is for Admins; the status is set by Admins and Users (below).
    write: Roles::ADMIN,
    toggle: false,
    delete: true,
    on_change: Some(reviews_follow),
    detail_extra: None,
    plural: "usage records",
    label: Some("{row}.campaign_name || ' · ' || {row}.employee_email || ' · ' || substr({row}.created_at, 1, 10)"),
    history: &[Recorded::table("usage_history")],
    trash: Some(Trash {
        // A voided use says why in the Trash (its review's reason, written before the delete).
        label: Some(
            "{row}.campaign_name || ' · ' || {row}.employee_email || ' · ' || substr({row}.created_at, 1, 10) || \
             COALESCE(' · voided: ' || (SELECT voided.void_reason FROM usage_review voided \
                                        WHERE voided.usage_id = {row}.id AND voided.state = 2 LIMIT 1), '')",
        ),
        owned: &[("usage_review", "usage_id = ?1", "flagged uses")],
        ..Trash::PLAIN
    }),
    events: Some(&USAGE_EVENTS),
    unrecorded: &[],
};

/// A use's reviews follow it through the trash (`resources::usage_review`, their one writer): a
/// restore reopens a voided review, a purge removes its reviews.
fn reviews_follow(tx: &Connection, _: Option<&CurrentUser>, change: &Change) -> AppResult<()> {
    match change {
        Change::Restored(ids) => super::usage_review::use_restored(tx, ids),
        Change::Purging(ids) => super::usage_review::use_purging(tx, ids),
        _ => Ok(()),
    }
}

pub const STATUS_RANGE: &str = "Status must be 0 (confirmed) or 1 (cancelled)";

/// `PUT usageHistory/updateStatus`: Admin and User (only an Admin deletes records).
static STATUS: StatusAction = StatusAction {
    path: "/api/usageHistory/updateStatus",
    summary: "Set a record's status: 0 confirmed, 1 cancelled",
    column: "status",
    values: StatusValues::UpTo { highest: 1, out_of_range: STATUS_RANGE },
    roles: Roles::EDITORS,
    not_found: "No such usage record",
};

pub fn routes() -> Api {
    const TAG: &str = "Usage history";
    crud::routes(&USAGE_HISTORY)
        .add(
            Method::GET,
            "/api/usageHistory/export/admin",
            crud::export_call(&USAGE_HISTORY),
            Doc::new(TAG, "Download UsageHistory.xlsx: records created from startDate to endDate, inclusive")
                .roles(USAGE_HISTORY.read)
                .query_schema("startDate", "First day (2026-11-01) or instant", query::date())
                .query_schema("endDate", "Last day, inclusive; not before startDate", query::date())
                .returns_file(),
        )
        .merge(crud::status_route(&USAGE_HISTORY, &STATUS))
}

//! One module per resource: its declaration plus its special routes.

pub mod activity;
pub mod api_clients;
pub mod applications;
pub mod assets;
pub mod campaign_categories;
pub mod campaigns;
pub mod cities;
pub mod complaints;
pub mod dashboard;
pub mod employees;
pub mod hr_accounts;
pub mod merchants;
pub mod notifications;
mod ordering;
pub mod partners;
pub mod promo_codes;
pub mod reports;
pub mod trash;
pub mod usage_history;
pub mod usage_review;
pub mod users;
pub mod webhooks;
pub mod wish_list;

use crate::crud::Resource;
use crate::db::activity::Audited;
use crate::db::triggers::Declared;
use crate::http::api::Api;

/// A person's name as a record's label (`{row}` its row): "Aysel Quliyeva".
pub(crate) const PERSON_NAME: &str = "{row}.first_name || ' ' || {row}.last_name";
/// A person's name and e-mail as a deleted record's label in the Trash, where two people of one
/// name must be told apart: "Aysel Quliyeva <a@b.az>".
pub(crate) const PERSON_LABEL: &str = "{row}.first_name || ' ' || {row}.last_name || ' <' || {row}.email || '>'";

/// The back-office resources' routes (the app layer adds sign-in, the inbound API and files).
pub fn routes() -> Api {
    users::routes()
        .merge(cities::routes())
        .merge(assets::routes())
        .merge(hr_accounts::routes())
        .merge(partners::routes())
        .merge(campaign_categories::routes())
        .merge(campaigns::routes())
        .merge(notifications::routes())
        .merge(employees::routes())
        .merge(wish_list::routes())
        .merge(applications::routes())
        .merge(usage_history::routes())
        .merge(usage_review::routes())
        .merge(complaints::routes())
        .merge(merchants::routes())
        .merge(promo_codes::routes())
        .merge(dashboard::routes())
        .merge(reports::routes())
        .merge(api_clients::routes())
        .merge(webhooks::routes())
        .merge(activity::routes(&all()))
        .merge(trash::routes())
        .extension("x-record-kinds", record_kinds())
}

/// The kinds of record as the API spells them, for the client's generated contract: those the
/// trash holds and those the activity log names (the resources whose writes it records, and the
/// server's own events), so the panel's filters and labels follow the declarations.
fn record_kinds() -> serde_json::Value {
    let resources = all();
    let trash: Vec<&str> = resources.iter().filter(|r| r.trash.is_some()).map(|r| r.path).collect();
    let mut history: Vec<&str> = resources.iter().filter(|r| !r.history.is_empty()).map(|r| r.path).collect();
    history.push(crate::db::activity::BACKUP_RESOURCE);
    serde_json::json!({ "trash": trash, "history": history })
}

/// What the resources declare that the database keeps by its triggers (the activity log's entries,
/// the trash's rows), handed down to `db` when the database is opened.
pub fn declared() -> Declared {
    let resources = all();
    let recorded = resources
        .iter()
        .flat_map(|resource| {
            resource.history.iter().map(|recorded| Audited { resource: resource.path, recorded: *recorded })
        })
        .collect();
    let trashed = resources
        .iter()
        .filter_map(|resource| {
            let trash = resource.trash?;
            Some(crate::db::trash::Trashed {
                kind: resource.path,
                table: resource.table,
                rows: trash.rows,
                label: trash.label.or(resource.label).unwrap_or("''"),
            })
        })
        .collect();
    Declared { recorded, trashed }
}

/// Every declared resource: the registries (history routes, the trash's kinds, what `db` is
/// handed) and the contract tests are made from it.
pub fn all() -> [&'static Resource; 21] {
    [
        &users::USERS,
        &cities::CITIES,
        &assets::ASSETS,
        &hr_accounts::HR_ACCOUNTS,
        &partners::PARTNERS,
        &campaign_categories::CATEGORIES,
        &campaigns::CAMPAIGNS,
        &campaigns::EXPECTED,
        &notifications::NOTIFICATIONS,
        &employees::EMPLOYEES,
        &wish_list::WISH_LIST,
        &applications::APPLICATIONS,
        &usage_history::USAGE_HISTORY,
        &usage_review::USAGE_REVIEW,
        &complaints::COMPLAINTS,
        &merchants::MERCHANTS,
        &promo_codes::PROMO_CODES,
        &api_clients::API_CLIENTS,
        &webhooks::WEBHOOKS,
        &activity::ACTIVITY,
        &trash::TRASH,
    ]
}

/// Every webhook event the resources declare, in their order: the names an endpoint may listen
/// for, as the API spells them.
pub fn webhook_events() -> Vec<&'static str> {
    all().iter().filter_map(|resource| resource.events).flat_map(|events| events.names()).collect()
}

/// Every form the resources declare (the generic ones, those their own writers run, and the rows
/// other layers write through them), for the checks over every declaration.
pub fn write_forms() -> Vec<&'static crate::crud::writes::WriteForm> {
    vec![
        &assets::ASSET_FORM,
        &campaign_categories::CATEGORY_FORM,
        &partners::PARTNER_FORM,
        &notifications::NOTIFICATION_FORM,
        &users::NEW_USER_FORM,
        &users::USER_EDIT_FORM,
        &hr_accounts::HR_PERSON_FORM,
        &employees::EMPLOYEE_EDIT_FORM,
        &employees::ARRIVAL_FORM,
        &merchants::NEW_MERCHANT_FORM,
        &merchants::MERCHANT_EDIT_FORM,
        &campaigns::writes::CAMPAIGN_FORM,
        &promo_codes::BATCH_FORM,
    ]
}

/// Every declared write and the route that serves it, for the table-driven tests over writes.
pub fn declared_writes() -> Vec<crate::crud::writes::DeclaredWrite> {
    use crate::crud::writes::{DeclaredWrite, Mode};
    use axum::http::Method;
    let mut writes = Vec::new();
    for form in [
        &assets::ASSET_FORM,
        &campaign_categories::CATEGORY_FORM,
        &partners::PARTNER_FORM,
        &notifications::NOTIFICATION_FORM,
    ] {
        writes.extend(DeclaredWrite::multipart(form));
    }
    writes.push(DeclaredWrite::json(&users::NEW_USER_FORM, Mode::Create, Method::POST, "/api/user/register"));
    writes.push(DeclaredWrite::json(&users::USER_EDIT_FORM, Mode::Update, Method::PUT, "/api/user"));
    writes.push(DeclaredWrite::json(&hr_accounts::HR_PERSON_FORM, Mode::Create, Method::POST, "/api/humanResource"));
    writes.push(DeclaredWrite::json(&hr_accounts::HR_PERSON_FORM, Mode::Update, Method::PUT, "/api/humanResource"));
    writes.push(DeclaredWrite::json(&employees::EMPLOYEE_EDIT_FORM, Mode::Update, Method::PUT, "/api/employee"));
    writes.push(DeclaredWrite::json(
        &merchants::NEW_MERCHANT_FORM,
        Mode::Create,
        Method::POST,
        "/api/partner/merchant",
    ));
    writes.push(DeclaredWrite::json(
        &merchants::MERCHANT_EDIT_FORM,
        Mode::Update,
        Method::PUT,
        "/api/partner/merchant",
    ));
    writes
}

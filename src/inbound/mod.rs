//! The inbound side: the operator's employee app (`/api/app/...`) and partners' systems
//! (`/api/partner-portal/...`) feed the back office through keyed APIs, and merchants apply
//! through the public `/api/apply`. Every call writes the tables the back-office screens read,
//! with the same rules and messages, one transaction per write, and `x-requestid` as everywhere.
//! A row a call names that does not exist (or not for this caller) is a 404, a row whose state
//! refuses the call a 409, each marked on the field that named it.

pub mod app;
pub mod import;
pub mod partner;
pub mod redemptions;
pub mod workbook;

use crate::auth::api_keys;
use crate::core::refusals::Audience;
use crate::http::api::Api;

/// The inbound API's routes.
/// How the inbound API refuses its callers (`core::refusals`): machines, which read English.
const REFUSALS: &[&str] = &[
    crate::auth::API_KEY_NOT_HERE,
    api_keys::KEY_REQUIRED,
    api_keys::STAFF_TOKEN_REFUSED,
    api_keys::KEY_UNKNOWN,
    api_keys::KEY_REVOKED,
    api_keys::FOR_EMPLOYEE_APP,
    api_keys::FOR_PARTNER,
    api_keys::OVER_RATE,
    app::EMPLOYEE_UNKNOWN,
    app::EMPLOYEE_INACTIVE,
    app::EMPLOYEE_REQUIRED,
    app::CAMPAIGN_INACTIVE,
    app::CAMPAIGN_EXPIRED,
    app::CAMPAIGN_NOT_STARTED,
    app::CAMPAIGN_NOT_OFFERED,
    app::RATING_RANGE,
    app::TEXT_REQUIRED,
    app::DESCRIPTION_REQUIRED,
    app::REASON_REQUIRED,
    app::FULL_NAME_REQUIRED,
    app::ASSET_REQUIRED,
    app::LANG_INVALID,
    "The e-mail in the address is not valid",
    "Asset id must be a number",
    "isActive must be true or false",
    "There is no asset with id {id}.",
    "No asset has the barcode prefix {prefix}.",
    "Several assets have this barcode prefix; name the asset by assetId",
    "There is no campaign with id {id}.",
    "The campaign's partner has no branch with id {id}.",
    "There is no complaint reason with id {id}.",
    "There is no city with id {id}.",
    partner::CODE_REQUIRED,
    partner::CAMPAIGN_UNKNOWN,
    partner::PARTNER_NAME_REQUIRED,
    partner::FULL_NAME_REQUIRED,
    partner::PHONE_REQUIRED,
    partner::CITIES_REQUIRED,
    partner::CITY_IDS,
    partner::NOT_A_PARTNER_KEY,
];

/// The forms the inbound writes declare, for the checks over every declaration.
pub fn write_forms() -> Vec<&'static crate::crud::writes::WriteForm> {
    vec![&app::USAGE_FORM, &app::WISH_FORM, &app::COMPLAINT_FORM, &partner::APPLICATION_FORM]
}

pub fn routes() -> Api {
    app::routes()
        .merge(partner::routes())
        .merge(import::routes())
        .merge(redemptions::routes())
        .refuses(Audience::Machines, REFUSALS)
        .refuses(Audience::Machines, redemptions::REFUSALS)
        .refuses(Audience::Machines, crate::resources::campaigns::limits::USE_REFUSALS)
}

//! The inbound side: the operator's employee app (`/api/app/...`) and partners' systems
//! (`/api/partner-portal/...`) feed the back office through keyed APIs, and merchants apply
//! through the public `/api/apply`. Every call writes the tables the back-office screens read,
//! with the same rules and messages, one transaction per write, and `x-requestid` as everywhere.
//! A row a call names that does not exist (or not for this caller) is a 404, a row whose state
//! refuses the call a 409, each marked on the field that named it.

pub mod app;
pub mod import;
pub mod partner;
pub mod workbook;

use crate::http::api::Api;

/// The inbound API's routes.
pub fn routes() -> Api {
    app::routes().merge(partner::routes()).merge(import::routes())
}

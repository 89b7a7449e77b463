//! One module per resource: its declaration plus its special routes.

pub mod assets;
pub mod campaign_categories;
pub mod campaigns;
pub mod cities;
pub mod hr_accounts;
pub mod notifications;
mod ordering;
pub mod partners;
pub mod users;

use crate::api::Api;
use crate::crud::Resource;

/// Every API route of the product.
pub fn api() -> Api {
    crate::auth::routes::routes()
        .merge(users::routes())
        .merge(cities::routes())
        .merge(assets::routes())
        .merge(hr_accounts::routes())
        .merge(partners::routes())
        .merge(campaign_categories::routes())
        .merge(campaigns::routes())
        .merge(notifications::routes())
}

/// Every declared resource, for the contract tests.
pub fn all() -> [&'static Resource; 9] {
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
    ]
}

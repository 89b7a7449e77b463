//! One module per resource: its declaration plus its special routes.

pub mod assets;
pub mod cities;
pub mod hr_accounts;
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
}

/// Every declared resource, for the contract tests.
pub fn all() -> [&'static Resource; 5] {
    [&users::USERS, &cities::CITIES, &assets::ASSETS, &hr_accounts::HR_ACCOUNTS, &partners::PARTNERS]
}

//! One module per resource: its declaration plus its special routes.

pub mod cities;
pub mod users;

use crate::api::Api;
use crate::crud::Resource;

/// Every API route of the product.
pub fn api() -> Api {
    crate::auth::routes::routes().merge(users::routes()).merge(cities::routes())
}

/// Every declared resource, for the contract tests.
pub fn all() -> [&'static Resource; 2] {
    [&users::USERS, &cities::CITIES]
}

//! Shared application state: the infrastructure every handler may use (the database, the
//! operator's settings, mail and the per-address throttles), and the features' own state as
//! typed sub-states (`AppState::feature`). The layers above put their state there when the app
//! is assembled (`app::state`): signing keys and API-key rates (`auth`), the `x-requestid`
//! claims (`app::idempotency`); this module names none of them, so it imports nothing above it.

use std::ops::Deref;
use std::sync::Arc;

use super::limits::AddressLimit;

use crate::core::error::{AppError, AppResult};
use crate::core::mail::Mailer;
use crate::db::Db;

/// Operator settings for a running server.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// `/auth/registration` creates inactive accounts only when this is on.
    pub allow_registration: bool,
    /// Send Strict-Transport-Security (a proxy in front terminates TLS).
    pub behind_tls: bool,
    /// Base address used in password-reset links, e.g. `https://perks.example.az`.
    pub public_url: String,
    /// Sign-in attempts allowed per client address per minute.
    pub sign_in_per_minute: u32,
    /// The balancers or proxies in front, whose `X-Forwarded-For` names the client (see
    /// `extract::ClientIp`); empty: the connection's peer is the client.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The operator's time zone, in which a campaign's per-employee limit counts days, weeks and
    /// months (`serve --time-zone`).
    pub time_zone: crate::core::periods::OperatorZone,
    /// How long a redemption code the employee app asks for stays valid, in seconds
    /// (`serve --redemption-ttl`).
    pub redemption_ttl_secs: u64,
    /// Wrong redemption codes a partner key may send a minute before it is refused for a while
    /// (`serve --wrong-codes-per-minute`).
    pub wrong_codes_per_minute: u32,
    /// Webhook URLs may point to loopback, private and link-local addresses (tests, receivers on
    /// the operator's own network): `serve --webhooks-allow-private`.
    pub webhooks_allow_private: bool,
}

/// The features' sub-states, one value per type.
#[derive(Default)]
pub struct Features(axum::http::Extensions);

impl Features {
    pub fn with<T: Send + Sync + 'static>(mut self, value: T) -> Features {
        self.0.insert(Arc::new(value));
        self
    }
}

#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub db: Db,
    pub settings: Settings,
    pub mailer: Mailer,
    pub sign_in_limiter: AddressLimit,
    /// The public merchant application form's own bucket per address, at the sign-in rate: an
    /// office that applies does not use up its staff's sign-in attempts, nor the other way round.
    pub apply_limiter: AddressLimit,
    /// The features' state, one value per type, set once when the app is assembled.
    features: Features,
}

impl Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    /// The state with the features' sub-states in `features` (see `app::state`).
    pub fn new(db: Db, settings: Settings, mailer: Mailer, features: Features) -> AppState {
        let sign_in_limiter = AddressLimit::new(settings.sign_in_per_minute);
        let apply_limiter = AddressLimit::new(settings.sign_in_per_minute);
        AppState(Arc::new(Shared { db, settings, mailer, sign_in_limiter, apply_limiter, features }))
    }

    /// A feature's sub-state. Its absence is a wiring fault of the app's assembly, answered as a
    /// logged 500 rather than a panic.
    pub fn feature<T: Send + Sync + 'static>(&self) -> AppResult<&T> {
        self.features.0.get::<Arc<T>>().map(|value| &**value).ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!("the app was assembled without {}", std::any::type_name::<T>()))
        })
    }
}

//! Shared application state: the database, signing keys, settings and the per-address throttles.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::ops::Deref;
use std::sync::Arc;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::auth::tokens::JwtKeys;
use crate::db::Db;
use crate::mail::Mailer;

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
}

#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub db: Db,
    pub keys: JwtKeys,
    pub settings: Settings,
    pub mailer: Mailer,
    pub sign_in_limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// The public merchant application form's own bucket per address, at the sign-in rate: an
    /// office that applies does not use up its staff's sign-in attempts, nor the other way round.
    pub apply_limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// `x-requestid` requests being carried out right now.
    pub requests_running: crate::idempotency::Running,
    /// Each API client's own request rate (see `inbound::clients`).
    pub api_client_limits: crate::inbound::clients::ClientLimits,
}

impl Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    pub fn new(db: Db, settings: Settings, mailer: Mailer) -> anyhow::Result<AppState> {
        let keys = JwtKeys::load_or_create(&*db.conn()?)?;
        let per_minute = NonZeroU32::new(settings.sign_in_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        let sign_in_limiter = RateLimiter::keyed(Quota::per_minute(per_minute));
        let apply_limiter = RateLimiter::keyed(Quota::per_minute(per_minute));
        Ok(AppState(Arc::new(Shared {
            db,
            keys,
            settings,
            mailer,
            sign_in_limiter,
            apply_limiter,
            requests_running: Default::default(),
            api_client_limits: Default::default(),
        })))
    }
}

//! Authentication and authorisation: who is calling, and may they.

pub mod accounts;
pub mod api_keys;
pub mod callers;
pub mod enrolment;
pub mod password;
pub mod recovery;
pub mod routes;
pub mod sessions;
pub mod tokens;
pub mod totp;

use std::future::Future;
use std::pin::Pin;

use crate::db::sql::OptionalExtension;
use axum::extract::FromRequestParts;
use axum::http::Method;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use serde::Serialize;
use utoipa::ToSchema;

use crate::core::error::{AppError, AppResult};
pub use crate::core::roles::{Role, Roles};
use crate::db::Actor;
use crate::http::gate::{KeyGate, RoleGate};
use crate::http::state::AppState;

/// The signed-in back-office user behind a request, checked against the live session.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentUser {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: String,
    pub role_id: i64,
    pub is_active: bool,
    /// Signed in with a recovery code: the panel asks for a new authenticator before anything else.
    pub must_set_up_authenticator: bool,
    #[serde(skip)]
    #[schema(ignore)]
    pub role: Role,
    #[serde(skip)]
    #[schema(ignore)]
    pub session_id: String,
}

impl CurrentUser {
    pub fn require(&self, roles: Roles) -> AppResult<()> {
        if roles.allows(self.role) { Ok(()) } else { Err(AppError::forbidden()) }
    }
}

/// The registry's role gate (`http::gate`): the signed-in user, of one of `roles`, checked before
/// the handler, or for a route that checks its caller with its first read, admitted on what the
/// session's last check found when there is one (`callers`).
pub fn role_gate() -> RoleGate {
    fn before<'a>(
        parts: &'a mut Parts,
        state: &'a AppState,
        roles: Roles,
    ) -> Pin<Box<dyn Future<Output = AppResult<()>> + Send + 'a>> {
        Box::pin(async move { CurrentUser::from_request_parts(parts, state).await?.require(roles) })
    }
    fn with_first_read<'a>(
        parts: &'a mut Parts,
        state: &'a AppState,
        roles: Roles,
    ) -> Pin<Box<dyn Future<Output = AppResult<()>> + Send + 'a>> {
        Box::pin(async move {
            let token = SessionToken::of(parts, state)?;
            if state.feature::<callers::RememberedCallers>()?.admit_remembered(parts, &state.db, &token, roles) {
                return Ok(());
            }
            CurrentUser::checked(parts, state, token).await?.require(roles)
        })
    }
    RoleGate { before, with_first_read }
}

/// The registry's key gate (`http::gate`): a live API key of the kind the route documents.
pub fn key_gate() -> KeyGate {
    fn check<'a>(
        parts: &'a mut Parts,
        state: &'a AppState,
        kind: &'static str,
    ) -> Pin<Box<dyn Future<Output = AppResult<()>> + Send + 'a>> {
        Box::pin(async move {
            let client = api_keys::ApiClient::from_request_parts(parts, state).await?;
            let wanted = api_keys::ClientKind::parse(kind)
                .ok_or_else(|| AppError::Internal(anyhow::anyhow!("a route documents the unknown key kind {kind}")))?;
            client.require(wanted)
        })
    }
    KeyGate(check)
}

pub const SIGN_IN_REQUIRED: &str = "Sign in to continue.";
/// An inbound API key sent to the back-office API (keys only open `/api/app`, `/api/partner-portal`).
pub const API_KEY_NOT_HERE: &str = "API keys are not accepted on the back-office API. Sign in instead.";
pub const SESSION_ENDED: &str = "Your session has ended. Sign in again.";

pub fn bearer_token(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers.get(AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim).filter(|t| !t.is_empty())
}

/// The tables of the credentials' own that the activity log does not record, with the reason (the
/// changes they stand for are recorded where they are made: a sign-in as a session, a password or
/// authenticator change on the user).
pub const UNRECORDED: &[(&str, &str)] = &[
    ("refresh_tokens", "a session's single-use refresh tokens, hashed; the session's sign-in is recorded"),
    ("password_resets", "reset links, hashed; the password change they lead to is recorded on the user"),
    ("recovery_codes", "hashes of one-time codes; their use is recorded on the user"),
    ("sign_in_locks", "the lockout's state; each failed sign-in is recorded"),
    ("app_settings", "the token signing key, made once"),
];

/// The answer to any other call of a session signed in with a recovery code, until the account's
/// authenticator is set up again.
pub const SET_UP_AUTHENTICATOR_FIRST: &str = "You signed in with a recovery code: set up your authenticator first (My profile, Two-step sign-in, Set up authenticator).";

/// What a session signed in with a recovery code may call before it sets up the authenticator:
/// its profile, the authenticator's set-up, its recovery codes and signing out.
const OPEN_BEFORE_SET_UP: &[(Method, &str)] = &[
    (Method::GET, "/api/auth/profile"),
    (Method::POST, "/api/auth/authenticator"),
    (Method::PUT, "/api/auth/authenticator"),
    (Method::GET, "/api/auth/recoverycodes"),
    (Method::POST, "/api/auth/recoverycodes"),
    (Method::POST, "/api/auth/logout"),
];

fn open_before_set_up(method: &Method, path: &str) -> bool {
    OPEN_BEFORE_SET_UP.iter().any(|(open, route)| open == method && path.eq_ignore_ascii_case(route))
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> AppResult<Self> {
        if let Some(user) = parts.extensions.get::<CurrentUser>() {
            return Ok(user.clone());
        }
        let token = SessionToken::of(parts, state)?;
        CurrentUser::checked(parts, state, token).await
    }
}

impl CurrentUser {
    /// The user of `token`'s session as the database says now, admitted ([`SessionToken::admit`])
    /// and, where reads are round trips, remembered for the session's next list (`callers`).
    async fn checked(parts: &mut Parts, state: &AppState, token: SessionToken) -> AppResult<CurrentUser> {
        let checked = {
            let token = token.clone();
            state.db.look_up(move |conn| token.check_ahead(conn)?.user()).await?
        };
        let user = token.admit(parts, checked)?;
        if state.db.reads_are_round_trips() {
            state.feature::<callers::RememberedCallers>()?.remember(&user);
        }
        Ok(user)
    }
}

pub use tokens::SessionToken;

impl SessionToken {
    /// The request's bearer token, verified: 401 without one, for an API key, or for a token
    /// whose signature or expiry fails.
    pub fn of(parts: &Parts, state: &AppState) -> AppResult<SessionToken> {
        let token = bearer_token(&parts.headers).ok_or_else(|| AppError::Unauthorized(SIGN_IN_REQUIRED.into()))?;
        if token.starts_with(api_keys::KEY_PREFIX) {
            return Err(AppError::Unauthorized(API_KEY_NOT_HERE.into()));
        }
        state.feature::<tokens::JwtKeys>()?.verify(token).ok_or_else(|| AppError::Unauthorized(SESSION_ENDED.into()))
    }

    /// The session's user, read ahead of the next statement on `conn` (see `ReadAhead`): one
    /// exchange with it on PostgreSQL.
    pub fn check_ahead<'c>(&self, conn: &'c crate::db::sql::Connection) -> AppResult<UserAhead<'c>> {
        let found = conn.read_ahead(
            "SELECT u.id, u.first_name, u.last_name, u.email, u.phone, u.role_id, u.must_set_up_authenticator
             FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE s.id = ?1 AND s.user_id = ?2 AND s.revoked_at IS NULL
               AND u.kind = 'staff' AND u.is_active = 1 AND u.deleted_at IS NULL",
            (&self.session_id, self.user_id),
        )?;
        Ok(UserAhead { found, session_id: self.session_id.clone() })
    }

    /// The request's user as checked: 401 when the session has ended, 403 for a session that must
    /// set up its authenticator first and calls anything else. Remembered on the request.
    pub fn admit(self, parts: &mut Parts, checked: Option<CurrentUser>) -> AppResult<CurrentUser> {
        let user = checked.ok_or_else(|| AppError::Unauthorized(SESSION_ENDED.into()))?;
        if user.must_set_up_authenticator && !open_before_set_up(&parts.method, parts.uri.path()) {
            return Err(AppError::Forbidden(SET_UP_AUTHENTICATOR_FIRST.into()));
        }
        user.identify(parts);
        Ok(user)
    }
}

impl CurrentUser {
    /// Names the request's caller: in its log span, as the author of what it writes
    /// (`db::activity`), and on the request for the extractors after the gate.
    fn identify(&self, parts: &mut Parts) {
        tracing::Span::current().record("user_id", self.id);
        Actor::identify(Actor::user(self.id, format!("{} {}", self.first_name, self.last_name)));
        parts.extensions.insert(self.clone());
    }
}

/// A session's user read ahead ([`SessionToken::check_ahead`]).
pub struct UserAhead<'c> {
    found: crate::db::sql::ReadAhead<'c>,
    session_id: String,
}

/// A session's check sent ahead and let go of its connection until it is read there
/// ([`UserAhead::detach`]).
pub struct UserSent {
    found: crate::db::sql::Detached,
    session_id: String,
}

impl UserSent {
    /// The check again on `conn`, the connection it was sent on.
    pub fn attach(self, conn: &crate::db::sql::Connection) -> UserAhead<'_> {
        UserAhead { found: self.found.attach(conn), session_id: self.session_id }
    }
}

impl UserAhead<'_> {
    /// This check, let go of its connection (see [`crate::db::sql::Detached`]).
    pub fn detach(self) -> UserSent {
        UserSent { found: self.found.detach(), session_id: self.session_id }
    }

    /// The live session's active staff user; `None` when there is none.
    pub fn user(self) -> AppResult<Option<CurrentUser>> {
        let session_id = self.session_id;
        self.found
            .query_row(|row| {
                let role_id: i64 = row.get("role_id")?;
                Ok(CurrentUser {
                    id: row.get("id")?,
                    first_name: row.get("first_name")?,
                    last_name: row.get("last_name")?,
                    email: row.get("email")?,
                    phone: row.get("phone")?,
                    role_id,
                    is_active: true,
                    must_set_up_authenticator: row.get("must_set_up_authenticator")?,
                    role: Role::from_id(role_id).unwrap_or(Role::CallCenter),
                    session_id,
                })
            })
            .optional()
            .map_err(AppError::from)
    }
}

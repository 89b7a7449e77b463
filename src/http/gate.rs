//! The gates: a route that documents roles (`Doc::roles`) or a kind of API key (`Doc::api_key`)
//! is closed by the registry to every other caller, before any extractor reads its body, so what
//! the document says is what the server enforces. Who the caller is belongs to the credentials
//! layer above; it lends its checks to this one as sub-states (`RoleGate`, `KeyGate`), set when
//! the app is assembled.

use std::future::Future;
use std::pin::Pin;

use axum::extract::Request;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::core::error::{AppError, AppResult};
use crate::core::roles::Roles;
use crate::http::state::AppState;

/// Admits a request's caller when it holds one of `roles`: a 401 without a live session, a 403
/// for another role. What it learns (the signed-in user) it leaves in the parts' extensions.
pub type RoleCheck =
    for<'a> fn(&'a mut Parts, &'a AppState, Roles) -> Pin<Box<dyn Future<Output = AppResult<()>> + Send + 'a>>;

/// The credentials layer's checks, as a feature of the state: `before`, the caller checked before
/// the handler runs; `with_first_read`, for a route whose handler checks its caller with its first
/// read (`Checking::WithFirstRead`), the caller admitted on what its session's last check found
/// when there is one, its check left to the handler, and checked as `before` does otherwise.
pub struct RoleGate {
    pub before: RoleCheck,
    pub with_first_read: RoleCheck,
}

/// Admits a request's caller when it sends a live API key of `kind` (as the document spells it):
/// a 401 without one (or with a staff token), a 403 for a key of another kind. The client it finds
/// it leaves in the parts' extensions.
pub type KeyCheck =
    for<'a> fn(&'a mut Parts, &'a AppState, &'static str) -> Pin<Box<dyn Future<Output = AppResult<()>> + Send + 'a>>;

/// The credentials layer's key check, as a feature of the state.
pub struct KeyGate(pub KeyCheck);

/// Who a route admits, as its document names them.
#[derive(Clone, Copy, Debug)]
pub enum Admits {
    Roles(Roles, Checking),
    Key(&'static str),
}

/// When a role gate's caller is checked against the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checking {
    /// Before the handler runs.
    Before,
    /// With the handler's first read, when the session was checked before (a list: its check and
    /// its page travel in one exchange); the handler answers only once that check confirms the
    /// caller (`Doc::checks_caller_with_its_read`).
    WithFirstRead,
}

/// Middleware of one route: the callers its document admits.
pub async fn admit(admits: Admits, request: Request, next: Next) -> Response {
    let Some(state) = request.extensions().get::<AppState>().cloned() else {
        return AppError::Internal(anyhow::anyhow!("the app state is not in the request's extensions")).into_response();
    };
    let (mut parts, body) = request.into_parts();
    let admitted = match admits {
        Admits::Roles(roles, checking) => match state.feature::<RoleGate>() {
            Ok(gate) => {
                let check = match checking {
                    Checking::Before => gate.before,
                    Checking::WithFirstRead => gate.with_first_read,
                };
                check(&mut parts, &state, roles).await
            }
            Err(error) => Err(error),
        },
        Admits::Key(kind) => match state.feature::<KeyGate>() {
            Ok(gate) => gate.0(&mut parts, &state, kind).await,
            Err(error) => Err(error),
        },
    };
    if let Err(refusal) = admitted {
        return refusal.into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

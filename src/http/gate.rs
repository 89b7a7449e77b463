//! The role gate: a route that documents roles (`Doc::roles`) is closed by the registry to every
//! other caller, before any extractor reads its body, so what the document says is what the
//! server enforces. Who the caller is belongs to the credentials layer above; it lends its check
//! to this one as a sub-state (`RoleGate`), set when the app is assembled.

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

/// The credentials layer's check, as a feature of the state.
pub struct RoleGate(pub RoleCheck);

/// Middleware of one route: `roles` are those its document names.
pub async fn admit(roles: Roles, request: Request, next: Next) -> Response {
    let Some(state) = request.extensions().get::<AppState>().cloned() else {
        return AppError::Internal(anyhow::anyhow!("the app state is not in the request's extensions")).into_response();
    };
    let gate = match state.feature::<RoleGate>() {
        Ok(gate) => gate.0,
        Err(error) => return error.into_response(),
    };
    let (mut parts, body) = request.into_parts();
    if let Err(refusal) = gate(&mut parts, &state, roles).await {
        return refusal.into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

//! Small answer bodies that handlers of several modules share.

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

/// `{"message": "..."}`: the answer of a call that has nothing else to say.
#[derive(Serialize, ToSchema)]
pub struct MessageBody {
    pub message: String,
}

impl MessageBody {
    pub fn json(message: impl Into<String>) -> Json<MessageBody> {
        Json(MessageBody { message: message.into() })
    }
}

//! What every layer may use and that knows nothing of HTTP or the database: the error type,
//! field validation with the specification's messages, roles, mail and QR codes.

pub mod error;
pub mod mail;
pub mod patterns;
pub mod qr;
pub mod refusals;
pub mod roles;
pub mod validation;

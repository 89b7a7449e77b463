//! What every layer may use and that knows nothing of HTTP or the database: the error type,
//! field validation with the specification's messages, roles, mail and QR codes, files only their
//! owner reads.

pub mod error;
pub mod mail;
pub mod owner_only;
pub mod patterns;
pub mod periods;
pub mod qr;
pub mod refusals;
pub mod roles;
pub mod targets;
pub mod validation;

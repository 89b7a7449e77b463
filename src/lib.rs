//! perkdesk: the back-office panel of a discount and perks marketplace, as one binary.
//!
//! The folders are the layers, each importing only those below it (`tests/layers.rs` holds
//! the order and fails on an upward import; `docs/architecture.md` describes each):
//! `cli` → `app` → `inbound` → `resources` → `crud` → `auth` → `http` → `db` → `core`.

pub mod app;
pub mod auth;
pub mod cli;
pub mod core;
pub mod crud;
pub mod db;
pub mod http;
pub mod inbound;
pub mod resources;

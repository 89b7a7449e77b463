//! perkdesk: the back-office panel of a discount and perks marketplace, as one binary.

pub mod api;
pub mod app;
pub mod auth;
pub mod cli;
pub mod crud;
pub mod db;
pub mod declared;
pub mod demo;
pub mod error;
pub mod extract;
pub mod files;
pub mod forms;
pub mod idempotency;
pub mod inbound;
pub mod listener;
pub mod mail;
pub mod qr;
pub mod reply;
pub mod resources;
pub mod state;
pub mod validation;
pub mod web;

//! The HTTP machinery below every feature: the route registry with its OpenAPI document,
//! request extractors and forms, uploaded files, the shared state, the listener and the
//! embedded panel.

pub mod api;
pub mod connections;
pub mod declared;
pub mod extract;
pub mod fields;
pub mod files;
pub mod form_fields;
pub mod forms;
pub mod gate;
pub mod limits;
pub mod listener;
pub mod reply;
pub mod secrets;
pub mod state;
pub mod web;

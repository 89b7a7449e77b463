//! Every integration test file but two, as one test binary: each file is a module here, so the
//! test build compiles and links one executable instead of fifty (most of the test build's time
//! was their linking). `hardening.rs` and `postgres_round_trips.rs` stay binaries of their own:
//! each reads a counter of the whole process (images decoded, PostgreSQL round trips) that the
//! other tests here would move while it counts. A file's tests are named after it
//! (`campaigns::...`), so `cargo test --test suite campaigns::` runs one file.

mod common;
mod people;
#[path = "common/sources.rs"]
mod sources;

mod activity;
mod api;
mod assets;
mod auth;
mod azerbaijani_search;
mod azerbaijani_sort;
mod campaign_categories;
mod campaign_limits;
mod campaigns;
mod cli;
mod complaints;
mod contract;
mod copy_to_postgres;
mod dashboard;
mod declared_writes;
mod deep_pages;
mod docs;
mod employees;
mod engine_parity;
mod export_memory;
mod history_decisions;
mod hr_accounts;
mod idempotency;
mod inbound;
mod inbound_import;
mod layers;
mod list_totals;
mod mail;
mod merchants;
mod notifications;
mod openapi;
mod partners;
mod people_demo;
mod postgres_cluster;
mod postgres_limits;
mod promo_codes;
mod recovery_codes;
mod redemptions;
mod reports;
mod requests;
mod roles;
mod row_nullability;
mod secrets;
mod table_writers;
mod trash;
mod uploads;
mod usage_history;
mod usage_review;
mod users;
mod webhooks;

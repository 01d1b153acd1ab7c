//! The HTTP API end to end: real requests to the real router on loopback, every test on
//! SQLite and on PostgreSQL.

mod common;

mod auth;
mod body_deadlines;
mod carrier_profiles;
mod carrier_push;
mod carrier_push_v3;
mod compat;
mod console;
mod console_errors;
mod console_truth;
mod container_edits;
mod database_outage;
mod database_stopped;
mod errors;
mod hygiene;
mod idempotency;
mod includes;
mod infer_number;
mod limits;
mod metrics;
mod notice_push;
mod numbers;
mod operations;
mod parties;
mod places;
mod raw_events;
mod sandbox;
mod search;
mod shipments;
mod shipping_lines;
mod snapshots;
mod stop_resume;
mod terminal;
mod terminal_push;
mod terminal_scenarios;
mod tracking_request_lists;
mod tracking_requests;
mod webhook_delivery;
mod webhook_reference;
mod webhook_retention;
mod webhook_secrets;
mod webhook_tests;
mod webhook_trigger;
mod webhooks;

//! Every integration test of `dealer` in one binary (one module per area), so the crate
//! is linked once instead of once per file: most of `cargo test`'s time on two cores.

mod engine_support;
mod observe_support;
mod runner_support;
mod support;

mod cli_args;
mod cli_compose;
mod cli_ranking;
mod cli_run;
mod cli_serve;
mod decks;
mod engine_betting;
mod engine_captures;
mod engine_game;
mod engine_pots;
mod engine_properties;
mod engine_ranking;
mod event_disk;
mod event_retention;
mod event_serve;
mod event_store;
mod interop_python;
mod k8s_manifests;
mod kit_bounds;
mod observe_outputs;
mod observe_phh;
mod observe_records;
mod observe_requests;
mod observe_viewer_log;
mod rainman;
mod ranking;
mod results_json;
mod robustness;
mod runner_documents;
mod runner_game;
mod runner_tournament;
mod seat_check;
mod seat_http;
mod seat_in_process;
mod seat_memory;
mod seat_sdk;
mod seat_unsent;
mod web_api;
mod web_follow;

//! Rain Man offline: the hand-ranking service Lean Poker bots call (spec §8), answered from
//! the `shared` evaluator, for events without the hosted one.
//!
//! The hosted service (`lean-poker/rainman`, a Sinatra app) reads `cards` from the request's
//! parameters, so both forms work the same here:
//!
//! - `GET /rank?cards=[...]` (the query string, percent-encoded);
//! - `POST /rank` with a form body `cards=[...]` (`application/x-www-form-urlencoded`, or no
//!   content type); a `cards` in the query string counts too, the body's wins, as in Rack.
//!
//! `cards` is a JSON array of card objects (`{"rank":"10","suit":"hearts"}`). The answer is
//! Rain Man's JSON ([`shared::eval::RainManRank`]). A request the evaluator cannot rank gets a
//! `400` with a one-line text reason starting `Bad request:`, as the hosted service answers
//! too few cards (`Bad request: not enough cards`); where the hosted one fails with a `500`
//! (no `cards`, text that is not JSON) this one also answers `400`, never crashes.

use actix_web::http::header::{self, ContentType};
use actix_web::http::StatusCode;
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use shared::eval::rain_man_rank_json;
use std::net::TcpListener;

/// The largest request body read (the longest sensible `cards` list is a few kilobytes).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The answer to one `/rank` request from its `cards` parameter (`None` when absent): the
/// status and the body (Rain Man's JSON, or a `Bad request:` line).
pub fn rank(cards: Option<&str>) -> (StatusCode, String) {
    let Some(cards) = cards else {
        return (
            StatusCode::BAD_REQUEST,
            "Bad request: the cards parameter is missing".to_string(),
        );
    };
    match rain_man_rank_json(cards).and_then(|answer| {
        serde_json::to_string(&answer)
            .map_err(|error| shared::eval::EvalError::InvalidCards(error.to_string()))
    }) {
        Ok(json) => (StatusCode::OK, json),
        Err(error) => {
            let reason = error.to_string();
            let line = if reason.starts_with("Bad request") {
                reason
            } else {
                format!("Bad request: {reason}")
            };
            (StatusCode::BAD_REQUEST, line)
        }
    }
}

/// Adds the `/rank` route (GET and POST) to an actix-web app, for a server that serves more
/// than Rain Man.
pub fn configure(config: &mut web::ServiceConfig) {
    config.service(
        web::resource("/rank")
            .app_data(web::PayloadConfig::new(BODY_LIMIT))
            .route(web::get().to(get_rank))
            .route(web::post().to(post_rank)),
    );
}

/// Serves Rain Man on `listener` until the returned server is stopped (or dropped with its
/// runtime). Call inside a Tokio runtime; await the server, or spawn it and keep its
/// [`actix_web::dev::Server::handle`] to stop it.
///
/// # Errors
/// The listener cannot be used.
pub fn serve(listener: TcpListener) -> std::io::Result<actix_web::dev::Server> {
    Ok(HttpServer::new(|| App::new().configure(configure))
        .disable_signals()
        .backlog(1024)
        .listen(listener)?
        .run())
}

async fn get_rank(request: HttpRequest) -> HttpResponse {
    answer(param(request.query_string().as_bytes()).as_deref())
}

async fn post_rank(request: HttpRequest, body: web::Bytes) -> HttpResponse {
    let is_form = match request.headers().get(header::CONTENT_TYPE) {
        None => true,
        Some(value) => value.to_str().is_ok_and(|v| {
            v.trim_start()
                .starts_with("application/x-www-form-urlencoded")
        }),
    };
    let from_body = if is_form { param(&body) } else { None };
    let cards = from_body.or_else(|| param(request.query_string().as_bytes()));
    answer(cards.as_deref())
}

/// The last `cards` value of a form-encoded text.
fn param(form: &[u8]) -> Option<String> {
    form_urlencoded::parse(form)
        .filter(|(key, _)| key == "cards")
        .last()
        .map(|(_, value)| value.into_owned())
}

fn answer(cards: Option<&str>) -> HttpResponse {
    let (status, body) = rank(cards);
    let content_type = if status.is_success() {
        ContentType::json()
    } else {
        ContentType::plaintext()
    };
    HttpResponse::build(status)
        .content_type(content_type)
        .body(body)
}

//! Rain Man offline: the hand-ranking service Lean Poker bots call (spec §8), answered from
//! [`shared::eval::rain_man_rank_json`], for events without the hosted one.
//!
//! The hosted service (`lean-poker/rainman`) is a Sinatra app on Rack 3 that reads `cards`
//! from Rack's `params`: the query string merged with the form parameters of the body, the
//! body's winning when both name `cards`. Rack reads a body as a form when its content type
//! is `application/x-www-form-urlencoded`, or when a POST has no content type, for GET as
//! well as POST. So all of these work the same here:
//!
//! - `GET /rank?cards=[...]` (the query string, percent-encoded);
//! - `GET /rank` with a form body `cards=[...]`, as `curl -XGET -d` and Ruby's
//!   `HTTParty.get(url, body: "cards=...")` send it (both label the body as a form);
//! - `POST /rank` with a form body (form content type, or none), a `cards` in the query string
//!   counting when the body has none.
//!
//! `cards` is a JSON array of cards (`{"rank":"10","suit":"hearts"}`, see
//! [`shared::eval::rain_man_rank_json`] for every spelling). The answer is Rain Man's JSON
//! ([`shared::eval::RainManRank`]). A request the service cannot rank gets a `400` with a
//! one-line text reason starting `Bad request:`, as the hosted one answers too few cards
//! (`Bad request: not enough cards`); where the hosted one fails with a `500` (no `cards`,
//! text that is not JSON, an entry that is not a card) this one answers `400` too and never
//! crashes. Other methods on `/rank` get a `404`, as from Sinatra. Multipart bodies (which
//! Rack also reads) are not read here.

use actix_web::http::header::{self, ContentType};
use actix_web::http::{Method, StatusCode};
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

/// Adds the `/rank` route (GET and POST, other methods a `404` as from Sinatra) to an
/// actix-web app, for a server that serves more than Rain Man.
pub fn configure(config: &mut web::ServiceConfig) {
    config.service(
        web::resource("/rank")
            .app_data(web::PayloadConfig::new(BODY_LIMIT))
            .route(web::get().to(rank_request))
            .route(web::post().to(rank_request))
            .default_service(web::to(HttpResponse::NotFound)),
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

/// One `/rank` request: `cards` from the body when Rack would read the body as a form and it
/// names `cards`, else from the query string.
async fn rank_request(request: HttpRequest, body: web::Bytes) -> HttpResponse {
    let from_body = if body_is_form(&request) {
        param(&body)
    } else {
        None
    };
    let cards = from_body.or_else(|| param(request.query_string().as_bytes()));
    answer(cards.as_deref())
}

/// Whether Rack reads the body as a form: its media type (before any `;` parameters, in any
/// letter case) is `application/x-www-form-urlencoded`, or a POST has no content type.
fn body_is_form(request: &HttpRequest) -> bool {
    let media_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|value| {
            let text = String::from_utf8_lossy(value.as_bytes());
            let media = text.split(';').next().unwrap_or_default();
            media.trim().to_ascii_lowercase()
        })
        .filter(|media| !media.is_empty());
    match media_type {
        None => request.method() == Method::POST,
        Some(media) => media == "application/x-www-form-urlencoded",
    }
}

/// The last `cards` value of a form-encoded text (Rack keeps the last of a repeated key).
fn param(form: &[u8]) -> Option<String> {
    form_urlencoded::parse(form)
        .filter(|(key, _)| key == "cards")
        .last()
        .map(|(_, value)| value.into_owned())
}

/// The HTTP response for [`rank`]'s answer: JSON when ranked, a text line when refused.
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

//! The browser viewer of finished games (read-only): [`serve_results`] serves a results folder
//! (one `dealer run` folder, a folder of them, or a folder holding another dealer's `log.json`)
//! as a web page and JSON endpoints.
//!
//! | endpoint | answer |
//! |---|---|
//! | `GET /` | the page (HTML, CSS and JS embedded in the binary: no CDN, no internet) |
//! | `GET /api/runs` | every run found ([`store::RunListItem`]) |
//! | `GET /api/runs/{run}` | a run's leaderboard (`results.json` less its games) and games ([`store::RunSummary`]) |
//! | `GET /api/runs/{run}/games/{n}` | a game's result and files ([`store::GameDetails`]) |
//! | `GET /api/runs/{run}/games/{n}/log` | its viewer log, checked, with hands and bans found ([`log::GameLog`]); up to its last complete entry while it is written, hole cards hidden while the game is played |
//! | `GET /api/runs/{run}/games/{n}/live` | server-sent events: the log's new entries as they are written (`entries`), then `end` (module `live`); `?from=N` or `Last-Event-ID` resumes at entry N |
//! | `GET /api/runs/{run}/games/{n}/players/{name}` | what one player was asked and answered ([`view::PlayerRequests`]) |
//! | `GET /api/runs/{run}/games/{n}/requests/{line}` | the `game_state` of one `requests.jsonl` line, byte for byte, as a download (a fixture for `player::testing::load`) |
//!
//! Errors are JSON `{"error": "..."}`: 404 for anything unknown, 422 for a malformed, cut-off
//! or oversized file, 405 for a method other than GET/HEAD, 413 for a request body over
//! [`MAX_REQUEST_BODY`]. Request paths are never joined to file paths (see [`store`]), and
//! no file whose real path is outside the folder is read. Binds 127.0.0.1 unless told otherwise.

pub mod broadcast;
pub mod event_api;
mod follow;
pub mod hand_histories;
pub mod log;
pub mod store;
pub mod view;

use crate::settings::DEFAULT_WEB_PORT;
use actix_web::body::EitherBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::DefaultHeaders;
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer, ResponseError};
use futures_util::future::Either;
use log::LogCache;
use player::ServerTask;
use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use store::{FolderError, ResultsFolder};
use thiserror::Error;

/// The largest request body accepted (the viewer takes none; anything bigger is refused
/// before it is read).
pub const MAX_REQUEST_BODY: u64 = 16 * 1024;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
/// What the viewer's page and the event page both run, loaded before their own script.
const COMMON_JS: &str = include_str!("assets/common.js");
const APP_CSS: &str = include_str!("assets/app.css");
/// The poker table (felt, seats, board), drawn by the viewer's table view and the broadcast.
const TABLE_JS: &str = include_str!("assets/table.js");

/// The page may load only its own assets: a name that slipped past escaping still could not
/// run a script.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// How to serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebOptions {
    /// Where to listen; `127.0.0.1:8080` by default. Port 0 picks a free port.
    pub bind: SocketAddr,
    /// HTTP worker threads (actix's default, one per core, when `None`).
    pub workers: Option<usize>,
}

impl Default for WebOptions {
    fn default() -> Self {
        WebOptions {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), DEFAULT_WEB_PORT),
            workers: None,
        }
    }
}

impl WebOptions {
    /// Listens on every interface at `port`: the one explicit way to serve on the network.
    pub fn network(port: u16) -> WebOptions {
        WebOptions {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port),
            workers: None,
        }
    }
}

/// Why the viewer cannot start or stopped with an error.
#[derive(Debug, Error)]
pub enum WebError {
    /// The folder to serve is not a readable folder.
    #[error("cannot serve {dir}: {reason}")]
    Folder {
        /// The folder given.
        dir: PathBuf,
        /// Why.
        reason: String,
    },
    /// The address could not be bound.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address asked for.
        address: SocketAddr,
        /// The OS error.
        source: std::io::Error,
    },
    /// [`serve_results`] needs a Tokio runtime and none is running on this thread.
    #[error("serve_results must be called inside a Tokio runtime")]
    NoRuntime,
    /// The server failed while running.
    #[error("the web server failed: {0}")]
    Server(std::io::Error),
}

/// A viewer that is serving. Dropping it stops it at once; [`RunningWebServer::stop`] stops it
/// gracefully.
#[derive(Debug)]
pub struct RunningWebServer {
    local_addr: SocketAddr,
    server: ServerTask,
}

impl RunningWebServer {
    /// The bound address (with the real port when port 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The page's URL from this machine, with a trailing slash (`0.0.0.0` becomes
    /// `127.0.0.1`).
    pub fn url(&self) -> String {
        player::local_url(self.local_addr)
    }

    /// Stops gracefully and waits until the server is down.
    ///
    /// # Errors
    /// [`WebError::Server`] if the server had failed.
    pub async fn stop(self) -> Result<(), WebError> {
        self.server.stop().await.map_err(WebError::Server)
    }

    /// Serves until stopped (Ctrl-C or SIGTERM: actix's signal handling is on).
    ///
    /// # Errors
    /// [`WebError::Server`] if the server failed.
    pub async fn wait(self) -> Result<(), WebError> {
        self.server.wait().await.map_err(WebError::Server)
    }
}

/// Serves the results in `dir` read-only at `options.bind`, in the background of the current
/// Tokio runtime. Runs and games added to `dir` later appear without a restart.
///
/// # Errors
/// [`WebError::Folder`] when `dir` is not a folder, [`WebError::Bind`] when the address is
/// taken, [`WebError::NoRuntime`] outside a Tokio runtime.
pub fn serve_results(dir: PathBuf, options: WebOptions) -> Result<RunningWebServer, WebError> {
    serve_results_with(dir, options, None)
}

/// More routes for the viewer's app (the event's API of `dealer serve --data`).
pub type ExtraRoutes = Arc<dyn Fn(&mut web::ServiceConfig) + Send + Sync>;

/// As [`serve_results`], with `extra` routes added (before the viewer's 404).
///
/// # Errors
/// As [`serve_results`].
pub fn serve_results_with(
    dir: PathBuf,
    options: WebOptions,
    extra: Option<ExtraRoutes>,
) -> Result<RunningWebServer, WebError> {
    serve_results_archived(dir, options, extra, None)
}

/// As [`serve_results_with`], opening the games `archive` regenerates too (an event's games
/// whose folders were deleted: `store::GameArchive`).
///
/// # Errors
/// As [`serve_results`].
pub fn serve_results_archived(
    dir: PathBuf,
    options: WebOptions,
    extra: Option<ExtraRoutes>,
    archive: Option<Arc<dyn store::GameArchive>>,
) -> Result<RunningWebServer, WebError> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| WebError::NoRuntime)?;
    let mut folder = ResultsFolder::new(&dir).map_err(|error| WebError::Folder {
        dir: dir.clone(),
        reason: error.to_string(),
    })?;
    if let Some(archive) = archive {
        folder = folder.with_archive(archive);
    }
    let folder = web::Data::from(Arc::new(folder));
    let logs = web::Data::new(LogCache::new());
    let bind_error = |source| WebError::Bind {
        address: options.bind,
        source,
    };
    let listener = TcpListener::bind(options.bind).map_err(bind_error)?;
    let local_addr = listener.local_addr().map_err(bind_error)?;
    let mut server = HttpServer::new(move || app(folder.clone(), logs.clone(), extra.clone()))
        .shutdown_timeout(2)
        .client_request_timeout(std::time::Duration::from_secs(10));
    if let Some(workers) = options.workers {
        server = server.workers(workers);
    }
    let server = server.listen(listener).map_err(bind_error)?.run();
    let server = ServerTask::spawn(server, &runtime);
    tracing::info!(address = %local_addr, folder = %dir.display(), "results viewer listening");
    Ok(RunningWebServer { local_addr, server })
}

/// The application: routes, the body cap and the security headers.
fn app(
    folder: web::Data<ResultsFolder>,
    logs: web::Data<LogCache>,
    extra: Option<ExtraRoutes>,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = ServiceResponse<EitherBody<actix_web::body::BoxBody>>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(folder)
        .app_data(logs)
        .wrap(
            DefaultHeaders::new()
                .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
                .add((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
                .add((header::REFERRER_POLICY, "no-referrer"))
                .add((header::CACHE_CONTROL, "no-cache")),
        )
        .wrap_fn(|request, service| {
            let declared = request
                .headers()
                .get(header::CONTENT_LENGTH)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.trim().parse::<u64>().ok());
            if declared.is_some_and(|length| length > MAX_REQUEST_BODY) {
                let response = ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("request bodies are limited to {MAX_REQUEST_BODY} bytes"),
                )
                .error_response();
                let mut response = request.into_response(response).map_into_right_body();
                // The body is not read: close the connection instead of draining it.
                response
                    .response_mut()
                    .head_mut()
                    .set_connection_type(actix_web::http::ConnectionType::Close);
                return Either::Left(std::future::ready(Ok(response)));
            }
            let call = service.call(request);
            Either::Right(async move { Ok(call.await?.map_into_left_body()) })
        })
        .route("/", asset(HTML, INDEX_HTML))
        .route("/index.html", asset(HTML, INDEX_HTML))
        .route("/app.js", asset(JAVASCRIPT, APP_JS))
        .route("/common.js", asset(JAVASCRIPT, COMMON_JS))
        .route("/table.js", asset(JAVASCRIPT, TABLE_JS))
        .route("/app.css", asset(CSS, APP_CSS))
        .route("/favicon.ico", asset(SVG, FAVICON_SVG))
        .route("/api/runs", web::get().to(runs))
        .route("/api/runs/{run}", web::get().to(run))
        .route("/api/runs/{run}/games/{game}", web::get().to(game))
        .route(
            "/api/runs/{run}/games/{game}/log",
            web::get().to(follow::game_log),
        )
        .route(
            "/api/runs/{run}/games/{game}/live",
            web::get().to(follow::follow),
        )
        .route(
            "/api/runs/{run}/games/{game}/players/{name}",
            web::get().to(player),
        )
        .route(
            "/api/runs/{run}/games/{game}/requests/{line}",
            web::get().to(request_state),
        )
        .configure(|config| {
            if let Some(extra) = &extra {
                extra(config);
            }
        })
        .configure(event_api::configure_assets)
        .default_service(web::to(not_found))
}

/// An error answer: a status and a sentence, as `{"error": "..."}` (with the
/// `WWW-Authenticate: Bearer` challenge on a 401, which only the event's organiser API gives).
#[derive(Debug, Error)]
#[error("{message}")]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status).json(ErrorBody {
            error: &self.message,
        });
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

impl From<FolderError> for ApiError {
    fn from(error: FolderError) -> ApiError {
        let status = match &error {
            FolderError::NotFound(_) => StatusCode::NOT_FOUND,
            FolderError::Unreadable(_) | FolderError::TooLarge { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            FolderError::Io { source, .. }
                if source.kind() == std::io::ErrorKind::PermissionDenied =>
            {
                StatusCode::FORBIDDEN
            }
            FolderError::Io { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::warn!(%error, "results viewer cannot read a file");
        }
        ApiError::new(status, error.to_string())
    }
}

/// Runs `read` on the blocking pool (it reads files and serialises) and answers its JSON.
async fn blocking_json<F>(
    folder: web::Data<ResultsFolder>,
    read: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(&ResultsFolder) -> Result<Vec<u8>, FolderError> + Send + 'static,
{
    let body = web::block(move || read(&folder))
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"))??;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(body))
}

/// `value` as JSON text (our own types always serialise).
fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, FolderError> {
    serde_json::to_vec(value).map_err(|error| FolderError::Unreadable(error.to_string()))
}

fn game_number(text: &str) -> Result<u32, ApiError> {
    text.parse().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("{text:?} is not a game number"),
        )
    })
}

/// The media type of the pages.
pub(crate) const HTML: &str = "text/html; charset=utf-8";
/// The media type of the pages' scripts.
pub(crate) const JAVASCRIPT: &str = "text/javascript; charset=utf-8";
/// The media type of the pages' style sheets.
pub(crate) const CSS: &str = "text/css; charset=utf-8";

/// A `GET` route answering one of the pages' embedded files.
/// The pages' icon: a browser asks for `/favicon.ico` on every page, and a 404 there is an
/// error line in every visitor's console. An SVG answers it (browsers read the type, not the
/// name).
const FAVICON_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\"><rect width=\"16\" height=\"16\" rx=\"3\" fill=\"#1b5e20\"/><text x=\"8\" y=\"12.5\" font-size=\"12\" text-anchor=\"middle\" fill=\"#fff\">\u{2660}</text></svg>";
/// Its content type.
const SVG: &str = "image/svg+xml";

pub(crate) fn asset(content_type: &'static str, body: &'static str) -> actix_web::Route {
    web::get().to(move || async move { HttpResponse::Ok().content_type(content_type).body(body) })
}

async fn runs(folder: web::Data<ResultsFolder>) -> Result<HttpResponse, ApiError> {
    blocking_json(folder, |folder| to_json(&folder.runs()?)).await
}

async fn run(
    folder: web::Data<ResultsFolder>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    blocking_json(folder, move |folder| to_json(&*folder.run(&id)?)).await
}

async fn game(
    folder: web::Data<ResultsFolder>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, game) = path.into_inner();
    let game = game_number(&game)?;
    blocking_json(folder, move |folder| to_json(&folder.game(&id, game)?)).await
}

async fn player(
    folder: web::Data<ResultsFolder>,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, game, name) = path.into_inner();
    let game = game_number(&game)?;
    blocking_json(folder, move |folder| {
        to_json(&folder.player(&id, game, &name)?)
    })
    .await
}

async fn request_state(
    folder: web::Data<ResultsFolder>,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, game, line) = path.into_inner();
    let game = game_number(&game)?;
    let number: usize = line.trim_end_matches(".json").parse().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("{line:?} is not a line number"),
        )
    })?;
    let request = web::block(move || folder.request_state(&id, game, number))
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"))??;
    let state = request.game_state.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("requests.jsonl line {number} has no game_state"),
        )
    })?;
    let file_name = format!("game-{game}-round-{}-line-{number}.json", request.round);
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(file_name)],
        })
        .body(state.get().to_string()))
}

async fn not_found(request: HttpRequest) -> HttpResponse {
    not_found_error(&request).error_response()
}

fn not_found_error(request: &HttpRequest) -> ApiError {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "the results viewer is read-only: only GET is answered",
        );
    }
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("nothing at {}", request.path()),
    )
}

//! The event's endpoints (`dealer serve --data DIR`), added to the results viewer's app.
//!
//! | endpoint | answer |
//! |---|---|
//! | `GET /api/event` | the event's status ([`EventStatus`]: storage error, games finished, the disk budget and what it forced...) |
//! | `GET /api/event/leaderboard` | players in order with points, games, wins, bans, absences, version, last seen, and each one's recent `form` (points in its last [`FORM_GAMES`] games, and its rating: [`TeamForm`]) |
//! | `GET /api/event/history?max_points=N` | each player's points after each game, for the chart ([`PointsHistory`]; at most N games, evenly spread, default 300), and the changes of leader |
//! | `GET /api/event/players` | every player, removed ones included ([`PlayerView`]) |
//! | `GET /api/event/games?page=P&per_page=N` | the running games and a page of the ended ones, newest first ([`GamesPage`]) |
//! | `GET /api/event/teams/{id}` | a team's own view: its points by version, raw and with the luck of the cards taken out, and its newest version against the one before, its newest version's hands to look at ([`TeamView`]) |
//! | `GET /api/event/versions` | every team's points by version and verdict ([`crate::event::versions::TeamVersions`]), for the broadcast |
//! | `GET /api/event/games/{number}/teams` | who sat at each seat of a game, with their player ids, for the teams' colours ([`crate::event::lookups::GameTeams`]) |
//! | `GET /api/event/hands?since=N&player=NAME&version=TEXT` | the finished games as one gzip'd PHH file, streamed from their records ([`super::hand_histories`]); 403 when the organiser turned it off |
//! | `POST /api/event/players` | organiser: add `{"name", "url", "token"?}` or `{"name", "bot"}` → 201 `{"id"}` |
//! | `PATCH /api/event/players/{id}` | organiser: `{"name"?, "status"?: "active" \| "paused" \| "removed"}` |
//! | `DELETE /api/event/players/{id}` | organiser: remove (its games stay in the history) |
//! | `GET /api/event/broadcast?candidates=N` | the projector's director: the N newest ended games (default 12) scored, with their hands and highlights, best first ([`super::broadcast::Broadcast`]) |
//! | `GET /api/mode` | `{"event": true, "read_only": false}` (`read_only` with `dealer serve --out` on an event's folder; `event: false` from the viewer of runs) |
//! | `GET /event` | the event page (leaderboard, points chart, games, organiser buttons) |
//! | `GET /broadcast` | the projector page: the newest games played back at a watchable pace, with the leaderboard and chart |
//! | `GET`/`POST /rank` | Rain Man (spec §8), as `dealer rainman` serves it |
//!
//! Organiser requests need `Authorization: Bearer <token>`, compared in constant time; without
//! it, or with a wrong one, or when the server has no token, the answer is 401. An event
//! served read-only (`dealer serve --out DIR` on an event's folder: the same `GET`s, read
//! from its database opened read-only) answers them 403. Bodies are
//! JSON, at most [`super::MAX_REQUEST_BODY`] bytes. Errors are `{"error": "..."}`.

use super::broadcast::Director;
use super::ApiError;
use crate::event::form::{FormTracker, TeamForm, FORM_GAMES};
use crate::event::players::{Enrollment, PlayerView};
use crate::event::queries::{GamesPage, PointsHistory};
use crate::event::settings::Contact;
use crate::event::store::{EventStore, HandsToLookAt, StoreError};
use crate::event::versions::{self, TeamVersions, VersionsTracker};
use crate::event::{Event, EventStatus};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use subtle::ConstantTimeEq;

const EVENT_HTML: &str = include_str!("assets/event.html");
const EVENT_JS: &str = include_str!("assets/event.js");
const EVENT_CSS: &str = include_str!("assets/event.css");
/// The teams' colours, the leaderboard and the points chart, shared by the event page and the
/// broadcast.
const STANDINGS_JS: &str = include_str!("assets/standings.js");
const BROADCAST_HTML: &str = include_str!("assets/broadcast.html");
const BROADCAST_JS: &str = include_str!("assets/broadcast.js");
const BROADCAST_CSS: &str = include_str!("assets/broadcast.css");

/// The default number of games in the points chart.
pub const DEFAULT_HISTORY_POINTS: usize = 300;
/// The most games the points chart can ask for.
pub const MAX_HISTORY_POINTS: usize = 5_000;

/// Routes for the event page's own assets (`/event.js`, `/event.css`) and `/api/mode`
/// (`{"event": false}`), served in both modes so the viewer's page can always load them and
/// ask, without a 404, whether an event runs. Added after [`routes`], whose `/api/mode`
/// (`{"event": true}`) then wins.
pub fn configure_assets(config: &mut web::ServiceConfig) {
    config
        .route("/event.js", super::asset(super::JAVASCRIPT, EVENT_JS))
        .route("/event.css", super::asset(super::CSS, EVENT_CSS))
        .route(
            "/standings.js",
            super::asset(super::JAVASCRIPT, STANDINGS_JS),
        )
        .route(
            "/broadcast.js",
            super::asset(super::JAVASCRIPT, BROADCAST_JS),
        )
        .route("/broadcast.css", super::asset(super::CSS, BROADCAST_CSS))
        .route(
            "/api/mode",
            web::get().to(|| async {
                HttpResponse::Ok().json(Mode {
                    event: false,
                    read_only: true,
                })
            }),
        );
}

/// What `/api/mode` answers.
#[derive(Serialize, Clone, Copy)]
struct Mode {
    /// Whether the server has an event (`dealer serve --data`, or `--out` on an event's
    /// folder) rather than only runs to view.
    event: bool,
    /// Whether nothing can be changed (`dealer serve --out`).
    read_only: bool,
}

/// The event's games regenerated from their compact records for the viewer, when their
/// folders were deleted or a full disk cut their files (`event::archive`,
/// `event::cut_files`).
#[derive(Debug)]
pub struct EventArchive {
    event: Arc<Event>,
    run_dir: std::path::PathBuf,
}

impl EventArchive {
    /// The archive of `event`'s games.
    pub fn shared(event: Arc<Event>) -> Arc<dyn super::store::GameArchive> {
        let run_dir = event.settings().data.join(crate::event::store::GAMES_DIR);
        Arc::new(EventArchive { event, run_dir })
    }
}

impl super::store::GameArchive for EventArchive {
    fn run_dir(&self) -> &std::path::Path {
        &self.run_dir
    }

    fn regenerate(&self, number: u32, into: &std::path::Path) -> Result<bool, String> {
        let archive = |error: crate::event::archive::ArchiveError| error.to_string();
        let Some(compact) = crate::event::archive::compact_game(self.event.store(), number)
            .map_err(|error| error.to_string())?
        else {
            return Ok(false);
        };
        let scratch = tempfile::tempdir().map_err(|error| error.to_string())?;
        crate::event::archive::regenerate_game(
            number,
            &compact,
            None,
            scratch.path(),
            into,
            crate::replay::Comparison::Exact,
        )
        .map_err(archive)?;
        Ok(true)
    }

    fn opened(&self, number: u32) {
        self.event.game_opened(number);
    }

    fn files_cut(&self, number: u32) -> bool {
        match crate::event::cut_files::is_cut(&self.event, number) {
            Ok(cut) => {
                if cut {
                    crate::event::cut_files::repair_soon(&self.event, number);
                }
                cut
            }
            Err(error) => {
                tracing::debug!(game = number, %error, "cannot tell whether the game's files were cut");
                false
            }
        }
    }
}

/// The event's routes (see the [module docs](self)), for [`super::serve_results_with`].
pub fn routes(event: Arc<Event>) -> super::ExtraRoutes {
    // One director for every worker: each ended game's log is read once.
    let director = web::Data::new(Director::new());
    // One tracker too: each recorded game is read once for the form and ratings.
    let form = web::Data::new(FormTracker::new());
    // And one sum of every team's versions, made again only when a game is recorded or valued.
    let versions = web::Data::new(VersionsTracker::new());
    // And each team's own view, read again only when a game of that team is.
    let team_views = web::Data::new(TeamViews::default());
    // And the hand histories being written, a few at a time.
    let downloads = web::Data::new(super::hand_histories::Downloads::default());
    Arc::new(move |config: &mut web::ServiceConfig| {
        let data = web::Data::from(Arc::clone(&event));
        let mode = Mode {
            event: true,
            read_only: event.is_read_only(),
        };
        config.service(
            web::scope("/api/event")
                .app_data(data)
                .app_data(director.clone())
                .app_data(form.clone())
                .app_data(versions.clone())
                .app_data(team_views.clone())
                .app_data(downloads.clone())
                .app_data(web::PayloadConfig::new(super::MAX_REQUEST_BODY as usize))
                .route("", web::get().to(status))
                .route("/leaderboard", web::get().to(leaderboard))
                .route("/history", web::get().to(history))
                .route("/games", web::get().to(games))
                .route("/games/{number}/teams", web::get().to(game_teams))
                .route("/teams/{id}", web::get().to(team))
                .route("/versions", web::get().to(all_versions))
                .route("/hands", web::get().to(super::hand_histories::hands))
                .route("/broadcast", web::get().to(super::broadcast::broadcast))
                .route("/players", web::get().to(players))
                .route("/players", web::post().to(add_player))
                .route("/players/{id}", web::patch().to(change_player))
                .route("/players/{id}", web::delete().to(remove_player)),
        );
        config
            .route("/event", super::asset(super::HTML, EVENT_HTML))
            .route("/broadcast", super::asset(super::HTML, BROADCAST_HTML))
            .route(
                "/api/mode",
                web::get().to(move || async move { HttpResponse::Ok().json(mode) }),
            );
        crate::rainman::configure(config);
    })
}

fn error(status: StatusCode, message: &str) -> HttpResponse {
    actix_web::ResponseError::error_response(&ApiError::new(status, message))
}

fn store_error(failure: &StoreError) -> HttpResponse {
    match failure {
        StoreError::Refused(message) => error(StatusCode::BAD_REQUEST, message),
        StoreError::UnknownPlayer(_) => error(StatusCode::NOT_FOUND, &failure.to_string()),
        other => {
            tracing::error!(%other, "event API");
            error(StatusCode::INTERNAL_SERVER_ERROR, &other.to_string())
        }
    }
}

/// Runs `read` on the blocking pool (SQLite is synchronous) and answers its JSON.
async fn blocking<T, F>(event: web::Data<Event>, read: F) -> HttpResponse
where
    T: Serialize + Send + 'static,
    F: FnOnce(&Event) -> Result<T, StoreError> + Send + 'static,
{
    match web::block(move || read(&event)).await {
        Ok(Ok(value)) => HttpResponse::Ok().json(value),
        Ok(Err(failure)) => store_error(&failure),
        Err(_) => error(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"),
    }
}

async fn status(event: web::Data<Event>) -> HttpResponse {
    let status: EventStatus = event.status();
    HttpResponse::Ok().json(status)
}

/// `/api/event/leaderboard`: the event's leaderboard with each player's recent form.
#[derive(Serialize)]
struct LeaderboardWithForm {
    /// The event's status.
    event: EventStatus,
    /// How many of a team's latest games its form counts.
    form_games: usize,
    /// Players, first first.
    players: Vec<RankedPlayer>,
}

#[derive(Serialize)]
struct RankedPlayer {
    #[serde(flatten)]
    player: PlayerView,
    form: Option<TeamForm>,
}

async fn leaderboard(event: web::Data<Event>, form: web::Data<FormTracker>) -> HttpResponse {
    blocking(event, move |event| -> Result<LeaderboardWithForm, _> {
        let leaderboard = event.leaderboard()?;
        let mut forms = form.forms(event.store())?;
        Ok(LeaderboardWithForm {
            event: leaderboard.event,
            form_games: FORM_GAMES,
            players: leaderboard
                .players
                .into_iter()
                .map(|player| RankedPlayer {
                    form: forms.remove(&player.id),
                    player,
                })
                .collect(),
        })
    })
    .await
}

/// `/api/event/teams/{id}`: what a team's own view shows.
#[derive(Clone, Serialize)]
pub struct TeamView {
    /// Its points by version and its newest version against the one before.
    #[serde(flatten)]
    pub versions: TeamVersions,
    /// Its newest version's hands to look at: the [`TEAM_HANDS`] costliest with the luck of the
    /// cards taken out and its newest answers worth a second look; `None` before it played.
    pub hands: Option<HandsToLookAt>,
}

/// How many of its costliest hands (and newest noted answers) a team's view lists.
pub const TEAM_HANDS: usize = 10;

/// Each team's view as last read, with what it depended on ([`versions::TeamStamp`]): a team's
/// page asks every 2 s, and a team with thousands of games costs tens of milliseconds to read.
#[derive(Default)]
pub struct TeamViews {
    cached: Mutex<HashMap<i64, (versions::TeamStamp, TeamView)>>,
}

impl TeamViews {
    /// Team `id`'s view, read again only when a game of its own was recorded or valued since.
    ///
    /// # Errors
    /// The database cannot be read, or no player has that id.
    pub fn view(&self, store: &EventStore, id: i64) -> Result<TeamView, StoreError> {
        let stamp = versions::team_stamp(store, id)?;
        if let Some((cached, view)) = self
            .cached
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
        {
            if *cached == stamp {
                return Ok(view.clone());
            }
        }
        let versions = versions::team_versions(store, id)?.ok_or(StoreError::UnknownPlayer(id))?;
        let hands = match versions.versions.first() {
            Some(newest) => Some(store.hands_to_look_at(
                id,
                &newest.version,
                newest.deploy,
                &newest.label,
                TEAM_HANDS,
            )?),
            None => None,
        };
        let view = TeamView { versions, hands };
        self.cached
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, (stamp, view.clone()));
        Ok(view)
    }
}

async fn team(
    event: web::Data<Event>,
    views: web::Data<TeamViews>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = player_id(&path)?;
    Ok(blocking(event, move |event| views.view(event.store(), id)).await)
}

async fn all_versions(
    event: web::Data<Event>,
    tracker: web::Data<VersionsTracker>,
) -> HttpResponse {
    blocking(event, move |event| {
        tracker.all(event.store()).map(|teams| (*teams).clone())
    })
    .await
}

#[derive(Deserialize)]
struct HistoryQuery {
    max_points: Option<usize>,
}

async fn history(event: web::Data<Event>, request: HttpRequest) -> HttpResponse {
    let query = match web::Query::<HistoryQuery>::from_query(request.query_string()) {
        Ok(query) => query.into_inner(),
        Err(failure) => return error(StatusCode::BAD_REQUEST, &failure.to_string()),
    };
    let points = query
        .max_points
        .unwrap_or(DEFAULT_HISTORY_POINTS)
        .clamp(1, MAX_HISTORY_POINTS);
    blocking(event, move |event| -> Result<PointsHistory, _> {
        event.history(points)
    })
    .await
}

#[derive(Deserialize)]
struct GamesQuery {
    page: Option<u32>,
    per_page: Option<u32>,
}

async fn games(event: web::Data<Event>, request: HttpRequest) -> HttpResponse {
    let query = match web::Query::<GamesQuery>::from_query(request.query_string()) {
        Ok(query) => query.into_inner(),
        Err(failure) => return error(StatusCode::BAD_REQUEST, &failure.to_string()),
    };
    blocking(event, move |event| -> Result<GamesPage, _> {
        crate::event::queries::games_page(
            event.store(),
            query.page.unwrap_or(1),
            query.per_page.unwrap_or(50),
        )
    })
    .await
}

async fn game_teams(event: web::Data<Event>, path: web::Path<String>) -> HttpResponse {
    let Ok(number) = path.parse::<u32>() else {
        return error(
            StatusCode::NOT_FOUND,
            &format!("{:?} is not a game number", path.as_str()),
        );
    };
    match web::block(move || crate::event::lookups::game_teams(event.store(), number)).await {
        Ok(Ok(Some(teams))) => HttpResponse::Ok().json(teams),
        Ok(Ok(None)) => error(StatusCode::NOT_FOUND, &format!("no game {number}")),
        Ok(Err(failure)) => store_error(&failure),
        Err(_) => error(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"),
    }
}

async fn players(event: web::Data<Event>) -> HttpResponse {
    blocking(event, |event| -> Result<Vec<PlayerView>, _> {
        event.players()
    })
    .await
}

/// `Ok` when the request carries the organiser token; else the 401 to answer (403 when the
/// event is served read-only: no token can change it).
fn authorise(event: &Event, request: &HttpRequest) -> Result<(), ApiError> {
    if event.is_read_only() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this event is served read-only (dealer serve --out): start it with dealer serve --data to change its players",
        ));
    }
    let unauthorised = |message: &str| Err(ApiError::new(StatusCode::UNAUTHORIZED, message));
    let Some(expected) = &event.settings().admin_token else {
        return unauthorised("the organiser API is off: start dealer serve with --admin-token (or DEALER_ADMIN_TOKEN)");
    };
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim);
    match given {
        Some(given) if bool::from(given.as_bytes().ct_eq(expected.as_bytes())) => Ok(()),
        Some(_) => unauthorised("wrong organiser token"),
        None => unauthorised("the organiser API needs Authorization: Bearer <token>"),
    }
}

fn json_body<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|failure| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the body is not the JSON expected: {failure}"),
        )
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPlayer {
    name: String,
    url: Option<String>,
    token: Option<String>,
    bot: Option<String>,
}

#[derive(Serialize)]
struct PlayerId {
    id: i64,
}

async fn add_player(
    event: web::Data<Event>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    authorise(&event, &request)?;
    let new: NewPlayer = json_body(&body)?;
    let contact = match (new.url, new.bot) {
        (Some(url), None) => Contact::Http {
            url,
            token: new.token,
        },
        (None, Some(kind)) if new.token.is_none() => match kind.parse() {
            Ok(kind) => Contact::Bot(kind),
            Err(failure) => {
                let failure: crate::house::UnknownBotKind = failure;
                return Err(ApiError::new(StatusCode::BAD_REQUEST, failure.to_string()));
            }
        },
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "give either url (and optionally token) or bot",
            ))
        }
    };
    let name = new.name;
    Ok(
        match web::block(move || event.add_player(&name, contact)).await {
            Ok(Ok(id)) => HttpResponse::Created().json(PlayerId { id }),
            Ok(Err(failure)) => store_error(&failure),
            Err(_) => error(StatusCode::SERVICE_UNAVAILABLE, "the server is busy"),
        },
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerChange {
    name: Option<String>,
    status: Option<Enrollment>,
}

fn player_id(text: &str) -> Result<i64, ApiError> {
    text.parse().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("{text:?} is not a player id"),
        )
    })
}

async fn change_player(
    event: web::Data<Event>,
    request: HttpRequest,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    authorise(&event, &request)?;
    let id = player_id(&path)?;
    let change: PlayerChange = json_body(&body)?;
    if change.name.is_none() && change.status.is_none() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "give name and/or status",
        ));
    }
    Ok(blocking(event, move |event| -> Result<PlayerView, _> {
        if let Some(name) = &change.name {
            event.rename_player(id, name)?;
        }
        if let Some(status) = change.status {
            event.set_status(id, status)?;
        }
        event
            .players()?
            .into_iter()
            .find(|p| p.id == id)
            .ok_or(StoreError::UnknownPlayer(id))
    })
    .await)
}

async fn remove_player(
    event: web::Data<Event>,
    request: HttpRequest,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    authorise(&event, &request)?;
    let id = player_id(&path)?;
    Ok(blocking(event, move |event| -> Result<PlayerId, _> {
        event.set_status(id, Enrollment::Removed)?;
        Ok(PlayerId { id })
    })
    .await)
}

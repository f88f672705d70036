//! `dealer serve`: an event ([`crate::event`]: games until stopped, the page and the
//! organiser API), or with `--out DIR` the read-only viewer of earlier runs ([`crate::web`]) —
//! of an event's folder too, with its leaderboard and chart from its database opened
//! read-only — until Ctrl-C or SIGTERM.

use super::args::ServeArgs;
use super::{signals, Failure};
use crate::event::settings::{
    read_event_file, resolve_event, EventFile, EventFlags, HandHistories,
};
use crate::event::store::DATABASE_FILE;
use crate::event::{health, luck, retention, scheduler, Event};
use crate::progress::Screen;
use crate::web::{event_api, serve_results, serve_results_archived, WebOptions};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// Serves `--out` read-only, or runs the event.
///
/// # Errors
/// A [`Failure`]: bad settings (2), a folder, database or address that cannot be used (1).
pub async fn serve(args: ServeArgs, screen: &Screen) -> Result<(), Failure> {
    match args.out.clone() {
        Some(out) => serve_read_only(out, args.bind, args.hand_histories, screen).await,
        None => serve_event(args, screen).await,
    }
}

fn default_bind() -> SocketAddr {
    SocketAddr::new(
        IpAddr::V4(Ipv4Addr::LOCALHOST),
        crate::settings::DEFAULT_WEB_PORT,
    )
}

fn network_note(bind: SocketAddr, screen: &Screen, what: &str) {
    if !bind.ip().is_loopback() {
        screen.println(&format!(
            "note: listening on {bind}: anyone on the network can {what}"
        ));
    }
}

/// Serves `out` at `bind` until stopped; the address is printed first, so a script (or a
/// person) knows where to point the browser.
async fn serve_read_only(
    out: PathBuf,
    bind: Option<SocketAddr>,
    hand_histories: Option<HandHistories>,
    screen: &Screen,
) -> Result<(), Failure> {
    let bind = bind.unwrap_or_else(default_bind);
    let options = WebOptions {
        bind,
        workers: None,
    };
    // An event's folder: its standings and chart too, from its database opened read-only.
    let is_event = out.join(DATABASE_FILE).is_file();
    let server = if is_event {
        let event = Event::open_read_only(out.clone(), hand_histories.unwrap_or_default())
            .map_err(|error| Failure::run(error.to_string()))?;
        let archive = event_api::EventArchive::shared(event.clone());
        serve_results_archived(
            out.clone(),
            options,
            Some(event_api::routes(event)),
            Some(archive),
        )
    } else {
        serve_results(out.clone(), options)
    }
    .map_err(|error| Failure::run(error.to_string()))?;
    let page = if is_event { "event" } else { "" };
    super::report::print(&format!(
        "serving {} at {}{page} (read-only; Ctrl-C to stop)\n",
        out.display(),
        server.url()
    ));
    network_note(bind, screen, "read these results");
    // actix stops the server on Ctrl-C or SIGTERM itself; waiting for it is waiting for that.
    server
        .wait()
        .await
        .map_err(|error| Failure::run(error.to_string()))
}

/// Refuses a disk budget the event cannot keep to: below the files of a round's games in
/// play, the reserve and the database ([`retention::minimum_budget`]).
fn check_disk_budget(event: &Event) -> Result<(), Failure> {
    let Some(budget) = event.settings().retention.disk_budget else {
        return Ok(());
    };
    let minimum =
        retention::minimum_budget(event).map_err(|error| Failure::run(error.to_string()))?;
    if budget < minimum.total() {
        return Err(Failure::usage(format!(
            "a disk budget of {} is too small for this event: at least {minimum}; set \
             --disk-budget (config disk_budget) to that or more, or \"off\"",
            bytesize::ByteSize::b(budget).display().si()
        )));
    }
    Ok(())
}

/// Runs the event until the first Ctrl-C or SIGTERM: the games in progress are then stopped
/// and recorded as abandoned, and the server exits 0.
async fn serve_event(args: ServeArgs, screen: &Screen) -> Result<(), Failure> {
    let settings_failure = |error: crate::settings::SettingsError| {
        if error.is_usage() {
            Failure::usage(error.to_string())
        } else {
            Failure::run(error.to_string())
        }
    };
    let file = match &args.config {
        Some(path) => read_event_file(path).map_err(settings_failure)?,
        None => EventFile::default(),
    };
    let flags = EventFlags {
        data: args.data,
        bind: args.bind,
        admin_token: args.admin_token,
        compress_after: args.compress_after,
        keep_games: args.keep_games,
        disk_budget: args.disk_budget,
        min_free_space: args.min_free_space,
        hand_histories: args.hand_histories,
    };
    let settings = resolve_event(flags, file).map_err(settings_failure)?;
    let (data, bind) = (settings.data.clone(), settings.bind);
    let margin = settings.retention.min_free_space;
    let event = Event::open(settings).map_err(|error| {
        // A full disk says what to free, measured, rather than SQLite's bare words.
        Failure::run(
            crate::event::space::full_disk_at_start(&data, margin, &error)
                .unwrap_or_else(|| error.to_string()),
        )
    })?;
    check_disk_budget(&event)?;
    let options = WebOptions {
        bind,
        workers: None,
    };
    let server = serve_results_archived(
        data.clone(),
        options,
        Some(event_api::routes(event.clone())),
        Some(event_api::EventArchive::shared(event.clone())),
    )
    .map_err(|error| Failure::run(error.to_string()))?;
    // Listening before the address is printed: a stop sent as soon as it is (by a script or a
    // supervisor) is a clean one.
    let stop = signals::stop_on_signal(
        screen,
        "stopping: the games in progress are recorded as abandoned",
    );
    super::report::print(&format!(
        "event {} at {}event (Ctrl-C to stop)\n",
        data.display(),
        server.url()
    ));
    network_note(bind, screen, "watch the event");
    if event.settings().admin_token.is_none() {
        screen.println(
            "note: no organiser token (--admin-token or DEALER_ADMIN_TOKEN): players can only come from the config file",
        );
    }
    // Know who is up before the first round, so a dead URL does not hold up the first games.
    health::check_all(&event).await;
    let checks = tokio::spawn(health::run_health_checks(event.clone(), stop.clone()));
    let retention = tokio::spawn(retention::run_retention(event.clone(), stop.clone()));
    let valuer = luck::spawn_valuer(event.clone(), stop.clone())
        .map_err(|error| Failure::run(format!("cannot start the luck valuer: {error}")))?;
    scheduler::run_rounds(event.clone(), stop).await;
    // A last try for games that ended while nothing could be written, making room from the
    // files their records regenerate; what still cannot be written is lost, and said so.
    let waiting = scheduler::record_unrecorded(&event).err();
    let _ = checks.await;
    let _ = retention.await;
    let _ = tokio::task::spawn_blocking(move || valuer.join()).await;
    server
        .stop()
        .await
        .map_err(|error| Failure::run(error.to_string()))?;
    stop_verdict(&event, waiting)
}

/// How a stop ends: exit 1 naming the finished games it lost (none while a file their records
/// regenerate could make room), or for a write error still unresolved; a disk still full that
/// lost nothing only kept new games from starting (said, exit 0).
fn stop_verdict(event: &Event, waiting: Option<scheduler::StillWaiting>) -> Result<(), Failure> {
    let data = &event.settings().data;
    if let Some(waiting) = waiting {
        if !waiting.finished.is_empty() {
            return Err(Failure::run(waiting.lost(data)));
        }
        tracing::warn!("{}", waiting.lost(data));
    }
    if let Some(error) = event.unresolved_write_error() {
        return Err(Failure::run(error));
    }
    if let Some(error) = event.storage_error() {
        tracing::warn!(
            "stopped with the disk of {} full, no finished game lost: {error}",
            data.display()
        );
    }
    Ok(())
}

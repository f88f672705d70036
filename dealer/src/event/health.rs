//! The background health check: every active HTTP player is asked `check` every
//! `recheck_ms` (and at once when the players change). A player that does not answer is
//! marked down with the reason and sits out the next rounds; it is seated again as soon as a
//! `check` succeeds. So one dead URL costs one short request in the background, not every
//! game's `wait_ms` wait.
//!
//! The state is in the database (`down_reason`, `last_seen`), written only when it changes (or
//! `last_seen` is older than [`SEEN_REFRESH_MS`]), so the page shows it and a restart keeps it.

use super::players::Enrollment;
use super::settings::Contact;
use super::{now_ms, Event};
use crate::runner::StopSignal;
use futures_util::future::join_all;
use std::sync::Arc;

/// How stale `last_seen` may get before a successful `check` rewrites it.
pub const SEEN_REFRESH_MS: i64 = 30_000;

/// Whether a player the database describes can be seated: active, and a house bot or an
/// HTTP player whose last `check` succeeded.
pub fn can_play(player: &super::players::StoredPlayer) -> bool {
    player.status == Enrollment::Active
        && match player.contact {
            Contact::Bot(_) => true,
            Contact::Http { .. } => player.down_reason.is_none() && player.last_seen.is_some(),
        }
}

/// Asks `check` of every active HTTP player, concurrently, and records who is up and who is
/// down (with the reason). Returns how many are up.
pub async fn check_all(event: &Event) -> usize {
    let players = match event.store().players() {
        Ok(players) => players,
        Err(error) => {
            event.report_write_failure("cannot read the players", &error);
            return 0;
        }
    };
    let checks = players
        .iter()
        .filter(|p| p.status == Enrollment::Active)
        .filter_map(|p| match &p.contact {
            Contact::Http { url, token } => Some((p, Contact::endpoint(url, token.as_deref()))),
            Contact::Bot(_) => None,
        })
        .map(|(player, endpoint)| async move {
            let reason = match endpoint {
                Ok(endpoint) => {
                    let seat = event.client.seat(endpoint);
                    seat.check()
                        .await
                        .failure()
                        .map(|failure| format!("check failed: {failure}"))
                }
                Err(reason) => Some(reason),
            };
            (player, reason)
        });
    let mut up = 0;
    for (player, reason) in join_all(checks).await {
        let now = now_ms();
        let stale = player
            .last_seen
            .is_none_or(|seen| now - seen >= SEEN_REFRESH_MS);
        if reason.is_none() {
            up += 1;
        }
        let changed = reason != player.down_reason || (reason.is_none() && stale);
        if changed {
            if reason.is_some() != player.down_reason.is_some() {
                match &reason {
                    Some(reason) => {
                        tracing::warn!(player = %player.name, %reason, "player down: it sits out until it answers check")
                    }
                    None => tracing::info!(player = %player.name, "player up"),
                }
            }
            if let Err(error) = event.store().set_health(player.id, reason.as_deref(), now) {
                event.report_write_failure("cannot record a player's check", &error);
            }
        }
    }
    up
}

/// Checks every `recheck` interval (and when the players change) until `stop`.
pub async fn run_health_checks(event: Arc<Event>, stop: StopSignal) {
    loop {
        let changed = event.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        check_all(&event).await;
        tokio::select! {
            _ = tokio::time::sleep(event.settings().recheck) => {}
            _ = &mut changed => {}
            _ = stop.stopped() => return,
        }
    }
}

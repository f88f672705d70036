//! The event's players: status, what the database keeps of each, and what the page shows.

use super::settings::Contact;
use serde::{Deserialize, Serialize};

/// Whether an event player is scheduled (not the table status of a `game_state` player,
/// [`shared::PlayerStatus`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Enrollment {
    /// Seated in every round while it answers `check`.
    Active,
    /// Kept on the leaderboard, not seated until resumed.
    Paused,
    /// Off the leaderboard and never seated again; its games stay in the history.
    Removed,
}

impl Enrollment {
    /// The database's and the API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Enrollment::Active => "active",
            Enrollment::Paused => "paused",
            Enrollment::Removed => "removed",
        }
    }

    /// Reads [`Enrollment::as_str`]'s spelling.
    pub fn parse(text: &str) -> Option<Enrollment> {
        match text {
            "active" => Some(Enrollment::Active),
            "paused" => Some(Enrollment::Paused),
            "removed" => Some(Enrollment::Removed),
            _ => None,
        }
    }
}

/// A player as the database keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPlayer {
    /// Its id (stable across renames).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// How to reach it (the URL may hold credentials: never shown).
    pub contact: Contact,
    /// Scheduled or not.
    pub status: Enrollment,
    /// The version it showed in its last game.
    pub version: Option<String>,
    /// When it last answered (a `check` or a game), ms since the epoch.
    pub last_seen: Option<i64>,
    /// Why it is down, while it is.
    pub down_reason: Option<String>,
    /// How many times it came back after being down or removed (a redeploy, most often):
    /// a game is counted under its version string and this number (`event::versions`).
    pub deploys: i64,
    /// What it has done over the event.
    pub record: EventRecord,
}

/// A player's counters over the event, as the database sums them and the page shows them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EventRecord {
    /// Games played (absences not counted).
    pub games: i64,
    /// First places.
    pub wins: i64,
    /// Second places.
    pub seconds: i64,
    /// Points (5 per win, 3 per second place).
    pub points: i64,
    /// Games it was banned in.
    pub bans: i64,
    /// Games it sat out because it did not answer `check`.
    pub absences: i64,
}

/// How the page shows one player: everything but secrets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Its id (the organiser API's key).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its URL without credentials, or `house bot <kind>`.
    pub address: String,
    /// `active`, `paused` or `removed`.
    pub status: Enrollment,
    /// Whether the last `check` was answered (house bots always are).
    pub up: bool,
    /// Why it is down, while it is.
    pub down_reason: Option<String>,
    /// The version shown in its last game.
    pub version: Option<String>,
    /// Last answer, ms since the epoch.
    pub last_seen: Option<i64>,
    /// Its counters (in the JSON, as fields of the player).
    #[serde(flatten)]
    pub record: EventRecord,
}

impl StoredPlayer {
    /// The address to show: the URL's credentials removed.
    pub fn address(&self) -> String {
        match &self.contact {
            Contact::Http { url, token } => match Contact::endpoint(url, token.as_deref()) {
                Ok(endpoint) => endpoint.to_string(),
                Err(_) => "(invalid URL)".to_string(),
            },
            Contact::Bot(kind) => format!("house bot {kind}"),
        }
    }

    /// The page's view of the player.
    pub fn view(&self) -> PlayerView {
        PlayerView {
            id: self.id,
            name: self.name.clone(),
            address: self.address(),
            status: self.status,
            up: self.down_reason.is_none(),
            down_reason: self.down_reason.clone(),
            version: self.version.clone(),
            last_seen: self.last_seen,
            record: self.record,
        }
    }
}

/// Leaderboard order: points, then wins, then second places, then fewer games, then name.
pub fn leaderboard_order(a: &PlayerView, b: &PlayerView) -> std::cmp::Ordering {
    let (a_record, b_record) = (&a.record, &b.record);
    b_record
        .points
        .cmp(&a_record.points)
        .then(b_record.wins.cmp(&a_record.wins))
        .then(b_record.seconds.cmp(&a_record.seconds))
        .then(a_record.games.cmp(&b_record.games))
        .then(a.name.cmp(&b.name))
}

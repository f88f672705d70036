//! Points by version (issues 32 and 38): for each team, each version it has played, its points
//! a game raw and with the luck of the cards taken out, each with its 95% interval; and its
//! newest version against the one before, in the arena's words ("v7 against v6: BETTER, +0.42
//! ± 0.30 points a game with the luck of the cards taken out; 38 and 112 games"), or "can't
//! tell yet" with about how many games would tell.
//!
//! **What a version is.** A version string and a deploy. A finished game in which the team was
//! dealt in (not absent: an absent team played no hand, whatever its version) counts under
//! the version string its player reported in that game (`standings.version`) and the deploy
//! it was seated in (`standings.deploy`): the times the player had come back after being down
//! (a failed `check`, a game it sat out or was banned from because nothing answered at its
//! address) or after being removed. So a team that redeploys without changing its version
//! string (the template's string often stays all day) still gets a new version at each
//! deploy the dealer saw, named "its string, since game N"; a restart that changed nothing
//! then reads "can't tell yet". A deploy the dealer never saw (a restart between two `check`s
//! and two games) is not told apart. A ban counts: it is the version's doing.
//!
//! **Luck taken out, with a fitted coefficient.** A game's adjusted points are its points less
//! `θ` times the seat's luck (`standings.luck`, [`super::luck`]), `θ` fitted to the version's
//! own games and cross-fitted by game number ([`engine::stats::adjust`]: each game's
//! coefficient comes from the version's games of the other nine folds, shrunk towards a prior
//! while they are few). The luck has zero mean whatever the players do, and a coefficient
//! fitted on other games is independent of it, so the adjusted figure has the points'
//! expectation; fitted, it takes out as much of the cards' variance as the luck explains for
//! that style, and never adds the noise that taking the luck out whole adds for a style the
//! value of the cards misjudges (a folder, a calling station). A game that cannot be valued (no
//! record, or a record that stops early) counts raw in the adjusted figure too (a luck of 0),
//! as the luck module says; a game still waiting to be valued is left out of the adjusted
//! figure until it is (said by [`VersionFigures::waiting`]).
//!
//! **The comparison is unpaired.** Unlike the arena, which plays both versions on the same
//! deals, an event's versions play different games, against opponents that change too (other
//! teams deploy): the test is Welch's on per-game values ([`engine::stats`]), the same
//! arithmetic as the arena's unpaired test. A verdict is given on the adjusted points at 95%
//! confidence, so it is wrong about one time in twenty when there is no difference; the raw
//! figure and its own verdict are given beside it, and whenever the two decide differently
//! (one decided and the other not, or opposite verdicts) the summary says so in words.
//!
//! Every figure is summed by SQLite (`COUNT`, `SUM`, `SUM` of squares and of products),
//! grouped by team, version, deploy and fold: nothing per game is held in memory, however long
//! the event.

use super::store::{EventStore, StoreError};
use engine::stats::adjust::{Folds, Moments, FOLDS};
use engine::stats::{
    current_samples_to_tell, unpaired_difference_of, Interval, Summary, MAX_SUGGESTED_GAMES,
};
use rusqlite::Connection;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The fewest games each version needs before a verdict is given: with fewer, an interval of
/// skewed points (0, 3 or 5) is often too narrow (a handful of games that all scored 0 has no
/// spread at all), and a team watching its view after every game would see verdicts come and go.
/// Measured at a table of the real field (docs/benchmarks.md, "Event versions at a table like a
/// real one"): without it, a raw verdict flickered to WORSE within the first 7 games of the new
/// version in half the events of an edit that takes thousands of games to tell.
pub const MIN_GAMES_FOR_VERDICT: u64 = 10;

/// The version of a game whose player never said it (`standings.version`'s "Unknown").
const UNKNOWN_VERSION: &str = "Unknown";

/// What the comparison of a team's newest version with the one before says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionVerdict {
    /// More points a game, with 95% confidence.
    Better,
    /// Fewer points a game, with 95% confidence.
    Worse,
    /// The interval still contains 0.
    CantTellYet,
}

impl VersionVerdict {
    /// The verdict on a difference (newest minus previous).
    pub fn of(difference: &Interval) -> VersionVerdict {
        if difference.low() > 0.0 {
            VersionVerdict::Better
        } else if difference.high() < 0.0 {
            VersionVerdict::Worse
        } else {
            VersionVerdict::CantTellYet
        }
    }

    /// The arena's word for it.
    pub fn word(self) -> &'static str {
        match self {
            VersionVerdict::Better => "BETTER",
            VersionVerdict::Worse => "WORSE",
            VersionVerdict::CantTellYet => "can't tell yet",
        }
    }
}

/// One version of a team, as the event played it: a version string and a deploy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VersionFigures {
    /// The version string its player reported.
    pub version: String,
    /// The player's deploy its games were seated in (`players.deploys` then): the times it
    /// had come back after being down or removed.
    pub deploy: i64,
    /// How the page names it: the version string, and "since game N" when an earlier deploy
    /// of the team showed the same string (a redeploy that kept its version string).
    pub label: String,
    /// Finished games it was dealt into.
    pub games: u64,
    /// Its first and last game's numbers.
    pub first_game: u32,
    /// See [`VersionFigures::first_game`].
    pub last_game: u32,
    /// Games it won.
    pub wins: u64,
    /// Games in which it was banned.
    pub bans: u64,
    /// Points a game, raw, over its [`VersionFigures::games`].
    pub points: Interval,
    /// Points a game with the luck of the cards taken out, over its
    /// [`VersionFigures::adjusted_games`]; `None` before any of its games is valued.
    pub adjusted: Option<Interval>,
    /// Games in the adjusted figure: the valued ones and the ones that count raw.
    pub adjusted_games: u64,
    /// Games in the adjusted figure that count raw (no record, or a record that stops early).
    pub counted_raw: u64,
    /// Games still waiting to be valued (left out of the adjusted figure).
    pub waiting: u64,
    /// The luck of the cards summed over its valued games, in points: what the cards gave it
    /// beyond their expectation.
    pub luck: f64,
    /// The share of the luck taken out of its points (`adjusted = points − coefficient ·
    /// luck`), fitted to its own games, cross-fitted ([`engine::stats::adjust`]): about 1 when
    /// its points follow the stacks as the value of the cards says, less for a style whose
    /// chips are worth less to it (a folder, a calling station); the mean over its games.
    pub luck_coefficient: f64,
    #[serde(skip)]
    raw_summary: Summary,
    #[serde(skip)]
    adjusted_summary: Summary,
}

/// Games of the newest version that would tell the difference seen now (95% confidence, 80%
/// power), the previous version's games as they are, for a measure that has not decided yet;
/// `None` once it has decided, when the difference is 0, would take more than
/// [`MAX_SUGGESTED_GAMES`], or the previous version's games alone are too few.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GamesToTell {
    /// With the luck of the cards taken out (what the verdict uses).
    pub adjusted: Option<u64>,
    /// Raw points.
    pub raw: Option<u64>,
}

/// A team's newest version against the one it played before.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VersionComparison {
    /// The newest version: the one of the team's latest game.
    pub newest: String,
    /// The version it played before (the other version with the latest game).
    pub previous: String,
    /// The verdict, on the adjusted points.
    pub verdict: VersionVerdict,
    /// The verdict the raw points alone would give.
    pub raw_verdict: VersionVerdict,
    /// Adjusted points a game, newest minus previous (Welch).
    pub adjusted: Interval,
    /// Raw points a game, newest minus previous (Welch).
    pub raw: Interval,
    /// The games each adjusted figure is over: newest, previous.
    pub games: [u64; 2],
    /// The games each raw figure is over: newest, previous.
    pub raw_games: [u64; 2],
    /// Games of the newest version, in all, that would tell.
    pub games_to_tell: GamesToTell,
    /// The two measures reach different verdicts (one decided and the other not, or opposite
    /// ones): the summary says which says what.
    pub measures_disagree: bool,
    /// The comparison in the arena's words, as the page and the broadcast show it.
    pub summary: String,
}

/// A team's versions, newest first, and its newest against the one before.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamVersions {
    /// The team's player id.
    pub player_id: i64,
    /// Its name now.
    pub name: String,
    /// Every version it played, the newest (latest game) first.
    pub versions: Vec<VersionFigures>,
    /// `None` until it has played two versions, or while either has no game valued.
    pub comparison: Option<VersionComparison>,
}

/// One team's versions; `None` for an id the event does not know.
///
/// # Errors
/// The database cannot be read.
pub fn team_versions(
    store: &EventStore,
    player_id: i64,
) -> Result<Option<TeamVersions>, StoreError> {
    store.read(|c| {
        let name: Option<String> = c
            .prepare_cached("SELECT name FROM players WHERE id = ?1")?
            .query_row([player_id], |row| row.get(0))
            .map(Some)
            .or_else(|error| match error {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                other => Err(other),
            })?;
        let Some(name) = name else {
            return Ok(None);
        };
        let mut rows = version_rows(c, Some(player_id))?;
        let versions = rows.remove(&player_id).unwrap_or_default();
        Ok(Some(TeamVersions::new(player_id, name, versions)))
    })
}

/// Every team's versions (removed teams left out), in player id order.
///
/// # Errors
/// The database cannot be read.
pub fn all_teams_versions(store: &EventStore) -> Result<Vec<TeamVersions>, StoreError> {
    store.read(|c| {
        let mut rows = version_rows(c, None)?;
        let mut statement =
            c.prepare_cached("SELECT id, name FROM players WHERE status <> 'removed' ORDER BY id")?;
        let teams = statement
            .query_map([], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(teams
            .into_iter()
            .map(|(id, name)| TeamVersions::new(id, name, rows.remove(&id).unwrap_or_default()))
            .collect())
    })
}

/// Every team's versions, summed again only when the database has changed: a game recorded
/// (the highest `standings` row) or valued (the games waiting to be valued). The event page
/// and every projector ask every few seconds; between games they get the same answer for two
/// small indexed reads.
#[derive(Debug, Default)]
pub struct VersionsTracker {
    cached: Mutex<Option<(Stamp, Arc<Vec<TeamVersions>>)>>,
}

/// What changes when a figure of [`all_teams_versions`] can: the highest `standings` row, the
/// games waiting to be valued, and the players' names and statuses.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    last_standing: i64,
    unvalued: i64,
    players: String,
}

impl VersionsTracker {
    /// A tracker that has read nothing yet.
    pub fn new() -> VersionsTracker {
        VersionsTracker::default()
    }

    /// Every team's versions (as [`all_teams_versions`]), from the cache when nothing changed.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn all(&self, store: &EventStore) -> Result<Arc<Vec<TeamVersions>>, StoreError> {
        let stamp = store.read(|c| {
            c.prepare_cached(
                "SELECT (SELECT COALESCE(MAX(rowid), 0) FROM standings),
                        (SELECT COUNT(*) FROM games WHERE luck IS NULL AND state = 'finished'),
                        (SELECT COALESCE(group_concat(id || ':' || status || ':' || name, char(31)), '')
                         FROM players)",
            )?
            .query_row([], |row| {
                Ok(Stamp {
                    last_standing: row.get(0)?,
                    unvalued: row.get(1)?,
                    players: row.get(2)?,
                })
            })
        })?;
        if let Some((cached_stamp, teams)) =
            &*self.cached.lock().unwrap_or_else(PoisonError::into_inner)
        {
            if *cached_stamp == stamp {
                return Ok(Arc::clone(teams));
            }
        }
        let teams = Arc::new(all_teams_versions(store)?);
        *self.cached.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((stamp, Arc::clone(&teams)));
        Ok(teams)
    }
}

/// What one team's own figures and hands depend on: its newest game, its games still waiting to
/// be valued, and its name and status. Equal stamps, equal figures: a team's view is read again
/// only when a game of its own is recorded or valued, not at every game of the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStamp {
    last_game: i64,
    unvalued: i64,
    player: Option<String>,
}

/// Team `player_id`'s [`TeamStamp`] now (a few index lookups).
///
/// # Errors
/// The database cannot be read.
pub fn team_stamp(store: &EventStore, player_id: i64) -> Result<TeamStamp, StoreError> {
    store.read(|c| {
        c.prepare_cached(
            "SELECT (SELECT COALESCE(MAX(game), 0) FROM standings WHERE player_id = ?1),
                    (SELECT COUNT(*) FROM games g JOIN standings s ON s.game = g.number
                     WHERE g.luck IS NULL AND g.state = 'finished' AND s.player_id = ?1),
                    (SELECT status || ':' || name FROM players WHERE id = ?1)",
        )?
        .query_row([player_id], |row| {
            Ok(TeamStamp {
                last_game: row.get(0)?,
                unvalued: row.get(1)?,
                player: row.get(2)?,
            })
        })
    })
}

/// The figures of every version of one team (`Some(id)`) or of every team, by player id.
fn version_rows(
    c: &Connection,
    player: Option<i64>,
) -> rusqlite::Result<HashMap<i64, Vec<VersionFigures>>> {
    // Summed by version, deploy and fold (the game's number modulo `FOLDS`, the
    // cross-fitting's folds). `control` is a game's luck when valued, 0 when it counts raw
    // (no record, or one that stops early), NULL while it waits: the adjusted figure's
    // sums take the games with a control, the raw ones every game.
    let mut statement = c.prepare_cached(
        "SELECT player_id, version, deploy, game % ?2, COUNT(*), MIN(game), MAX(game),
                SUM(place = 1), SUM(banned IS NOT NULL), SUM(points), SUM(points * points),
                COUNT(control), TOTAL(CASE WHEN control IS NOT NULL THEN points END),
                TOTAL(CASE WHEN control IS NOT NULL THEN points * points END),
                TOTAL(control), TOTAL(control * control), TOTAL(control * points),
                COUNT(CASE WHEN state IN ('no_record', 'unreplayable') THEN 1 END),
                SUM(state IS NULL), TOTAL(CASE WHEN state = 'valued' THEN luck END)
         FROM (
            SELECT s.player_id, COALESCE(s.version, 'Unknown') AS version,
                   COALESCE(s.deploy, 0) AS deploy, s.game, s.place, s.banned, s.points,
                   s.luck, g.luck AS state,
                   CASE WHEN g.luck = 'valued' THEN COALESCE(s.luck, 0)
                        WHEN g.luck IS NOT NULL THEN 0.0 END AS control
            FROM standings s JOIN games g ON g.number = s.game
            WHERE s.player_id IS NOT NULL AND s.absent IS NULL AND g.state = 'finished'
              AND (?1 IS NULL OR s.player_id = ?1)
         )
         GROUP BY player_id, version, deploy, game % ?2",
    )?;
    let mut groups: HashMap<(i64, String, i64), VersionSums> = HashMap::new();
    let mut rows = statement.query(rusqlite::params![player, FOLDS as i64])?;
    while let Some(row) = rows.next()? {
        let key = (row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get(2)?);
        let fold: i64 = row.get(3)?;
        let games = row.get::<_, i64>(4)?.max(0) as u64;
        let sums = groups.entry(key).or_insert_with(|| VersionSums {
            first_game: u32::MAX,
            ..VersionSums::default()
        });
        sums.games += games;
        sums.first_game = sums.first_game.min(row.get(5)?);
        sums.last_game = sums.last_game.max(row.get(6)?);
        sums.wins += row.get::<_, i64>(7)?.max(0) as u64;
        sums.bans += row.get::<_, i64>(8)?.max(0) as u64;
        sums.points += row.get::<_, f64>(9)?;
        sums.points_squared += row.get::<_, f64>(10)?;
        sums.folds.add_sums(
            fold.rem_euclid(FOLDS as i64) as usize,
            &Moments {
                count: row.get::<_, i64>(11)?.max(0) as u64,
                outcome: row.get(12)?,
                outcome_squared: row.get(13)?,
                control: row.get(14)?,
                control_squared: row.get(15)?,
                product: row.get(16)?,
            },
        );
        sums.counted_raw += row.get::<_, i64>(17)?.max(0) as u64;
        sums.waiting += row.get::<_, i64>(18)?.max(0) as u64;
        sums.luck += row.get::<_, f64>(19)?;
    }
    // A game whose version the player never reported (it was down at the game's end: the
    // game it went down in) counts for the version its deploy showed, the one with the most
    // games when it showed several.
    let unknown: Vec<(i64, String, i64)> = groups
        .keys()
        .filter(|(_, version, _)| version == UNKNOWN_VERSION)
        .cloned()
        .collect();
    for key in unknown {
        let (player, _, deploy) = key;
        let known = groups
            .iter()
            .filter(|((p, v, d), _)| *p == player && *d == deploy && v != UNKNOWN_VERSION)
            .max_by_key(|((_, v, _), sums)| (sums.games, std::cmp::Reverse(v.clone())))
            .map(|(known, _)| known.clone());
        if let Some(known) = known {
            if let Some(sums) = groups.remove(&key) {
                if let Some(into) = groups.get_mut(&known) {
                    into.absorb(sums);
                }
            }
        }
    }
    let mut by_team: HashMap<i64, Vec<VersionFigures>> = HashMap::new();
    for ((player, version, deploy), sums) in groups {
        by_team
            .entry(player)
            .or_default()
            .push(sums.figures(version, deploy));
    }
    Ok(by_team)
}

/// One version's sums, gathered from its folds' rows.
#[derive(Debug, Default)]
struct VersionSums {
    games: u64,
    first_game: u32,
    last_game: u32,
    wins: u64,
    bans: u64,
    points: f64,
    points_squared: f64,
    folds: Folds,
    counted_raw: u64,
    waiting: u64,
    luck: f64,
}

impl VersionSums {
    /// Adds another group's games to these.
    fn absorb(&mut self, other: VersionSums) {
        self.games += other.games;
        self.first_game = self.first_game.min(other.first_game);
        self.last_game = self.last_game.max(other.last_game);
        self.wins += other.wins;
        self.bans += other.bans;
        self.points += other.points;
        self.points_squared += other.points_squared;
        self.folds.absorb(&other.folds);
        self.counted_raw += other.counted_raw;
        self.waiting += other.waiting;
        self.luck += other.luck;
    }

    fn figures(self, version: String, deploy: i64) -> VersionFigures {
        let raw_summary = Summary::from_sums(self.games, self.points, self.points_squared);
        let adjustment = self.folds.adjust();
        let adjusted_summary = adjustment.adjusted;
        VersionFigures {
            label: version.clone(),
            version,
            deploy,
            games: raw_summary.count,
            first_game: self.first_game,
            last_game: self.last_game,
            wins: self.wins,
            bans: self.bans,
            points: Interval::of_summary(&raw_summary),
            adjusted: (adjusted_summary.count > 0).then(|| Interval::of_summary(&adjusted_summary)),
            adjusted_games: adjusted_summary.count,
            counted_raw: self.counted_raw,
            waiting: self.waiting,
            luck: self.luck,
            luck_coefficient: adjustment.coefficient,
            raw_summary,
            adjusted_summary,
        }
    }
}

impl TeamVersions {
    fn new(player_id: i64, name: String, mut versions: Vec<VersionFigures>) -> TeamVersions {
        versions.sort_by_key(|figures| std::cmp::Reverse(figures.last_game));
        // A deploy that showed a string an earlier deploy showed is named by its first game.
        let firsts: Vec<(String, u32)> = versions
            .iter()
            .map(|v| (v.version.clone(), v.first_game))
            .collect();
        for figures in &mut versions {
            if firsts
                .iter()
                .any(|(version, first)| *version == figures.version && *first < figures.first_game)
            {
                figures.label = format!("{}, since game {}", figures.version, figures.first_game);
            }
        }
        let comparison = match versions.as_slice() {
            [newest, previous, ..] => compare(newest, previous),
            _ => None,
        };
        TeamVersions {
            player_id,
            name,
            versions,
            comparison,
        }
    }
}

/// `newest` against `previous`; `None` while either has no adjusted game.
pub fn compare(newest: &VersionFigures, previous: &VersionFigures) -> Option<VersionComparison> {
    if newest.adjusted_summary.count == 0 || previous.adjusted_summary.count == 0 {
        return None;
    }
    let adjusted = unpaired_difference_of(&newest.adjusted_summary, &previous.adjusted_summary);
    let raw = unpaired_difference_of(&newest.raw_summary, &previous.raw_summary);
    let enough = |newest: &Summary, previous: &Summary| {
        newest.count.min(previous.count) >= MIN_GAMES_FOR_VERDICT
    };
    let verdict = if enough(&newest.adjusted_summary, &previous.adjusted_summary) {
        VersionVerdict::of(&adjusted)
    } else {
        VersionVerdict::CantTellYet
    };
    let raw_verdict = if enough(&newest.raw_summary, &previous.raw_summary) {
        VersionVerdict::of(&raw)
    } else {
        VersionVerdict::CantTellYet
    };
    let cap = MAX_SUGGESTED_GAMES as f64;
    // Only a measure that has not decided yet has games to tell.
    let undecided = |verdict: VersionVerdict, sd: f64, previous: &Summary, mean: f64| {
        (verdict == VersionVerdict::CantTellYet)
            .then(|| current_samples_to_tell(sd, previous, mean, cap))
            .flatten()
            .map(|games| games as u64)
    };
    let games_to_tell = GamesToTell {
        adjusted: undecided(
            verdict,
            newest.adjusted_summary.sd,
            &previous.adjusted_summary,
            adjusted.mean,
        ),
        raw: undecided(
            raw_verdict,
            newest.raw_summary.sd,
            &previous.raw_summary,
            raw.mean,
        ),
    };
    let mut comparison = VersionComparison {
        newest: newest.label.clone(),
        previous: previous.label.clone(),
        verdict,
        raw_verdict,
        adjusted,
        raw,
        games: [
            newest.adjusted_summary.count,
            previous.adjusted_summary.count,
        ],
        raw_games: [newest.raw_summary.count, previous.raw_summary.count],
        games_to_tell,
        measures_disagree: verdict != raw_verdict,
        summary: String::new(),
    };
    comparison.summary = summary(&comparison, newest, previous);
    Some(comparison)
}

mod words;

use words::summary;

#[cfg(test)]
mod tests;

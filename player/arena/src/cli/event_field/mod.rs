//! `--field-from http://HOST:PORT/`: the field of an event being played, from its server's
//! hand histories (`GET /api/event/hands`, the dealer's `docs/event-api.md`).
//!
//! The games are fetched with a progress bar into `target/arena/events/<host>-<port>/`
//! ([`crate::field::event::EventCache`]); the next run asks only for the games after the last
//! one it has (`since`), and starts again from the first game when the address now serves
//! another event. Each team is fitted from its newest version (pooled with earlier ones when
//! that is thin), the fit kept beside the games until new games or versions come. The team's
//! own player is left out: the one `--me` names, else the one team that played the bot's
//! version string.

use crate::field::event::{choose, fit_teams, CacheIndex, EventCache, FittedTeam, TeamChoice};
use crate::field::{FittedPlayer, StyleCounts, MIN_DECISIONS};
use bots::profile::{Profile, PROFILE_FORMAT};
use serde::{Deserialize, Serialize};
use std::path::Path;

mod fetch;

pub(super) use fetch::EventAddress;
use fetch::{fetch, Fetched};

/// The event's field: every team fitted, and which one is the team's own.
pub(super) struct EventField {
    /// What the cache holds.
    pub index: CacheIndex,
    /// What this run fetched.
    pub fetched: Fetched,
    /// Every team, by name.
    pub teams: Vec<FittedTeam>,
    /// Read from the fit kept in the cache rather than fitted now.
    pub fit_cached: bool,
    /// The team left out as the team's own, and why.
    pub left_out: Option<(String, String)>,
    /// A note on leaving out (no team, or several, played the bot's version).
    pub note: Option<String>,
    /// The cache folder.
    pub folder: std::path::PathBuf,
}

/// Fetches the event at `address` into the cache under `events_dir`, fits every team and
/// finds the team's own: `me` by name, else the one team that played `my_version`.
///
/// # Errors
/// The fetch fails, `me` is no team of the event, or the cache cannot be read.
pub(super) fn event_field(
    address: &EventAddress,
    events_dir: &Path,
    me: Option<&str>,
    my_version: &str,
    threads: usize,
) -> Result<EventField, String> {
    let cache = EventCache::new(events_dir.join(address.cache_name()));
    let (index, fetched) = fetch(address, &cache)?;
    if index.versions.is_empty() {
        return Err(format!(
            "{address} has no finished game to fit a field from yet: try again once games have \
             ended"
        ));
    }
    let choices = choose(&index, MIN_DECISIONS);
    let (teams, fit_cached) = match load_fit(&cache, &index, &choices) {
        Some(teams) => (teams, true),
        None => {
            let teams = fit_teams(&cache, &index, &choices, threads)?;
            if let Err(error) = save_fit(&cache, &index, &teams) {
                eprintln!(
                    "note: the fit is not kept ({}: {error})",
                    cache.folder().display()
                );
            }
            (teams, false)
        }
    };
    let names: Vec<&str> = teams.iter().map(|t| t.choice.team.as_str()).collect();
    let (left_out, note) = match me {
        Some(name) if names.contains(&name) => (
            Some((name.to_string(), format!("your team (--me {name:?})"))),
            None,
        ),
        Some(name) => {
            return Err(format!(
                "--me {name:?} is not a team of {address} (its teams: {})",
                names.join(", ")
            ))
        }
        None => {
            let played: Vec<&str> = names
                .iter()
                .copied()
                .filter(|team| {
                    index
                        .versions
                        .iter()
                        .any(|v| v.team == *team && v.version == my_version)
                })
                .collect();
            match played.as_slice() {
                [team] => (
                    Some((
                        team.to_string(),
                        format!("your team: it played your bot's version {my_version:?}"),
                    )),
                    None,
                ),
                [] => (
                    None,
                    Some(format!(
                        "no team of the event played your bot's version {my_version:?}: if one \
                         of them is yours, leave it out with --me NAME"
                    )),
                ),
                several => (
                    None,
                    Some(format!(
                        "{} played your bot's version {my_version:?}: leave yours out with --me \
                         NAME",
                        several.join(", ")
                    )),
                ),
            }
        }
    };
    Ok(EventField {
        index,
        fetched,
        teams,
        fit_cached,
        left_out,
        note,
        folder: cache.folder().to_path_buf(),
    })
}

impl EventField {
    /// The teams a default run seats: those with enough decisions, the team's own left out,
    /// the most decisions first, at most `seats`, in name order.
    pub(super) fn default_seats(&self, seats: usize) -> Vec<&FittedTeam> {
        let own = self.left_out.as_ref().map(|(team, _)| team.as_str());
        let mut chosen: Vec<&FittedTeam> = self
            .teams
            .iter()
            .filter(|t| !t.choice.thin && Some(t.choice.team.as_str()) != own)
            .collect();
        chosen.sort_by(|a, b| {
            b.fitted
                .profile
                .decisions
                .cmp(&a.fitted.profile.decisions)
                .then_with(|| a.choice.team.cmp(&b.choice.team))
        });
        chosen.truncate(seats);
        chosen.sort_by(|a, b| a.choice.team.cmp(&b.choice.team));
        chosen
    }

    /// What was fetched and fitted, for the terminal: each team's version, games and
    /// decisions, and whether it is `seated`.
    pub(super) fn describe(&self, seated: &[String]) -> String {
        let fetched = &self.fetched;
        let index = &self.index;
        let mut text = String::new();
        if let Some(why) = &fetched.started_again {
            text.push_str(&format!("note: {why}: fetched from the first game again\n"));
        }
        text.push_str(&format!(
            "Fetched {} new game{} after game {} ({}, {:.1} s); {} games in {}\n",
            fetched.games,
            if fetched.games == 1 { "" } else { "s" },
            fetched.since,
            indicatif::HumanBytes(fetched.bytes),
            fetched.seconds,
            index.games,
            self.folder.display()
        ));
        if index.without_record > 0 {
            text.push_str(&format!(
                "  ({} games have no record on the server and are not in it)\n",
                index.without_record
            ));
        }
        text.push_str(&format!(
            "Field {} from {} (the event's games to game {}), one profile a team from its newest \
             version:\n",
            if self.fit_cached {
                "fitted earlier"
            } else {
                "fitted"
            },
            index.address,
            index.last_game
        ));
        text.push_str(&format!(
            "  {:<20} {:<24} {:>6} {:>10}  {:>6} {:>6}\n",
            "team", "version", "games", "decisions", "VPIP", "PFR"
        ));
        for team in &self.teams {
            let choice = &team.choice;
            let style = team.fitted.style.style();
            let own = self
                .left_out
                .as_ref()
                .filter(|(name, _)| *name == choice.team);
            let mark = if let Some((_, why)) = own {
                format!("left out: {why}")
            } else if seated.contains(&choice.team) {
                "seated".to_string()
            } else if choice.thin {
                format!("too few decisions (fewer than {MIN_DECISIONS} in all)")
            } else {
                "not seated".to_string()
            };
            let version = match choice.versions.first().map_or("", String::as_str) {
                "" => "(no version)",
                version => version,
            };
            let version = if choice.versions.len() > 1 {
                format!("{version} +{} earlier", choice.versions.len() - 1)
            } else {
                version.to_string()
            };
            text.push_str(&format!(
                "  {:<20} {:<24} {:>6} {:>10}  {:>5.1}% {:>5.1}%  {mark}\n",
                choice.team,
                version,
                choice.games,
                team.fitted.profile.decisions,
                style.vpip,
                style.pfr
            ));
            if choice.pooled {
                let newest = index
                    .versions
                    .iter()
                    .find(|v| v.team == choice.team && Some(&v.version) == choice.versions.first())
                    .map_or(0, |v| v.decisions);
                text.push_str(&format!(
                    "  {:<20} pooled: its newest version has {newest} decisions (fewer than \
                     {MIN_DECISIONS}), so it is fitted with {}\n",
                    "",
                    choice.versions[1..]
                        .iter()
                        .map(|v| format!("{v:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        if let Some(note) = &self.note {
            text.push_str(&format!("note: {note}\n"));
        }
        if index.unreadable > 0 {
            text.push_str(&format!(
                "  {} hands could not be read, the first: {}\n",
                index.unreadable,
                index.problems.first().map_or("", String::as_str)
            ));
        }
        text
    }
}

/// What `fit.json` keeps beside the profiles.
#[derive(Debug, Serialize, Deserialize)]
struct KeptFit {
    /// What the fit was made from: the profile format, the games and every team's versions.
    key: String,
    teams: Vec<KeptTeam>,
}

#[derive(Debug, Serialize, Deserialize)]
struct KeptTeam {
    choice: TeamChoice,
    file: String,
    style: StyleCounts,
}

fn fit_key(index: &CacheIndex, choices: &[TeamChoice]) -> String {
    let choices = serde_json::to_string(choices).unwrap_or_default();
    format!(
        "format {PROFILE_FORMAT}; games to {} ({}); {choices}",
        index.last_game, index.games
    )
}

fn load_fit(
    cache: &EventCache,
    index: &CacheIndex,
    choices: &[TeamChoice],
) -> Option<Vec<FittedTeam>> {
    let text = std::fs::read_to_string(cache.folder().join("fit.json")).ok()?;
    let kept: KeptFit = serde_json::from_str(&text).ok()?;
    if kept.key != fit_key(index, choices) {
        return None;
    }
    kept.teams
        .into_iter()
        .map(|team| {
            let text = std::fs::read_to_string(cache.folder().join(&team.file)).ok()?;
            let profile = Profile::from_json(&text).ok()?;
            Some(FittedTeam {
                choice: team.choice,
                fitted: FittedPlayer {
                    profile,
                    style: team.style,
                },
            })
        })
        .collect()
}

fn save_fit(cache: &EventCache, index: &CacheIndex, teams: &[FittedTeam]) -> std::io::Result<()> {
    let profiles = cache.folder().join("profiles");
    std::fs::create_dir_all(&profiles)?;
    let mut kept = Vec::new();
    for (at, team) in teams.iter().enumerate() {
        let file = format!(
            "profiles/{}",
            super::field::file_name(at, &team.choice.team)
        );
        std::fs::write(cache.folder().join(&file), team.fitted.profile.to_json())?;
        kept.push(KeptTeam {
            choice: team.choice.clone(),
            file,
            style: team.fitted.style,
        });
    }
    let choices: Vec<TeamChoice> = teams.iter().map(|t| t.choice.clone()).collect();
    let kept = KeptFit {
        key: fit_key(index, &choices),
        teams: kept,
    };
    let text = serde_json::to_string_pretty(&kept).map_err(std::io::Error::other)?;
    std::fs::write(cache.folder().join("fit.json"), text + "\n")
}

#[cfg(test)]
mod tests;

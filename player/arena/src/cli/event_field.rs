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

use crate::field::event::{
    choose, fit_teams, CacheIndex, EventCache, FittedTeam, Ingest, TeamChoice,
};
use crate::field::{FittedPlayer, StyleCounts, MIN_DECISIONS};
use bots::profile::{Profile, PROFILE_FORMAT};
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long the client waits to connect.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long it waits for the next bytes of an answer.
const READ_TIMEOUT: Duration = Duration::from_secs(120);
/// How long it keeps asking a server busy with other downloads (503).
const BUSY_PATIENCE: Duration = Duration::from_secs(600);

/// An event's address: `http://HOST:PORT/` (a path under it too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct EventAddress {
    /// The base, ending with `/`.
    base: reqwest::Url,
}

impl EventAddress {
    /// The address `text` gives, `None` when it is not one (a path of recordings).
    ///
    /// # Errors
    /// A URL this client cannot fetch from.
    pub(super) fn parse(text: &str) -> Option<Result<EventAddress, String>> {
        let lower = text.to_ascii_lowercase();
        if !lower.contains("://") {
            return None;
        }
        Some(EventAddress::checked(text))
    }

    fn checked(text: &str) -> Result<EventAddress, String> {
        let mut base = reqwest::Url::parse(text)
            .map_err(|error| format!("--field-from {text:?} is not an address: {error}"))?;
        match base.scheme() {
            "http" => {}
            "https" => {
                return Err(format!(
                    "--field-from {text:?}: cargo arena fetches over plain http only (the \
                     event's server, dealer serve, speaks http); download the hand histories \
                     yourself (curl -o hands.phhs.gz '{}api/event/hands') and give the file",
                    text.trim_end_matches('/').to_string() + "/"
                ))
            }
            other => {
                return Err(format!(
                    "--field-from {text:?}: {other}:// is not an event's address \
                     (http://HOST:PORT/)"
                ))
            }
        }
        if base.host_str().is_none_or(str::is_empty) {
            return Err(format!("--field-from {text:?} names no host"));
        }
        if base.query().is_some() || base.fragment().is_some() {
            base.set_query(None);
            base.set_fragment(None);
        }
        // The event page's address (`.../event`) is the event's address too.
        let path = base.path().trim_end_matches('/');
        let path = path.strip_suffix("/event").unwrap_or(path).to_string();
        base.set_path(&format!("{path}/"));
        Ok(EventAddress { base })
    }

    /// The cache folder's name: host and port.
    fn cache_name(&self) -> String {
        let host: String = self
            .base
            .host_str()
            .unwrap_or("event")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let port = self.base.port_or_known_default().unwrap_or(80);
        let path: String = self
            .base
            .path()
            .trim_matches('/')
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if path.is_empty() {
            format!("{host}-{port}")
        } else {
            format!("{host}-{port}-{path}")
        }
    }

    fn hands_url(&self, since: u32) -> reqwest::Url {
        let mut url = self
            .base
            .join("api/event/hands")
            .expect("a relative path joins any http base");
        url.query_pairs_mut()
            .append_pair("since", &since.to_string());
        url
    }
}

impl std::fmt::Display for EventAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.base.as_str())
    }
}

/// What one fetch brought.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Fetched {
    /// The `since` asked for.
    pub since: u32,
    /// Games it brought.
    pub games: u64,
    /// Compressed bytes.
    pub bytes: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// Why the cache was emptied first, if it was (another event at the address...).
    pub started_again: Option<String>,
}

/// The headers that say what an answer holds.
struct Announced {
    event: String,
    games: u64,
    last_game: u32,
    without_record: u64,
}

fn header<T: std::str::FromStr>(
    response: &reqwest::Response,
    name: &str,
    address: &EventAddress,
) -> Result<T, String> {
    response
        .headers()
        .get(name)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse().ok())
        .ok_or_else(|| {
            format!(
                "{address} answered without a readable {name} header: not the hand histories \
                 of a lean-poker dealer's event"
            )
        })
}

/// Brings the event's games after the cache's last one into `cache`, with a progress bar.
///
/// # Errors
/// The address cannot be reached, refuses, or answers something else than hand histories;
/// the cache cannot be written. The cache is then as it was.
pub(super) fn fetch(
    address: &EventAddress,
    cache: &EventCache,
) -> Result<(CacheIndex, Fetched), String> {
    // On a thread of its own, so that a caller already inside a runtime (a test) can call it.
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|error| format!("cannot start the HTTP client: {error}"))?;
                let client = reqwest::Client::builder()
                    .connect_timeout(CONNECT_TIMEOUT)
                    .read_timeout(READ_TIMEOUT)
                    .user_agent(concat!("cargo-arena/", env!("CARGO_PKG_VERSION")))
                    .build()
                    .map_err(|error| format!("cannot start the HTTP client: {error}"))?;
                runtime.block_on(fetch_with(&client, address, cache))
            })
            .join()
            .unwrap_or_else(|_| Err("the download's thread panicked".to_string()))
    })
}

async fn fetch_with(
    client: &reqwest::Client,
    address: &EventAddress,
    cache: &EventCache,
) -> Result<(CacheIndex, Fetched), String> {
    let mut index = cache.load();
    let mut started_again = None;
    if index.is_none() && cache.folder().join("index.json").exists() {
        started_again = Some("the cache could not be read".to_string());
    }
    loop {
        let since = index.as_ref().map_or(0, |index| index.last_game);
        let started = Instant::now();
        let response = ask(client, address, since).await?;
        let announced = Announced {
            event: header(&response, "Lean-Poker-Event", address)?,
            games: header(&response, "Lean-Poker-Games", address)?,
            last_game: header(&response, "Lean-Poker-Last-Game", address)?,
            without_record: header(&response, "Lean-Poker-Games-Without-Record", address)?,
        };
        if let Some(cached) = &index {
            if cached.event != announced.event {
                drop(response);
                started_again = Some(format!(
                    "{address} now serves another event ({}, was {})",
                    announced.event, cached.event
                ));
                cache.clear().map_err(|error| {
                    format!("cannot empty {}: {error}", cache.folder().display())
                })?;
                index = None;
                continue;
            }
        } else if since == 0 && started_again.is_some() {
            cache
                .clear()
                .map_err(|error| format!("cannot empty {}: {error}", cache.folder().display()))?;
        }
        let base = index
            .take()
            .unwrap_or_else(|| CacheIndex::empty(&address.to_string(), &announced.event));
        let (index, bytes, games) = receive(response, address, cache, base, &announced).await?;
        return Ok((
            index,
            Fetched {
                since,
                games,
                bytes,
                seconds: started.elapsed().as_secs_f64(),
                started_again,
            },
        ));
    }
}

/// Asks for the games after `since`, waiting while the server is busy with other downloads.
async fn ask(
    client: &reqwest::Client,
    address: &EventAddress,
    since: u32,
) -> Result<reqwest::Response, String> {
    let url = address.hands_url(since);
    let started = Instant::now();
    let mut noted = false;
    loop {
        let response = client
            .get(url.clone())
            .send()
            .await
            .map_err(|error| unreachable(address, &error))?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let wait = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<u64>().ok());
        let said = server_says(response).await;
        match status.as_u16() {
            503 if started.elapsed() < BUSY_PATIENCE => {
                if !noted {
                    eprintln!("note: {address} is busy ({said}); asking again until it is not");
                    noted = true;
                }
                tokio::time::sleep(Duration::from_secs(wait.unwrap_or(5).clamp(1, 60))).await;
            }
            403 => {
                return Err(format!(
                    "{address} does not serve its hand histories: {said} (ask the organiser, or \
                     fit from recordings you have)"
                ))
            }
            404 => {
                return Err(format!(
                    "{address} has no event hand histories ({url}: 404 {said}): give the \
                     address of an event's server (dealer serve --data), of a dealer new \
                     enough to serve them"
                ))
            }
            code => return Err(format!("{url} answered {code}: {said}")),
        }
    }
}

/// What an error answer's body says (`{"error": ...}`, or its first line).
async fn server_says(response: reqwest::Response) -> String {
    let body = response.bytes().await.unwrap_or_default();
    let text = String::from_utf8_lossy(&body[..body.len().min(2_000)]).into_owned();
    serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|value| value["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| {
            text.lines()
                .next()
                .unwrap_or("no message")
                .trim()
                .to_string()
        })
}

fn unreachable(address: &EventAddress, error: &reqwest::Error) -> String {
    let mut reason = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        reason = cause.to_string();
        source = cause.source();
    }
    if error.is_connect() {
        format!("cannot reach {address}: {reason} (is the event's server running there?)")
    } else if error.is_timeout() {
        format!("{address} did not answer in time: {reason}")
    } else {
        format!("{address}: {reason}")
    }
}

/// Reads the answer into the cache, game by game, with a progress bar.
async fn receive(
    mut response: reqwest::Response,
    address: &EventAddress,
    cache: &EventCache,
    index: CacheIndex,
    announced: &Announced,
) -> Result<(CacheIndex, u64, u64), String> {
    let bar = indicatif::ProgressBar::new(announced.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} games, {msg} ({elapsed})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(format!("fetching {address}"));
    let mut ingest = Ingest::new(cache, index);
    let mut gunzip = flate2::write::GzDecoder::new(Vec::new());
    let mut undecoded: Vec<u8> = Vec::new();
    let mut bytes: u64 = 0;
    let cut = |error: String| format!("the download from {address} failed: {error}");
    loop {
        let chunk = match response.chunk().await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break,
            Err(error) => {
                bar.abandon();
                return Err(cut(unreachable(address, &error)));
            }
        };
        if bytes < 2 {
            // gzip's magic number, so that a page or a message is named for what it is.
            let magic = [0x1f, 0x8b];
            let start = usize::try_from(bytes).unwrap_or(2);
            let seen = chunk.len().min(2 - start);
            if chunk[..seen] != magic[start..start + seen] {
                bar.abandon();
                let text = String::from_utf8_lossy(&chunk[..chunk.len().min(60)]).into_owned();
                return Err(cut(format!(
                    "not gzip'd hand histories (it begins {:?})",
                    text.lines().next().unwrap_or("")
                )));
            }
        }
        bytes += chunk.len() as u64;
        gunzip
            .write_all(&chunk)
            .map_err(|error| cut(format!("not gzip'd hand histories ({error})")))?;
        undecoded.append(gunzip.get_mut());
        feed_text(&mut ingest, &mut undecoded).map_err(&cut)?;
        bar.set_position(ingest.games());
        bar.set_message(indicatif::HumanBytes(bytes).to_string());
    }
    gunzip
        .try_finish()
        .map_err(|error| cut(format!("it was cut short ({error})")))?;
    undecoded.append(gunzip.get_mut());
    feed_text(&mut ingest, &mut undecoded).map_err(&cut)?;
    if !undecoded.is_empty() {
        return Err(cut("the text is not UTF-8".to_string()));
    }
    ingest.end().map_err(&cut)?;
    let games = ingest.games();
    if games != announced.games {
        bar.abandon();
        return Err(cut(format!(
            "it held {games} of the {} games it announced",
            announced.games
        )));
    }
    let index = ingest
        .commit(announced.last_game, announced.without_record)
        .map_err(&cut)?;
    bar.finish_and_clear();
    Ok((index, bytes, games))
}

/// Feeds the decoded bytes that are whole UTF-8 text, keeping a character cut between two
/// pieces for the next.
fn feed_text(ingest: &mut Ingest<'_>, undecoded: &mut Vec<u8>) -> Result<(), String> {
    let valid = match std::str::from_utf8(undecoded) {
        Ok(text) => text.len(),
        Err(error) if error.error_len().is_none() => error.valid_up_to(),
        Err(_) => return Err("the text is not UTF-8".to_string()),
    };
    let text = std::str::from_utf8(&undecoded[..valid]).expect("checked just above");
    ingest.feed(text)?;
    undecoded.drain(..valid);
    Ok(())
}

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
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_and_others_refused_clearly() {
        let address = |text: &str| EventAddress::parse(text).unwrap();
        assert!(EventAddress::parse("games/run-1").is_none());
        assert!(EventAddress::parse("event-data").is_none());
        let event = address("http://127.0.0.5:8080").unwrap();
        assert_eq!(event.to_string(), "http://127.0.0.5:8080/");
        assert_eq!(event.cache_name(), "127.0.0.5-8080");
        assert_eq!(
            event.hands_url(12).as_str(),
            "http://127.0.0.5:8080/api/event/hands?since=12"
        );
        // The event page's address, and one behind a path, are the event's.
        assert_eq!(
            address("http://host:9/event").unwrap().to_string(),
            "http://host:9/"
        );
        let proxied = address("http://host/poker/?x=1#y").unwrap();
        assert_eq!(proxied.to_string(), "http://host/poker/");
        assert_eq!(proxied.cache_name(), "host-80-poker");
        assert_eq!(
            proxied.hands_url(0).as_str(),
            "http://host/poker/api/event/hands?since=0"
        );
        let error = |text: &str| address(text).unwrap_err();
        assert!(error("https://host/").contains("plain http only"));
        assert!(error("ftp://host/").contains("not an event's address"));
        assert!(error("http://").contains("not an address"));
        assert!(error("http://[::1").contains("not an address"));
    }

    /// A server answering each request with the next scripted answer (then closing the
    /// connection), noting each request's line.
    struct Scripted {
        address: EventAddress,
        requests: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    }

    fn serve(answers: Vec<Vec<u8>>) -> Scripted {
        use std::io::{BufRead, BufReader};
        let listener = std::net::TcpListener::bind("127.0.0.41:0").unwrap();
        let address =
            EventAddress::checked(&format!("http://{}/", listener.local_addr().unwrap())).unwrap();
        let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let noted = std::sync::Arc::clone(&requests);
        std::thread::spawn(move || {
            for answer in answers {
                let Ok((stream, _)) = listener.accept() else {
                    return;
                };
                let mut reader = BufReader::new(stream);
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                noted.lock().unwrap().push(line.trim().to_string());
                loop {
                    let mut header = String::new();
                    reader.read_line(&mut header).unwrap();
                    if header.trim().is_empty() {
                        break;
                    }
                }
                let mut stream = reader.into_inner();
                let _ = stream.write_all(&answer);
            }
        });
        Scripted { address, requests }
    }

    fn answer(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
        let mut head = format!(
            "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        bytes
    }

    fn gzip(text: &str) -> Vec<u8> {
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gzip.write_all(text.as_bytes()).unwrap();
        gzip.finish().unwrap()
    }

    fn hands_answer(event: &str, games: &[u32], last: u32) -> Vec<u8> {
        // One hand a game, as the dealer writes them (ann and bob, heads-up).
        let mut text = String::from("# hand histories\n");
        for game in games {
            text.push_str(&format!(
                "\n[game-{game}-hand-0]\nvariant = \"NT\"\nantes = [0, 0]\n\
                 blinds_or_straddles = [4, 2]\nmin_bet = 2\nstarting_stacks = [1000, 1000]\n\
                 actions = [\n  \"d dh p1 4cKh\",\n  \"d dh p2 5dAh\",\n  \"p1 cc\",\n  \
                 \"p2 cbr 20\",\n  \"p1 f\",\n]\nhand = 0\nplayers = [\"ann\", \"bob\"]\n\
                 seats = [2, 1]\nseat_count = 2\n_lean_button = 0\n_lean_event_game = {game}\n\
                 _lean_versions = [\"a 1\", \"b 1\"]\n"
            ));
        }
        let games_header = games.len().to_string();
        let last_header = last.to_string();
        answer(
            "200 OK",
            &[
                ("Lean-Poker-Event", event),
                ("Lean-Poker-Games", &games_header),
                ("Lean-Poker-Last-Game", &last_header),
                ("Lean-Poker-Games-Without-Record", "0"),
            ],
            &gzip(&text),
        )
    }

    fn temporary(name: &str) -> EventCache {
        let folder =
            std::env::temp_dir().join(format!("arena-fetch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        EventCache::new(folder)
    }

    #[test]
    fn the_second_fetch_asks_for_newer_games_and_another_event_starts_again() {
        let server = serve(vec![
            hands_answer("e1", &[1, 2, 3], 3),
            hands_answer("e1", &[5], 5),
            // The address now serves another event: asked again from the first game.
            hands_answer("e2", &[], 9),
            hands_answer("e2", &[1, 2], 2),
        ]);
        let cache = temporary("since");
        let (index, fetched) = fetch(&server.address, &cache).unwrap();
        assert_eq!((index.games, index.last_game, fetched.games), (3, 3, 3));
        let (index, fetched) = fetch(&server.address, &cache).unwrap();
        assert_eq!((index.games, index.last_game, fetched.since), (4, 5, 3));
        assert_eq!(index.segments.len(), 2);
        let (index, fetched) = fetch(&server.address, &cache).unwrap();
        assert_eq!(
            (index.games, index.last_game, index.event.as_str()),
            (2, 2, "e2")
        );
        assert!(fetched.started_again.unwrap().contains("another event"));
        assert_eq!(
            *server.requests.lock().unwrap(),
            [
                "GET /api/event/hands?since=0 HTTP/1.1",
                "GET /api/event/hands?since=3 HTTP/1.1",
                "GET /api/event/hands?since=5 HTTP/1.1",
                "GET /api/event/hands?since=0 HTTP/1.1",
            ]
        );
        // ann's decisions: a call and a fold in each game.
        let ann = index.versions.iter().find(|v| v.team == "ann").unwrap();
        assert_eq!(
            (ann.version.as_str(), ann.games, ann.decisions),
            ("a 1", 2, 4)
        );
        cache.clear().unwrap();
    }

    #[test]
    fn a_busy_server_is_asked_again_and_bad_answers_are_clear_errors() {
        let busy = serve(vec![
            answer(
                "503 Service Unavailable",
                &[("Retry-After", "1")],
                b"{\"error\": \"2 downloads\"}",
            ),
            hands_answer("e1", &[4], 4),
        ]);
        let cache = temporary("busy");
        let (index, _) = fetch(&busy.address, &cache).unwrap();
        assert_eq!(index.last_game, 4);
        assert_eq!(busy.requests.lock().unwrap().len(), 2);
        cache.clear().unwrap();

        let headers = [
            ("Lean-Poker-Event", "e1"),
            ("Lean-Poker-Games", "2"),
            ("Lean-Poker-Last-Game", "2"),
            ("Lean-Poker-Games-Without-Record", "0"),
        ];
        let whole = gzip("# x\n[game-1-hand-0]\nplayers = [\"a\"]\n");
        for (answer, says) in [
            (
                answer(
                    "403 Forbidden",
                    &[],
                    b"{\"error\": \"the organiser turned this event's hand histories off\"}",
                ),
                "does not serve its hand histories: the organiser turned",
            ),
            (
                answer("404 Not Found", &[], b"nothing here"),
                "has no event hand histories",
            ),
            (
                answer("400 Bad Request", &[], b"{\"error\": \"since\"}"),
                "answered 400: since",
            ),
            (
                answer("200 OK", &[], b"<html>"),
                "without a readable Lean-Poker-Event header",
            ),
            (
                answer("200 OK", &headers, b"<html>\n"),
                "not gzip'd hand histories",
            ),
            (
                answer("200 OK", &headers, &whole[..whole.len() - 9]),
                "cut short",
            ),
            (
                answer("200 OK", &headers, &gzip("<html>\n")),
                "not the event's hand histories",
            ),
            (answer("200 OK", &headers, &whole), "held 1 of the 2 games"),
        ] {
            let server = serve(vec![answer]);
            let cache = temporary("bad");
            let error = fetch(&server.address, &cache).unwrap_err();
            assert!(error.contains(says), "{says}: {error}");
            // Nothing of it is kept.
            assert!(cache.load().is_none());
            let _ = cache.clear();
        }
    }
}

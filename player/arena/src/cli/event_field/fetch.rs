//! The download: `GET /api/event/hands` since the last game cached, with a progress bar,
//! read game by game into the cache as it arrives.

use crate::field::event::{CacheIndex, EventCache, Ingest};
use std::io::Write as _;
use std::time::{Duration, Instant};

/// How long the client waits to connect.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long it waits for the next bytes of an answer.
const READ_TIMEOUT: Duration = Duration::from_secs(120);
/// How long it keeps asking a server busy with other downloads (503).
const BUSY_PATIENCE: Duration = Duration::from_secs(600);

/// An event's address: `http://HOST:PORT/` (a path under it too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EventAddress {
    /// The base, ending with `/`.
    base: reqwest::Url,
}

impl EventAddress {
    /// The address `text` gives, `None` when it is not one (a path of recordings).
    ///
    /// # Errors
    /// A URL this client cannot fetch from.
    pub(crate) fn parse(text: &str) -> Option<Result<EventAddress, String>> {
        let lower = text.to_ascii_lowercase();
        if !lower.contains("://") {
            return None;
        }
        Some(EventAddress::checked(text))
    }

    pub(super) fn checked(text: &str) -> Result<EventAddress, String> {
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
    pub(super) fn cache_name(&self) -> String {
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

    pub(super) fn hands_url(&self, since: u32) -> reqwest::Url {
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
pub(crate) struct Fetched {
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
pub(crate) fn fetch(
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

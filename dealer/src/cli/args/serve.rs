//! `dealer serve`'s arguments: an event (`--data`) or the read-only viewer (`--out`).

use super::*;

/// `dealer serve --help`'s examples and config file keys.
pub(super) const SERVE_HELP: &str = "\
Examples:
  dealer serve --config friday.toml --data friday --admin-token s3cret
  dealer serve --out games
  dealer serve --out games/friday --bind 0.0.0.0:8080

Event config file (TOML; every key optional): the keys of `dealer run --config` for the rules
and transport (blinds, stack, timeout_ms, hand_limit, forgiving, wait_ms, absent, outputs,
odd_chips, deal_out_board, [[player]], [[bot]]), and:
  data = \"friday\"           # --data
  bind = \"127.0.0.1:8080\"   # --bind
  admin_token = \"s3cret\"    # --admin-token
  seed = 7                  # seeds every game (kept in the database)
  table_size = 10           # most players at one table
  fill_bot = \"raiser\"       # a house bot kind filling short tables...
  fill_to = 4               # ...up to this many players
  recheck_ms = 5000         # background check of every player
  pause_ms = 500            # pause between rounds
  compress_after = 20       # --compress-after: gzip older games' logs (\"off\": never)
  keep_games = \"off\"        # --keep-games: delete older games' folders (default off)
  disk_budget = \"2 GB\"      # --disk-budget: most disk the event's folder takes (\"off\")
  min_free_space = \"256 MB\" # --min-free-space: no new game below it (\"off\")
  hand_histories = \"on\"     # --hand-histories: finished games as PHH (\"off\": 403)
";

/// `dealer serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Read-only: the folder of earlier results to open (a `dealer run` output folder, a
    /// folder of them, or one with a Lean Poker `log.json`). Nothing outside it is ever
    /// served.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["config", "data", "admin_token"])]
    pub out: Option<PathBuf>,
    /// The event's config file (TOML; see below).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The event's folder: its database and game folders (created if missing; default
    /// `event`). Restarting with the same folder continues the event.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The organiser token for adding, renaming, pausing and removing players.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "DEALER_ADMIN_TOKEN",
        hide_env_values = true
    )]
    pub admin_token: Option<String>,
    /// Where to listen (default 127.0.0.1:8080, this machine only); 0.0.0.0:PORT serves the
    /// network.
    #[arg(long, value_name = "ADDR:PORT")]
    pub bind: Option<std::net::SocketAddr>,
    /// Gzip the logs (log.json, requests.jsonl, hands, players' logs) of ended games older
    /// than the newest N, in place; the page reads them as before. `off`: never [default: 20].
    #[arg(long, value_name = "N|off", value_parser = GamesLimit::parse, conflicts_with = "out")]
    pub compress_after: Option<GamesLimit>,
    /// Delete the folders of ended games older than the newest N; their points, rows and
    /// records stay in the database, and the page still opens them (regenerated from their
    /// records) [default: off].
    #[arg(long, value_name = "N|off", value_parser = GamesLimit::parse, conflicts_with = "out")]
    pub keep_games: Option<GamesLimit>,
    /// The most disk space the event's folder (database and games, those in play included)
    /// takes: past it, the newest ended games are compressed early, then the files of the least
    /// recently used games deleted (every game's record stays in the database: the page and
    /// `dealer replay` regenerate them). At least 50 MB and what a round's games in play, the
    /// reserve and the database need (refused at start, with the sum). `off`: no limit
    /// [default: 2 GB].
    #[arg(long, value_name = "SIZE|off", value_parser = DiskBudget::parse, conflicts_with = "out")]
    pub disk_budget: Option<DiskBudget>,
    /// No new game starts while the disk holding the event's folder has less free space
    /// than this (the page, the API and the log say why play paused, and when it resumed;
    /// old games' full logs are deleted first to make room). `off`: never paused for it
    /// [default: 256 MB].
    #[arg(long, value_name = "SIZE|off", value_parser = FreeSpace::parse, conflicts_with = "out")]
    pub min_free_space: Option<FreeSpace>,
    /// Whether the finished games are served as PHH hand histories to anyone who can see the
    /// event (`GET /api/event/hands`, no token, gzip'd, `?since=N`): what `cargo arena
    /// --field-from http://HOST:PORT/` fits a field from. `off`: the route answers 403
    /// [default: on].
    #[arg(long, value_name = "on|off", value_parser = HandHistories::parse)]
    pub hand_histories: Option<HandHistories>,
}

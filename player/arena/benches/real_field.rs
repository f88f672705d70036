//! The fitted field held against recordings of real team bots
//! (`player/arena/recordings/real-field/`: nine runs of six team bots and one house bot each).
//!
//! ```text
//! cargo bench -p lean-poker-arena --bench real_field               # every table
//! cargo bench -p lean-poker-arena --bench real_field -- --write    # also rewrite the shipped profiles
//! cargo bench -p lean-poker-arena --bench real_field -- --games 301 --only fit,loo
//! cargo bench -p lean-poker-arena --bench real_field -- --only style --seed 2   # other deals
//! ```
//!
//! - **fit**: all nine runs fitted (the time, on 2 threads, and the process's CPU time); the
//!   shipped profiles (`player/bots/profiles/real-*.json`, `team-a` … `team-f` renamed
//!   `real-a` … `real-f`) compared byte for byte with this fit, or rewritten with `--write`.
//! - **loo**, leave one run out: the six team bots fitted on the other eight runs, the left-out
//!   run's house bot played against them in the arena (7 seats, duplicate deals, 1,001 games
//!   unless `--games`), its points a game beside what it scored in the recording (with that
//!   figure's 95% interval over its 21 deal sets); and beside what it scores against today's
//!   house field (`BotKind::FIELD`) in the same arena. Spearman's ρ and the mean absolute
//!   error of each, and how much of the error the recordings' own noise explains.
//! - **style**: each fitted profile (fitted without the run) played in the left-out run's
//!   seat against the other five and that run's house bot; its VPIP, PFR, preflop all-in and
//!   postflop aggression beside its player's in that run.
//! - **speed**: 600 games against the fitted field and against today's field, alternated, on 2
//!   threads (a calling station in your seat).
//!
//! The archives are unpacked once into `target/arena/real-field/` (by `tar`, which needs `xz`).

use arena::field::real_field::{self, TEAMS};
use arena::field::{fit, Fit, Style, StyleCounts, StyleMeter};
use arena::{Arena, Interval};
use bots::profile::{CompiledProfile, ProfileBot, Situation};
use bots::{BotKind, Opponent};
use player::{Chips, GameState, Player};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One recorded run.
struct Run {
    /// `x-tight` …
    name: String,
    kind: BotKind,
    folder: PathBuf,
    /// The house bot's points a game, over its deal sets.
    recorded: Interval,
}

fn workspace() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// Unpacks the nine archives (once) and reads each run's house bot's points.
fn runs() -> Vec<Run> {
    let target = workspace().join("target/arena/real-field");
    real_field::unpack(&target)
        .expect("cannot unpack the recordings")
        .into_iter()
        .map(|folder| {
            let name = folder
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let kind: BotKind = name
                .strip_prefix("x-")
                .and_then(|k| k.parse().ok())
                .unwrap_or_else(|| panic!("{name}: not x-<house bot kind>"));
            let recorded = recorded_points(&folder, &name);
            Run {
                name,
                kind,
                folder,
                recorded,
            }
        })
        .collect()
}

/// `player`'s points a game in a run's `results.json`, over its deal sets.
fn recorded_points(folder: &Path, player: &str) -> Interval {
    let text = std::fs::read_to_string(folder.join("results.json")).expect("no results.json");
    let results: serde_json::Value = serde_json::from_str(&text).expect("results.json");
    let per_set: Vec<f64> = results["deal_sets"]
        .as_array()
        .expect("deal_sets")
        .iter()
        .map(|set| {
            let games = set["games"].as_array().map_or(1, Vec::len) as f64;
            let points = set["points"]
                .as_array()
                .and_then(|all| all.iter().find(|p| p["name"] == player))
                .and_then(|p| p["points"].as_f64())
                .unwrap_or(0.0);
            points / games
        })
        .collect();
    Interval::of(&per_set)
}

/// Seconds of CPU this process used so far (user + system, from /proc).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of stat(5), counted from the state (field 3) here.
    (ticks(11) + ticks(12)) / 100.0
}

fn fit_runs(runs: &[&Run]) -> Fit {
    let paths: Vec<PathBuf> = runs.iter().map(|r| r.folder.clone()).collect();
    fit(&paths, 2).expect("fit")
}

/// The six team bots' profiles of a fit, in [`TEAMS`] order.
fn team_profiles(fit: &Fit) -> Vec<Arc<CompiledProfile>> {
    TEAMS
        .iter()
        .map(|team| {
            let player = fit
                .players
                .iter()
                .find(|p| p.profile.name == *team)
                .unwrap_or_else(|| panic!("{team} not in the fit"));
            Arc::new(player.profile.compile())
        })
        .collect()
}

fn spearman(a: &[f64], b: &[f64]) -> f64 {
    fn ranks(values: &[f64]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
        let mut ranks = vec![0.0; values.len()];
        let mut start = 0;
        while start < order.len() {
            let mut end = start;
            while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
                end += 1;
            }
            for &index in &order[start..=end] {
                ranks[index] = (start + end) as f64 / 2.0 + 1.0;
            }
            start = end + 1;
        }
        ranks
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let cov: f64 = ra
        .iter()
        .zip(&rb)
        .map(|(x, y)| (x - mean) * (y - mean))
        .sum();
    let var_a: f64 = ra.iter().map(|x| (x - mean).powi(2)).sum();
    let var_b: f64 = rb.iter().map(|y| (y - mean).powi(2)).sum();
    cov / (var_a * var_b).sqrt()
}

/// Your seat, counting its decisions' style as they are made.
struct Styled {
    inner: Arc<dyn Player>,
    meters: Mutex<HashMap<String, StyleMeter>>,
}

impl Styled {
    fn new(inner: Arc<dyn Player>) -> Styled {
        Styled {
            inner,
            meters: Mutex::new(HashMap::new()),
        }
    }

    fn style(&self) -> StyleCounts {
        let meters = std::mem::take(&mut *self.meters.lock().unwrap());
        let mut counts = StyleCounts::default();
        for (_, meter) in meters {
            counts.merge(&meter.finish());
        }
        counts
    }
}

impl Player for Styled {
    fn bet_request(&self, state: &GameState) -> Chips {
        let answer = self.inner.bet_request(state);
        let game = state.game_id.clone().unwrap_or_default();
        self.meters
            .lock()
            .unwrap()
            .entry(game)
            .or_default()
            .observe(state.round.unwrap_or(0), state, answer);
        answer
    }

    fn version(&self) -> String {
        self.inner.version()
    }
}

fn style_row(label: &str, style: Style) -> String {
    format!(
        "| {label} | {:.1} | {:.1} | {:.1} | {} |",
        style.vpip,
        style.pfr,
        style.all_in,
        style
            .aggression
            .map_or("–".to_string(), |a| format!("{a:.2}"))
    )
}

/// Whether a figure is within 3 points (percentages) or 20% of the recorded one.
fn close(fitted: f64, recorded: f64) -> bool {
    (fitted - recorded).abs() <= 3.0 || (fitted - recorded).abs() <= 0.2 * recorded.abs()
}

/// Per-decision rates of a player's answers over the situations of `cells` (a fit's cells):
/// preflop, the share of decisions that put chips in voluntarily, that raised, that went
/// all-in raising; after the flop, bets and raises per call. `answers(cell)` gives the answer
/// counts (recorded) or expected counts (a profile's probabilities times the cell's decisions).
fn decision_rates(cells: &[[u32; 7]], answers: impl Fn(&[u32; 7]) -> [f64; 6]) -> [f64; 4] {
    let (mut preflop, mut voluntary, mut raised, mut all_in) = (0.0, 0.0, 0.0, 0.0);
    let (mut aggressive, mut calls) = (0.0, 0.0);
    for cell in cells {
        let situation = Situation::from_index(cell[0] as usize).expect("a cell's situation");
        let counts = answers(cell);
        let total: f64 = counts.iter().sum();
        let raises: f64 = counts[2..].iter().sum();
        let owed_call = if situation.price > 0 { counts[1] } else { 0.0 };
        if situation.street == 0 {
            preflop += total;
            voluntary += raises + owed_call;
            raised += raises;
            all_in += counts[5];
        } else {
            aggressive += raises;
            calls += owed_call;
        }
    }
    let share = |n: f64| 100.0 * n / preflop.max(1.0);
    [
        share(voluntary),
        share(raised),
        share(all_in),
        aggressive / calls.max(1.0),
    ]
}

/// All-in preflop with any pair (and, with `aces`, a call of anything with an ace); check or
/// fold everything else.
fn shove_pair(state: &GameState, aces: bool) -> Chips {
    let cards = state.my_cards();
    if state.street() != Some(player::Street::Preflop) || cards.len() != 2 {
        return Chips::ZERO;
    }
    if cards[0].rank == cards[1].rank {
        return state.all_in_amount();
    }
    if aces && cards.iter().any(|c| c.rank == player::Rank::Ace) {
        return state.call_amount();
    }
    Chips::ZERO
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let games: u32 = value("--games").map_or(1001, |g| g.parse().expect("--games N"));
    // The arena's run seed for the loo and style tables: another seed, other deals.
    let seed: u64 = value("--seed").map_or(arena::DEFAULT_SEED, |s| s.parse().expect("--seed N"));
    let only: Vec<String> = value("--only").map_or_else(
        || {
            ["fit", "loo", "style", "edits", "speed"]
                .map(String::from)
                .to_vec()
        },
        |list| list.split(',').map(String::from).collect(),
    );
    let runs = runs();
    println!(
        "{} recorded runs: {}",
        runs.len(),
        runs.iter()
            .map(|r| r.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );

    if only.iter().any(|o| o == "fit") {
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let all = fit_runs(&runs.iter().collect::<Vec<_>>());
        let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        let decisions: u64 = all.players.iter().map(|p| p.profile.decisions).sum();
        println!(
            "\n## Fit\n\nall nine runs: {} files, {decisions} decisions of {} players, {:.1} s ({:.1} CPU-s) on 2 threads; {} hands unreadable",
            all.files.values().sum::<u64>(),
            all.players.len(),
            wall,
            cpu,
            all.unreadable
        );
        let folder = workspace().join("player/bots/profiles");
        let profiles = real_field::shipped_profiles(&all).expect("every team in the fit");
        for (profile, team) in profiles.iter().zip(TEAMS) {
            let text = profile.to_json();
            let path = folder.join(format!("{}.json", profile.name));
            if flag("--write") {
                std::fs::create_dir_all(&folder).expect("profiles folder");
                std::fs::write(&path, &text).expect("write profile");
                println!(
                    "wrote {} ({} bytes, {} decisions)",
                    path.display(),
                    text.len(),
                    profile.decisions
                );
            } else {
                let same = std::fs::read_to_string(&path).is_ok_and(|shipped| shipped == text);
                println!(
                    "{} ({team}): {} decisions, shipped file {}",
                    profile.name,
                    profile.decisions,
                    if same {
                        "identical"
                    } else {
                        "DIFFERS (run with --write)"
                    }
                );
            }
        }
    }

    let fits: Vec<Fit> = if only.iter().any(|o| o == "loo" || o == "style") {
        runs.iter()
            .map(|left_out| {
                fit_runs(
                    &runs
                        .iter()
                        .filter(|r| r.name != left_out.name)
                        .collect::<Vec<_>>(),
                )
            })
            .collect()
    } else {
        Vec::new()
    };

    if only.iter().any(|o| o == "loo") {
        println!("\n## Leave one run out ({games} games each, 7 seats, duplicate)\n");
        println!("| house bot | recorded (95% interval) | fitted field | error | today's field | error |");
        println!("|---|---|---|---|---|---|");
        let (mut recorded, mut fitted, mut today) = (Vec::new(), Vec::new(), Vec::new());
        let mut noise = Vec::new();
        for (run, fit) in runs.iter().zip(&fits) {
            let field: Vec<Opponent> = team_profiles(fit)
                .into_iter()
                .map(Opponent::Profile)
                .collect();
            let you = run.kind.build(7);
            let against_fit = Arena::new(field)
                .seed(seed)
                .games(games)
                .threads(2)
                .run(&*you)
                .expect("arena");
            let against_today = Arena::new(BotKind::FIELD)
                .seed(seed)
                .games(games)
                .threads(2)
                .run(&*you)
                .expect("arena");
            let (f, t) = (against_fit.your_points.raw, against_today.your_points.raw);
            println!(
                "| {} | {:.2} ± {:.2} | {:.2} ± {:.2} | {:+.2} | {:.2} ± {:.2} | {:+.2} |",
                run.name,
                run.recorded.mean,
                run.recorded.half_width,
                f.mean,
                f.half_width,
                f.mean - run.recorded.mean,
                t.mean,
                t.half_width,
                t.mean - run.recorded.mean
            );
            recorded.push(run.recorded.mean);
            fitted.push(f.mean);
            today.push(t.mean);
            // The recorded figure's own standard error, and the arena figure's.
            noise.push((run.recorded.half_width / 1.96).powi(2) + (f.half_width / 1.96).powi(2));
        }
        let mae = |x: &[f64]| {
            x.iter()
                .zip(&recorded)
                .map(|(a, b)| (a - b).abs())
                .sum::<f64>()
                / x.len() as f64
        };
        // What the mean absolute error would be from the two figures' noise alone: E|N(0, s²)|.
        let noise_mae = noise
            .iter()
            .map(|v| (2.0 * v / std::f64::consts::PI).sqrt())
            .sum::<f64>()
            / noise.len() as f64;
        println!(
            "\nfitted field: Spearman ρ {:.2}, mean absolute error {:.2} points a game\n\
             today's field: Spearman ρ {:.2}, mean absolute error {:.2}\n\
             noise alone (recorded and arena figures' standard errors) would give a mean absolute error of about {:.2}",
            spearman(&fitted, &recorded),
            mae(&fitted),
            spearman(&today, &recorded),
            mae(&today),
            noise_mae
        );
    }

    if only.iter().any(|o| o == "style") {
        let style_games = games.min(301);
        println!("\n## Style on held-out runs (each profile in the left-out run's seat, {style_games} games a run)\n");
        let mut recorded_by_team: BTreeMap<&str, StyleCounts> = BTreeMap::new();
        let mut fitted_by_team: BTreeMap<&str, StyleCounts> = BTreeMap::new();
        let (mut checks, mut met) = (0, 0);
        let (mut decision_checks, mut decision_met) = (0, 0);
        let mut decision_rows: BTreeMap<&str, ([f64; 4], [f64; 4])> = BTreeMap::new();
        let mut misses = Vec::new();
        for (run, fit) in runs.iter().zip(&fits) {
            let recorded_fit = fit_runs(&[run]);
            let profiles = team_profiles(fit);
            for (index, team) in TEAMS.iter().enumerate() {
                // The profile's answers on the held-out run's own situations, decision by
                // decision: what it predicts where its player was, without the other
                // profiles' play changing the situations it meets.
                if let Some(held_out) = recorded_fit
                    .players
                    .iter()
                    .find(|p| p.profile.name == *team)
                {
                    let cells = &held_out.profile.cells;
                    let recorded = decision_rates(cells, |cell| {
                        std::array::from_fn(|k| f64::from(cell[1 + k]))
                    });
                    let predicted = decision_rates(cells, |cell| {
                        let situation = Situation::from_index(cell[0] as usize).expect("situation");
                        let n: f64 = cell[1..].iter().map(|&c| f64::from(c)).sum();
                        profiles[index].probabilities(situation).map(|p| p * n)
                    });
                    let row = decision_rows.entry(team).or_insert(([0.0; 4], [0.0; 4]));
                    for k in 0..4 {
                        row.0[k] += recorded[k] / runs.len() as f64;
                        row.1[k] += predicted[k] / runs.len() as f64;
                        decision_checks += 1;
                        if close(predicted[k], recorded[k]) {
                            decision_met += 1;
                        }
                    }
                }
                let mut field: Vec<Opponent> = profiles
                    .iter()
                    .enumerate()
                    .filter(|(other, _)| *other != index)
                    .map(|(_, p)| Opponent::Profile(p.clone()))
                    .collect();
                field.push(Opponent::Kind(run.kind));
                let you = Styled::new(Arc::new(ProfileBot::new(profiles[index].clone(), 11)));
                Arena::new(field)
                    .seed(seed)
                    .games(style_games)
                    .threads(2)
                    .run(&you)
                    .expect("arena");
                let played = you.style();
                let recorded = recorded_fit
                    .players
                    .iter()
                    .find(|p| p.profile.name == *team)
                    .map(|p| p.style)
                    .unwrap_or_default();
                recorded_by_team.entry(team).or_default().merge(&recorded);
                fitted_by_team.entry(team).or_default().merge(&played);
                let (r, p) = (recorded.style(), played.style());
                for (what, a, b) in [
                    ("VPIP", p.vpip, r.vpip),
                    ("PFR", p.pfr, r.pfr),
                    ("all-in", p.all_in, r.all_in),
                    (
                        "AF",
                        p.aggression.unwrap_or(0.0),
                        r.aggression.unwrap_or(0.0),
                    ),
                ] {
                    checks += 1;
                    if close(a, b) {
                        met += 1;
                    } else {
                        misses.push(format!(
                            "{team} in {}: {what} {a:.2} against {b:.2}",
                            run.name
                        ));
                    }
                }
            }
        }
        println!("| player | VPIP % | PFR % | preflop all-in % | postflop aggression |");
        println!("|---|---|---|---|---|");
        for team in TEAMS {
            println!(
                "{}",
                style_row(&format!("{team} recorded"), recorded_by_team[team].style())
            );
            println!(
                "{}",
                style_row(
                    &format!("{team} fitted, played"),
                    fitted_by_team[team].style()
                )
            );
        }
        for run in &runs {
            if BotKind::FIELD.contains(&run.kind) {
                let recorded = fit_runs(&[run]);
                if let Some(house) = recorded.players.iter().find(|p| p.profile.name == run.name) {
                    println!(
                        "{}",
                        style_row(
                            &format!("today's field: {} (recorded)", run.kind),
                            house.style.style()
                        )
                    );
                }
            }
        }
        println!("\n{met} of {checks} figures (6 players × 4 figures × 9 held-out runs) within 3 points or 20% of the recorded one");
        for miss in &misses {
            println!("  missed: {miss}");
        }
        println!("\nPer decision, on each held-out run's own situations (the profile's expected answers where its player was; mean over the nine runs):\n");
        println!("| player | voluntary % of preflop decisions | raises % | all-in % | postflop bets and raises per call |");
        println!("|---|---|---|---|---|");
        for (team, (recorded, predicted)) in &decision_rows {
            println!(
                "| {team} recorded / predicted | {:.1} / {:.1} | {:.1} / {:.1} | {:.1} / {:.1} | {:.2} / {:.2} |",
                recorded[0], predicted[0], recorded[1], predicted[1], recorded[2], predicted[2], recorded[3], predicted[3]
            );
        }
        println!("\n{decision_met} of {decision_checks} per-decision figures within 3 points or 20% of the recorded one");
    }

    if only.iter().any(|o| o == "edits") {
        println!("\n## Three bots a team might write, {games} games each (points a game, 95% interval)\n");
        println!("| your bot | fitted field (default) | today's field (FIELD) |");
        println!("|---|---|---|");
        let bots: [(&str, Arc<dyn Player>); 3] = [
            (
                "shove any pair",
                Arc::new(player::from_fn(|state: &GameState| {
                    shove_pair(state, false)
                })),
            ),
            (
                "shove any pair, call with any ace",
                Arc::new(player::from_fn(|state: &GameState| shove_pair(state, true))),
            ),
            ("fold only", BotKind::Folder.build(0)),
        ];
        for (label, bot) in bots {
            let fitted = Arena::new(BotKind::REAL_FIELD)
                .games(games)
                .threads(2)
                .run(&*bot)
                .expect("arena");
            let today = Arena::new(BotKind::FIELD)
                .games(games)
                .threads(2)
                .run(&*bot)
                .expect("arena");
            let (f, t) = (fitted.your_points.raw, today.your_points.raw);
            println!(
                "| {label} | {:.2} ± {:.2} | {:.2} ± {:.2} |",
                f.mean, f.half_width, t.mean, t.half_width
            );
        }
    }

    if only.iter().any(|o| o == "speed") {
        println!("\n## Speed: 600 games on 2 threads, a calling station in your seat (medians of 3, alternated)\n");
        let you = BotKind::CallingStation.build(1);
        let fitted: Vec<BotKind> = BotKind::REAL_FIELD.to_vec();
        let mut times: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
        for _ in 0..3 {
            for (label, vs) in [
                ("fitted field (real-a … real-f)", fitted.clone()),
                ("today's field (FIELD)", BotKind::FIELD.to_vec()),
            ] {
                let cpu = cpu_seconds();
                let report = Arena::new(vs)
                    .games(600)
                    .threads(2)
                    .run(&*you)
                    .expect("arena");
                times
                    .entry(label)
                    .or_default()
                    .push((report.play_seconds, cpu_seconds() - cpu));
            }
        }
        for (label, mut runs) in times {
            runs.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (wall, cpu) = runs[1];
            println!("{label}: {wall:.2} s of play, {cpu:.2} CPU-s");
        }
    }
}

//! What a run of the arena reports: each entrant's points, places, rating and chips per 100
//! hands with their intervals, your points per game raw and with the luck of the cards taken
//! out, your misread answers and failed calls with their hands, and your results set by set,
//! which the next run's verdict pairs with its own. Built from the played deal sets by
//! [`ArenaReport`]'s constructor.

use super::*;
use crate::why::RecordedAnswers;
use engine::luck::LuckParts;
use engine::stats::adjust::adjust_samples;

/// One of your answers or calls worth a look, with the hand it happened in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandReport {
    /// The game's number in the run (1 is the first).
    pub game: u32,
    /// The engine's game id.
    pub game_id: String,
    /// The hand (`round`).
    pub round: u64,
    /// The answer the dealer got (`None` for a showdown call).
    pub answer: Option<u64>,
    /// What happened, in one line.
    pub what: String,
    /// The document your player was given.
    pub state: GameState,
}

impl HandReport {
    pub(super) fn new(game: u32, state: &GameState, answer: Chips, what: String) -> HandReport {
        HandReport {
            game,
            game_id: state.game_id.clone().unwrap_or_default(),
            round: state.round.unwrap_or(0),
            answer: Some(answer.get()),
            what,
            state: state.clone(),
        }
    }
}

/// One entrant's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntrantReport {
    /// [`YOUR_NAME`] or the house bot's kind (with `-2`, ... for a second one).
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Points (5 for a win, 3 for second, as the live event scores).
    pub points: u64,
    /// How often it finished in each place: `places[0]` wins, `places[1]` seconds, ...
    pub places: Vec<u64>,
    /// Its Weng-Lin rating over the run, as `dealer run` rates (one update per deal set).
    pub rating: Rating,
    /// Chips won per 100 hands it was dealt in (net chips at the end of each game), with the
    /// 95% interval over deal sets.
    pub chips_per_100: Interval,
    /// Hands it was dealt in.
    pub hands: u64,
    /// Bet requests it answered.
    pub bet_requests: u64,
    /// Seconds it spent in `bet_request`, all threads together: where the arena's time goes
    /// (the engine's own share is small).
    pub think_seconds: f64,
}

impl EntrantReport {
    /// Its mean time per `bet_request`, in microseconds.
    pub fn micros_per_decision(&self) -> f64 {
        if self.bet_requests == 0 {
            0.0
        } else {
            self.think_seconds * 1e6 / self.bet_requests as f64
        }
    }
}

/// Your results in one deal set (one game in a plain run): what a verdict pairs with the
/// same deal set of another run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetResult {
    /// Points you scored over the set's games (5 a win, 3 a second place, as the event).
    pub points: u32,
    /// The luck of the cards over the set's games, in points: what the cards gave your seat
    /// beyond their expectation (see the crate docs, "Luck taken out"), in its two parts
    /// (your pots, other players'). The luck-adjusted points take it out with a fitted
    /// coefficient ([`SetResult::luck_total`], `engine::stats::adjust`).
    pub luck: LuckParts,
    /// Your place in each of the set's games, in rotation order (1 is a win).
    pub places: Vec<usize>,
    /// Your chips won per 100 hands you were dealt in, over the set.
    pub chips_per_100: f64,
}

impl SetResult {
    /// The set's whole luck of the cards, in points.
    pub fn luck_total(&self) -> f64 {
        self.luck.total()
    }
}

/// Your points per game: raw, and with the luck of the cards taken out.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct YourPoints {
    /// Points per game with their 95% interval over deal sets.
    pub raw: Interval,
    /// Luck-adjusted points per game with their 95% interval over deal sets: each set's points
    /// less its luck weighed by a coefficient fitted on the other sets (cross-fitted,
    /// `engine::stats::adjust`): the same expectation, a narrower interval.
    pub adjusted: Interval,
    /// The share of the luck taken out, averaged over the sets.
    pub luck_coefficient: f64,
}

/// Everything a run found: the figures `cargo arena` prints (and writes with `--json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArenaReport {
    /// Your bot's `version()`.
    pub version: String,
    /// The settings that identify the run for comparisons.
    pub key: RunKey,
    /// Games played.
    pub games: u64,
    /// Deal sets (games in a plain run).
    pub deal_sets: u64,
    /// Games per deal set (1 in a plain run).
    pub rotations: u64,
    /// Hands played, all games.
    pub hands: u64,
    /// Wall time of the games.
    pub play_seconds: f64,
    /// The entrants, yours first.
    pub entrants: Vec<EntrantReport>,
    /// Your points per game, raw and luck-adjusted.
    pub your_points: YourPoints,
    /// Your results in each deal set, in order: the samples of the intervals and of the
    /// comparison with the next run.
    pub your_sets: Vec<SetResult>,
    /// Your bet answers.
    pub answers: u64,
    /// Answers the dealer reads differently from what they say (`testing::check_bet`: a raise
    /// too small, read as a call; a call too small, read as a fold; more than the stack; ...).
    pub misread_answers: u64,
    /// The first [`EXAMPLES_KEPT`] of them, in game order.
    pub misread_examples: Vec<HandReport>,
    /// Calls that panicked or overran the time budget (the SDK answered its fallback).
    pub failed_calls: u64,
    /// The first [`EXAMPLES_KEPT`] of them, in game order.
    pub failed_call_examples: Vec<HandReport>,
    /// Your answers, game by game, which replay the run (`cargo arena --why`); not in the
    /// report's JSON, saved with the run.
    #[serde(skip)]
    pub your_answers: RecordedAnswers,
}

impl ArenaReport {
    pub(super) fn from_sets(
        arena: &Arena,
        version: String,
        names: Vec<String>,
        sets: &[SetOutcome],
        rotations: usize,
        elapsed: Duration,
    ) -> ArenaReport {
        let entrants = names.len();
        let mut ratings = Ratings::new(names.iter().cloned());
        let mut report = ArenaReport {
            version,
            key: arena.key(),
            games: 0,
            deal_sets: sets.len() as u64,
            rotations: rotations as u64,
            hands: 0,
            play_seconds: elapsed.as_secs_f64(),
            entrants: Vec::with_capacity(entrants),
            your_points: YourPoints {
                raw: Interval::of(&[]),
                adjusted: Interval::of(&[]),
                luck_coefficient: engine::stats::adjust::PRIOR_COEFFICIENT,
            },
            your_sets: Vec::with_capacity(sets.len()),
            answers: 0,
            misread_answers: 0,
            misread_examples: Vec::new(),
            failed_calls: 0,
            failed_call_examples: Vec::new(),
            your_answers: RecordedAnswers::default(),
        };
        let mut points = vec![0u64; entrants];
        let mut places = vec![vec![0u64; entrants]; entrants];
        let mut hands = vec![0u64; entrants];
        let mut bet_requests = vec![0u64; entrants];
        let mut think_time = vec![Duration::ZERO; entrants];
        let mut per_set: Vec<Vec<f64>> = vec![Vec::with_capacity(sets.len()); entrants];
        for set in sets {
            let mut orders: Vec<Vec<&str>> = Vec::with_capacity(set.games.len());
            let mut set_chips = vec![0i64; entrants];
            let mut set_hands = vec![0u64; entrants];
            let mut yours = SetResult {
                points: 0,
                luck: LuckParts::default(),
                places: Vec::with_capacity(set.games.len()),
                chips_per_100: 0.0,
            };
            for game in &set.games {
                yours.points += game.points[0];
                yours.luck.own_pots += game.your_luck_parts.own_pots;
                yours.luck.others_pots += game.your_luck_parts.others_pots;
                yours.places.push(game.places[0]);
                report.games += 1;
                report.hands += game.hands.iter().max().copied().unwrap_or(0);
                report.answers += game.answers;
                report.misread_answers += game.misreads.len() as u64;
                report.failed_calls += game.incidents.len() as u64;
                keep(&mut report.misread_examples, &game.misreads);
                keep(&mut report.failed_call_examples, &game.incidents);
                report.your_answers.push_game(
                    game.your_answers.clone(),
                    game.points[0],
                    game.places[0],
                    game.your_luck,
                );
                for entrant in 0..entrants {
                    points[entrant] += u64::from(game.points[entrant]);
                    places[entrant][game.places[entrant].saturating_sub(1).min(entrants - 1)] += 1;
                    hands[entrant] += game.hands[entrant];
                    bet_requests[entrant] += game.bet_requests[entrant];
                    think_time[entrant] += game.think_time[entrant];
                    set_chips[entrant] += game.net_chips[entrant];
                    set_hands[entrant] += game.hands[entrant];
                }
                orders.push(
                    game.finishing_order
                        .iter()
                        .map(|&e| names[e].as_str())
                        .collect(),
                );
            }
            // One rating update per deal set, as `dealer run` rates a duplicate run.
            match orders.as_slice() {
                [order] => ratings.record(order),
                _ => ratings.record_deal_set(&orders),
            }
            for entrant in 0..entrants {
                per_set[entrant].push(per_100(set_chips[entrant], set_hands[entrant]));
            }
            yours.chips_per_100 = per_set[0].last().copied().unwrap_or(0.0);
            report.your_sets.push(yours);
        }
        for (entrant, name) in names.into_iter().enumerate() {
            report.entrants.push(EntrantReport {
                rating: ratings.get(&name).unwrap_or(Rating {
                    rating: 25.0,
                    uncertainty: 25.0 / 3.0,
                }),
                name,
                games: report.games,
                points: points[entrant],
                places: places[entrant].clone(),
                chips_per_100: Interval::of(&per_set[entrant]),
                hands: hands[entrant],
                bet_requests: bet_requests[entrant],
                think_seconds: think_time[entrant].as_secs_f64(),
            });
        }
        let per_game = |total: f64| total / rotations.max(1) as f64;
        let raw: Vec<f64> = report
            .your_sets
            .iter()
            .map(|set| per_game(f64::from(set.points)))
            .collect();
        let samples: Vec<(f64, f64)> = report
            .your_sets
            .iter()
            .map(|set| (per_game(f64::from(set.points)), per_game(set.luck_total())))
            .collect();
        let (adjusted, adjustment) = adjust_samples(&samples);
        report.your_points = YourPoints {
            raw: Interval::of(&raw),
            adjusted: Interval::of(&adjusted),
            luck_coefficient: adjustment.coefficient,
        };
        report
    }

    /// Your results.
    pub fn you(&self) -> &EntrantReport {
        &self.entrants[0]
    }

    /// A house bot's results by name (its kind, e.g. `calling-station`).
    pub fn entrant(&self, name: &str) -> Option<&EntrantReport> {
        self.entrants.iter().find(|e| e.name == name)
    }

    /// Whether you win chips from the table with 95% confidence: the low end of your
    /// chips/100 interval is above 0.
    pub fn wins_chips_with_confidence(&self) -> bool {
        self.you().chips_per_100.low() > 0.0
    }

    /// Whether you score more than your share of the points with 95% confidence, luck taken
    /// out: the low end of your luck-adjusted points per game is above the table's average
    /// (8 points a game shared by the seats: 4 heads-up). Against one house bot, that is
    /// "beats it" as the event counts.
    pub fn outscores_the_table_with_confidence(&self) -> bool {
        let share = 8.0 / self.entrants.len().max(1) as f64;
        self.your_points.adjusted.low() > share
    }

    /// How this run compares with `previous` (a run with the same key) on the deal sets both
    /// played, paired; `None` when they have fewer than two in common.
    pub fn verdict_against(&self, previous: &SavedRun) -> Option<Judgement> {
        judge(&self.your_sets, &previous.sets, self.rotations as usize)
    }
}

/// Chips per 100 hands (0 when no hand was played).
fn per_100(chips: i64, hands: u64) -> f64 {
    if hands == 0 {
        0.0
    } else {
        chips as f64 * 100.0 / hands as f64
    }
}

/// Keeps the first [`EXAMPLES_KEPT`] examples.
fn keep(kept: &mut Vec<HandReport>, more: &[HandReport]) {
    let room = EXAMPLES_KEPT.saturating_sub(kept.len());
    kept.extend(more.iter().take(room).cloned());
}

//! Equity: input validation, reproducibility, exact enumeration against brute force, and
//! Monte Carlo against exact values and well-known numbers.

use shared::card::parse_cards;
use shared::equity::{equity_for, EquityError, EquityResult, Scenario, MAX_OPPONENTS};
use shared::eval::strength_of;
use shared::{Card, GameState};
use std::time::Duration;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap()
}

fn scenario(hole: &str, board: &str, opponents: usize) -> Scenario {
    Scenario::new(&cards(hole), &cards(board), opponents).unwrap()
}

/// Standard error of a Monte Carlo equity estimate is at most 0.5 / sqrt(trials); allow five.
fn assert_close(estimate: &EquityResult, exact: f64, what: &str) {
    let tolerance = 5.0 * 0.5 / (estimate.trials as f64).sqrt();
    assert!(
        (estimate.equity() - exact).abs() < tolerance,
        "{what}: {} vs {exact} (tolerance {tolerance})",
        estimate.equity()
    );
}

#[test]
fn bad_scenarios_are_errors() {
    let hole = cards("Ah Kh");
    assert_eq!(
        Scenario::new(&cards("Ah"), &[], 1),
        Err(EquityError::HoleCards(1))
    );
    assert_eq!(
        Scenario::new(&cards("Ah Kh Qh"), &[], 1),
        Err(EquityError::HoleCards(3))
    );
    assert_eq!(
        Scenario::new(&hole, &cards("2c 3c"), 1),
        Err(EquityError::BoardSize(2))
    );
    assert_eq!(
        Scenario::new(&hole, &cards("2c 3c 4c 5c 6c 7c"), 1),
        Err(EquityError::BoardSize(6))
    );
    assert_eq!(
        Scenario::new(&hole, &cards("Ah 3c 4c"), 1),
        Err(EquityError::DuplicateCard(cards("Ah")[0]))
    );
    assert_eq!(
        Scenario::new(&[hole[0], hole[0]], &[], 1),
        Err(EquityError::DuplicateCard(hole[0]))
    );
    assert_eq!(Scenario::new(&hole, &[], 0), Err(EquityError::NoOpponents));
    assert!(Scenario::new(&hole, &[], MAX_OPPONENTS).is_ok());
    assert!(matches!(
        Scenario::new(&hole, &[], MAX_OPPONENTS + 1),
        Err(EquityError::TooManyOpponents { .. })
    ));
    // 45 cards left after a full board: 22 opponents fit, 23 do not.
    let board = cards("2c 3c 4c 5c 7d");
    assert!(Scenario::new(&hole, &board, 22).is_ok());
    let ok = scenario("Ah Kh", "", 20);
    let dead: Vec<Card> = cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs");
    let error = ok.clone().with_dead(&dead).unwrap_err();
    assert_eq!(
        error,
        EquityError::TooManyOpponents {
            opponents: 20,
            needed: 45,
            available: 39
        }
    );
    assert!(error.to_string().contains("only 39 are left"), "{error}");
    assert_eq!(
        ok.clone().with_dead(&cards("Kh")),
        Err(EquityError::DuplicateCard(cards("Kh")[0]))
    );
    assert_eq!(ok.monte_carlo(0, 1), Err(EquityError::NoTrials));
    assert_eq!(ok.estimate(0, 1), Err(EquityError::NoTrials));
}

#[test]
fn monte_carlo_is_reproducible_from_the_seed() {
    let s = scenario("Ah Kh", "", 3);
    let a = s.monte_carlo(5_000, 7).unwrap();
    let b = s.monte_carlo(5_000, 7).unwrap();
    let c = s.monte_carlo(5_000, 8).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(a.trials, 5_000);
    assert!(!a.exact);
    assert!(a.win > 0.0 && a.tie > 0.0 && a.equity() <= 1.0);
}

/// Every set of disjoint opponent holdings (one to three opponents) on a full board, the
/// slow way: equity as (win, tie share).
fn brute_force_river(hole: &str, board: &str, dead: &str, opponents: usize) -> (f64, f64) {
    let hole = cards(hole);
    let board = cards(board);
    let known: Vec<Card> = hole
        .iter()
        .chain(&board)
        .chain(&cards(dead))
        .copied()
        .collect();
    let deck: Vec<Card> = Card::deck().filter(|c| !known.contains(c)).collect();
    let strength = |two: [Card; 2]| {
        let seven: Vec<Card> = board.iter().copied().chain(two).collect();
        strength_of(&seven).unwrap()
    };
    let ours = strength([hole[0], hole[1]]);
    let mut holdings = Vec::new();
    for i in 0..deck.len() {
        for j in i + 1..deck.len() {
            holdings.push(([deck[i], deck[j]], strength([deck[i], deck[j]])));
        }
    }
    let disjoint = |a: &[Card; 2], b: &[Card; 2]| !a.iter().any(|card| b.contains(card));
    let (mut deals, mut win, mut tie) = (0u64, 0u64, 0.0f64);
    let mut score = |strengths: &[shared::eval::HandStrength]| {
        deals += 1;
        if strengths.iter().all(|&s| s < ours) {
            win += 1;
        } else if strengths.iter().all(|&s| s <= ours) {
            let tied = strengths.iter().filter(|&&s| s == ours).count();
            tie += 1.0 / (tied as f64 + 1.0);
        }
    };
    // Unordered sets of holdings: each is as likely as any other.
    for (i, (a, sa)) in holdings.iter().enumerate() {
        if opponents == 1 {
            score(&[*sa]);
            continue;
        }
        for (j, (b, sb)) in holdings.iter().enumerate().skip(i + 1) {
            if !disjoint(a, b) {
                continue;
            }
            if opponents == 2 {
                score(&[*sa, *sb]);
                continue;
            }
            for (c, sc) in &holdings[j + 1..] {
                if disjoint(a, c) && disjoint(b, c) {
                    score(&[*sa, *sb, *sc]);
                }
            }
        }
    }
    (win as f64 / deals as f64, tie / deals as f64)
}

#[test]
fn exact_river_matches_brute_force() {
    // Twenty-five dead cards keep the three-opponent brute force small.
    let dead = "2s 3s 4s 5s 6s 8s 2h 3h 4h 5h 6h 8h 2d 3d 4d 5d 6d 8d 3c 4c 5c 6c 8c Ts Th";
    let cases = [
        ("Ah Kh", "Qh Jh 2c 7d 9s", "", 1),
        ("Ah Kh", "Qh Jh 2c 7d 9s", "", 2),
        // A board that plays for many holdings: lots of two- and three-way ties.
        ("2c 3d", "Ts Jd Qc Kh Ad", "", 2),
        ("7c 7d", "7h 2s 2d Kc Qc", "", 2),
        ("4c 5c", "6c 7c 9d 9h 2s", "", 2),
        ("Ac Kc", "Qd Jd 9c 7s 7h", dead, 3),
        ("9c 9d", "Qd Jd 9h 7s 7h", dead, 3),
        ("Jc Tc", "Qd Jd 9c 7s Ah", dead, 3),
        ("2c 7c", "Ac Ad As Ah Kd", dead, 3),
    ];
    for (hole, board, dead, opponents) in cases {
        let exact = scenario(hole, board, opponents)
            .with_dead(&cards(dead))
            .unwrap()
            .exact()
            .unwrap();
        assert!(exact.exact);
        let (win, tie) = brute_force_river(hole, board, dead, opponents);
        // The brute force sums many fractions, hence the tolerance.
        assert!(
            (exact.win - win).abs() < 1e-9,
            "{hole} {board} x{opponents}: {exact:?} vs {win}"
        );
        assert!(
            (exact.tie - tie).abs() < 1e-9,
            "{hole} {board} x{opponents}: {exact:?} vs {tie}"
        );
    }
}

/// Three opponents on the turn (exact) against Monte Carlo.
#[test]
fn exact_three_opponents_on_the_turn() {
    let s = scenario("Ah Qh", "Kh 7h 2c 9d", 3);
    let exact = s.exact().unwrap();
    assert!(exact.exact);
    let estimate = s.monte_carlo(60_000, 3).unwrap();
    assert_close(&estimate, exact.equity(), "AhQh on Kh7h2c9d x3");
    assert!(scenario("Ah Qh", "Kh 7h 2c", 3).exact().is_none()); // flop: too many deals
    assert!(scenario("Ah Qh", "Kh 7h 2c 9d 3s", 4).exact().is_none());
}

#[test]
fn a_board_everyone_plays_is_a_split() {
    // A royal flush on board: everybody ties.
    let one = scenario("2c 3d", "Ts Js Qs Ks As", 1).exact().unwrap();
    assert_eq!((one.win, one.tie), (0.0, 0.5));
    let two = scenario("2c 3d", "Ts Js Qs Ks As", 2).exact().unwrap();
    assert!((two.tie - 1.0 / 3.0).abs() < 1e-12);
    let many = scenario("2c 3d", "Ts Js Qs Ks As", 5)
        .monte_carlo(2_000, 1)
        .unwrap();
    assert!((many.tie - 1.0 / 6.0).abs() < 1e-12);
    assert_eq!(many.win, 0.0);
}

#[test]
fn the_nuts_always_win() {
    let result = scenario("As Ks", "Qs Js Ts 2c 3d", 4)
        .monte_carlo(3_000, 3)
        .unwrap();
    assert_eq!((result.win, result.tie), (1.0, 0.0));
}

#[test]
fn exact_availability() {
    assert_eq!(scenario("Ah Kh", "", 4).exact_cost(), None);
    assert!(scenario("Ah Kh", "", 3).exact().is_none());
    assert!(scenario("Ah Kh", "", 1).exact().is_none()); // preflop: billions of deals
    assert!(scenario("Ah Kh", "2c 3d 4s", 1).exact().is_some());
    assert!(scenario("Ah Kh", "2c 3d 4s 9h", 2).exact().is_some());
    let river = scenario("Ah Kh", "2c 3d 4s 9h Td", 1);
    assert_eq!(river.exact_cost(), Some(991));
    assert_eq!(river.exact().unwrap().trials, 990);
    // `estimate` enumerates when it is cheaper than the trials asked for.
    assert!(river.estimate(1_000, 1).unwrap().exact);
    assert!(!river.estimate(100, 1).unwrap().exact);
}

#[test]
fn monte_carlo_agrees_with_exact() {
    let cases = [
        ("Ah Kh", "Qh 7c 2d 5s", 1),
        ("9c 9d", "Ah 7c 2d", 1),
        ("Jh Th", "9h 8c 2h Kd", 2),
        ("5c 5d", "Ah Kc 5h 2d Qs", 2),
    ];
    for (hole, board, opponents) in cases {
        let s = scenario(hole, board, opponents);
        let exact = s.exact().unwrap();
        let estimate = s.monte_carlo(40_000, 11).unwrap();
        assert_close(
            &estimate,
            exact.equity(),
            &format!("{hole} {board} x{opponents}"),
        );
        assert!((estimate.win - exact.win).abs() < 0.02, "{hole} {board}");
    }
}

#[test]
fn well_known_preflop_numbers() {
    // Pocket aces against one random hand: 85.2% equity; against three: about 64%.
    let aces = scenario("Ah As", "", 1).monte_carlo(60_000, 5).unwrap();
    assert_close(&aces, 0.852, "AA vs 1");
    let aces3 = scenario("Ah As", "", 3).monte_carlo(60_000, 5).unwrap();
    assert!((0.62..0.66).contains(&aces3.equity()), "{aces3:?}");
    // Seven-deuce offsuit against one random hand: 34.6%.
    let trash = scenario("7h 2c", "", 1).monte_carlo(60_000, 5).unwrap();
    assert_close(&trash, 0.346, "72o vs 1");
}

#[test]
fn dead_cards_leave_the_deck() {
    // With all other spades dead, a flush draw cannot come in: our nut flush draw with no pair
    // is now only ace-high.
    let live = scenario("As Ks", "2s 7s 9d", 1).exact().unwrap();
    let dead = scenario("As Ks", "2s 7s 9d", 1)
        .with_dead(&cards("3s 4s 5s 6s 8s 9s Ts Js Qs"))
        .unwrap()
        .exact()
        .unwrap();
    assert!(dead.equity() < live.equity() - 0.1, "{live:?} {dead:?}");
}

#[test]
fn time_budget_runs_at_least_one_batch() {
    let result = scenario("Ah Kh", "", 2).monte_carlo_for(Duration::from_millis(5), 1);
    assert!(result.trials >= 1024);
    assert_eq!(result.trials % 1024, 0);
    assert!((0.0..=1.0).contains(&result.equity()));
}

fn fixture(name: &str) -> GameState {
    let path = format!(
        "{}/tests/fixtures/gamestates/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    GameState::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn equity_for_a_game_state() {
    // The API page example: Bob holds 6h Ks on 4s Ah 6c against Albert (heads-up flop).
    let state = shared::testing_state();
    let result = equity_for(&state, 10_000).unwrap();
    assert!(result.exact);
    let direct = scenario("6h Ks", "4s Ah 6c", 1).exact().unwrap();
    assert_eq!(result, direct);
    assert_eq!(equity_for(&state, 10_000).unwrap(), result);

    // A six-seat preflop request: Monte Carlo against five opponents, reproducible.
    let state = fixture("09-preflop-r0-6-seats-first-request.json");
    let opponents = state.active_opponents().count();
    assert_eq!(opponents, 5);
    let first = equity_for(&state, 5_000).unwrap();
    assert!(!first.exact);
    assert_eq!(first.trials, 5_000);
    assert_eq!(equity_for(&state, 5_000).unwrap(), first);

    // No hole cards known: an error, not a panic.
    let mut blind = state.clone();
    for player in &mut blind.players {
        player.hole_cards = None;
    }
    blind.in_action = None;
    assert_eq!(equity_for(&blind, 100), Err(EquityError::HoleCards(0)));
}

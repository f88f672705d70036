//! PHH hand histories read back into decisions: each hand of a `.phh` file (or each table of a
//! `.phhs` file) replayed by Lean Poker's betting rules (spec §4), giving for every answer the
//! `game_state` the player was asked in and the chips it answered.
//!
//! Only the subset of TOML that hand histories use is read (`text.rs`): `key = value` lines, integers,
//! double-quoted strings, arrays (across lines), `#` comments and `[table]` headers. The
//! fields read are the dealer's (`dealer::observe::phh` documents them): `players`,
//! `starting_stacks`, `blinds_or_straddles`, `min_bet`, `actions`, and where present `seats`,
//! `seat_count`, `_lean_button` and `hand`. Turns written as comments (a big blind asked
//! although nobody can respond) are not decisions anyone could learn from and stay comments.

mod text;

use player::{Card, Chips, GameState, PlayerState, PlayerStatus, Seat};
use text::{tables, Fields, Value};

/// One decision read from a hand: who, the state it was asked in, what it answered.
pub(crate) struct PhhDecision<'a> {
    /// The player's name.
    pub player: &'a str,
    /// The state as the dealer would have sent it (the player's own cards only).
    pub state: &'a GameState,
    /// The chips answered.
    pub answer: Chips,
}

/// What a file of hands held.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PhhCounts {
    /// Hands replayed.
    pub hands: u64,
    /// Hands that could not be read (the reason of the first is in the error list).
    pub unreadable: u64,
}

/// Replays every hand of `text` (a `.phh` file or a `.phhs` file of tables), calling
/// `dealt_in` with every player's name once per hand and `decision` for every answer. A hand
/// that cannot be read is skipped and its reason returned (with the hand's table name).
pub(crate) fn read_hands(
    text: &str,
    dealt_in: impl FnMut(&str),
    decision: impl FnMut(PhhDecision<'_>),
) -> (PhhCounts, Vec<String>) {
    replay_tables(text, |_| {}, dealt_in, decision)
}

/// Replays every table of `text`, telling `before` each readable table's fields first: the
/// loop and the counting of [`read_hands`] and [`read_event_hands`].
fn replay_tables(
    text: &str,
    mut before: impl FnMut(&Fields),
    mut dealt_in: impl FnMut(&str),
    mut decision: impl FnMut(PhhDecision<'_>),
) -> (PhhCounts, Vec<String>) {
    let mut counts = PhhCounts::default();
    let mut problems = Vec::new();
    for (table, fields) in tables(text) {
        let replayed = fields.and_then(|fields| {
            before(&fields);
            replay(&fields, &mut dealt_in, &mut decision)
        });
        match replayed {
            Ok(()) => counts.hands += 1,
            Err(problem) => {
                counts.unreadable += 1;
                problems.push(match table {
                    Some(name) => format!("hand [{name}]: {problem}"),
                    None => problem,
                });
            }
        }
    }
    (counts, problems)
}

/// One player of a hand being replayed.
struct HandPlayer {
    stack: Chips,
    bet: Chips,
    street_start: Chips,
    folded: bool,
    cards: Option<Vec<Card>>,
    seat: usize,
}

fn cards_of(text: &str) -> Result<Vec<Card>, String> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return Err(format!("cards {text:?}"));
    }
    (0..text.len() / 2)
        .map(|i| {
            text[2 * i..2 * i + 2]
                .parse::<Card>()
                .map_err(|error| format!("cards {text:?}: {error}"))
        })
        .collect()
}

/// Replays one hand by Lean Poker's betting rules.
fn replay(
    fields: &Fields,
    dealt_in: &mut impl FnMut(&str),
    decision: &mut impl FnMut(PhhDecision<'_>),
) -> Result<(), String> {
    let get = |key: &str| fields.get(key).ok_or_else(|| format!("no `{key}`"));
    let names = get("players")?
        .texts()
        .ok_or("`players` is not a list of names")?;
    let stacks = get("starting_stacks")?
        .integers()
        .ok_or("`starting_stacks` is not a list of numbers")?;
    let blinds = get("blinds_or_straddles")?
        .integers()
        .ok_or("`blinds_or_straddles` is not a list of numbers")?;
    let actions = get("actions")?
        .texts()
        .ok_or("`actions` is not a list of strings")?;
    let count = names.len();
    if count < 2 || stacks.len() != count || blinds.len() != count {
        return Err(format!(
            "{count} players, {} stacks, {} blinds",
            stacks.len(),
            blinds.len()
        ));
    }
    // Lean Poker seat ids: `seats` holds id + 1; without it, the listed order.
    let seats: Vec<usize> = match fields.get("seats").and_then(Value::integers) {
        Some(seats) if seats.len() == count && seats.iter().all(|&s| s >= 1) => {
            seats.iter().map(|&s| s as usize - 1).collect()
        }
        _ => (0..count).collect(),
    };
    let seat_count = fields
        .get("seat_count")
        .and_then(Value::integer)
        .map_or(0, |n| n as usize)
        .max(seats.iter().max().map_or(0, |&s| s + 1));
    if seat_count > 64 {
        return Err(format!("{seat_count} seats"));
    }
    // The last player listed has the button (heads-up: the second, who posts the big blind).
    let button = fields
        .get("_lean_button")
        .and_then(Value::integer)
        .map_or(seats[count - 1], |b| b as usize);
    // Heads-up hand histories list the blinds as [big, small] (PokerKit's order); p1 posts
    // the small one either way.
    let posted: Vec<u64> = if count == 2 {
        let (small, big) = (blinds[0].min(blinds[1]), blinds[0].max(blinds[1]));
        vec![small, big]
    } else {
        blinds.clone()
    };
    let big_blind = Chips(*posted.iter().max().unwrap_or(&0));
    let small_blind = Chips(
        fields
            .get("min_bet")
            .and_then(Value::integer)
            .unwrap_or(big_blind.get() / 2),
    );
    let mut players: Vec<HandPlayer> = (0..count)
        .map(|p| {
            let post = Chips(posted[p].min(stacks[p]));
            HandPlayer {
                stack: Chips(stacks[p]) - post,
                bet: post,
                street_start: Chips::ZERO,
                folded: false,
                cards: None,
                seat: seats[p],
            }
        })
        .collect();
    for name in &names {
        dealt_in(name);
    }
    let mut board: Vec<Card> = Vec::new();
    let mut minimum_raise = small_blind;
    let mut state = GameState {
        tournament_id: None,
        game_id: None,
        round: fields.get("hand").and_then(Value::integer),
        players: (0..seat_count)
            .map(|seat| PlayerState {
                name: seats
                    .iter()
                    .position(|&s| s == seat)
                    .map_or_else(String::new, |p| names[p].to_string()),
                stack: Chips::ZERO,
                status: PlayerStatus::Out,
                bet: Chips::ZERO,
                hole_cards: None,
                time_used: None,
                version: String::new(),
                amount_won: None,
                id: Seat(seat),
            })
            .collect(),
        small_blind,
        big_blind: Some(big_blind),
        orbits: 0,
        dealer: Seat(button.min(seat_count.saturating_sub(1))),
        community_cards: Vec::new(),
        current_buy_in: Chips::ZERO,
        pot: Chips::ZERO,
        in_action: None,
        minimum_raise: None,
        bet_index: None,
    };
    for line in actions {
        let (action, note) = line.split_once('#').unwrap_or((line, ""));
        let mut words = action.split_whitespace();
        let (Some(actor), Some(verb)) = (words.next(), words.next()) else {
            return Err(format!("action {action:?}"));
        };
        let argument = words.next();
        if actor == "d" {
            match (verb, argument) {
                ("dh", Some(player)) => {
                    let p = player_number(player, count)?;
                    let cards = words.next().ok_or_else(|| format!("action {action:?}"))?;
                    players[p].cards = Some(cards_of(cards)?);
                }
                ("db", Some(cards)) => {
                    board.extend(cards_of(cards)?);
                    minimum_raise = big_blind;
                    for player in &mut players {
                        player.street_start = player.bet;
                    }
                }
                _ => {}
            }
            continue;
        }
        let p = player_number(actor, count)?;
        let current_buy_in = players.iter().map(|p| p.bet).max().unwrap_or_default();
        let me = &players[p];
        let to_call = current_buy_in.saturating_sub(me.bet).min(me.stack);
        let answer = match (verb, argument) {
            ("f", _) => Chips::ZERO,
            // "Lean Poker: raise to N that nobody can call more of": the answer raised to N on
            // this street, written as the call it amounts to.
            ("cc", _) if note.contains("nobody can call more of") => note
                .split_whitespace()
                .skip_while(|word| *word != "to")
                .nth(1)
                .and_then(|n| n.parse::<u64>().ok())
                .map_or(to_call, |street_total| {
                    Chips(street_total).saturating_sub(me.bet.saturating_sub(me.street_start))
                }),
            ("cc", _) => to_call,
            ("cbr", Some(amount)) => {
                let street_total: u64 = amount
                    .parse()
                    .map_err(|_| format!("action {action:?}: not an amount"))?;
                let street_bet = me.bet.saturating_sub(me.street_start);
                Chips(street_total).saturating_sub(street_bet)
            }
            ("cbr", None) => return Err(format!("action {action:?}: no amount")),
            // Shows, mucks and anything else change no bet.
            _ => continue,
        };
        // The state as the player was asked.
        for (q, player) in players.iter().enumerate() {
            let seat = &mut state.players[player.seat];
            seat.stack = player.stack;
            seat.bet = player.bet;
            seat.status = if player.folded {
                PlayerStatus::Folded
            } else {
                PlayerStatus::Active
            };
            seat.hole_cards = if q == p { player.cards.clone() } else { None };
        }
        state.community_cards.clone_from(&board);
        state.current_buy_in = current_buy_in;
        state.pot = players.iter().map(|p| p.bet).sum();
        state.in_action = Some(Seat(players[p].seat));
        state.minimum_raise = Some(minimum_raise);
        // A ban is the dealer's doing, not the player's choice.
        if !note.contains("banned") {
            decision(PhhDecision {
                player: names[p],
                state: &state,
                answer,
            });
        }
        let me = &mut players[p];
        match verb {
            "f" if note.contains("banned") => {
                // The banned player's stack and bet leave the game (spec §6).
                me.folded = true;
                me.stack = Chips::ZERO;
                me.bet = Chips::ZERO;
            }
            "f" => me.folded = true,
            _ => {
                let put_in = answer.min(me.stack);
                me.stack -= put_in;
                me.bet += put_in;
                if me.bet > current_buy_in {
                    minimum_raise = minimum_raise.max(me.bet - current_buy_in);
                }
            }
        }
    }
    Ok(())
}

/// `pN` as a 0-based player index.
fn player_number(text: &str, count: usize) -> Result<usize, String> {
    text.strip_prefix('p')
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| (1..=count).contains(&n))
        .map(|n| n - 1)
        .ok_or_else(|| format!("no player {text:?} among {count}"))
}

/// What the event's hand-history stream (`GET /api/event/hands`, written by
/// `dealer::observe::phh` in its event form) says of a hand besides its actions.
pub(crate) struct EventHand<'a> {
    /// `players`, as listed.
    pub players: Vec<&'a str>,
    /// `_lean_versions`: each listed player's version (empty without the field).
    pub versions: Vec<&'a str>,
}

/// [`read_hands`] for the event's hand-history stream: `hand` is told each readable hand's
/// [`EventHand`] before its players and decisions.
pub(crate) fn read_event_hands(
    text: &str,
    mut hand: impl FnMut(&EventHand<'_>),
    dealt_in: impl FnMut(&str),
    decision: impl FnMut(PhhDecision<'_>),
) -> (PhhCounts, Vec<String>) {
    let before = |fields: &Fields| {
        let texts = |key: &str| fields.get(key).and_then(Value::texts).unwrap_or_default();
        hand(&EventHand {
            players: texts("players"),
            versions: texts("_lean_versions"),
        });
    };
    replay_tables(text, before, dealt_in, decision)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HAND: &str = r#"# a comment
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 10
starting_stacks = [1000, 1000, 500]
actions = [
  "d dh p1 AhAd",
  "d dh p2 7c2d",
  "d dh p3 KsQs",
  "p3 cbr 60",
  "p1 cbr 500",
  "p2 f",
  # p3 asked although... (a comment inside the array)
  "p3 cc",
  "d db 2c3c4c",
  "p1 cc",
  "d db 9h",
  "d db Td",
  "p3 sm KsQs",
]
hand = 7
players = ["ann", "bob", "cy"]
seats = [2, 3, 1]
seat_count = 4
_lean_button = 0
"#;

    #[test]
    fn a_hand_replays_into_the_states_players_were_asked_in() {
        let mut dealt = Vec::new();
        let mut seen = Vec::new();
        let (counts, problems) = read_hands(
            HAND,
            |name| dealt.push(name.to_string()),
            |d| {
                seen.push((
                    d.player.to_string(),
                    d.answer,
                    d.state.call_amount(),
                    d.state.pot,
                    d.state.minimum_raise,
                    d.state.my_cards().to_vec(),
                    d.state.community_cards.len(),
                ));
                assert_eq!(d.state.players.len(), 4);
                assert_eq!(d.state.players[3].status, PlayerStatus::Out);
            },
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(counts.hands, 1);
        assert_eq!(dealt, ["ann", "bob", "cy"]);
        let cards = |text: &str| cards_of(text).unwrap();
        assert_eq!(
            seen,
            [
                // cy (seat 0 of 3 listed, UTG) raises to 60 facing 20: answer 60.
                (
                    "cy".into(),
                    Chips(60),
                    Chips(20),
                    Chips(30),
                    Some(Chips(10)),
                    cards("KsQs"),
                    0
                ),
                // ann raises to 500 from her small blind of 10: answer 490.
                (
                    "ann".into(),
                    Chips(490),
                    Chips(50),
                    Chips(90),
                    Some(Chips(40)),
                    cards("AhAd"),
                    0
                ),
                (
                    "bob".into(),
                    Chips(0),
                    Chips(480),
                    Chips(580),
                    Some(Chips(440)),
                    cards("7c2d"),
                    0
                ),
                // cy calls all in for her last 440.
                (
                    "cy".into(),
                    Chips(440),
                    Chips(440),
                    Chips(580),
                    Some(Chips(440)),
                    cards("KsQs"),
                    0
                ),
                (
                    "ann".into(),
                    Chips(0),
                    Chips(0),
                    Chips(1020),
                    Some(Chips(20)),
                    cards("AhAd"),
                    3
                ),
            ]
        );
    }

    #[test]
    fn a_file_of_tables_is_one_hand_a_table_and_bad_hands_are_named() {
        let body = HAND.replace("# a comment\n", "");
        let text = format!("# header\n[1]\n{body}\n[2]\nplayers = [\"x\"]\n[3]\n{body}");
        let mut decisions = 0;
        let (counts, problems) = read_hands(&text, |_| {}, |_| decisions += 1);
        assert_eq!(
            counts,
            PhhCounts {
                hands: 2,
                unreadable: 1
            }
        );
        assert_eq!(decisions, 10);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].starts_with("hand [2]: no `starting_stacks`"),
            "{problems:?}"
        );
    }

    #[test]
    fn broken_text_is_an_error_not_a_panic() {
        for text in [
            "players = [\"a\", \"b\"",
            "actions = [\"p1 cbr\"]",
            "= 3",
            "players = [\"a\", \"b\"]\nstarting_stacks = [5, 5]\nblinds_or_straddles = [1, 2]\nactions = [\"p9 f\"]",
            "players = [\"a\", \"b\"]\nstarting_stacks = [5, 5]\nblinds_or_straddles = [1, 2]\nactions = [\"d dh p1 Zz\"]",
            "players = [\"a\", \"b\"]\nstarting_stacks = [5, 5]\nblinds_or_straddles = [1, 2]\nactions = [\"p1 cbr lots\"]",
            "\"unterminated",
        ] {
            let (counts, problems) = read_hands(text, |_| {}, |_| {});
            assert_eq!(counts.hands, 0, "{text}");
            assert_eq!(problems.len(), 1, "{text}");
        }
    }
}

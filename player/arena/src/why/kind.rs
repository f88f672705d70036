//! What kind of decision a changed one was: the street, what you faced, your hand, and what
//! each version answered (as the dealer reads it), the key the changes are grouped by; and
//! your position, shown within each group.
//!
//! Why position is not part of the key: an edit of a strategy is almost always a rule about
//! hands and prices ("call any all-in with an ace"), which fires in every seat; splitting its
//! games by seat would spread one change over five groups, each too small to measure. Each
//! group counts its positions instead.

use player::{BetAction, Card, GameState, PlayerStatus, Rank, Street};
use serde::{Deserialize, Serialize};
use shared::eval::{evaluate, Category};
use std::fmt;

/// An answer as the dealer reads it (spec §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// Gave up the hand.
    Fold,
    /// Nothing owed, nothing put in.
    Check,
    /// Matched the price.
    Call,
    /// Raised by at least the minimum.
    Raise,
    /// Put in the whole stack, more than a call (a call that takes the whole stack is a
    /// call here, though the dealer's log says `allin`: for the team, it answered the price).
    AllIn,
}

impl Move {
    /// How the dealer reads `answer` in `state`.
    pub(crate) fn of(state: &GameState, answer: player::Chips) -> Move {
        match state.read_bet(answer).action {
            BetAction::Fold => Move::Fold,
            BetAction::Check => Move::Check,
            BetAction::Call => Move::Call,
            BetAction::Raise => Move::Raise,
            BetAction::AllIn if state.read_bet(answer).put_in <= state.call_amount() => Move::Call,
            BetAction::AllIn => Move::AllIn,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Move::Fold => "fold",
            Move::Check => "check",
            Move::Call => "call",
            Move::Raise => "raise",
            Move::AllIn => "all-in",
        })
    }
}

/// Your seat in the hand, counted from the button among the players dealt in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// The first half of the seats between the big blind and the button (first to act
    /// preflop).
    Early,
    /// The rest of them, up to the seat before the button.
    Late,
    /// The button (heads-up the button posts the small blind and is counted here).
    Button,
    /// The small blind.
    SmallBlind,
    /// The big blind.
    BigBlind,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Position::Early => "early",
            Position::Late => "late",
            Position::Button => "button",
            Position::SmallBlind => "small blind",
            Position::BigBlind => "big blind",
        })
    }
}

/// A price in big blinds, in three steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BigBlinds {
    /// Up to 3 big blinds.
    #[serde(rename = "up_to_3")]
    UpTo3,
    /// More than 3, up to 10.
    #[serde(rename = "up_to_10")]
    UpTo10,
    /// More than 10.
    #[serde(rename = "over_10")]
    Over10,
}

impl BigBlinds {
    fn of(chips: u64, big_blind: u64) -> BigBlinds {
        let big_blind = big_blind.max(1);
        if chips <= 3 * big_blind {
            BigBlinds::UpTo3
        } else if chips <= 10 * big_blind {
            BigBlinds::UpTo10
        } else {
            BigBlinds::Over10
        }
    }
}

impl fmt::Display for BigBlinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BigBlinds::UpTo3 => "up to 3 BB",
            BigBlinds::UpTo10 => "3 to 10 BB",
            BigBlinds::Over10 => "over 10 BB",
        })
    }
}

/// A bet after the flop against the pot before it, in three steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PotShare {
    /// Up to half the pot.
    UpToHalf,
    /// More than half, up to the whole pot.
    UpToPot,
    /// More than the pot.
    OverPot,
}

impl fmt::Display for PotShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PotShare::UpToHalf => "up to half the pot",
            PotShare::UpToPot => "half to the whole pot",
            PotShare::OverPot => "over the pot",
        })
    }
}

/// What you faced when you answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Faced {
    /// Nothing to call: checked to you, first to act after the flop, or the big blind's
    /// option.
    Nothing,
    /// Preflop, only the blinds in: you may open.
    Unopened,
    /// Preflop, one or more players called the big blind and nobody raised.
    Limp,
    /// Preflop, a raise (not all-in): the price to call it.
    Raise {
        /// The raise's total, in big blinds.
        to: BigBlinds,
    },
    /// After the flop, a bet or raise (not all-in).
    Bet {
        /// The chips to call against the pot before them.
        size: PotShare,
    },
    /// The player who set the price is all-in.
    AllIn,
}

impl fmt::Display for Faced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Faced::Nothing => f.write_str("nothing to call"),
            Faced::Unopened => f.write_str("unopened"),
            Faced::Limp => f.write_str("facing a limp"),
            Faced::Raise { to } => write!(f, "facing a raise to {to}"),
            Faced::Bet { size } => write!(f, "facing a bet of {size}"),
            Faced::AllIn => f.write_str("facing an all-in"),
        }
    }
}

/// Your hand: its class before the flop, what it makes with the board after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "made", rename_all = "snake_case")]
pub enum HandClass {
    /// A pocket pair.
    Pair,
    /// An ace and another card of its suit.
    AceSuited,
    /// An ace and another card of another suit.
    AceOffsuit,
    /// Two cards from ten to king.
    Broadway,
    /// Two suited cards of neighbouring ranks (below the broadways).
    SuitedConnector,
    /// Any other two cards.
    Other,
    /// After the flop: the best hand your cards make with the board.
    Made(Category),
}

impl HandClass {
    fn of(cards: &[Card], board: &[Card]) -> HandClass {
        let [first, second] = cards else {
            return HandClass::Other;
        };
        if !board.is_empty() {
            let all: Vec<Card> = cards.iter().chain(board).copied().collect();
            return evaluate(&all)
                .map_or(HandClass::Other, |hand| HandClass::Made(hand.category()));
        }
        let (high, low) = if first.rank >= second.rank {
            (first, second)
        } else {
            (second, first)
        };
        let suited = high.suit == low.suit;
        if high.rank == low.rank {
            HandClass::Pair
        } else if high.rank == Rank::Ace {
            if suited {
                HandClass::AceSuited
            } else {
                HandClass::AceOffsuit
            }
        } else if low.rank >= Rank::Ten {
            HandClass::Broadway
        } else if suited && high.rank as u8 == low.rank as u8 + 1 {
            HandClass::SuitedConnector
        } else {
            HandClass::Other
        }
    }
}

impl fmt::Display for HandClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandClass::Pair => f.write_str("a pocket pair"),
            HandClass::AceSuited => f.write_str("A-x suited"),
            HandClass::AceOffsuit => f.write_str("A-x offsuit"),
            HandClass::Broadway => f.write_str("two broadway cards"),
            HandClass::SuitedConnector => f.write_str("suited connectors"),
            HandClass::Other => f.write_str("other cards"),
            HandClass::Made(category) => write!(f, "{category}"),
        }
    }
}

/// The kind of a changed decision: what the groups are keyed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct DecisionKind {
    /// The street.
    pub street: Street,
    /// What you faced.
    pub faced: Faced,
    /// Your hand.
    pub hand: HandClass,
    /// The last run's answer.
    pub before: Move,
    /// This run's answer.
    pub now: Move,
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let street = match self.street {
            Street::Preflop => "preflop",
            Street::Flop => "flop",
            Street::Turn => "turn",
            Street::River => "river",
        };
        let now = if self.before == self.now {
            format!("{} of another size", self.now)
        } else {
            self.now.to_string()
        };
        write!(
            f,
            "{street}, {}, {}: was {}, now {now}",
            self.faced, self.hand, self.before
        )
    }
}

/// A changed decision: its kind and your position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Classified {
    pub(crate) kind: DecisionKind,
    pub(crate) position: Position,
}

/// Classifies your decision in `state` (a bet request to you) answered `before` by the last
/// run and `now` by this one.
pub(crate) fn classify(state: &GameState, before: Move, now: Move) -> Classified {
    let street = state.street().unwrap_or(Street::Preflop);
    let you = state.in_action().map_or(0, |seat| seat.index());
    let big_blind = state.big_blind().get();
    // Dealt in, from the seat after the button: small blind, big blind, ..., button.
    let seats = state.players.len().max(1);
    let order: Vec<usize> = (1..=seats)
        .map(|step| (state.dealer.index() + step) % seats)
        .filter(|&seat| state.players[seat].status != PlayerStatus::Out)
        .collect();
    let index = order.iter().position(|&seat| seat == you).unwrap_or(0);
    let position = if order.len() <= 2 {
        if you == state.dealer.index() {
            Position::Button
        } else {
            Position::BigBlind
        }
    } else if index == order.len() - 1 {
        Position::Button
    } else if index == 0 {
        Position::SmallBlind
    } else if index == 1 {
        Position::BigBlind
    } else if index - 2 < (order.len() - 3) / 2 {
        Position::Early
    } else {
        Position::Late
    };
    let big_blind_seat = match order.len() {
        0 | 1 => None,
        2 => order
            .iter()
            .copied()
            .find(|&seat| seat != state.dealer.index()),
        _ => Some(order[1]),
    };
    let call = state.call_amount().get();
    let price_setter_all_in = state.players.iter().any(|player| {
        player.id.index() != you
            && player.status == PlayerStatus::Active
            && player.stack.is_zero()
            && player.bet == state.current_buy_in
    });
    let faced = if call == 0 {
        Faced::Nothing
    } else if price_setter_all_in {
        Faced::AllIn
    } else if street == Street::Preflop {
        let buy_in = state.current_buy_in.get();
        if buy_in <= big_blind {
            let limpers = state.players.iter().any(|player| {
                Some(player.id.index()) != big_blind_seat
                    && player.id.index() != you
                    && player.bet.get() == buy_in
            });
            if limpers {
                Faced::Limp
            } else {
                Faced::Unopened
            }
        } else {
            Faced::Raise {
                to: BigBlinds::of(buy_in, big_blind),
            }
        }
    } else {
        let pot_before = state.pot.get().saturating_sub(call).max(1);
        let size = if call * 2 <= pot_before {
            PotShare::UpToHalf
        } else if call <= pot_before {
            PotShare::UpToPot
        } else {
            PotShare::OverPot
        };
        Faced::Bet { size }
    };
    Classified {
        kind: DecisionKind {
            street,
            faced,
            hand: HandClass::of(state.my_cards(), &state.community_cards),
            before,
            now,
        },
        position,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::card::parse_cards;

    #[test]
    fn hands_fall_in_their_class() {
        let class = |cards: &str, board: &str| {
            HandClass::of(&parse_cards(cards).unwrap(), &parse_cards(board).unwrap())
        };
        assert_eq!(class("As Ad", ""), HandClass::Pair);
        assert_eq!(class("7h Ah", ""), HandClass::AceSuited);
        assert_eq!(class("Ah 7c", ""), HandClass::AceOffsuit);
        assert_eq!(class("Kh Tc", ""), HandClass::Broadway);
        assert_eq!(class("9h 8h", ""), HandClass::SuitedConnector);
        assert_eq!(class("9h 8c", ""), HandClass::Other);
        assert_eq!(class("9h 7h", ""), HandClass::Other);
        assert_eq!(class("9h 8c", "9s 2d 3c"), HandClass::Made(Category::Pair));
        assert_eq!(
            class("9h 8h", "Jh Th 7h"),
            HandClass::Made(Category::StraightFlush)
        );
    }

    /// A preflop table of four: seat 0 the button, 1 and 2 the blinds (10/20), seat 3
    /// having put in `third` chips, `you` in action with A-x offsuit.
    fn preflop(you: usize, third: u64, third_stack: u64) -> GameState {
        let player = |id: usize, bet: u64, stack: u64| {
            let mut player = serde_json::json!({
                "id": id, "name": format!("p{id}"), "status": "active", "version": "",
                "stack": stack, "bet": bet,
            });
            if id == you {
                player["hole_cards"] = serde_json::json!([
                    {"rank": "A", "suit": "hearts"}, {"rank": "9", "suit": "clubs"}
                ]);
            }
            player
        };
        let state = serde_json::json!({
            "small_blind": 10, "current_buy_in": third.max(20), "pot": 30 + third,
            "minimum_raise": 20, "dealer": 0, "orbits": 0, "in_action": you, "round": 3,
            "bet_index": 2, "community_cards": [],
            "players": [player(0, 0, 1000), player(1, 10, 990), player(2, 20, 980),
                        player(3, third, third_stack)],
        });
        GameState::from_json(&state.to_string()).unwrap()
    }

    #[test]
    fn positions_and_prices_are_read_from_the_document() {
        let read = |state: &GameState| {
            let classified = classify(state, Move::Fold, Move::Call);
            (
                classified.position,
                classified.kind.faced,
                classified.kind.hand,
            )
        };
        // First to act after the blinds, of four: the one seat before the button.
        assert_eq!(
            read(&preflop(3, 0, 1000)),
            (Position::Late, Faced::Unopened, HandClass::AceOffsuit)
        );
        // On the button behind a limp, a raise, a large raise, an all-in.
        assert_eq!(read(&preflop(0, 20, 980)).1, Faced::Limp);
        assert_eq!(read(&preflop(0, 20, 980)).0, Position::Button);
        assert_eq!(
            read(&preflop(0, 60, 940)).1,
            Faced::Raise {
                to: BigBlinds::UpTo3
            }
        );
        assert_eq!(
            read(&preflop(0, 300, 700)).1,
            Faced::Raise {
                to: BigBlinds::Over10
            }
        );
        assert_eq!(read(&preflop(0, 1000, 0)).1, Faced::AllIn);
        // The big blind, nothing more to call: its option.
        let option = preflop(2, 20, 980);
        assert_eq!(read(&option).0, Position::BigBlind);
        assert_eq!(read(&option).1, Faced::Nothing);
        // After the flop (the API page's example): heads-up on the button, facing 240 into a
        // pot of 160, a pair made with the board.
        let mut flop = shared::testing_state();
        assert_eq!(
            read(&flop),
            (
                Position::Button,
                Faced::Bet {
                    size: PotShare::OverPot
                },
                HandClass::Made(Category::Pair)
            )
        );
        flop.players[0].stack = player::Chips::ZERO;
        assert_eq!(read(&flop).1, Faced::AllIn);
        // A call that takes the whole stack is a call; more than the price, all-in.
        let short = preflop(0, 1000, 0);
        assert_eq!(Move::of(&short, player::Chips(1000)), Move::Call);
        assert_eq!(
            Move::of(&preflop(0, 60, 940), player::Chips(1000)),
            Move::AllIn
        );
        assert_eq!(Move::of(&short, player::Chips::ZERO), Move::Fold);
    }

    #[test]
    fn kinds_read_as_a_team_says_them() {
        let raise = Faced::Raise {
            to: BigBlinds::UpTo3,
        };
        assert_eq!(
            serde_json::to_string(&raise).unwrap(),
            r#"{"kind":"raise","to":"up_to_3"}"#
        );
        assert_eq!(
            serde_json::to_string(&HandClass::Made(Category::TwoPair)).unwrap(),
            r#"{"kind":"made","made":"two_pair"}"#
        );
        let kind = DecisionKind {
            street: Street::Preflop,
            faced: Faced::AllIn,
            hand: HandClass::AceOffsuit,
            before: Move::Fold,
            now: Move::Call,
        };
        assert_eq!(
            kind.to_string(),
            "preflop, facing an all-in, A-x offsuit: was fold, now call"
        );
        let resized = DecisionKind {
            street: Street::Flop,
            faced: Faced::Bet {
                size: PotShare::UpToHalf,
            },
            hand: HandClass::Made(Category::TwoPair),
            before: Move::Raise,
            now: Move::Raise,
        };
        assert_eq!(
            resized.to_string(),
            "flop, facing a bet of up to half the pot, two pair: was raise, now raise of another size"
        );
    }
}

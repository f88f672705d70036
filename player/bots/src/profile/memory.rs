//! A profile's memory of the hand: what the player did and saw earlier in the hand it is
//! playing ([`Memory`]), tracked across its decisions by [`HandTracker`].
//!
//! A `game_state` has no history, only the bets as they stand, so the memory is read off the
//! sequence of states the player was asked in during the hand: between two of its decisions
//! its own bet moves only by its answer, so its bet at one decision says whether it raised at
//! the one before (`bet > the buy-in it was asked at`), and a buy-in above its own bet says
//! that someone raised since it last acted. The tracker needs nothing but those states: the
//! fitter feeds it every state a recorded player was asked in, in order, and the profile bot
//! the states it is sent, so the two read the same memory from the same decisions (an answer
//! the dealer read otherwise than the bot meant, or replaced after an overrun, is remembered
//! as the dealer applied it).

use player::{Card, Chips, GameState, Seat, Street};

/// Who made the last raise of the hand before this street began.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Initiative {
    /// Nobody raised (preflop: always; the blinds are no raise).
    #[default]
    Nobody,
    /// The player did: it was the aggressor (a continuation-bet spot).
    Mine,
    /// Another player did.
    Theirs,
}

/// What the player did earlier on this street.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Earlier {
    /// Nothing: this is its first answer on the street.
    #[default]
    Nothing,
    /// It checked or called (and, preflop, posted a blind and limped or completed).
    CheckedOrCalled,
    /// It raised (at least once) and is asked again: someone raised it back.
    Raised,
}

/// What a player remembers of the hand at a decision: who had the initiative when the street
/// began, and what it did earlier on the street.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Memory {
    /// Who made the last raise before this street.
    pub initiative: Initiative,
    /// What the player did earlier on this street.
    pub earlier: Earlier,
}

/// Memory classes: three initiatives by three earlier actions, and "not remembered" (a
/// decision whose earlier ones in the hand the player did not see: a bot restarted in the
/// middle of a hand, a request that never reached it).
pub const MEMORIES: usize = 10;

impl Memory {
    /// The memory of a player's first decision of a hand.
    pub const FIRST: Memory = Memory {
        initiative: Initiative::Nobody,
        earlier: Earlier::Nothing,
    };

    /// The class number of `memory` in `0..MEMORIES`: `3 × initiative + earlier`, and
    /// `MEMORIES - 1` for `None` (not remembered).
    pub fn index_of(memory: Option<Memory>) -> usize {
        memory.map_or(MEMORIES - 1, |memory| {
            memory.initiative as usize * 3 + memory.earlier as usize
        })
    }

    /// The memory numbered `index` (the inverse of [`Memory::index_of`]); `None` for the
    /// class "not remembered" and past it.
    pub fn from_index(index: usize) -> Option<Memory> {
        const INITIATIVES: [Initiative; 3] =
            [Initiative::Nobody, Initiative::Mine, Initiative::Theirs];
        const EARLIER: [Earlier; 3] = [Earlier::Nothing, Earlier::CheckedOrCalled, Earlier::Raised];
        (index < MEMORIES - 1).then(|| Memory {
            initiative: INITIATIVES[index / 3],
            earlier: EARLIER[index % 3],
        })
    }
}

/// The decision before, as the tracker keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Asked {
    street: Street,
    /// The player's bet (for the whole hand) when it was asked.
    bet: Chips,
    /// The largest bet when it was asked.
    buy_in: Chips,
    /// The pot when it was asked.
    pot: Chips,
    /// What the player remembered then.
    memory: Option<Memory>,
}

/// What tells one hand of a player from the next: the game, the hand's number and the
/// player's cards (a state without a game id or a round still changes its cards).
#[derive(Debug, Clone, PartialEq, Eq)]
struct HandMark {
    game: Option<String>,
    round: Option<u64>,
    cards: Vec<Card>,
}

impl HandMark {
    fn of(state: &GameState) -> HandMark {
        HandMark {
            game: state.game_id.clone(),
            round: state.round,
            cards: state.my_cards().to_vec(),
        }
    }

    /// Whether `state` is of this hand (compared in place: no copy on every decision).
    fn marks(&self, state: &GameState) -> bool {
        self.round == state.round
            && self.game.as_deref() == state.game_id.as_deref()
            && self.cards == state.my_cards()
    }
}

/// Tracks one player's hand across its decisions, for [`Situation::read`]: feed it every
/// state the player is asked in, in order (the reading does). A state of another hand (another
/// game, round or pair of cards, a street or a bet that went back) starts a new hand.
///
/// [`Situation::read`]: super::Situation::read
#[derive(Debug, Clone, Default)]
pub struct HandTracker {
    hand: Option<HandMark>,
    /// Whether every decision of the player in this hand was seen (the first seen was its
    /// first of the hand).
    complete: bool,
    last: Option<Asked>,
    /// Who made the hand's last raise, as far as the decisions seen tell.
    last_raise: Initiative,
    /// Who had made it when the current street began.
    initiative: Initiative,
    /// What the player did earlier on the current street.
    earlier: Earlier,
}

impl HandTracker {
    /// Takes in the state the player in action is asked in and returns what it remembers of
    /// the hand before this decision; `None` when it did not see every earlier decision of
    /// the hand (or the state has no player in action or no street).
    pub fn observe(&mut self, state: &GameState) -> Option<Memory> {
        let (Some(me), Some(street)) = (state.me(), state.street()) else {
            *self = HandTracker::default();
            return None;
        };
        let same_hand = self.hand.as_ref().is_some_and(|hand| hand.marks(state))
            && self
                .last
                .is_some_and(|last| last.street <= street && last.bet <= me.bet);
        let last = self.last.filter(|_| same_hand);
        // The same decision asked again (a request sent twice): two decisions of one hand
        // differ in street, bet, buy-in or pot.
        if let Some(last) = last.filter(|last| {
            (last.street, last.bet, last.buy_in, last.pot)
                == (street, me.bet, state.current_buy_in, state.pot)
        }) {
            return last.memory;
        }
        match last {
            Some(last) => {
                // Between two decisions the player's bet moves only by its answer.
                let raised = me.bet > last.buy_in;
                if raised {
                    self.last_raise = Initiative::Mine;
                }
                if street != last.street {
                    self.initiative = self.last_raise;
                    self.earlier = Earlier::Nothing;
                } else if raised || self.earlier == Earlier::Raised {
                    self.earlier = Earlier::Raised;
                } else {
                    self.earlier = Earlier::CheckedOrCalled;
                }
            }
            None => {
                *self = HandTracker {
                    // Its first decision of the hand: preflop, with no more in than its blind.
                    complete: street == Street::Preflop && me.bet <= posted_blind(state),
                    hand: Some(HandMark::of(state)),
                    ..HandTracker::default()
                };
            }
        }
        let memory = self.complete.then_some(Memory {
            initiative: self.initiative,
            earlier: self.earlier,
        });
        // A bet above the player's own since it last acted (preflop: above the big blind
        // too) is someone's raise; it counts for the streets to come.
        let level = match street {
            Street::Preflop => me.bet.max(state.big_blind()),
            _ => me.bet,
        };
        if state.current_buy_in > level {
            self.last_raise = Initiative::Theirs;
        }
        self.last = Some(Asked {
            street,
            bet: me.bet,
            buy_in: state.current_buy_in,
            pot: state.pot,
            memory,
        });
        memory
    }
}

/// The blind the player in action posted this hand (heads-up, the button posts the big one);
/// zero for a seat that posted none.
pub(super) fn posted_blind(state: &GameState) -> Chips {
    let Some(me) = state.me() else {
        return Chips::ZERO;
    };
    let seated = state.players_with_chips().count();
    match (state.position(me.id), seated) {
        (Some(1), _) => state.small_blind,
        (Some(2), 3..) | (Some(0), 2) => state.big_blind(),
        _ => Chips::ZERO,
    }
}

/// Most hands one bot remembers at once ([`HandTrackers`]).
const HANDS_REMEMBERED: usize = 64;

/// The hands a bot is playing: one [`HandTracker`] per game and seat, for a bot that plays
/// several games at once (a served bot is asked by every game it sits in, and the games of a
/// duplicate deal share their `game_id`, in other seats). Past 64, the hand asked least
/// recently is forgotten.
#[derive(Debug, Default)]
pub struct HandTrackers {
    /// Game, seat, when last asked, the hand: a few at a time, found by a look at each.
    hands: Vec<(Option<String>, Option<Seat>, u64, HandTracker)>,
    asked: u64,
}

impl HandTrackers {
    /// The tracker of the hand the player in action plays in `state` (a new one for a hand not
    /// remembered).
    pub fn tracker(&mut self, state: &GameState) -> &mut HandTracker {
        self.asked += 1;
        let seat = state.in_action();
        let found = self.hands.iter().position(|(game, at, _, _)| {
            *at == seat && game.as_deref() == state.game_id.as_deref()
        });
        let at = match found {
            Some(at) => at,
            None => {
                if self.hands.len() >= HANDS_REMEMBERED {
                    let oldest = (0..self.hands.len()).min_by_key(|&at| self.hands[at].2);
                    if let Some(oldest) = oldest {
                        self.hands.swap_remove(oldest);
                    }
                }
                let fresh = (state.game_id.clone(), seat, 0, HandTracker::default());
                self.hands.push(fresh);
                self.hands.len() - 1
            }
        };
        let entry = &mut self.hands[at];
        entry.2 = self.asked;
        &mut entry.3
    }

    /// Forgets the hand a showdown `state` ends (in any seat of its game), unless that game has
    /// gone on to the next hand already.
    pub fn hand_ended(&mut self, state: &GameState) {
        self.hands.retain(|(game, _, _, tracker)| {
            game.as_deref() != state.game_id.as_deref()
                || tracker
                    .hand
                    .as_ref()
                    .is_none_or(|hand| hand.round != state.round)
        });
    }

    /// Hands remembered.
    pub fn len(&self) -> usize {
        self.hands.len()
    }

    /// Whether no hand is remembered.
    pub fn is_empty(&self) -> bool {
        self.hands.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use player::testing::table;

    /// The button (seat 3 of four, blinds 10/20) asked with the table's `bets`, seats 1 and 2
    /// folded, on `board`, in hand `round`.
    fn asked(bets: [u64; 4], board: &str, round: u64) -> GameState {
        table(4)
            .dealer(3)
            .in_action(3)
            .hole_cards("As Kd")
            .bets(bets)
            .fold(1)
            .fold(2)
            .board(board)
            .round(round)
            .build()
    }

    fn memory(initiative: Initiative, earlier: Earlier) -> Option<Memory> {
        Some(Memory {
            initiative,
            earlier,
        })
    }

    #[test]
    fn the_hand_is_read_off_the_states_the_player_was_asked_in() {
        let mut hand = HandTracker::default();
        let flop = "2c 7d 9h";
        // Its first decision: it raises to 60.
        assert_eq!(
            hand.observe(&asked([10, 20, 0, 0], "", 0)),
            Some(Memory::FIRST)
        );
        // Re-raised to 180 by the small blind: it raised earlier on this street; it calls.
        let reraised = hand.observe(&asked([180, 20, 0, 60], "", 0));
        assert_eq!(reraised, memory(Initiative::Nobody, Earlier::Raised));
        // The flop, checked to it: the small blind raised last before the flop. It bets 100.
        let flop_memory = hand.observe(&asked([180, 20, 0, 180], flop, 0));
        assert_eq!(flop_memory, memory(Initiative::Theirs, Earlier::Nothing));
        // Raised to 500: it bet earlier on the flop. It calls.
        let raised = hand.observe(&asked([500, 20, 0, 280], flop, 0));
        assert_eq!(raised, memory(Initiative::Theirs, Earlier::Raised));
        // The turn: the small blind's raise on the flop was the last.
        let turn = hand.observe(&asked([500, 20, 0, 500], "2c 7d 9h Js", 0));
        assert_eq!(turn, memory(Initiative::Theirs, Earlier::Nothing));
    }

    #[test]
    fn the_raiser_before_the_flop_has_the_initiative_on_it() {
        let mut hand = HandTracker::default();
        assert_eq!(
            hand.observe(&asked([10, 20, 0, 0], "", 4)),
            Some(Memory::FIRST)
        );
        // It raised to 60 and was called: a continuation-bet spot.
        let flop = hand.observe(&asked([60, 20, 0, 60], "2c 7d 9h", 4));
        assert_eq!(flop, memory(Initiative::Mine, Earlier::Nothing));
        // It checked; the small blind bets 40: it checked earlier on this street.
        let bet_into = hand.observe(&asked([100, 20, 0, 60], "2c 7d 9h", 4));
        assert_eq!(bet_into, memory(Initiative::Mine, Earlier::CheckedOrCalled));
        // It called: the small blind's bet is the last raise before the turn.
        let turn = hand.observe(&asked([100, 20, 0, 100], "2c 7d 9h Js", 4));
        assert_eq!(turn, memory(Initiative::Theirs, Earlier::Nothing));
    }

    #[test]
    fn a_hand_not_seen_from_its_start_is_not_remembered_until_the_next() {
        let mut hand = HandTracker::default();
        assert_eq!(hand.observe(&asked([60, 20, 0, 60], "2c 7d 9h", 2)), None);
        assert_eq!(hand.observe(&asked([100, 20, 0, 60], "2c 7d 9h", 2)), None);
        // Asked a second time before the flop, with more than its blind in: not its first.
        assert_eq!(hand.observe(&asked([180, 20, 0, 60], "", 3)), None);
        assert_eq!(
            hand.observe(&asked([10, 20, 0, 0], "", 4)),
            Some(Memory::FIRST)
        );
    }

    #[test]
    fn a_request_sent_twice_is_one_decision() {
        let mut hand = HandTracker::default();
        let first = asked([10, 20, 0, 0], "", 0);
        assert_eq!(hand.observe(&first), Some(Memory::FIRST));
        assert_eq!(hand.observe(&first), Some(Memory::FIRST));
        let reraised = asked([180, 20, 0, 60], "", 0);
        let memory_then = hand.observe(&reraised);
        assert_eq!(hand.observe(&reraised), memory_then);
    }

    #[test]
    fn every_memory_class_has_its_number() {
        for index in 0..MEMORIES {
            assert_eq!(Memory::index_of(Memory::from_index(index)), index);
        }
        assert_eq!(Memory::index_of(Some(Memory::FIRST)), 0);
        assert_eq!(Memory::from_index(MEMORIES), None);
    }

    #[test]
    fn games_played_at_once_are_remembered_apart() {
        let in_game = |game: &str, bets: [u64; 4], board: &str| {
            let mut state = asked(bets, board, 0);
            state.game_id = Some(game.to_string());
            state
        };
        let mut hands = HandTrackers::default();
        let mut observe = |state: &GameState| hands.tracker(state).observe(state);
        assert_eq!(
            observe(&in_game("a", [10, 20, 0, 0], "")),
            Some(Memory::FIRST)
        );
        assert_eq!(
            observe(&in_game("b", [10, 20, 0, 0], "")),
            Some(Memory::FIRST)
        );
        let a_flop = observe(&in_game("a", [60, 20, 0, 60], "2c 7d 9h"));
        assert_eq!(a_flop, memory(Initiative::Mine, Earlier::Nothing));
        let b_raised = observe(&in_game("b", [180, 20, 0, 60], ""));
        assert_eq!(b_raised, memory(Initiative::Nobody, Earlier::Raised));
        // The showdown of game a's hand forgets it, and only it.
        let mut showdown = in_game("a", [0, 0, 0, 0], "");
        showdown.in_action = None;
        hands.hand_ended(&showdown);
        assert_eq!(hands.len(), 1);
        // A bot that plays many games forgets the one it was asked least recently.
        for game in 0..2 * HANDS_REMEMBERED {
            let state = in_game(&game.to_string(), [10, 20, 0, 0], "");
            hands.tracker(&state).observe(&state);
        }
        assert_eq!(hands.len(), HANDS_REMEMBERED);
    }
}

//! What a profile conditions on: a decision read off the `game_state` the player was asked in
//! and its memory of the hand ([`Situation`]), and what it answered ([`AnswerClass`] and the
//! raise's size). One reading for fitting and for play: the fitter reads recorded states with
//! the same function the bot reads live ones with, each through a [`HandTracker`] fed the
//! player's earlier states of the hand, so what was learned is what is looked up.

use super::memory::{posted_blind, HandTracker, Memory, MEMORIES};
use crate::preflop;
use crate::spot::Spot;
use player::shared::eval::{strength_of, Category};
use player::{BetAction, Card, Chips, GameState, Street};
use std::sync::OnceLock;

/// Streets: preflop, flop, turn, river.
pub const STREETS: usize = 4;
/// Strength classes on each street (see [`Situation::strength`]).
pub const STRENGTHS: usize = 7;
/// Price classes (see [`Situation::price`]).
pub const PRICES: usize = 5;
/// Stack-depth classes (see [`Situation::depth`]).
pub const DEPTHS: usize = 4;
/// Chip-lead classes (see [`Situation::lead`]).
pub const LEADS: usize = 4;
/// Players-in-the-hand classes: 2, 3, 4 or more.
pub const PLAYER_COUNTS: usize = 3;
/// Position classes: blinds, early, late (the button and the two seats before it).
pub const POSITIONS: usize = 3;
/// Investment classes: not yet in, already in (see [`Situation::invested`]).
pub const INVESTMENTS: usize = 2;
/// The situations told apart by the state alone (the key without the memory of the hand).
pub const STATE_SITUATIONS: usize =
    STREETS * STRENGTHS * PRICES * INVESTMENTS * DEPTHS * LEADS * PLAYER_COUNTS * POSITIONS;
/// Every situation a profile tells apart: those of the state, by [`MEMORIES`].
pub const SITUATIONS: usize = STATE_SITUATIONS * MEMORIES;

/// The bases of the state's classes, in the order of [`Situation::digits`].
const STATE_BASES: [usize; 8] = [
    STREETS,
    STRENGTHS,
    PRICES,
    INVESTMENTS,
    DEPTHS,
    LEADS,
    PLAYER_COUNTS,
    POSITIONS,
];

/// Preflop strength classes by the hand's rank among the 1,326 starting hands (heads-up
/// equity): the upper bound of each class's share, weakest class first.
const PREFLOP_SHARE_BOUNDS: [f64; STRENGTHS] = [1.0, 0.75, 0.50, 0.30, 0.15, 0.08, 0.03];

/// Stack depth classes, in big blinds: up to 10, 25, 60, deeper.
const DEPTH_BOUNDS: [f64; DEPTHS - 1] = [10.0, 25.0, 60.0];

/// Chip-lead classes, the player's chips over the other players' average: up to 1, 1.5, 3,
/// more.
const LEAD_BOUNDS: [f64; LEADS - 1] = [1.0, 1.5, 3.0];

/// One decision as a profile sees it. Every field but the memory is a small class number;
/// [`Situation::index`] packs them into `0..SITUATIONS`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Situation {
    /// 0 preflop, 1 flop, 2 turn, 3 river.
    pub street: u8,
    /// 0 (weakest) to 6 (strongest). Preflop: the hand's rank among all starting hands, by
    /// share: the bottom 25%, 50–75%, 30–50%, 15–30%, 8–15%, 3–8%, the top 3%. After the flop,
    /// what the player's own cards make with the board: 0 nothing, 1 a draw (four to a flush
    /// or to a straight, not on the river), 2 a pair below the board's top card, 3 top pair
    /// or an overpair, 4 two pair, 5 three of a kind, 6 a straight or better (a hand the board
    /// makes alone counts as nothing).
    pub strength: u8,
    /// What it costs to go on. 0: nothing (a check is free). Preflop: 1 the blind only
    /// (nobody raised), 2 a raise costing under 35% of the stack, 3 a bigger raise, 4 a call
    /// that puts the whole stack in. After the flop, by pot odds `call / (pot + call)`: 1 under
    /// 25%, 2 under 38%, 3 more, 4 a call of the whole stack.
    pub price: u8,
    /// Whether the player is already in: preflop, it put in more than its blind (it called or
    /// raised, and is asked again); after the flop, a third of its chips are in the pot.
    pub invested: u8,
    /// The player's chips (stack and bet) in big blinds: 0 up to 10, 1 up to 25, 2 up to 60,
    /// 3 deeper.
    pub depth: u8,
    /// The player's chips (stack and bet) against the average of the other players who have
    /// chips: 0 up to as many, 1 up to 1.5 times, 2 up to 3 times, 3 more (some bots play
    /// by their rank at the table, not by the blinds).
    pub lead: u8,
    /// Players still in the hand, the player included: 0 two, 1 three, 2 four or more.
    pub players: u8,
    /// 0 a blind, 1 early, 2 late (the button and the two seats before it).
    pub position: u8,
    /// What the player remembers of the hand: who raised last before this street, and what
    /// it did earlier on this street; `None` when it did not see the hand's earlier decisions
    /// (then the profile plays it by the state alone).
    pub memory: Option<Memory>,
}

impl Situation {
    /// The situation of the player in action, or `None` when there is nothing to decide from
    /// (no hole cards, an impossible board, nobody left to play against). `hand` is the
    /// player's tracker of the hand, which takes in `state`: give it every state the player is
    /// asked in, in order, and only those.
    pub fn read(state: &GameState, hand: &mut HandTracker) -> Option<Situation> {
        let memory = hand.observe(state);
        // The reading the house field's bots decide from: cards, street, opponents, price.
        let Spot {
            cards: [first, second],
            street,
            opponents,
            call,
            ..
        } = Spot::read(state)?;
        let me = state.me()?;
        let strength = match street {
            Street::Preflop => preflop_strength(first, second),
            _ => postflop_strength([first, second], &state.community_cards, street),
        };
        let price = if call.is_zero() {
            0
        } else if call >= me.stack {
            4
        } else if street == Street::Preflop {
            if state.current_buy_in <= state.big_blind() {
                1
            } else if (call.get() as f64) < 0.35 * me.stack.get() as f64 {
                2
            } else {
                3
            }
        } else {
            let odds = call.get() as f64 / state.pot.saturating_add(call).get().max(1) as f64;
            if odds < 0.25 {
                1
            } else if odds < 0.38 {
                2
            } else {
                3
            }
        };
        let seated = state.players_with_chips().count();
        let position_from_button = state.position(me.id);
        let invested = if street == Street::Preflop {
            u8::from(me.bet > posted_blind(state))
        } else {
            u8::from(me.bet.get().saturating_mul(3) >= me.bet.saturating_add(me.stack).get())
        };
        // In big blinds, the stack and the bet summed before dividing (as the profiles were
        // fitted: the class boundaries are exact numbers).
        let chips =
            me.stack.saturating_add(me.bet).get() as f64 / state.big_blind().get().max(1) as f64;
        let depth = DEPTH_BOUNDS.iter().filter(|&&bound| chips > bound).count() as u8;
        let (others, others_chips) = state
            .players_with_chips()
            .filter(|player| player.id != me.id)
            .fold((0u64, 0u64), |(count, sum), player| {
                (count + 1, sum.saturating_add(player.total_chips().get()))
            });
        let ratio =
            me.total_chips().get() as f64 * others.max(1) as f64 / others_chips.max(1) as f64;
        let lead = LEAD_BOUNDS.iter().filter(|&&bound| ratio > bound).count() as u8;
        let players = (opponents + 1).clamp(2, 4) as u8 - 2;
        let position = match position_from_button {
            Some(1 | 2) if seated > 2 => 0,
            Some(1) => 0,
            Some(0) => 2,
            Some(p) if p + 2 >= seated => 2,
            Some(_) => 1,
            None => 1,
        };
        Some(Situation {
            street: street as u8,
            strength,
            price,
            invested,
            depth,
            lead,
            players,
            position,
            memory,
        })
    }

    /// The state's classes, the index's slowest-moving digit first: street, strength, price,
    /// invested, depth, lead, players, position.
    pub(crate) fn digits_mut(&mut self) -> [&mut u8; 8] {
        [
            &mut self.street,
            &mut self.strength,
            &mut self.price,
            &mut self.invested,
            &mut self.depth,
            &mut self.lead,
            &mut self.players,
            &mut self.position,
        ]
    }

    /// The state's classes, in the order of [`Situation::digits_mut`].
    pub(crate) fn digits(mut self) -> [u8; 8] {
        self.digits_mut().map(|digit| *digit)
    }

    /// The situation's number in `0..SITUATIONS` (street the slowest-moving digit, the memory
    /// the fastest: `state index × MEMORIES + memory class`).
    pub fn index(self) -> usize {
        self.state_index() * MEMORIES + Memory::index_of(self.memory)
    }

    /// The number in `0..STATE_SITUATIONS` of the situation without its memory: what the
    /// profile falls back on where the memory was seen rarely.
    pub fn state_index(self) -> usize {
        self.digits()
            .into_iter()
            .zip(STATE_BASES)
            .fold(0, |index, (digit, base)| index * base + digit as usize)
    }

    /// The situation numbered `index` (the inverse of [`Situation::index`]); `None` past
    /// [`SITUATIONS`].
    pub fn from_index(index: usize) -> Option<Situation> {
        if index >= SITUATIONS {
            return None;
        }
        let mut situation = Situation {
            memory: Memory::from_index(index % MEMORIES),
            ..Situation::default()
        };
        let mut rest = index / MEMORIES;
        for (digit, base) in situation.digits_mut().into_iter().zip(STATE_BASES).rev() {
            *digit = (rest % base) as u8;
            rest /= base;
        }
        Some(situation)
    }
}

/// The preflop strength class of two hole cards.
fn preflop_strength(first: Card, second: Card) -> u8 {
    let share = preflop_share(first, second);
    // The strongest class whose bound the hand is within.
    PREFLOP_SHARE_BOUNDS
        .iter()
        .rposition(|&bound| share <= bound)
        .unwrap_or(0) as u8
}

/// The share of starting hands better than this one (heads-up), from a table made once: the
/// preflop module computes it by scanning every class, too slow for every decision.
fn preflop_share(first: Card, second: Card) -> f64 {
    static SHARES: OnceLock<Vec<f64>> = OnceLock::new();
    let shares = SHARES.get_or_init(|| {
        (0..preflop::CLASSES)
            .map(|class| {
                let [a, b] = preflop::class_cards(class);
                preflop::percentile(a, b)
            })
            .collect()
    });
    shares[preflop::class_of(first, second)]
}

/// What the hole cards make with the board (see [`Situation::strength`]).
fn postflop_strength(hole: [Card; 2], board: &[Card], street: Street) -> u8 {
    let mut counts = [0u8; 15];
    let mut hole_counts = [0u8; 15];
    for card in board {
        counts[card.rank as usize] += 1;
    }
    for card in hole {
        counts[card.rank as usize] += 1;
        hole_counts[card.rank as usize] += 1;
    }
    let board_top = board.iter().map(|c| c.rank as usize).max().unwrap_or(0);
    let mut class = 0u8;
    let mut pairs = 0;
    let mut pair_rank = 0;
    for rank in 2..=14 {
        if hole_counts[rank] == 0 {
            continue;
        }
        match counts[rank] {
            4.. => class = class.max(6),
            3 => class = class.max(5),
            2 => {
                pairs += 1;
                pair_rank = pair_rank.max(rank);
            }
            _ => {}
        }
    }
    if pairs >= 2 {
        class = class.max(4);
    } else if pairs == 1 {
        class = class.max(if pair_rank >= board_top { 3 } else { 2 });
    }
    // Straights, flushes and full houses the player's cards take part in.
    let mut all = [hole[0]; 7];
    all[1] = hole[1];
    all[2..2 + board.len()].copy_from_slice(board);
    if let Ok(strength) = strength_of(&all[..2 + board.len()]) {
        if strength.category() >= Category::Straight {
            let board_alone = (board.len() == 5)
                .then(|| strength_of(board).ok())
                .flatten();
            if board_alone != Some(strength) {
                class = 6;
            }
        }
    }
    if class == 0 && street != Street::River && has_draw(hole, board) {
        class = 1;
    }
    class
}

/// Four to a flush or four of five ranks in a row, with at least one of the player's cards.
fn has_draw(hole: [Card; 2], board: &[Card]) -> bool {
    let mut suits = [0u8; 4];
    for card in hole.iter().chain(board) {
        suits[card.suit as usize % 4] += 1;
    }
    if hole.iter().any(|card| suits[card.suit as usize % 4] >= 4) {
        return true;
    }
    let bits = |cards: &[Card]| {
        cards.iter().fold(0u16, |bits, card| {
            let rank = card.rank as u16;
            // The ace also plays low (bit 1).
            bits | 1 << rank | if rank == 14 { 1 << 1 } else { 0 }
        })
    };
    let all = bits(board) | bits(&hole);
    let mine = bits(&hole);
    (1..=10).any(|low| {
        let window = 0b11111u16 << low;
        (all & window).count_ones() >= 4 && mine & window != 0
    })
}

/// What a player answered, as a profile counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnswerClass {
    /// Gave up the hand (only when something was owed).
    Fold,
    /// Checked or called (an all-in that only calls included).
    CheckCall,
    /// Raised by at most 60% of the pot (the pot after calling).
    RaiseSmall,
    /// Raised by at most 120% of the pot.
    RaiseMedium,
    /// Raised by more, short of the whole stack.
    RaiseLarge,
    /// Put the whole stack in, raising.
    AllIn,
}

/// Answer classes.
pub const ANSWER_CLASSES: usize = 6;

/// The raise classes' upper bounds, in raises as a share of the pot after calling.
const RAISE_BOUNDS: [f64; 2] = [0.6, 1.2];

impl AnswerClass {
    /// Every class, in index order.
    pub const ALL: [AnswerClass; ANSWER_CLASSES] = [
        AnswerClass::Fold,
        AnswerClass::CheckCall,
        AnswerClass::RaiseSmall,
        AnswerClass::RaiseMedium,
        AnswerClass::RaiseLarge,
        AnswerClass::AllIn,
    ];

    /// The class's position in [`AnswerClass::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// A short name for tables: `fold`, `check/call`, `raise ≤0.6 pot` ...
    pub fn name(self) -> &'static str {
        match self {
            AnswerClass::Fold => "fold",
            AnswerClass::CheckCall => "check/call",
            AnswerClass::RaiseSmall => "raise <= 0.6 pot",
            AnswerClass::RaiseMedium => "raise <= 1.2 pot",
            AnswerClass::RaiseLarge => "raise > 1.2 pot",
            AnswerClass::AllIn => "all-in",
        }
    }

    /// Whether the class raises (all-in included).
    pub fn raises(self) -> bool {
        matches!(
            self,
            AnswerClass::RaiseSmall
                | AnswerClass::RaiseMedium
                | AnswerClass::RaiseLarge
                | AnswerClass::AllIn
        )
    }

    /// The raise classes with a size ([`AnswerClass::RaiseSmall`] to
    /// [`AnswerClass::RaiseLarge`]), numbered 0 to 2.
    pub fn size_slot(self) -> Option<usize> {
        match self {
            AnswerClass::RaiseSmall => Some(0),
            AnswerClass::RaiseMedium => Some(1),
            AnswerClass::RaiseLarge => Some(2),
            _ => None,
        }
    }
}

/// What `answer` means for the player in action, as the dealer reads it (spec §4): its class
/// (by the raise as a share of the pot after calling) and, for a raise short of all-in, its
/// size: with nothing to call, the bet as a share of the pot, or 0 for the smallest bet
/// allowed; facing a bet, the raise in minimum raises (1 for the smallest raise), so that a
/// player who answers a bet with a raise of the bet's size, or a minimum raise with a minimum
/// raise as in a raising war, does so whatever the pot.
pub fn classify(state: &GameState, answer: Chips) -> (AnswerClass, Option<f64>) {
    let context = state.bet_context();
    let reading = state.read_bet(answer);
    let raised_by = reading.raised_by(&context);
    match reading.action {
        BetAction::Fold => (AnswerClass::Fold, None),
        BetAction::Check | BetAction::Call => (AnswerClass::CheckCall, None),
        BetAction::AllIn if raised_by.is_zero() => (AnswerClass::CheckCall, None),
        BetAction::AllIn => (AnswerClass::AllIn, None),
        BetAction::Raise => {
            let base = state.pot.saturating_add(state.call_amount()).get().max(1);
            let share = raised_by.get() as f64 / base as f64;
            let size = if !state.call_amount().is_zero() {
                raised_by.get() as f64 / context.minimum_raise.get().max(1) as f64
            } else if raised_by <= context.minimum_raise {
                0.0
            } else {
                share
            };
            let class = match RAISE_BOUNDS.iter().filter(|&&bound| share > bound).count() {
                0 => AnswerClass::RaiseSmall,
                1 => AnswerClass::RaiseMedium,
                _ => AnswerClass::RaiseLarge,
            };
            (class, Some(size))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use player::testing::table;

    #[test]
    fn index_round_trips_over_every_situation() {
        for index in 0..SITUATIONS {
            let situation = Situation::from_index(index).unwrap();
            assert_eq!(situation.index(), index);
        }
        assert_eq!(Situation::from_index(SITUATIONS), None);
    }

    fn cards(text: &str) -> Vec<Card> {
        player::shared::card::parse_cards(text).unwrap()
    }

    fn strength(hole: &str, board: &str) -> u8 {
        let hole = cards(hole);
        let board = cards(board);
        let street = Street::from_community_card_count(board.len()).unwrap();
        postflop_strength([hole[0], hole[1]], &board, street)
    }

    #[test]
    fn postflop_strength_counts_only_what_the_players_cards_make() {
        // (hole cards, board, class, why): one table, each case checked alike.
        let cases = [
            ("2c 7d", "Ks Qh 9c", 0, "nothing"),
            ("2h 7h", "Kh Qh 9c", 1, "flush draw"),
            ("Jd Tc", "Ks Qh 2c", 1, "open-ended straight draw"),
            ("Jd Tc", "Ks Qh 2c 3d 4s", 0, "no draw on the river"),
            ("9d 2c", "Ks Qh 9c", 2, "a pair below the top card"),
            ("Kd 2c", "Ks Qh 9c", 3, "top pair"),
            ("Ad Ac", "Ks Qh 9c", 3, "overpair"),
            ("Kd 9d", "Ks Qh 9c", 4, "two pair"),
            ("9d 9h", "Ks Qh 9c", 5, "a set"),
            ("Jd Tc", "Ks Qh 9c", 6, "a straight"),
            (
                "2c 3d",
                "Ks Kc Kh Kd Qs",
                0,
                "the board's quads are not mine",
            ),
            ("2c 3d", "9s Ts Jh Qd Kc", 0, "the board's straight"),
            ("2c 3d", "9s 9h 5c 5d 7s", 0, "the board's two pair"),
        ];
        for (hole, board, class, why) in cases {
            assert_eq!(strength(hole, board), class, "{why}: {hole} on {board}");
        }
    }

    #[test]
    fn preflop_classes_order_hands() {
        let class = |text: &str| {
            let c = cards(text);
            preflop_strength(c[0], c[1])
        };
        assert_eq!(class("As Ad"), 6);
        assert_eq!(class("7c 2d"), 0);
        assert!(class("Ks Qs") > class("9c 4d"));
    }

    #[test]
    fn situation_reads_price_depth_and_position() {
        // Blinds 10/20, 1,000 chips each, the button (seat 3) in action.
        let state = table(4)
            .in_action(3)
            .hole_cards("As Kd")
            .bets([10, 20, 0, 0])
            .build();
        let situation = Situation::read(&state, &mut HandTracker::default()).unwrap();
        assert_eq!(situation.street, 0);
        assert_eq!(situation.position, 2, "the button is late");
        assert_eq!(situation.players, 2, "four players");
        assert_eq!(situation.depth, 2, "1,000 chips are 50 big blinds");
        assert_eq!(situation.strength, 5, "AKo is in the top 8%");
    }

    #[test]
    fn classify_reads_answers_as_the_dealer_does() {
        let state = table(3)
            .in_action(0)
            .hole_cards("As Kd")
            .bets([0, 10, 20])
            .dealer(0)
            .build();
        assert_eq!(classify(&state, Chips::ZERO).0, AnswerClass::Fold);
        assert_eq!(
            classify(&state, state.call_amount()).0,
            AnswerClass::CheckCall
        );
        assert_eq!(
            classify(&state, state.minimum_raise_amount()).0,
            AnswerClass::RaiseSmall
        );
        assert_eq!(
            classify(&state, state.all_in_amount()).0,
            AnswerClass::AllIn
        );
    }
}

//! The fixed heuristic value of a hand in progress for each seat, in tournament points: the
//! hand checked down from here, every pot paid by the cards to come, then the stacks valued by
//! ICM. Pure arithmetic, fixed before any run and never fitted to a run's data. (The meter
//! first adds the bets a hand still to be played will see, [`HandSnapshot::with_bets_to_come`].)
//!
//! - **Pots**: each seat's chips in the pot are split into the spec §5 levels; a level is won
//!   by the best hand among the seats still in the hand that reached it (ties share it; a level
//!   nobody still in the hand reached goes back to its owners, as the engine returns it).
//! - **Cards to come**: the hands of every seat still in the hand are known to the meter, and
//!   so are the folded ones' (dead); the rest of the board is enumerated over the unseen cards
//!   ([`CheckDown::exact`]) or, for a whole board, sampled ([`CheckDown::sampled`]).
//! - **Stacks to points** ([`points`]): a seat that busts in the hand gets the points of its
//!   place (the engine's order: busts of one hand ranked by seat from the first seat after the
//!   button with chips, the later one higher); the seats with chips share the places left by
//!   Malmuth–Harville ICM: `P(1st) = s / S`, `P(2nd) = Σ_j (s_j / S) · s / (S − s_j)`,
//!   worth `5 · P(1st) + 3 · P(2nd)` (spec §7's points; the blinds to come are ignored).

use crate::result::{points_for_place, POINTS_FIRST, POINTS_SECOND};
use crate::MAX_SEATS;
use rand::Rng;
use shared::eval::{HandKey, HandStrength};

/// A hand's strength index (1 to 7,462; higher wins), 0 for no hand.
type Strength = u16;
use shared::Card;

/// A set of seats, one bit per seat index.
pub(crate) type SeatSet = u16;

/// The hand at a chance event, as the value reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HandSnapshot {
    /// Seats at the table.
    pub seats: usize,
    /// The button seat.
    pub button: usize,
    /// Chips behind (not in the pot), by seat.
    pub behind: [u64; MAX_SEATS],
    /// Chips in the pot this hand, by seat.
    pub put_in: [u64; MAX_SEATS],
    /// Seats dealt into the hand (they had chips when it started).
    pub dealt_in: SeatSet,
    /// Seats still in the hand (dealt in, not folded, not banned).
    pub contesting: SeatSet,
    /// Hole cards by seat (meaningful for the seats dealt in).
    pub hole: [[Card; 2]; MAX_SEATS],
}

impl HandSnapshot {
    /// The hand with `share` of its pot added by every seat still in it (what it has behind
    /// at most): the bets a hand that is not over yet will see, for a value that weighs the
    /// cards by the pot they will decide rather than the pot so far. A function of the hand
    /// before the cards, so `V` before and after a card use the same one.
    pub(crate) fn with_bets_to_come(&self, share: f64) -> HandSnapshot {
        let mut hand = self.clone();
        let pot: u64 = self.put_in[..self.seats].iter().sum();
        let bet = (share.max(0.0) * pot as f64) as u64;
        for seat in 0..self.seats {
            if self.contesting & (1 << seat) != 0 {
                let more = bet.min(hand.behind[seat]);
                hand.behind[seat] -= more;
                hand.put_in[seat] += more;
            }
        }
        hand
    }
}

/// One level of the pot: its chips and the seats that may win it.
#[derive(Debug, Clone, Copy)]
struct Pot {
    amount: f64,
    /// By contender index (see [`CheckDown::contenders`]).
    eligible: u16,
}

/// The most pots a hand can have: one per distinct level, at most one level per seat.
const MAX_POTS: usize = MAX_SEATS;

/// The value of one snapshot, ready to be evaluated on many boards: the boards give outcomes
/// (who wins each pot), shared by every seat; each seat values them.
pub(crate) struct CheckDown<'a> {
    hand: &'a HandSnapshot,
    /// The seats still in the hand, in seat order; a contender's index is its place here.
    contenders: [usize; MAX_SEATS],
    contender_count: usize,
    pots: [Pot; MAX_POTS],
    pot_count: usize,
    /// Chips behind plus chips no contender can win (returned to their owners), by seat.
    base: [f64; MAX_SEATS],
}

/// How many distinct outcomes a board enumeration keeps apart before it values them (an
/// outcome is who wins each pot; a hand with a few pots has only a handful).
const OUTCOMES: usize = 64;

impl<'a> CheckDown<'a> {
    /// The value of `hand`.
    pub(crate) fn new(hand: &'a HandSnapshot) -> CheckDown<'a> {
        let mut contenders = [0usize; MAX_SEATS];
        let mut contender_count = 0;
        for (seat, slot) in (0..hand.seats)
            .filter(|s| hand.contesting & (1 << s) != 0)
            .zip(0..)
        {
            contenders[slot] = seat;
            contender_count += 1;
        }
        let mut base = [0.0; MAX_SEATS];
        for (slot, &chips) in base.iter_mut().zip(&hand.behind[..hand.seats]) {
            *slot = chips as f64;
        }
        // The spec §5 levels: every distinct amount put in, lowest first.
        let mut levels: Vec<u64> = hand.put_in[..hand.seats]
            .iter()
            .copied()
            .filter(|&chips| chips > 0)
            .collect();
        levels.sort_unstable();
        levels.dedup();
        let mut pots = [Pot {
            amount: 0.0,
            eligible: 0,
        }; MAX_POTS];
        let mut pot_count = 0;
        let mut below = 0u64;
        for level in levels {
            let slice = |chips: u64| chips.min(level) - chips.min(below);
            let amount: u64 = hand.put_in[..hand.seats].iter().map(|&c| slice(c)).sum();
            let mut eligible = 0u16;
            for (index, &seat) in contenders[..contender_count].iter().enumerate() {
                if hand.put_in[seat] >= level {
                    eligible |= 1 << index;
                }
            }
            if eligible == 0 {
                for (slot, &chips) in base.iter_mut().zip(&hand.put_in[..hand.seats]) {
                    *slot += slice(chips) as f64;
                }
            } else if eligible.count_ones() == 1 {
                // Uncontested (an uncalled bet): its owner's whatever the cards.
                let winner = contenders[eligible.trailing_zeros() as usize];
                base[winner] += amount as f64;
            } else {
                pots[pot_count] = Pot {
                    amount: amount as f64,
                    eligible,
                };
                pot_count += 1;
            }
            below = level;
        }
        CheckDown {
            hand,
            contenders,
            contender_count,
            pots,
            pot_count,
            base,
        }
    }

    /// The contenders' hole cards as evaluator keys on top of `board`.
    fn keys(&self, board: &[Card]) -> [HandKey; MAX_SEATS] {
        let board_key = board.iter().fold(HandKey::EMPTY, |key, &card| key + card);
        let mut keys = [HandKey::EMPTY; MAX_SEATS];
        for (slot, &seat) in self.contenders[..self.contender_count].iter().enumerate() {
            let [a, b] = self.hand.hole[seat];
            keys[slot] = board_key + a + b;
        }
        keys
    }

    /// Who wins each pot with these strengths (by contender index): the outcome's key, the
    /// pots' winner sets side by side.
    #[inline]
    fn outcome(&self, strengths: &[Strength; MAX_SEATS]) -> u128 {
        let mut key = 0u128;
        for (index, pot) in self.pots[..self.pot_count].iter().enumerate() {
            let mut best: Strength = 0;
            let mut winners = 0u16;
            let mut eligible = pot.eligible;
            while eligible != 0 {
                let contender = eligible.trailing_zeros() as usize;
                eligible &= eligible - 1;
                let strength = strengths[contender];
                if strength > best {
                    best = strength;
                    winners = 1 << contender;
                } else if strength == best {
                    winners |= 1 << contender;
                }
            }
            key |= u128::from(winners) << (index * MAX_SEATS);
        }
        key
    }

    /// The points of an outcome for `you`.
    fn value_of(&self, key: u128, you: usize) -> f64 {
        let mut stacks = self.base;
        for (index, pot) in self.pots[..self.pot_count].iter().enumerate() {
            let winners = (key >> (index * MAX_SEATS)) as u16 & ((1 << MAX_SEATS) - 1);
            let share = pot.amount / f64::from(winners.count_ones().max(1));
            let mut rest = winners;
            while rest != 0 {
                let contender = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                stacks[self.contenders[contender]] += share;
            }
        }
        points(
            you,
            &stacks[..self.hand.seats],
            self.hand.dealt_in,
            self.hand.button,
        )
    }

    /// The value of `outcomes` for seat `you`: the mean of its points over them.
    pub(crate) fn value(&self, outcomes: &Outcomes, you: usize) -> f64 {
        match outcomes {
            Outcomes::Settled => self.value_of(0, you),
            Outcomes::Tally(tally) => tally.mean(|key| self.value_of(key, you)),
        }
    }

    /// The value of `outcomes` for each seat of `seats` (0 for the other seats).
    pub(crate) fn values(&self, outcomes: &Outcomes, seats: SeatSet) -> [f64; MAX_SEATS] {
        let mut values = [0.0; MAX_SEATS];
        for (seat, value) in values.iter_mut().enumerate().take(self.hand.seats) {
            if seats & (1 << seat) != 0 {
                *value = self.value(outcomes, seat);
            }
        }
        values
    }

    /// Nothing left to win by the cards (every pot has one contender).
    fn settled(&self) -> bool {
        self.pot_count == 0
    }

    /// The outcomes on `board` (3, 4 or 5 cards), for the exact value: every completion from
    /// the `unseen` cards (each equally likely, as the next cards of a shuffled deck are).
    pub(crate) fn exact(&self, board: &[Card], unseen: &[Card]) -> Outcomes {
        if self.settled() {
            return Outcomes::Settled;
        }
        let keys = self.keys(board);
        let mut tally = Tally::default();
        let mut strengths: [Strength; MAX_SEATS] = [0; MAX_SEATS];
        let k = self.contender_count;
        match 5usize.saturating_sub(board.len()) {
            0 => {
                for c in 0..k {
                    strengths[c] = strength(keys[c]);
                }
                tally.add(self.outcome(&strengths));
            }
            1 => {
                for &river in unseen {
                    for c in 0..k {
                        strengths[c] = strength(keys[c] + river);
                    }
                    tally.add(self.outcome(&strengths));
                }
            }
            _ => {
                for (i, &turn) in unseen.iter().enumerate() {
                    let mut with_turn = [HandKey::EMPTY; MAX_SEATS];
                    for c in 0..k {
                        with_turn[c] = keys[c] + turn;
                    }
                    for &river in &unseen[i + 1..] {
                        for c in 0..k {
                            strengths[c] = strength(with_turn[c] + river);
                        }
                        tally.add(self.outcome(&strengths));
                    }
                }
            }
        }
        Outcomes::Tally(tally)
    }

    /// The outcomes of `samples` whole boards drawn uniformly from the `unseen` cards with
    /// `rng`, which must be independent of the game's deck: their value is an unbiased
    /// estimate of the value before any board card.
    pub(crate) fn sampled(&self, unseen: &[Card], samples: u32, rng: &mut impl Rng) -> Outcomes {
        if self.settled() {
            return Outcomes::Settled;
        }
        let mut deck: Vec<Card> = unseen.to_vec();
        let mut tally = Tally::default();
        let mut strengths: [Strength; MAX_SEATS] = [0; MAX_SEATS];
        let n = deck.len();
        for _ in 0..samples.max(1) {
            // A partial Fisher-Yates shuffle: the first five are a uniform sample (the deck's
            // order after earlier samples does not matter, every draw is fresh).
            let mut board = HandKey::EMPTY;
            for i in 0..5 {
                let j = rng.random_range(i..n);
                deck.swap(i, j);
                board += deck[i];
            }
            let contenders = &self.contenders[..self.contender_count];
            for (slot, &seat) in strengths.iter_mut().zip(contenders) {
                let [a, b] = self.hand.hole[seat];
                *slot = strength(board + a + b);
            }
            tally.add(self.outcome(&strengths));
        }
        Outcomes::Tally(tally)
    }
}

/// A hand's strength; the keys here always hold seven distinct cards.
#[inline]
fn strength(key: HandKey) -> Strength {
    key.strength().map_or(0, HandStrength::index)
}

/// The outcomes of the boards a value averages over.
pub(crate) enum Outcomes {
    /// Every pot has one contender: the cards change nothing.
    Settled,
    /// The outcomes seen.
    Tally(Tally),
}

/// Outcomes seen and how often, valued once each at the end.
#[derive(Default)]
pub(crate) struct Tally {
    outcomes: Vec<(u128, u32)>,
    total: u32,
    /// Outcomes past [`OUTCOMES`] distinct ones, valued as they come.
    overflow: Vec<u128>,
}

impl Tally {
    #[inline]
    fn add(&mut self, key: u128) {
        self.total += 1;
        if let Some(entry) = self.outcomes.iter_mut().find(|(k, _)| *k == key) {
            entry.1 += 1;
        } else if self.outcomes.len() < OUTCOMES {
            self.outcomes.push((key, 1));
        } else {
            self.overflow.push(key);
        }
    }

    fn mean(&self, value: impl Fn(u128) -> f64) -> f64 {
        let sum: f64 = self
            .outcomes
            .iter()
            .map(|&(key, count)| value(key) * f64::from(count))
            .sum::<f64>()
            + self.overflow.iter().map(|&key| value(key)).sum::<f64>();
        sum / f64::from(self.total.max(1))
    }
}

/// The points seat `you` can expect from `stacks` (every seat's chips after the hand, 0 for
/// a seat out of the game), `dealt_in` the seats that started the hand with chips and
/// `button` the hand's button. See the module docs.
pub(crate) fn points(you: usize, stacks: &[f64], dealt_in: SeatSet, button: usize) -> f64 {
    let alive = |seat: usize| stacks[seat] > 0.0;
    let left = (0..stacks.len()).filter(|&s| alive(s)).count();
    if alive(you) {
        if left == 1 {
            return f64::from(POINTS_FIRST);
        }
        let total: f64 = stacks.iter().sum();
        let mine = stacks[you];
        let first = mine / total;
        let second: f64 = (0..stacks.len())
            .filter(|&s| s != you && alive(s))
            .map(|s| stacks[s] / total * mine / (total - stacks[s]))
            .sum();
        return f64::from(POINTS_FIRST) * first + f64::from(POINTS_SECOND) * second;
    }
    if dealt_in & (1 << you) == 0 {
        // Out before this hand: its place is decided and no card changes it.
        return 0.0;
    }
    // Busted in this hand: ranked among the hand's busts, worst first from the first seat
    // after the button with chips (the engine's `bust_order`).
    let seats = stacks.len();
    let start = (1..=seats)
        .map(|step| (button + step) % seats)
        .find(|&seat| alive(seat))
        .unwrap_or((button + 1) % seats);
    let busted: Vec<usize> = (0..seats)
        .map(|step| (start + step) % seats)
        .filter(|&seat| dealt_in & (1 << seat) != 0 && !alive(seat))
        .collect();
    let position = busted.iter().position(|&seat| seat == you).unwrap_or(0);
    let place = left + busted.len() - position;
    f64::from(points_for_place(place))
}

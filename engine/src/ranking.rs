//! Eliminations, places and points (spec §7).
//!
//! Players are ranked in reverse order of elimination: the first one out gets the last place.
//! Players busted in the same hand are ordered by seat, starting at the first seat after the
//! button that still has chips, and the later one in that order ranks higher.
//!
//! **Decision** (the spec is silent on bans): a banned player leaves the hand at once (stack
//! and bet gone, status `out`) but is *ranked* when the hand ends, together with that hand's
//! busts and by the same seat rule, as the open-source croupier does: its ranking appends, after
//! every hand, each player without chips in seat order from the first player after the button
//! (`Croupier::Tournament::Ranking#eliminate`), and a ban leaves the player without chips. So
//! two bans in one hand are not ordered by which came first. A player banned in an earlier hand
//! still ranks below everyone eliminated later.
//!
//! **Decision** (the spec is silent): when a hand limit ends the game, the survivors are
//! ranked by chips, more chips first; equal stacks are ordered by the same seat rule as
//! same-hand busts (the later seat in the order from the first seat after the button with
//! chips ranks higher).

use super::seat_buf::SeatBuf;
use super::{Game, Phase, Step};
use crate::game_event::{EliminationReason, GameEndReason, GameEvent, SeatList};
use crate::result::{BanRecord, GameResult, WarningRecord};
use shared::{Chips, PlayerStatus, Seat};

/// Seats in the spec's tie order: starting at the first seat after `button` whose stack is
/// not zero (or right after the button when nobody has chips), once around the table.
pub(crate) fn seat_order_from_first_with_chips(
    stacks: &[Chips],
    button: Seat,
) -> impl Iterator<Item = Seat> + '_ {
    let count = stacks.len();
    let start = (1..=count)
        .map(|step| button.plus(step, count))
        .find(|seat| !stacks[seat.index()].is_zero())
        .unwrap_or(button.next(count.max(1)));
    (0..count).map(move |step| start.plus(step, count))
}

/// Seats busted in one hand (bit set in `busted`), worst place first.
pub(crate) fn bust_order(busted: u32, stacks_after: &[Chips], button: Seat) -> SeatBuf {
    seat_order_from_first_with_chips(stacks_after, button)
        .filter(|seat| busted & (1 << seat.index()) != 0)
        .collect()
}

/// Survivors (bit set in `survivors`), best place first: more chips first, ties by the seat
/// rule (later in the order ranks higher).
pub(crate) fn survivor_order(survivors: u32, stacks: &[Chips], button: Seat) -> SeatBuf {
    let mut order: SeatBuf = seat_order_from_first_with_chips(stacks, button)
        .filter(|seat| survivors & (1 << seat.index()) != 0)
        .collect();
    // Reverse the seat order first so that a stable sort by chips keeps later seats ahead.
    order.reverse();
    order.sort_by_key(|seat| std::cmp::Reverse(stacks[seat.index()]));
    order
}

/// Who is still in the sit'n'go and how the others left it.
#[derive(Debug, Clone)]
pub(crate) struct Roster {
    /// Each seat's place once known.
    pub places: Vec<Option<usize>>,
    /// The hand each seat was eliminated in.
    pub eliminated_in_round: Vec<Option<u64>>,
    /// Players not eliminated yet.
    pub remaining: usize,
    /// Every ban.
    pub bans: Vec<BanRecord>,
    /// Every forgiven answer.
    pub warnings: Vec<WarningRecord>,
    /// Chips removed by bans.
    pub chips_banned: Chips,
    /// Chips destroyed by the OSS odd-chip rule.
    pub chips_discarded: Chips,
    /// Seats banned in the current hand and not ranked yet (bit per seat): they are ranked
    /// with the hand's busts when it ends.
    pub banned_this_hand: u32,
}

impl Roster {
    /// Everybody in, nothing recorded.
    pub(crate) fn new(seat_count: usize) -> Roster {
        Roster {
            places: vec![None; seat_count],
            eliminated_in_round: vec![None; seat_count],
            remaining: seat_count,
            bans: Vec::new(),
            warnings: Vec::new(),
            chips_banned: Chips::ZERO,
            chips_discarded: Chips::ZERO,
            banned_this_hand: 0,
        }
    }

    /// The place the next eliminated player gets.
    pub(crate) fn next_place(&self) -> usize {
        self.remaining
    }

    /// Records an elimination.
    pub(crate) fn eliminate(&mut self, seat: Seat, round: u64, place: usize) {
        let index = seat.index();
        if index >= self.places.len() || self.places[index].is_some() {
            return;
        }
        self.places[index] = Some(place);
        self.eliminated_in_round[index] = Some(round);
        self.banned_this_hand &= !(1 << index);
        self.remaining = self.remaining.saturating_sub(1);
    }
}

impl Game {
    /// Ranks the survivors, builds the result and emits `GameEnded`.
    pub(super) fn end_game(&mut self, reason: GameEndReason) -> Option<Step> {
        let stacks: SeatList<Chips> = self.table.seats().iter().map(|p| p.stack).collect();
        let survivors = (0..self.seat_count)
            .filter(|&index| self.roster.places[index].is_none())
            .fold(0u32, |mask, index| mask | 1 << index);
        let order = survivor_order(survivors, &stacks, self.hand.button);
        for (position, seat) in order.iter().enumerate() {
            self.roster.places[seat.index()] = Some(position + 1);
        }
        let places: Vec<usize> = self
            .roster
            .places
            .iter()
            .map(|place| place.unwrap_or(self.seat_count))
            .collect();
        let mut ranking: Vec<Seat> = (0..self.seat_count).map(Seat).collect();
        ranking.sort_by_key(|seat| places[seat.index()]);
        let result = GameResult {
            tournament_id: self.table.tournament_id().to_owned(),
            game_id: self.table.game_id().to_owned(),
            seed: self.seed,
            players: self.table.seats().iter().map(|p| p.name.clone()).collect(),
            points: places
                .iter()
                .map(|&place| crate::result::points_for_place(place))
                .collect(),
            places,
            ranking: ranking.clone(),
            hands_played: self.hands_played,
            ended_by: reason,
            bans: self.roster.bans.clone(),
            warnings: self.roster.warnings.clone(),
            final_stacks: stacks.to_vec(),
            eliminated_in_round: self.roster.eliminated_in_round.clone(),
            chips_banned: self.roster.chips_banned,
            chips_discarded: self.roster.chips_discarded,
        };
        self.result = Some(result);
        self.phase = Phase::Finished;
        self.emit(GameEvent::GameEnded {
            reason,
            ranking: ranking.into_iter().collect(),
        })
    }

    /// Queues a `PlayerEliminated` for `seat` at the next free place.
    pub(super) fn queue_elimination(
        &mut self,
        seat: Seat,
        place: usize,
        reason: EliminationReason,
    ) {
        self.queue.push_back(GameEvent::PlayerEliminated {
            seat,
            round: self.hand.round,
            place,
            reason,
        });
    }

    /// A player's elimination (queued when its hand ended): `out`, with its place.
    pub(super) fn apply_elimination(&mut self, seat: Seat, round: u64, place: usize) {
        self.table
            .update_seat(seat, |player| player.status = PlayerStatus::Out);
        self.roster.eliminate(seat, round, place);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chips(values: &[u64]) -> Vec<Chips> {
        values.iter().copied().map(Chips).collect()
    }

    #[test]
    fn spec_7_same_hand_busts_later_in_seat_order_ranks_higher() {
        // Button 0; seats 1 and 2 bust; seat 3 is the first seat after the button with
        // chips, so the order is 3, 4, 5, 0, 1, 2: seat 1 goes out first (worse place).
        let stacks = chips(&[500, 0, 0, 2500, 1000, 2000]);
        let order = bust_order(0b110, &stacks, Seat(0));
        assert_eq!(&order[..], &[Seat(1), Seat(2)]);
        // Button 4; seats 5 and 0 bust; first seat with chips after 4 is 1: order 1,2,3,4,5,0.
        let stacks = chips(&[0, 700, 800, 900, 600, 0]);
        let order = bust_order(0b100001, &stacks, Seat(4));
        assert_eq!(&order[..], &[Seat(5), Seat(0)]);
    }

    #[test]
    fn hand_limit_survivors_rank_by_chips_then_seat_rule() {
        let stacks = chips(&[1000, 3000, 1000, 1000]);
        // Button 1: order from seat 2: 2, 3, 0, 1. Among the 1000s, later ranks higher: 0, 3, 2.
        let order = survivor_order(0b1111, &stacks, Seat(1));
        assert_eq!(&order[..], &[Seat(1), Seat(0), Seat(3), Seat(2)]);
    }

    #[test]
    fn roster_counts_places_down() {
        let mut roster = Roster::new(3);
        assert_eq!(roster.next_place(), 3);
        roster.eliminate(Seat(2), 4, 3);
        roster.eliminate(Seat(2), 5, 2); // ignored: already out
        assert_eq!(roster.next_place(), 2);
        assert_eq!(roster.eliminated_in_round[2], Some(4));
    }
}

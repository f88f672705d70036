//! The entries' messages: bets, deals, reveals and winners, as the live log words them (see
//! the [module docs](super)).

use super::ViewerLog;
use crate::engine::Game;
use crate::game_event::{PotShare, SeatList};
use crate::observe::text::{push_card_name, push_number};
use shared::eval::Category;
use shared::records::EntryKind;
use shared::{Card, Chips, GameState, Seat};
use std::fmt::Write as _;
use std::io::{self, Seek, Write};

/// The live log's name of a hand category (the ranking gem says "two pairs").
fn hand_name(category: Category) -> &'static str {
    category.rain_man_name()
}

impl<W: Write + Seek> ViewerLog<W> {
    /// `NAME made a bet of N (action) and is left with S chips. The pot now contains P chips.`
    pub(super) fn bet_message(
        &mut self,
        name: &str,
        amount: Chips,
        action: &str,
        stack: Chips,
        pot: Chips,
    ) {
        let message = &mut self.message;
        message.clear();
        message.push_str(name);
        message.push_str(" made a bet of ");
        push_number(message, amount.get());
        message.push_str(" (");
        message.push_str(action);
        message.push_str(") and is left with ");
        push_number(message, stack.get());
        message.push_str(" chips. The pot now contains ");
        push_number(message, pot.get());
        message.push_str(" chips.");
    }

    pub(super) fn card_deal(
        &mut self,
        game: &Game,
        seat: Option<Seat>,
        card: Card,
    ) -> io::Result<()> {
        self.message.clear();
        match seat {
            Some(seat) => {
                self.message
                    .push_str(game.player_name(seat).unwrap_or_default());
                self.message.push_str(" received hole_card ");
            }
            None => self.message.push_str("community card "),
        }
        push_card_name(&mut self.message, card);
        self.write_snapshot(Some(EntryKind::CardDeal), None, game)
    }

    pub(super) fn showdown(
        &mut self,
        game: &Game,
        seat: Seat,
        hole: [Card; 2],
        best_five: &[Card; 5],
        category: Category,
    ) -> io::Result<()> {
        let shown = five_shown(&hole, game.board(), best_five);
        self.message.clear();
        self.message
            .push_str(game.player_name(seat).unwrap_or_default());
        self.message.push_str(" showed ");
        for (index, card) in shown.iter().enumerate() {
            if index > 0 {
                self.message.push(',');
            }
            push_card_name(&mut self.message, *card);
        }
        self.message.push_str(" making a ");
        self.message.push_str(hand_name(category));
        self.write_snapshot(Some(EntryKind::Showdown), None, game)
    }

    pub(super) fn winners(
        &mut self,
        game: &Game,
        eligible: &SeatList<Seat>,
        shares: &SeatList<PotShare>,
    ) -> io::Result<()> {
        // Announce in examination order, as the croupier does.
        let mut ordered: SeatList<PotShare> = SeatList::new();
        for seat in eligible {
            for share in shares.iter().filter(|share| share.seat == *seat) {
                ordered.push(*share);
            }
        }
        for share in shares {
            if !ordered.iter().any(|known| known.seat == share.seat) {
                ordered.push(*share);
            }
        }
        let mut state = self.snapshot(game);
        // The state as it was when the first winner was paid: later winners not yet credited.
        for share in ordered.iter().skip(1) {
            adjust_credit(&mut state, *share, false);
        }
        for (index, share) in ordered.iter().enumerate() {
            if index > 0 {
                adjust_credit(&mut state, *share, true);
            }
            if share.amount.is_zero() {
                continue;
            }
            self.winner_message(game, share.seat, share.amount);
            if let Err(error) = self.write_entry(Some(EntryKind::WinnerAnnouncement), None, &state)
            {
                self.state = Some(state);
                return Err(error);
            }
        }
        self.state = Some(state);
        Ok(())
    }

    pub(super) fn winner_message(&mut self, game: &Game, seat: Seat, amount: Chips) {
        self.message.clear();
        let name = game.player_name(seat).unwrap_or_default();
        let _ = write!(self.message, "{name} won {amount}");
    }
}

/// Adds (or takes back) a winner's share in a snapshot taken after the whole pot was paid.
fn adjust_credit(state: &mut GameState, share: PotShare, credit: bool) {
    let Some(player) = state.players.get_mut(share.seat.index()) else {
        return;
    };
    let won = player.amount_won.unwrap_or_default();
    let (stack, won) = if credit {
        (player.stack + share.amount, won + share.amount)
    } else {
        (
            player.stack.saturating_sub(share.amount),
            won.saturating_sub(share.amount),
        )
    };
    player.stack = stack;
    player.amount_won = (!won.is_zero()).then_some(won);
}

/// The five cards a revealed hand plays (`best_five`, from the engine's evaluation), as the
/// live log lists them: ascending by rank, equal ranks in the order hole cards then board.
fn five_shown(hole: &[Card], board: &[Card], best_five: &[Card; 5]) -> Vec<Card> {
    let mut shown: Vec<Card> = hole
        .iter()
        .chain(board)
        .copied()
        .filter(|card| best_five.contains(card))
        .collect();
    // Stable: equal ranks keep the hole-then-board order.
    shown.sort_by_key(|card| card.rank.value());
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::card::parse_cards;

    /// `five_shown` of hole cards then board, with the best five from the evaluator.
    fn shown(cards: &[Card]) -> Vec<Card> {
        let best = shared::eval::evaluate(cards).unwrap().best_five();
        five_shown(&cards[..2], &cards[2..], &best)
    }

    fn names(cards: &[Card]) -> String {
        let mut text = String::new();
        for (index, card) in cards.iter().enumerate() {
            if index > 0 {
                text.push(',');
            }
            push_card_name(&mut text, *card);
        }
        text
    }

    #[test]
    fn shown_cards_follow_the_live_order() {
        // Live log, hand 0: Team Stuttgart (9h Jh) and veithGolang (Ad Kh) on Qc 5s Ks Kd Qs.
        let stuttgart = parse_cards("9h Jh Qc 5s Ks Kd Qs").unwrap();
        assert_eq!(
            names(&shown(&stuttgart)),
            "Jack of Hearts,Queen of Clubs,Queen of Spades,King of Spades,King of Diamonds"
        );
        let veith = parse_cards("Ad Kh Qc 5s Ks Kd Qs").unwrap();
        assert_eq!(
            names(&shown(&veith)),
            "Queen of Clubs,Queen of Spades,King of Hearts,King of Spades,King of Diamonds"
        );
        // Live log, hand 56: 4h As on Ks 8d Tc Ad Kd.
        let last = parse_cards("4h As Ks 8d Tc Ad Kd").unwrap();
        assert_eq!(
            names(&shown(&last)),
            "10 of Clubs,King of Spades,King of Diamonds,Ace of Spades,Ace of Diamonds"
        );
    }

    #[test]
    fn hand_names_are_the_ranking_gems() {
        assert_eq!(hand_name(Category::TwoPair), "two pairs");
        assert_eq!(hand_name(Category::FullHouse), "full house");
        assert_eq!(hand_name(Category::HighCard), "high card");
        assert_eq!(hand_name(Category::StraightFlush), "straight flush");
    }
}

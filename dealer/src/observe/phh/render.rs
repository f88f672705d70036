//! The PHH text of a finished hand: the keys PokerKit reads, from the recorded hand.

use super::super::text::push_toml_str;
use super::PhhHands;
use crate::game_event::MAX_SEATS;
use shared::{Chips, Seat};
use std::fmt::Write as _;

impl PhhHands {
    /// Renders the finished hand into `self.text`.
    pub(super) fn render(&mut self, amount_won: &[Chips], stacks: &[Chips]) {
        let event_game = self.event_game();
        let hand = &self.hand;
        let text = &mut self.text;
        text.clear();
        text.push_str("\nvariant = \"NT\"\n");
        let list = |text: &mut String, key: &str, values: &mut dyn Iterator<Item = u64>| {
            let _ = write!(text, "{key} = [");
            for (position, value) in values.enumerate() {
                if position > 0 {
                    text.push_str(", ");
                }
                let _ = write!(text, "{value}");
            }
            text.push_str("]\n");
        };
        let players = hand.order.len();
        list(text, "antes", &mut (0..players).map(|_| 0));
        let blinds: Vec<u64> = if players == 2 {
            vec![hand.big_blind.get(), hand.small_blind.get()]
        } else {
            (0..players)
                .map(|position| match position {
                    0 => hand.small_blind.get(),
                    1 => hand.big_blind.get(),
                    _ => 0,
                })
                .collect()
        };
        list(text, "blinds_or_straddles", &mut blinds.into_iter());
        let _ = writeln!(text, "min_bet = {}", hand.small_blind);
        list(
            text,
            "starting_stacks",
            &mut hand
                .order
                .iter()
                .map(|seat| hand.starting_stacks[seat.index()].get()),
        );
        text.push_str("actions = [\n");
        text.push_str(&hand.actions);
        text.push_str(&hand.shows);
        text.push_str(&hand.runout);
        text.push_str("]\n");
        let _ = writeln!(text, "hand = {}", hand.round);
        text.push_str("players = [");
        for (position, seat) in hand.order.iter().enumerate() {
            if position > 0 {
                text.push_str(", ");
            }
            push_toml_str(
                text,
                self.names.get(seat.index()).map_or("", String::as_str),
            );
        }
        text.push_str("]\n");
        list(
            text,
            "seats",
            &mut hand.order.iter().map(|seat| seat.index() as u64 + 1),
        );
        let _ = writeln!(text, "seat_count = {}", stacks.len());
        list(
            text,
            "finishing_stacks",
            &mut hand
                .order
                .iter()
                .map(|seat| stacks.get(seat.index()).copied().unwrap_or_default().get()),
        );
        // Won from pots: a player's own uncalled bet coming back is not a win.
        let uncalled = uncalled_bet(&hand.bets[..stacks.len().min(MAX_SEATS)]);
        list(
            text,
            "winnings",
            &mut hand.order.iter().map(|seat| {
                let won = amount_won.get(seat.index()).copied().unwrap_or_default();
                match uncalled {
                    Some((owner, amount)) if owner == *seat => won.saturating_sub(amount).get(),
                    _ => won.get(),
                }
            }),
        );
        text.push_str("_lean_tournament_id = ");
        push_toml_str(text, &self.tournament_id);
        text.push_str("\n_lean_game_id = ");
        push_toml_str(text, &self.game_id);
        let _ = writeln!(text, "\n_lean_round = {}", hand.round);
        let _ = writeln!(text, "_lean_button = {}", hand.button);
        if let Some(game) = event_game {
            let _ = writeln!(text, "_lean_event_game = {game}");
            text.push_str("_lean_versions = [");
            for (position, version) in self.versions.iter().enumerate() {
                if position > 0 {
                    text.push_str(", ");
                }
                push_toml_str(text, version);
            }
            text.push_str("]\n");
        }
        if !hand.bans.is_empty() {
            text.push_str("_lean_bans = [");
            for (position, ban) in hand.bans.iter().enumerate() {
                if position > 0 {
                    text.push_str(", ");
                }
                push_toml_str(text, ban);
            }
            text.push_str("]\n");
        }
        if !hand.chips_discarded.is_zero() {
            let _ = writeln!(text, "_lean_chips_discarded = {}", hand.chips_discarded);
        }
    }
}

/// The part of the largest bet nobody matched, and whose it is.
fn uncalled_bet(bets: &[Chips]) -> Option<(Seat, Chips)> {
    let (owner, largest) = bets
        .iter()
        .copied()
        .enumerate()
        .max_by_key(|(_, bet)| *bet)?;
    let second = bets
        .iter()
        .copied()
        .enumerate()
        .filter(|(index, _)| *index != owner)
        .map(|(_, bet)| bet)
        .max()
        .unwrap_or_default();
    (largest > second).then(|| (Seat(owner), largest - second))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncalled_bets_belong_to_the_largest_bettor() {
        assert_eq!(
            uncalled_bet(&[Chips(6), Chips(13)]),
            Some((Seat(1), Chips(7)))
        );
        assert_eq!(uncalled_bet(&[Chips(40), Chips(40)]), None);
        assert_eq!(
            uncalled_bet(&[Chips(120), Chips(0), Chips(161)]),
            Some((Seat(2), Chips(41)))
        );
        assert_eq!(uncalled_bet(&[]), None);
    }
}

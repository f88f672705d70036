//! `hands/<round>.phh`: every hand as a PHH hand history, the TOML format PokerKit reads
//! (<https://phh.readthedocs.io>), so independent tools can replay and check our games; or
//! `hands.phhs`, every hand in one file as PHH's multi-hand form (a table `[<round>]` per hand
//! with the same keys, read by PokerKit's `HandHistory.load_all`), see
//! [`PhhHands::create_file`].
//!
//! # Fields
//!
//! - `variant = "NT"` (no-limit Texas hold'em), `antes` (all 0), `blinds_or_straddles`,
//!   `min_bet` (the small blind, see below), `starting_stacks`, `actions`;
//! - `hand` (the round), `players`, `seats` (Lean Poker seat id + 1), `seat_count` (players
//!   registered in the sit'n'go), `finishing_stacks`, `winnings` (chips won from pots, as
//!   online hand histories say "collected": a player's own uncalled bet coming back is not
//!   counted, unlike Lean Poker's `amount_won`);
//! - user-defined fields (PHH wants them prefixed with `_`): `_lean_tournament_id`,
//!   `_lean_game_id`, `_lean_round`, `_lean_button` (seat id), and only when they happen
//!   `_lean_bans` (one line per ban) and `_lean_chips_discarded` (the OSS odd-chip rule).
//!
//! Only players dealt in (with chips) are listed, from the small-blind seat: `p1` is the small
//! blind, `p2` the big blind, the last player has the button. Heads-up `p1` is the player
//! without the button.
//!
//! # Actions
//!
//! `d dh pN <two cards>` per player once the hole cards are out; `pN f`, `pN cc` (check or
//! call, also an all-in for a call or less), `pN cbr <total put in on this street>` (a raise,
//! or an all-in that raises, from the engine's `street_bet_after`); `d db <cards>` per street;
//! `pN sm <cards>` for each hand shown at showdown, in reveal order. Hands not shown are not
//! written (PokerKit mucks them; they never win a chip in Lean Poker either). When betting
//! ended with cards still to come (all in), the shows come before the run-out, as PokerKit
//! (and a live table) has them.
//!
//! # Where Lean Poker is not standard no-limit hold'em
//!
//! Each file starts with a comment saying so. How each difference is written:
//!
//! - **Heads-up**: the player without the button posts the small blind and acts first on
//!   every street; the button posts the big blind. PokerKit seats heads-up blinds the other
//!   way round (it reads the list as `[big, small]` for two players), so heads-up files list
//!   `blinds_or_straddles = [big, small]`: PokerKit then has `p1` post the small blind and
//!   act first on every street, exactly the Lean Poker order.
//! - **Preflop minimum raise** is one small blind (to big blind + small blind); later streets
//!   start at one big blind. `min_bet` is the small blind so PokerKit accepts the preflop
//!   raises; it is then more lenient than Lean Poker after the flop, never stricter.
//! - **No re-opening rule**: Lean Poker lets a player facing a short all-in raise again;
//!   standard rules (and PokerKit) do not. Such a hand is written as played and a standard
//!   replay stops there.
//! - **The big blind is asked although nobody can respond** (everyone else folded or is all
//!   in for less): standard rules ask nothing. When the player owes nothing, the turn is a
//!   TOML comment.
//! - **A raise nobody can call more of** (every other player is all in, or has fewer chips
//!   than the bet to call): standard rules allow only a call. It is written as the call it
//!   amounts to, with a comment: the excess comes back uncalled either way, so the chips are
//!   the same.
//! - **Bans**: the banned player's stack and bet leave the game (spec §6), which PHH cannot
//!   say. The turn is written `pN f` with a comment, and `_lean_bans` lists the ban; a
//!   standard replay of such a hand does not reach the finishing stacks.
//! - **Board dealt out after an early end** (LIVE): those `d db` lines are comments, as the
//!   hand is already over in standard rules.
//! - **Odd chips** of a split pot go one at a time to the winners from the left of the button
//!   (spec §5); PokerKit gives them all to the first winner, so a three-way split with two odd
//!   chips can differ by a chip. With the OSS rule (`_lean_chips_discarded`) chips vanish.
//!
//! A file is written when its hand ends (one file per hand, written whole).

use super::text::{push_one_line, push_toml_str};
use super::Observer;
use crate::engine::Game;
use crate::event::{GameEvent, MAX_SEATS};
use shared::{BetAction, Card, Chips, Seat, Street};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write as _};
use std::path::{Path, PathBuf};

/// The comment at the top of every file.
const HEADER: &str = "\
# Lean Poker hand history in PHH (https://phh.readthedocs.io), written by the lean-poker dealer.
# Lean Poker differs from standard no-limit hold'em, so a standard validator may disagree:
# - heads-up, the player without the button (p1) posts the small blind and acts first on every
#   street (blinds_or_straddles is [big, small] so that PokerKit seats them this way);
# - the preflop minimum raise is one small blind (min_bet is the small blind);
# - no re-opening rule: a player facing a short all-in may raise again;
# - the big blind is asked even when nobody can respond (such turns are comments), and a
#   raise nobody can call more of is allowed (written as the call it amounts to);
# - a banned player's stack and bet leave the game (see _lean_bans);
# - the board is dealt out after a hand ends early (those cards are comments);
# - odd chips go one at a time to the winners from the left of the button.
";

/// The hand being recorded.
#[derive(Debug, Clone)]
struct HandRecord {
    /// A hand is in progress.
    active: bool,
    round: u64,
    button: Seat,
    small_blind: Chips,
    big_blind: Chips,
    /// Seats dealt in, from the small blind (`p1` first).
    order: Vec<Seat>,
    /// `pN` number (1-based) of each seat dealt in.
    player_number: [usize; MAX_SEATS],
    starting_stacks: [Chips; MAX_SEATS],
    hole_cards: [Vec<Card>; MAX_SEATS],
    holes_written: bool,
    /// Still in the hand (not folded, not banned).
    in_hand: [bool; MAX_SEATS],
    stacks: [Chips; MAX_SEATS],
    /// Bets for the whole hand.
    bets: [Chips; MAX_SEATS],
    current_buy_in: Chips,
    /// Community cards of the street being dealt.
    street_cards: Vec<Card>,
    /// The body of the `actions` array, up to the showdown.
    actions: String,
    /// `sm` lines, in reveal order.
    shows: String,
    /// Board lines dealt after betting ended with two or more players in the hand: PokerKit
    /// (like a live table) shows the hands of an all-in showdown before the run-out.
    runout: String,
    /// One line per ban.
    bans: Vec<String>,
    chips_discarded: Chips,
}

impl HandRecord {
    fn new() -> HandRecord {
        HandRecord {
            active: false,
            round: 0,
            button: Seat(0),
            small_blind: Chips::ZERO,
            big_blind: Chips::ZERO,
            order: Vec::with_capacity(MAX_SEATS),
            player_number: [0; MAX_SEATS],
            starting_stacks: [Chips::ZERO; MAX_SEATS],
            hole_cards: Default::default(),
            holes_written: false,
            in_hand: [false; MAX_SEATS],
            stacks: [Chips::ZERO; MAX_SEATS],
            bets: [Chips::ZERO; MAX_SEATS],
            current_buy_in: Chips::ZERO,
            street_cards: Vec::with_capacity(3),
            actions: String::with_capacity(1024),
            shows: String::with_capacity(128),
            runout: String::with_capacity(128),
            bans: Vec::new(),
            chips_discarded: Chips::ZERO,
        }
    }

    fn in_hand_count(&self) -> usize {
        self.order
            .iter()
            .filter(|seat| self.in_hand[seat.index()])
            .count()
    }

    /// `d dh` lines, once, before the first action.
    fn write_holes(&mut self) {
        if self.holes_written {
            return;
        }
        self.holes_written = true;
        for seat in &self.order {
            let cards = &self.hole_cards[seat.index()];
            if cards.is_empty() {
                continue;
            }
            let _ = write!(
                self.actions,
                "  \"d dh p{} ",
                self.player_number[seat.index()]
            );
            for card in cards {
                let _ = write!(self.actions, "{card}");
            }
            self.actions.push_str("\",\n");
        }
    }
}

/// Where the hands go.
#[derive(Debug)]
enum Destination {
    /// One `<round>.phh` file per hand in this directory.
    PerHand(PathBuf),
    /// Every hand in one `.phhs` file (PHH's multi-hand form), as a table `[<round>]`.
    OneFile(BufWriter<File>),
}

/// Writes every hand as a PHH hand history: one file per hand into a directory
/// ([`PhhHands::create`]), or all in one `.phhs` file ([`PhhHands::create_file`]). See the
/// [module docs](self).
#[derive(Debug)]
pub struct PhhHands {
    destination: Destination,
    tournament_id: String,
    game_id: String,
    names: Vec<String>,
    hand: HandRecord,
    /// The file being built, reused.
    text: String,
}

impl PhhHands {
    /// Writes `<dir>/<round>.phh` files; creates `dir`.
    ///
    /// # Errors
    /// The directory cannot be created.
    pub fn create(dir: &Path) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        Ok(PhhHands::new(Destination::PerHand(dir.to_path_buf())))
    }

    /// Writes every hand into the one file `path` (e.g. `hands.phhs`), each as a TOML table
    /// `[<round>]` holding the keys of a `.phh` file, as PokerKit's `HandHistory.load_all`
    /// reads; the comment on Lean Poker's differences is written once, at the top.
    ///
    /// # Errors
    /// The file cannot be created or written.
    pub fn create_file(path: &Path) -> io::Result<Self> {
        let mut file = BufWriter::new(File::create(path)?);
        file.write_all(HEADER.as_bytes())?;
        file.flush()?;
        Ok(PhhHands::new(Destination::OneFile(file)))
    }

    fn new(destination: Destination) -> Self {
        PhhHands {
            destination,
            tournament_id: String::new(),
            game_id: String::new(),
            names: Vec::new(),
            hand: HandRecord::new(),
            text: String::with_capacity(4096),
        }
    }

    /// The file a hand is written to: `<dir>/<round>.phh`, or the one `.phhs` file's path
    /// is not known here (`None`).
    pub fn path(&self, round: u64) -> Option<PathBuf> {
        match &self.destination {
            Destination::PerHand(dir) => Some(dir.join(format!("{round}.phh"))),
            Destination::OneFile(_) => None,
        }
    }

    /// Writes the rendered hand `round` where it belongs.
    fn write_hand(&mut self, round: u64) -> io::Result<()> {
        match &mut self.destination {
            Destination::PerHand(dir) => {
                let mut file = BufWriter::new(File::create(dir.join(format!("{round}.phh")))?);
                file.write_all(HEADER.as_bytes())?;
                file.write_all(self.text.as_bytes())?;
                file.flush()
            }
            Destination::OneFile(file) => {
                write!(file, "\n[{round}]\n")?;
                file.write_all(self.text.as_bytes())?;
                file.flush()
            }
        }
    }

    fn hand_started(
        &mut self,
        round: u64,
        button: Seat,
        small_blind: Chips,
        big_blind: Chips,
        small_blind_seat: Seat,
        stacks: &[Chips],
    ) {
        let hand = &mut self.hand;
        hand.active = true;
        hand.round = round;
        hand.button = button;
        hand.small_blind = small_blind;
        hand.big_blind = big_blind;
        hand.order.clear();
        hand.player_number = [0; MAX_SEATS];
        hand.starting_stacks = [Chips::ZERO; MAX_SEATS];
        hand.in_hand = [false; MAX_SEATS];
        hand.stacks = [Chips::ZERO; MAX_SEATS];
        hand.bets = [Chips::ZERO; MAX_SEATS];
        for cards in &mut hand.hole_cards {
            cards.clear();
        }
        let seat_count = stacks.len().min(MAX_SEATS);
        for offset in 0..seat_count {
            let seat = small_blind_seat.plus(offset, seat_count);
            let stack = stacks.get(seat.index()).copied().unwrap_or_default();
            if stack.is_zero() {
                continue;
            }
            hand.order.push(seat);
            hand.player_number[seat.index()] = hand.order.len();
            hand.starting_stacks[seat.index()] = stack;
            hand.stacks[seat.index()] = stack;
            hand.in_hand[seat.index()] = true;
        }
        hand.holes_written = false;
        hand.current_buy_in = Chips::ZERO;
        hand.street_cards.clear();
        hand.actions.clear();
        hand.shows.clear();
        hand.runout.clear();
        hand.bans.clear();
        hand.chips_discarded = Chips::ZERO;
    }

    fn put_in(&mut self, seat: Seat, bet_after: Chips, stack_after: Chips) {
        let index = seat.index();
        if index < MAX_SEATS {
            self.hand.bets[index] = bet_after;
            self.hand.stacks[index] = stack_after;
            self.hand.current_buy_in = self.hand.current_buy_in.max(bet_after);
        }
    }

    fn bet_placed(
        &mut self,
        seat: Seat,
        action: BetAction,
        bet_after: Chips,
        street_bet_after: Chips,
        stack_after: Chips,
    ) {
        let index = seat.index();
        if index >= MAX_SEATS {
            return;
        }
        let hand = &mut self.hand;
        hand.write_holes();
        let player = hand.player_number[index];
        let to_call = hand.current_buy_in.saturating_sub(hand.bets[index]);
        let others_can_act = hand.order.iter().any(|other| {
            *other != seat && hand.in_hand[other.index()] && !hand.stacks[other.index()].is_zero()
        });
        // PokerKit (standard rules) refuses a raise nobody could call more of.
        let others_can_respond = hand.order.iter().any(|other| {
            *other != seat
                && hand.in_hand[other.index()]
                && hand.stacks[other.index()] + hand.bets[other.index()] > hand.current_buy_in
        });
        let raises = bet_after > hand.current_buy_in;
        let actions = &mut hand.actions;
        if !others_can_act && to_call.is_zero() {
            let _ = writeln!(
                actions,
                "  # p{player} {action} (to {street_bet_after} on this street): Lean Poker asks \
                 although nobody can respond; standard rules ask nothing"
            );
        } else {
            match action {
                BetAction::Fold => {
                    let _ = write!(actions, "  \"p{player} f\",");
                }
                BetAction::Check | BetAction::Call => {
                    let _ = write!(actions, "  \"p{player} cc\",");
                }
                BetAction::Raise | BetAction::AllIn if raises && others_can_respond => {
                    let _ = write!(actions, "  \"p{player} cbr {street_bet_after}\",");
                }
                BetAction::Raise | BetAction::AllIn => {
                    let _ = write!(actions, "  \"p{player} cc\",");
                    if raises {
                        let _ = write!(
                            actions,
                            " # Lean Poker: {action} to {street_bet_after} that nobody can \
                             call more of; the excess comes back uncalled"
                        );
                    }
                }
            }
            actions.push('\n');
        }
        if action == BetAction::Fold {
            hand.in_hand[index] = false;
        }
        self.put_in(seat, bet_after, stack_after);
    }

    fn banned(&mut self, seat: Seat, reason: &str, chips_removed: Chips) {
        let index = seat.index();
        if index >= MAX_SEATS {
            return;
        }
        let hand = &mut self.hand;
        hand.write_holes();
        let player = hand.player_number[index];
        let _ = write!(
            hand.actions,
            "  \"p{player} f\", # banned: {chips_removed} chips leave the game ("
        );
        push_one_line(&mut hand.actions, reason);
        hand.actions.push_str(")\n");
        let mut line = format!("p{player}: ");
        push_one_line(&mut line, reason);
        let _ = write!(line, " ({chips_removed} chips left the game)");
        hand.bans.push(line);
        hand.in_hand[index] = false;
        hand.stacks[index] = Chips::ZERO;
        hand.bets[index] = Chips::ZERO;
        hand.current_buy_in = hand.bets.iter().copied().max().unwrap_or_default();
    }

    fn community_card(&mut self, street: Street, card: Card) {
        let hand = &mut self.hand;
        hand.write_holes();
        hand.street_cards.push(card);
        let needed = if street == Street::Flop { 3 } else { 1 };
        if hand.street_cards.len() < needed {
            return;
        }
        let in_hand = hand.in_hand_count();
        let can_bet = hand
            .order
            .iter()
            .filter(|seat| hand.in_hand[seat.index()] && !hand.stacks[seat.index()].is_zero())
            .count();
        let after_end = in_hand < 2;
        let lines = if !after_end && can_bet < 2 {
            &mut hand.runout
        } else {
            &mut hand.actions
        };
        lines.push_str(if after_end { "  # \"" } else { "  \"" });
        lines.push_str("d db ");
        for card in &hand.street_cards {
            let _ = write!(lines, "{card}");
        }
        hand.street_cards.clear();
        lines.push_str("\",");
        if after_end {
            lines.push_str(" dealt out after the hand was decided (Lean Poker shows the board)");
        }
        lines.push('\n');
    }

    fn revealed(&mut self, seat: Seat, cards: &[Card; 2]) {
        let index = seat.index();
        if index >= MAX_SEATS {
            return;
        }
        let hand = &mut self.hand;
        let _ = writeln!(
            hand.shows,
            "  \"p{} sm {}{}\",",
            hand.player_number[index], cards[0], cards[1]
        );
    }

    /// Renders the finished hand into `self.text`.
    fn render(&mut self, amount_won: &[Chips], stacks: &[Chips]) {
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

impl Observer for PhhHands {
    fn on_event(&mut self, event: &GameEvent, _game: &Game) -> io::Result<()> {
        match event {
            GameEvent::GameStarted {
                tournament_id,
                game_id,
                players,
                ..
            } => {
                self.tournament_id.clone_from(tournament_id);
                self.game_id.clone_from(game_id);
                self.names.clone_from(players);
            }
            GameEvent::HandStarted {
                round,
                button,
                small_blind,
                big_blind,
                small_blind_seat,
                stacks,
                ..
            } => self.hand_started(
                *round,
                *button,
                *small_blind,
                *big_blind,
                *small_blind_seat,
                stacks,
            ),
            _ if !self.hand.active => {}
            GameEvent::HoleCardDealt { seat, card } => {
                if let Some(cards) = self.hand.hole_cards.get_mut(seat.index()) {
                    cards.push(*card);
                }
            }
            GameEvent::BlindPosted { seat, amount, .. } => {
                self.hand.write_holes();
                let index = seat.index();
                if index < MAX_SEATS {
                    let bet = self.hand.bets[index] + *amount;
                    let stack = self.hand.stacks[index].saturating_sub(*amount);
                    self.put_in(*seat, bet, stack);
                }
            }
            GameEvent::BetPlaced {
                seat,
                action,
                bet_after,
                street_bet_after,
                stack_after,
                ..
            } => self.bet_placed(*seat, *action, *bet_after, *street_bet_after, *stack_after),
            GameEvent::Banned {
                seat,
                reason,
                chips_removed,
                ..
            } => self.banned(*seat, reason, *chips_removed),
            GameEvent::CommunityCardDealt { street, card } => self.community_card(*street, *card),
            GameEvent::HandRevealed { seat, cards, .. } => self.revealed(*seat, cards),
            GameEvent::PotAwarded { discarded, .. } => self.hand.chips_discarded += *discarded,
            GameEvent::HandEnded {
                round,
                amount_won,
                stacks,
            } => {
                self.hand.write_holes();
                self.render(amount_won, stacks);
                self.hand.active = false;
                self.write_hand(*round)?;
            }
            GameEvent::AnswerForgiven { .. }
            | GameEvent::ChipsReturned { .. }
            | GameEvent::PlayerEliminated { .. }
            | GameEvent::GameEnded { .. } => {}
        }
        Ok(())
    }
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

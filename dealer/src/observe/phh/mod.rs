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
//!
//! # An event's hand histories
//!
//! [`PhhHands::for_event`] writes an event game's hands in memory, for the event's
//! hand-history route (`GET /api/event/hands`, `event::hand_histories`), which streams many
//! games as one multi-hand file: each hand a table `[game-<n>-hand-<round>]` (unique across
//! games, so the whole stream is one TOML document PokerKit's `load_all` reads), with two more
//! user-defined fields after `_lean_button`:
//!
//! - `_lean_event_game`: the event's game number (what the route's `since` counts);
//! - `_lean_versions`: each listed player's version in that hand, in the order of `players`
//!   (what the player answered to `version`, as the event shows it; empty when unknown).
//!
//! A game's own `hands.phhs` and `hands/*.phh` never have them: their bytes are what the
//! game's record regenerates.

mod hand;
mod render;

use super::Observer;
use crate::engine::Game;
use crate::game_event::{GameEvent, MAX_SEATS};
use hand::HandRecord;
use std::fs::File;
use std::io::{self, BufWriter, Write as _};
use std::path::{Path, PathBuf};

/// The comment at the top of every file (and of the event's hand-history stream).
pub const HEADER: &str = "\
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

/// Where the hands go.
#[derive(Debug)]
enum Destination {
    /// One `<round>.phh` file per hand in this directory.
    PerHand(PathBuf),
    /// Every hand in one `.phhs` file (PHH's multi-hand form), as a table `[<round>]`.
    OneFile(BufWriter<File>),
    /// An event game's hands in memory, each a table `[game-<n>-hand-<round>]` with the
    /// event's fields (see the [module docs](self)), no header.
    Event {
        /// The event's game number.
        game: u32,
        /// The hands written since [`PhhHands::take_written`] last took them.
        written: Vec<u8>,
    },
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
    /// Each listed player's version in the hand ended (written only for an event).
    versions: Vec<String>,
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

    /// Writes the hands of the event's game `game` in memory, in the form of the event's
    /// hand-history stream (see the [module docs](self)): take them with
    /// [`PhhHands::take_written`].
    pub fn for_event(game: u32) -> Self {
        PhhHands::new(Destination::Event {
            game,
            written: Vec::with_capacity(64 * 1024),
        })
    }

    /// The hands an event's writer ([`PhhHands::for_event`]) wrote since the last call; empty
    /// for a writer of files.
    pub fn take_written(&mut self) -> Vec<u8> {
        match &mut self.destination {
            Destination::Event { written, .. } => std::mem::take(written),
            _ => Vec::new(),
        }
    }

    fn new(destination: Destination) -> Self {
        PhhHands {
            destination,
            tournament_id: String::new(),
            game_id: String::new(),
            names: Vec::new(),
            hand: HandRecord::new(),
            text: String::with_capacity(4096),
            versions: Vec::new(),
        }
    }

    /// The event's game number, when writing for an event.
    fn event_game(&self) -> Option<u32> {
        match &self.destination {
            Destination::Event { game, .. } => Some(*game),
            _ => None,
        }
    }

    /// The file a hand is written to: `<dir>/<round>.phh`, or the one `.phhs` file's path
    /// is not known here (`None`).
    pub fn path(&self, round: u64) -> Option<PathBuf> {
        match &self.destination {
            Destination::PerHand(dir) => Some(dir.join(format!("{round}.phh"))),
            Destination::OneFile(_) | Destination::Event { .. } => None,
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
            Destination::Event { game, written } => {
                write!(written, "\n[game-{game}-hand-{round}]\n")?;
                written.extend_from_slice(self.text.as_bytes());
                Ok(())
            }
        }
    }
}

impl Observer for PhhHands {
    fn on_event(&mut self, event: &GameEvent, game: &Game) -> io::Result<()> {
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
            } => self.hand.started(
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
                    self.hand.put_in(*seat, bet, stack);
                }
            }
            GameEvent::BetPlaced {
                seat,
                action,
                bet_after,
                street_bet_after,
                stack_after,
                ..
            } => self
                .hand
                .bet_placed(*seat, *action, *bet_after, *street_bet_after, *stack_after),
            GameEvent::Banned {
                seat,
                reason,
                chips_removed,
                ..
            } => self.hand.banned(*seat, reason, *chips_removed),
            GameEvent::CommunityCardDealt { street, card } => {
                self.hand.community_card(*street, *card)
            }
            GameEvent::HandRevealed { seat, cards, .. } => self.hand.revealed(*seat, cards),
            GameEvent::PotAwarded { discarded, .. } => self.hand.chips_discarded += *discarded,
            GameEvent::HandEnded {
                round,
                amount_won,
                stacks,
            } => {
                self.hand.write_holes();
                if self.event_game().is_some() {
                    self.versions.clear();
                    self.versions.extend(
                        self.hand
                            .order
                            .iter()
                            .map(|seat| game.player_version(*seat).unwrap_or_default().to_string()),
                    );
                }
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

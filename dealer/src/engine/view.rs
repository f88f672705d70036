//! `game_state` documents rendered from the engine's model for one receiver (spec §2, §8).
//!
//! Who sees which hole cards is decided here and nowhere else: the bet request shows the
//! receiver's cards; the showdown shows the receiver's and the revealed ones; the viewer log
//! shows everyone's; the public view shows none. Rendering writes into a caller's document
//! and reuses its strings and vectors, so a hot loop that keeps one document allocates
//! (almost) nothing per request.

use super::{Game, Phase, UnknownSeat};
use shared::{Chips, GameState, PlayerState, PlayerStatus, Seat};
use std::sync::atomic::{AtomicU64, Ordering};
use thiserror::Error;

/// Which `game_state` document to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The pending bet request's document: only the receiver's hole cards, with
    /// `in_action`, `minimum_raise` and `bet_index` (see [`Game::bet_request_state`]).
    BetRequest,
    /// The `showdown` document for this seat: the state after the pot is paid, with
    /// `amount_won`, the revealed hands and the receiver's own cards (`[]` if it was dealt
    /// nothing), without the three betting keys.
    Showdown(Seat),
    /// Every player's hole cards (`[]` for none), without the betting keys: what the viewer
    /// log shows.
    Viewer,
    /// No hole cards, without the betting keys: what a spectator may see.
    Public,
}

/// A [`View`] that cannot be rendered now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ViewError {
    /// [`View::BetRequest`] with no bet request pending.
    #[error("no bet request is pending")]
    NoBetRequest,
    /// [`View::Showdown`] outside the [`super::Step::Showdown`] step.
    #[error("no showdown is open")]
    NoShowdown,
    /// A seat outside the table.
    #[error(transparent)]
    UnknownSeat(#[from] UnknownSeat),
}

/// A `game_state` document a caller keeps between renders ([`Game::render_document`]).
///
/// It remembers which game texts (ids, names, versions) it holds, so rendering the same
/// game into it again writes only numbers and cards: no string is compared or copied. Its
/// document can only be read, so what it remembers stays true.
#[derive(Debug, Clone)]
pub struct Document {
    state: GameState,
    /// The [`Game`] texts stamp `state` holds the texts of; `None` before the first render.
    texts: Option<u64>,
    /// The game's change count at the last render: with `texts`, the table state shown.
    changes: u64,
    /// The hole cards shown at the last render (bit per seat).
    cards_shown: u32,
}

impl Document {
    /// A document not yet rendered (its first render writes every field).
    pub fn new() -> Document {
        Document {
            state: empty_document(),
            texts: None,
            changes: 0,
            cards_shown: 0,
        }
    }

    /// The document as last rendered.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The document as last rendered, to keep.
    pub fn into_state(self) -> GameState {
        self.state
    }
}

impl Default for Document {
    fn default() -> Document {
        Document::new()
    }
}

/// A stamp no other game shares: drawn when a game is set up, whenever one of its texts
/// changes, and for a clone (which may change apart from the original), so equal stamps
/// mean the same game with the same texts.
#[derive(Debug)]
pub(super) struct Stamp(u64);

impl Stamp {
    /// A stamp never drawn before.
    pub(super) fn new() -> Stamp {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Stamp(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl Clone for Stamp {
    fn clone(&self) -> Stamp {
        Stamp::new()
    }
}

/// Whether a render copies the texts (ids, names, versions) or keeps those in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Texts {
    /// The document already holds this table's current texts.
    Keep,
    /// Copy them (compared first, so an equal text costs no write).
    Refresh,
}

/// The betting keys of a bet request.
#[derive(Debug, Clone, Copy)]
struct Betting {
    in_action: Seat,
    minimum_raise: Chips,
    bet_index: u64,
}

/// What the engine's bet-request document holds beyond the per-seat numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct RequestMarks {
    /// It holds the current ids, names and versions.
    texts_current: bool,
    /// The hand it was last rendered for: its board, blinds and button.
    round: Option<u64>,
    /// The seat whose hole cards it shows.
    cards_of: Option<Seat>,
    /// Bit per seat whose numbers changed since it was last written.
    dirty: u32,
}

impl RequestMarks {
    /// Notes which seats' numbers `event` changes. Only a bet or a ban can come between two
    /// requests of one hand and each changes one seat; any other event marks every seat (a
    /// new hand renders whole anyway).
    pub(super) fn changed(&mut self, event: &crate::event::GameEvent) {
        use crate::event::GameEvent;
        self.dirty |= match event {
            GameEvent::BetPlaced { seat, .. } | GameEvent::Banned { seat, .. } => 1 << seat.index(),
            GameEvent::AnswerForgiven { .. }
            | GameEvent::CommunityCardDealt { .. }
            | GameEvent::HandRevealed { .. } => 0,
            _ => u32::MAX,
        };
    }

    /// Notes that `seat`'s numbers changed outside an event (its `time_used`).
    pub(super) fn seat_changed(&mut self, seat: Seat) {
        self.dirty |= 1 << seat.index();
    }
}

/// A document to render into; every field is overwritten by the first render.
pub(super) fn empty_document() -> GameState {
    GameState {
        tournament_id: None,
        game_id: None,
        round: None,
        players: Vec::new(),
        small_blind: Chips::ZERO,
        big_blind: None,
        orbits: 0,
        dealer: Seat(0),
        community_cards: Vec::with_capacity(5),
        current_buy_in: Chips::ZERO,
        pot: Chips::ZERO,
        in_action: None,
        minimum_raise: None,
        bet_index: None,
    }
}

/// Sets `slot` to `value`, reusing its allocation (and not touching it when equal).
fn set_text(slot: &mut Option<String>, value: &str) {
    match slot {
        Some(text) if text == value => {}
        Some(text) => {
            text.clear();
            text.push_str(value);
        }
        None => *slot = Some(value.to_owned()),
    }
}

/// Sets `text` to `value`; a compare is cheaper than a copy, and names rarely change.
fn set_string(text: &mut String, value: &str) {
    if text != value {
        text.clear();
        text.push_str(value);
    }
}

impl Game {
    /// Renders `view` into `out`, overwriting it (its allocations are reused).
    ///
    /// # Errors
    /// [`ViewError`] when the view does not exist now: no bet request pending, no showdown
    /// open, or a seat outside the table.
    pub fn render(&self, view: View, out: &mut GameState) -> Result<(), ViewError> {
        let (cards_shown, betting) = self.view_parts(view)?;
        self.render_into(cards_shown, betting, out);
        Ok(())
    }

    /// Renders `view` into a kept [`Document`]: like [`Game::render`], but a document this
    /// game rendered before keeps its texts instead of comparing them again.
    ///
    /// # Errors
    /// As [`Game::render`]; the document is left as it was.
    pub fn render_document(&self, view: View, document: &mut Document) -> Result<(), ViewError> {
        let (cards_shown, betting) = self.view_parts(view)?;
        let stamp = self.texts_stamp.0;
        let state = &mut document.state;
        if document.texts == Some(stamp)
            && document.changes == self.changes
            && state.players.len() == self.table.seats.len()
        {
            // The seats and board are as last rendered: only the view's cards may differ.
            show_cards(&self.table, document.cards_shown, cards_shown, state);
            write_hand(&self.table, &self.hand, betting, state);
        } else {
            let texts = if document.texts == Some(stamp) {
                Texts::Keep
            } else {
                Texts::Refresh
            };
            render(&self.table, &self.hand, cards_shown, betting, texts, state);
        }
        document.texts = Some(stamp);
        document.changes = self.changes;
        document.cards_shown = cards_shown;
        Ok(())
    }

    /// The hole cards shown (bit per seat) and betting keys of `view`, if it exists now.
    fn view_parts(&self, view: View) -> Result<(u32, Option<Betting>), ViewError> {
        match view {
            View::BetRequest => {
                let Phase::AwaitingAnswer(seat) = self.phase else {
                    return Err(ViewError::NoBetRequest);
                };
                Ok((1 << seat.index(), Some(self.betting(seat))))
            }
            View::Showdown(seat) => {
                if self.phase != Phase::ShowdownOpen {
                    return Err(ViewError::NoShowdown);
                }
                if seat.index() >= self.seat_count {
                    return Err(UnknownSeat {
                        seat,
                        seat_count: self.seat_count,
                    }
                    .into());
                }
                Ok((self.hand.revealed | 1 << seat.index(), None))
            }
            View::Viewer => Ok((u32::MAX, None)),
            View::Public => Ok((0, None)),
        }
    }

    /// [`Game::render`] into a new document.
    ///
    /// # Errors
    /// As [`Game::render`].
    pub fn document(&self, view: View) -> Result<GameState, ViewError> {
        let mut out = empty_document();
        self.render(view, &mut out)?;
        Ok(out)
    }

    /// The document for the pending [`super::Step::BetRequest`] ([`View::BetRequest`]),
    /// rendered once when the request opened. `None` when no bet request is pending.
    pub fn bet_request_state(&self) -> Option<&GameState> {
        matches!(self.phase, Phase::AwaitingAnswer(_)).then_some(&self.request)
    }

    /// [`View::Showdown`] for `seat` as a new document; `None` when no showdown is open or
    /// `seat` is not at the table. A loop over receivers renders into one document with
    /// [`Game::render`] instead.
    pub fn showdown_state(&self, seat: Seat) -> Option<GameState> {
        self.document(View::Showdown(seat)).ok()
    }

    /// [`View::Viewer`] as a new document.
    pub fn viewer_state(&self) -> GameState {
        let mut out = empty_document();
        self.render_into(u32::MAX, None, &mut out);
        out
    }

    /// [`View::Public`] as a new document.
    pub fn public_state(&self) -> GameState {
        let mut out = empty_document();
        self.render_into(0, None, &mut out);
        out
    }

    /// `seat`'s hole cards this hand (empty when dealt nothing or not at the table), whoever
    /// may see them.
    pub fn hole_cards(&self, seat: Seat) -> &[shared::Card] {
        self.table
            .seats
            .get(seat.index())
            .map_or(&[], |player| player.hole_cards.as_slice())
    }

    /// The community cards dealt so far this hand.
    pub fn board(&self) -> &[shared::Card] {
        &self.table.board
    }

    /// `seat`'s chips behind (not in the pot); `None` for a seat not at the table.
    pub fn stack(&self, seat: Seat) -> Option<Chips> {
        self.table
            .seats
            .get(seat.index())
            .map(|player| player.stack)
    }

    /// The tournament's id (24 lowercase hex digits).
    pub fn tournament_id(&self) -> &str {
        &self.table.tournament_id
    }

    /// This game's id (24 lowercase hex digits).
    pub fn game_id(&self) -> &str {
        &self.table.game_id
    }

    /// Brings the pending bet request's document up to date (after a change it shows),
    /// writing only what can have changed since the last request.
    ///
    /// The old engine presented one document and changed it in place; this keeps that cost.
    /// Within a hand names, ids, versions, blinds, button and round stay put, hole cards are
    /// all dealt before the first request and the board only grows, so a request of the same
    /// hand copies the numbers of the seats that changed (usually the one that last acted), moves the one visible pair of hole cards when the
    /// receiver changes, and appends new board cards. A new hand (or a changed version)
    /// renders the document whole.
    pub(super) fn rerender_request(&mut self) {
        let Phase::AwaitingAnswer(seat) = self.phase else {
            return;
        };
        let betting = self.betting(seat);
        let marks = &mut self.request_marks;
        let doc = &mut self.request;
        let same_hand = marks.texts_current
            && marks.round == Some(self.hand.round)
            && doc.players.len() == self.table.seats.len()
            && doc.community_cards.len() <= self.table.board.len();
        if !same_hand {
            let texts = if marks.texts_current {
                Texts::Keep
            } else {
                Texts::Refresh
            };
            render(
                &self.table,
                &self.hand,
                1 << seat.index(),
                Some(betting),
                texts,
                doc,
            );
            *marks = RequestMarks {
                texts_current: true,
                round: Some(self.hand.round),
                cards_of: Some(seat),
                dirty: 0,
            };
            return;
        }
        // Visits only the marked seats (usually one): a loop over every seat cost more than
        // the writes themselves.
        let every_seat = ((1u64 << self.table.seats.len()) - 1) as u32;
        for index in seat_bits(marks.dirty & every_seat) {
            if let (Some(player), Some(state)) =
                (doc.players.get_mut(index), self.table.seats.get(index))
            {
                write_numbers(player, state);
            }
        }
        marks.dirty = 0;
        if marks.cards_of != Some(seat) {
            let spare = marks
                .cards_of
                .and_then(|previous| doc.players.get_mut(previous.index()))
                .and_then(|previous| previous.hole_cards.take());
            if let Some(player) = doc.players.get_mut(seat.index()) {
                let cards = player
                    .hole_cards
                    .get_or_insert_with(|| spare.unwrap_or_else(|| Vec::with_capacity(2)));
                cards.clear();
                cards.extend_from_slice(self.table.seat(seat).hole_cards.as_slice());
            }
            marks.cards_of = Some(seat);
        }
        let shown = doc.community_cards.len();
        if let Some(new_cards) = self.table.board.get(shown..) {
            doc.community_cards.extend_from_slice(new_cards);
        }
        doc.current_buy_in = self.table.current_buy_in;
        doc.pot = self.table.pot;
        write_betting(doc, Some(betting));
    }

    fn betting(&self, seat: Seat) -> Betting {
        Betting {
            in_action: seat,
            minimum_raise: self.hand.minimum_raise,
            bet_index: self.hand.visits,
        }
    }

    fn render_into(&self, cards_shown: u32, betting: Option<Betting>, out: &mut GameState) {
        render(
            &self.table,
            &self.hand,
            cards_shown,
            betting,
            Texts::Refresh,
            out,
        );
    }
}

/// Writes the table into `out`: hole cards of the seats in `cards_shown` (bit per seat),
/// betting keys when `betting` is given. Reuses `out`'s strings and card vectors: a card
/// vector taken from a seat that is now hidden serves the next seat that is shown.
fn render(
    table: &super::model::Table,
    hand: &super::HandProgress,
    cards_shown: u32,
    betting: Option<Betting>,
    texts: Texts,
    out: &mut GameState,
) {
    let seat_count = table.seats.len();
    let refresh = texts == Texts::Refresh || out.players.len() != seat_count;
    if refresh {
        set_text(&mut out.tournament_id, &table.tournament_id);
        set_text(&mut out.game_id, &table.game_id);
    }
    out.players.truncate(seat_count);
    let mut spare: Option<Vec<shared::Card>> = None;
    for (index, player) in out.players.iter_mut().enumerate() {
        if cards_shown & (1 << index) == 0 && spare.is_none() {
            spare = player.hole_cards.take();
        }
    }
    for (index, seat) in table.seats.iter().enumerate() {
        if index == out.players.len() {
            out.players.push(PlayerState {
                name: String::new(),
                stack: Chips::ZERO,
                status: PlayerStatus::Active,
                bet: Chips::ZERO,
                hole_cards: None,
                time_used: None,
                version: String::new(),
                amount_won: None,
                id: Seat(index),
            });
        }
        let player = &mut out.players[index];
        if refresh {
            set_string(&mut player.name, &seat.name);
            set_string(&mut player.version, &seat.version);
        }
        write_numbers(player, seat);
        if cards_shown & (1 << index) == 0 {
            player.hole_cards = None;
        } else {
            let cards = player
                .hole_cards
                .get_or_insert_with(|| spare.take().unwrap_or_else(|| Vec::with_capacity(2)));
            cards.clear();
            cards.extend_from_slice(seat.hole_cards.as_slice());
        }
        player.id = Seat(index);
    }
    out.community_cards.clear();
    out.community_cards.extend_from_slice(&table.board);
    write_hand(table, hand, betting, out);
}

/// The document's keys outside the seats and board: the hand, blinds, pot and betting.
fn write_hand(
    table: &super::model::Table,
    hand: &super::HandProgress,
    betting: Option<Betting>,
    out: &mut GameState,
) {
    out.round = Some(hand.round);
    out.small_blind = hand.small_blind;
    out.big_blind = Some(hand.big_blind);
    out.orbits = hand.round / table.seats.len().max(1) as u64;
    out.dealer = hand.button;
    out.current_buy_in = table.current_buy_in;
    out.pot = table.pot;
    write_betting(out, betting);
}

/// Changes the hole cards shown from the seats in `was` to those in `now` (bit per seat),
/// moving a hidden seat's card vector to a newly shown one.
fn show_cards(table: &super::model::Table, was: u32, now: u32, out: &mut GameState) {
    let changed = was ^ now;
    if changed == 0 {
        return;
    }
    let mut spare: Option<Vec<shared::Card>> = None;
    for index in seat_bits(changed & was) {
        if let Some(player) = out.players.get_mut(index) {
            let hidden = player.hole_cards.take();
            spare = spare.or(hidden);
        }
    }
    for index in seat_bits(changed & now) {
        if let (Some(player), Some(seat)) = (out.players.get_mut(index), table.seats.get(index)) {
            let mut cards = spare.take().unwrap_or_else(|| Vec::with_capacity(2));
            cards.clear();
            cards.extend_from_slice(seat.hole_cards.as_slice());
            player.hole_cards = Some(cards);
        }
    }
}

/// The seat indices whose bits are set in `bits`, lowest first (a `u32::MAX` "every seat"
/// mask yields indices past the table, which callers skip).
fn seat_bits(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let index = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            index
        })
    })
}

/// The numbers of a seat that change during a hand.
fn write_numbers(player: &mut PlayerState, seat: &super::model::SeatState) {
    player.stack = seat.stack;
    player.status = seat.status;
    player.bet = seat.bet;
    player.time_used = Some(seat.time_used);
    player.amount_won = (!seat.amount_won.is_zero()).then_some(seat.amount_won);
}

/// The three keys only a bet request has.
fn write_betting(out: &mut GameState, betting: Option<Betting>) {
    out.in_action = betting.map(|b| b.in_action);
    out.minimum_raise = betting.map(|b| b.minimum_raise);
    out.bet_index = betting.map(|b| b.bet_index);
}

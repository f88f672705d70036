//! `game_state` documents rendered from the engine's model for one receiver (spec §2, §8).
//!
//! Who sees which hole cards is decided here and nowhere else: the bet request shows the
//! receiver's cards; the showdown shows the receiver's and the revealed ones; the viewer log
//! shows everyone's; the public view shows none. Rendering writes into a caller's document
//! and reuses its strings and vectors, so a hot loop that keeps one document allocates
//! (almost) nothing per request.

use super::model::{HandHeader, SeatState, Table};
use super::{Game, Phase, UnknownSeat};
use shared::{Card, Chips, GameState, PlayerState, PlayerStatus, Seat};
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
    /// Card vectors of seats hidden since, kept for the next seat shown: moving cards
    /// between receivers never allocates or frees.
    spares: Spares,
}

impl Document {
    /// A document not yet rendered (its first render writes every field).
    pub fn new() -> Document {
        Document {
            state: empty_document(),
            texts: None,
            changes: 0,
            cards_shown: 0,
            spares: Vec::new(),
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

    /// Its value.
    pub(super) fn value(&self) -> u64 {
        self.0
    }
}

impl Clone for Stamp {
    fn clone(&self) -> Stamp {
        Stamp::new()
    }
}

/// Whether a render copies the texts (ids, names, versions) or keeps those in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Texts {
    /// The document already holds this table's current texts.
    Keep,
    /// Copy them (compared first, so an equal text costs no write).
    Refresh,
}

/// Card vectors taken from seats a render hides, for the seats it shows.
pub(super) type Spares = Vec<Vec<Card>>;

/// The betting keys of a bet request.
#[derive(Debug, Clone, Copy)]
pub(super) struct Betting {
    /// The receiver.
    pub in_action: Seat,
    /// The smallest raise.
    pub minimum_raise: Chips,
    /// Visits so far on this street.
    pub bet_index: u64,
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
pub(super) fn set_string(text: &mut String, value: &str) {
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
        render(
            &self.table,
            cards_shown,
            betting,
            Texts::Refresh,
            out,
            &mut Vec::new(),
        );
        Ok(())
    }

    /// Renders `view` into a kept [`Document`]: like [`Game::render`], but a document this
    /// game rendered before keeps its texts instead of comparing them again, and one rendered
    /// since the last change of the table only has its hole cards and betting keys changed.
    ///
    /// # Errors
    /// As [`Game::render`]; the document is left as it was.
    pub fn render_document(&self, view: View, document: &mut Document) -> Result<(), ViewError> {
        let (cards_shown, betting) = self.view_parts(view)?;
        let stamp = self.table.texts();
        let changes = self.table.changes();
        let state = &mut document.state;
        if document.texts == Some(stamp)
            && document.changes == changes
            && state.players.len() == self.table.seats().len()
        {
            // The seats and board are as last rendered: only the view's cards may differ.
            show_cards(
                &self.table,
                document.cards_shown,
                cards_shown,
                state,
                &mut document.spares,
            );
            write_betting(state, betting);
        } else {
            let texts = if document.texts == Some(stamp) {
                Texts::Keep
            } else {
                Texts::Refresh
            };
            render(
                &self.table,
                cards_shown,
                betting,
                texts,
                state,
                &mut document.spares,
            );
        }
        document.texts = Some(stamp);
        document.changes = changes;
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
                let betting = Betting {
                    in_action: seat,
                    minimum_raise: self.hand.minimum_raise,
                    bet_index: self.hand.visits,
                };
                Ok((1 << seat.index(), Some(betting)))
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

    /// The document for the pending [`super::Step::BetRequest`] ([`View::BetRequest`]):
    /// borrowed, no copy per request (the engine keeps it up to date as the table changes).
    /// `None` when no bet request is pending.
    pub fn bet_request_state(&self) -> Option<&GameState> {
        matches!(self.phase, Phase::AwaitingAnswer(_)).then_some(self.table.request())
    }

    /// [`View::Showdown`] for `seat` as a new document; `None` when no showdown is open or
    /// `seat` is not at the table. A loop over receivers renders into kept [`Document`]s with
    /// [`Game::render_document`] instead.
    pub fn showdown_state(&self, seat: Seat) -> Option<GameState> {
        self.document(View::Showdown(seat)).ok()
    }

    /// [`View::Viewer`] as a new document.
    pub fn viewer_state(&self) -> GameState {
        self.document(View::Viewer)
            .unwrap_or_else(|_| empty_document())
    }

    /// [`View::Public`] as a new document.
    pub fn public_state(&self) -> GameState {
        self.document(View::Public)
            .unwrap_or_else(|_| empty_document())
    }

    /// `seat`'s hole cards this hand (empty when dealt nothing or not at the table), whoever
    /// may see them.
    pub fn hole_cards(&self, seat: Seat) -> &[shared::Card] {
        self.table
            .seats()
            .get(seat.index())
            .map_or(&[], |player| player.hole_cards.as_slice())
    }

    /// The community cards dealt so far this hand.
    pub fn board(&self) -> &[shared::Card] {
        self.table.board()
    }

    /// `seat`'s chips behind (not in the pot); `None` for a seat not at the table.
    pub fn stack(&self, seat: Seat) -> Option<Chips> {
        self.table
            .seats()
            .get(seat.index())
            .map(|player| player.stack)
    }

    /// The tournament's id (24 lowercase hex digits).
    pub fn tournament_id(&self) -> &str {
        self.table.tournament_id()
    }

    /// This game's id (24 lowercase hex digits).
    pub fn game_id(&self) -> &str {
        self.table.game_id()
    }
}

/// Writes the table into `out`: hole cards of the seats in `cards_shown` (bit per seat),
/// betting keys when `betting` is given. Reuses `out`'s strings and card vectors: a card
/// vector taken from a seat that is now hidden goes to `spares`, which serve the seats shown.
pub(super) fn render(
    table: &Table,
    cards_shown: u32,
    betting: Option<Betting>,
    texts: Texts,
    out: &mut GameState,
    spares: &mut Spares,
) {
    let seats = table.seats();
    let refresh = texts == Texts::Refresh || out.players.len() != seats.len();
    if refresh {
        set_text(&mut out.tournament_id, table.tournament_id());
        set_text(&mut out.game_id, table.game_id());
    }
    out.players.truncate(seats.len());
    for (index, player) in out.players.iter_mut().enumerate() {
        if cards_shown & (1 << index) == 0 {
            hide_cards_of(player, spares);
        }
    }
    for (index, seat) in seats.iter().enumerate() {
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
        if cards_shown & (1 << index) != 0 {
            show_cards_of(player, seat, spares);
        }
        player.id = Seat(index);
    }
    out.community_cards.clear();
    out.community_cards.extend_from_slice(table.board());
    write_header(out, table.header(), seats.len());
    out.current_buy_in = table.current_buy_in();
    out.pot = table.pot();
    write_betting(out, betting);
}

/// The hand-wide keys: round, blinds, button and orbits.
pub(super) fn write_header(out: &mut GameState, header: HandHeader, seat_count: usize) {
    out.round = Some(header.round);
    out.small_blind = header.small_blind;
    out.big_blind = Some(header.big_blind);
    out.orbits = header.round / seat_count.max(1) as u64;
    out.dealer = header.button;
}

/// Hides `player`'s hole cards, keeping their vector in `spares`.
#[inline]
fn hide_cards_of(player: &mut PlayerState, spares: &mut Spares) {
    if let Some(cards) = player.hole_cards.take() {
        spares.push(cards);
    }
}

/// Shows `seat`'s hole cards in `player`, in one of `spares` (vectors taken from hidden seats)
/// when it has none yet.
#[inline(always)]
fn show_cards_of(player: &mut PlayerState, seat: &SeatState, spares: &mut Spares) {
    let cards = player
        .hole_cards
        .get_or_insert_with(|| spares.pop().unwrap_or_else(|| Vec::with_capacity(2)));
    cards.clear();
    // Two cards as an array (one reserve, two writes); a slice copy would call `memcpy`.
    match seat.hole_cards.pair() {
        Some(pair) => cards.extend(pair),
        None => {
            for &card in seat.hole_cards.as_slice() {
                cards.push(card);
            }
        }
    }
}

/// Changes the hole cards shown from the seats in `was` to those in `now` (bit per seat),
/// moving hidden seats' card vectors to newly shown ones through `spares`.
fn show_cards(table: &Table, was: u32, now: u32, out: &mut GameState, spares: &mut Spares) {
    let changed = was ^ now;
    if changed == 0 {
        return;
    }
    for index in seat_bits(changed & was) {
        if let Some(player) = out.players.get_mut(index) {
            hide_cards_of(player, spares);
        }
    }
    for index in seat_bits(changed & now) {
        if let (Some(player), Some(seat)) = (out.players.get_mut(index), table.seats().get(index)) {
            show_cards_of(player, seat, spares);
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
pub(super) fn write_numbers(player: &mut PlayerState, seat: &SeatState) {
    player.stack = seat.stack;
    player.status = seat.status;
    player.bet = seat.bet;
    player.time_used = Some(seat.time_used);
    player.amount_won = (!seat.amount_won.is_zero()).then_some(seat.amount_won);
}

/// The three keys only a bet request has.
pub(super) fn write_betting(out: &mut GameState, betting: Option<Betting>) {
    out.in_action = betting.map(|b| b.in_action);
    out.minimum_raise = betting.map(|b| b.minimum_raise);
    out.bet_index = betting.map(|b| b.bet_index);
}

//! `game_state` documents rendered from the engine's model for one receiver (spec §2, §8).
//!
//! Who sees which hole cards is decided here and nowhere else: the bet request shows the
//! receiver's cards; the showdown shows the receiver's and the revealed ones; the viewer log
//! shows everyone's; the public view shows none. Rendering writes into a caller's document
//! and reuses its strings and vectors, so a hot loop that keeps one document allocates
//! (almost) nothing per request.

use super::document::{empty_document, render, show_cards, write_betting, Betting, Spares, Texts};
use super::{Game, Phase, UnknownSeat};
use shared::{Chips, GameState, Seat};
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

impl Game {
    /// Renders `view` into `out`, overwriting it (its allocations are reused).
    ///
    /// # Errors
    /// [`ViewError`] when the view does not exist now: no bet request pending, no showdown
    /// open, or a seat outside the table.
    pub fn render(&self, view: View, out: &mut GameState) -> Result<(), ViewError> {
        let (cards_shown, betting) = self.view_parts(view)?;
        render(
            self.table.parts(),
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
                self.table.seats(),
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
                self.table.parts(),
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

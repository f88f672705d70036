//! The engine's own state: the table as the rules see it, apart from any `game_state`
//! document.
//!
//! Every field always has a value (no wire-format `Option`s) and every seat's hole cards are
//! simply stored with the seat; who may see them is decided only when a document is rendered
//! ([`super::view`], written through `super::document`).
//!
//! The table also keeps one rendered document, the bet request's: each mutator below changes
//! the model and writes the same change into that document in the same call, so opening a
//! request costs no render, only showing the receiver's hole cards and the three betting
//! keys. The rules never read the document back; the fields are private so that no change
//! can bypass it (a property test compares it with a fresh render at every request).

use super::document::{self, Stamp, TableParts};
pub(crate) use super::document::{HandHeader, HoleCards, SeatState};
use shared::{Card, Chips, GameState, PlayerStatus, Seat};

/// A seat's chips and status after it put chips in, with the table's pot and largest bet
/// ([`Table::put_in`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PutIn {
    /// The seat's chips behind.
    pub stack: Chips,
    /// The seat's bet this hand.
    pub bet: Chips,
    /// The seat's status (folded after a fold).
    pub status: PlayerStatus,
    /// The sum of all bets.
    pub pot: Chips,
    /// The largest bet.
    pub current_buy_in: Chips,
}

/// The table: seats, board and the chips in the middle, with the bet request's document.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    tournament_id: String,
    game_id: String,
    seats: Vec<SeatState>,
    board: Vec<Card>,
    pot: Chips,
    current_buy_in: Chips,
    header: HandHeader,
    /// Counts every change (with `texts`, it names a table state for kept documents).
    changes: u64,
    /// Names the ids, names and versions this table shows now (see [`super::view::Document`]).
    texts: Stamp,
    /// The bet request's document, written by every mutator.
    request: GameState,
    /// The seat whose hole cards `request` shows.
    request_cards_of: Option<Seat>,
    /// Every other seat's hole cards in wire form, ready to be swapped into `request` (no
    /// copy) when that seat is asked: each seat's vector is `Some` either here or in the
    /// document, never both.
    request_hidden_cards: Vec<Option<Vec<Card>>>,
}

impl Table {
    /// Seats the players, each with `stack` chips and version `version`.
    pub(crate) fn new(
        tournament_id: String,
        game_id: String,
        names: Vec<String>,
        stack: Chips,
        version: &str,
        header: HandHeader,
    ) -> Table {
        let mut table = Table {
            tournament_id,
            game_id,
            seats: names
                .into_iter()
                .map(|name| SeatState::new(name, stack, version))
                .collect(),
            board: Vec::with_capacity(5),
            pot: Chips::ZERO,
            current_buy_in: Chips::ZERO,
            header,
            changes: 0,
            texts: Stamp::new(),
            request: document::empty_document(),
            request_cards_of: None,
            request_hidden_cards: Vec::new(),
        };
        table.request_hidden_cards = (0..table.seats.len())
            .map(|_| Some(Vec::with_capacity(2)))
            .collect();
        table.render_request_whole();
        table
    }

    /// Renders the request document from scratch (at setup only: every later change is
    /// written by its mutator).
    fn render_request_whole(&mut self) {
        let mut request = std::mem::replace(&mut self.request, document::empty_document());
        document::render(
            self.parts(),
            0,
            None,
            document::Texts::Refresh,
            &mut request,
            &mut Vec::new(),
        );
        self.request = request;
        self.request_cards_of = None;
    }

    /// The parts a render reads.
    pub(crate) fn parts(&self) -> TableParts<'_> {
        TableParts {
            tournament_id: &self.tournament_id,
            game_id: &self.game_id,
            seats: &self.seats,
            board: &self.board,
            header: self.header,
            current_buy_in: self.current_buy_in,
            pot: self.pot,
        }
    }

    /// The tournament's id.
    pub(crate) fn tournament_id(&self) -> &str {
        &self.tournament_id
    }

    /// This game's id.
    pub(crate) fn game_id(&self) -> &str {
        &self.game_id
    }

    /// Every seat, in seat order.
    pub(crate) fn seats(&self) -> &[SeatState] {
        &self.seats
    }

    /// The seat at `seat` (callers pass seats of this table).
    pub(crate) fn seat(&self, seat: Seat) -> &SeatState {
        &self.seats[seat.index()]
    }

    /// The community cards dealt so far.
    pub(crate) fn board(&self) -> &[Card] {
        &self.board
    }

    /// The sum of all bets.
    pub(crate) fn pot(&self) -> Chips {
        self.pot
    }

    /// The largest bet.
    pub(crate) fn current_buy_in(&self) -> Chips {
        self.current_buy_in
    }

    /// The change count (see [`super::view::Document`]).
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// The texts stamp (see [`super::view::Document`]).
    pub(crate) fn texts(&self) -> u64 {
        self.texts.value()
    }

    /// The bet request's document, as last opened by [`Table::open_request`].
    pub(crate) fn request(&self) -> &GameState {
        &self.request
    }

    /// Changes one seat with `change`, then writes the seat's numbers into the document.
    pub(crate) fn update_seat(&mut self, seat: Seat, change: impl FnOnce(&mut SeatState)) {
        let index = seat.index();
        if let Some(state) = self.seats.get_mut(index) {
            change(state);
            if let Some(player) = self.request.players.get_mut(index) {
                document::write_numbers(player, state);
            }
            self.changes += 1;
        }
    }

    /// Changes every seat with `change`, then writes their numbers into the document.
    pub(crate) fn update_each_seat(&mut self, mut change: impl FnMut(Seat, &mut SeatState)) {
        for (index, (state, player)) in self
            .seats
            .iter_mut()
            .zip(&mut self.request.players)
            .enumerate()
        {
            change(Seat(index), state);
            document::write_numbers(player, state);
        }
        self.changes += 1;
    }

    /// Chips put in by `seat` (a bet, call, fold or blind): its stack, bet and status, and the
    /// table's pot and `current_buy_in`, in one change. The hot mutator (one per answer):
    /// it writes only what a bet changes.
    pub(crate) fn put_in(&mut self, seat: Seat, chips: PutIn) {
        let index = seat.index();
        if let (Some(state), Some(player)) = (
            self.seats.get_mut(index),
            self.request.players.get_mut(index),
        ) {
            state.stack = chips.stack;
            state.bet = chips.bet;
            state.status = chips.status;
            player.stack = chips.stack;
            player.bet = chips.bet;
            player.status = chips.status;
        }
        self.pot = chips.pot;
        self.current_buy_in = chips.current_buy_in;
        self.request.pot = chips.pot;
        self.request.current_buy_in = chips.current_buy_in;
        self.changes += 1;
    }

    /// Sets the pot and `current_buy_in`.
    pub(crate) fn set_pot(&mut self, pot: Chips, current_buy_in: Chips) {
        self.pot = pot;
        self.current_buy_in = current_buy_in;
        self.request.pot = pot;
        self.request.current_buy_in = current_buy_in;
        self.changes += 1;
    }

    /// Sets the pot and `current_buy_in` from the seats' bets (after chips left the pot).
    pub(crate) fn recount_pot(&mut self) {
        let (pot, largest) = self
            .seats
            .iter()
            .fold((Chips::ZERO, Chips::ZERO), |(pot, largest), seat| {
                (pot + seat.bet, largest.max(seat.bet))
            });
        self.set_pot(pot, largest);
    }

    /// Deals a community card.
    pub(crate) fn deal_board(&mut self, card: Card) {
        self.board.push(card);
        self.request.community_cards.push(card);
        self.changes += 1;
    }

    /// Deals `seat` a hole card (documents show it only to the receivers allowed to see it).
    pub(crate) fn deal_hole_card(&mut self, seat: Seat, card: Card) {
        if let Some(state) = self.seats.get_mut(seat.index()) {
            state.hole_cards.deal(card);
            let shown = self
                .request
                .players
                .get_mut(seat.index())
                .and_then(|player| player.hole_cards.as_mut());
            let hidden = self
                .request_hidden_cards
                .get_mut(seat.index())
                .and_then(Option::as_mut);
            if let Some(cards) = shown.or(hidden) {
                cards.push(card);
            }
            self.changes += 1;
        }
    }

    /// Clears the board, the pot and every seat's hand for a new hand; a seat without chips
    /// is `out`, every other `active`. Returns the players dealt in.
    pub(crate) fn start_hand(&mut self, header: HandHeader) -> usize {
        self.header = header;
        self.board.clear();
        self.request.community_cards.clear();
        self.hide_request_cards();
        for cards in self.request_hidden_cards.iter_mut().flatten() {
            cards.clear();
        }
        document::write_header(&mut self.request, header, self.seats.len());
        let mut in_hand = 0;
        self.update_each_seat(|_, seat| {
            seat.hole_cards = HoleCards::EMPTY;
            seat.amount_won = Chips::ZERO;
            seat.bet = Chips::ZERO;
            seat.status = if seat.stack.is_zero() {
                PlayerStatus::Out
            } else {
                in_hand += 1;
                PlayerStatus::Active
            };
        });
        self.set_pot(Chips::ZERO, Chips::ZERO);
        in_hand
    }

    /// Sets the hand-wide keys before the first hand (a table started mid-tournament).
    pub(crate) fn set_header(&mut self, header: HandHeader) {
        self.header = header;
        document::write_header(&mut self.request, header, self.seats.len());
        self.changes += 1;
    }

    /// Sets `seat`'s version (a text: kept documents copy the texts again).
    pub(crate) fn set_version(&mut self, seat: Seat, version: String) {
        if let Some(state) = self.seats.get_mut(seat.index()) {
            if let Some(player) = self.request.players.get_mut(seat.index()) {
                document::set_string(&mut player.version, &version);
            }
            state.version = version;
            self.texts = Stamp::new();
            self.changes += 1;
        }
    }

    /// Makes the document `seat`'s bet request: its hole cards (and no one else's) and the
    /// betting keys.
    // Inlined into the step that opens a request (one call a visit): without the hint, whether
    // it was depended on how the crate's codegen units were cut (+1.2% engine bench
    // instructions when the engine became its own crate).
    #[inline]
    pub(crate) fn open_request(&mut self, seat: Seat, minimum_raise: Chips, bet_index: u64) {
        if self.request_cards_of != Some(seat) {
            self.hide_request_cards();
            self.swap_request_cards(seat);
            self.request_cards_of = Some(seat);
        }
        document::write_betting(
            &mut self.request,
            Some(document::Betting {
                in_action: seat,
                minimum_raise,
                bet_index,
            }),
        );
    }

    /// Hides the hole cards the document shows (back with the hidden ones).
    fn hide_request_cards(&mut self) {
        if let Some(shown) = self.request_cards_of.take() {
            self.swap_request_cards(shown);
        }
    }

    /// Shows `seat`'s hidden hole cards in the document, or hides its shown ones: a swap of
    /// two pointers.
    fn swap_request_cards(&mut self, seat: Seat) {
        if let (Some(player), Some(hidden)) = (
            self.request.players.get_mut(seat.index()),
            self.request_hidden_cards.get_mut(seat.index()),
        ) {
            std::mem::swap(&mut player.hole_cards, hidden);
        }
    }
}

//! The lowest layer of the engine's documents: the seat and hand data a `game_state` is
//! written from, and the writers that put them into a document. The model (`model.rs`, which
//! keeps the bet request's document up to date as it changes) and the views (`view.rs`,
//! every other document) both write through these; neither is imported from here, so the
//! data flows one way: document <- model <- view.

use shared::{Card, Chips, GameState, PlayerState, PlayerStatus, Seat};
use std::sync::atomic::{AtomicU64, Ordering};

/// A seat's hole cards this hand: none, or the cards dealt so far (at most two).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HoleCards {
    cards: [Card; 2],
    dealt: u8,
}

impl HoleCards {
    /// No cards.
    pub(crate) const EMPTY: HoleCards = HoleCards {
        cards: [Card::new(shared::Rank::Two, shared::Suit::Spades); 2],
        dealt: 0,
    };

    /// The cards dealt so far.
    pub(crate) fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.dealt)]
    }

    /// Gives the seat one more card (a third card is ignored: no hand deals one).
    pub(crate) fn deal(&mut self, card: Card) {
        if let Some(slot) = self.cards.get_mut(usize::from(self.dealt)) {
            *slot = card;
            self.dealt += 1;
        }
    }

    /// Both cards, once both are dealt.
    pub(crate) fn pair(&self) -> Option<[Card; 2]> {
        (self.dealt == 2).then_some(self.cards)
    }
}

/// One seat: the player and what it has in this hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SeatState {
    /// The player's name.
    pub name: String,
    /// Chips behind (not in the pot).
    pub stack: Chips,
    /// Chips put in this hand.
    pub bet: Chips,
    /// Active, folded or out.
    pub status: PlayerStatus,
    /// The cards dealt to the seat this hand.
    pub hole_cards: HoleCards,
    /// The player's answer to `version`.
    pub version: String,
    /// Cumulative response time in this game, in microseconds.
    pub time_used: u64,
    /// Chips received from the pot(s) this hand.
    pub amount_won: Chips,
}

impl SeatState {
    /// A player sitting down with `stack` chips.
    pub(crate) fn new(name: String, stack: Chips, version: &str) -> SeatState {
        SeatState {
            name,
            stack,
            bet: Chips::ZERO,
            status: if stack.is_zero() {
                PlayerStatus::Out
            } else {
                PlayerStatus::Active
            },
            hole_cards: HoleCards::EMPTY,
            version: version.to_string(),
            time_used: 0,
            amount_won: Chips::ZERO,
        }
    }

    /// Chips behind and in the pot.
    pub(crate) fn total_chips(&self) -> Chips {
        self.stack.saturating_add(self.bet)
    }

    /// Active with chips behind: could still be asked to bet.
    pub(crate) fn can_act(&self) -> bool {
        self.status == PlayerStatus::Active && !self.stack.is_zero()
    }
}

/// The hand-wide keys of a document: which hand, its blinds and button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HandHeader {
    /// The hand's number.
    pub round: u64,
    /// The button.
    pub button: Seat,
    /// The small blind.
    pub small_blind: Chips,
    /// The big blind.
    pub big_blind: Chips,
}

/// What a render reads from the table: borrowed parts, so that the writers need not know the
/// model's type.
#[derive(Debug, Clone, Copy)]
pub(super) struct TableParts<'a> {
    /// The tournament's id.
    pub tournament_id: &'a str,
    /// This game's id.
    pub game_id: &'a str,
    /// Every seat, in seat order.
    pub seats: &'a [SeatState],
    /// The community cards dealt so far.
    pub board: &'a [Card],
    /// The hand's number, blinds and button.
    pub header: HandHeader,
    /// The largest bet.
    pub current_buy_in: Chips,
    /// The sum of all bets.
    pub pot: Chips,
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

/// Writes the table into `out`: hole cards of the seats in `cards_shown` (bit per seat),
/// betting keys when `betting` is given. Reuses `out`'s strings and card vectors: a card
/// vector taken from a seat that is now hidden goes to `spares`, which serve the seats shown.
pub(super) fn render(
    table: TableParts<'_>,
    cards_shown: u32,
    betting: Option<Betting>,
    texts: Texts,
    out: &mut GameState,
    spares: &mut Spares,
) {
    let seats = table.seats;
    let refresh = texts == Texts::Refresh || out.players.len() != seats.len();
    if refresh {
        set_text(&mut out.tournament_id, table.tournament_id);
        set_text(&mut out.game_id, table.game_id);
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
    out.community_cards.extend_from_slice(table.board);
    write_header(out, table.header, seats.len());
    out.current_buy_in = table.current_buy_in;
    out.pot = table.pot;
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
pub(super) fn show_cards(
    seats: &[SeatState],
    was: u32,
    now: u32,
    out: &mut GameState,
    spares: &mut Spares,
) {
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
        if let (Some(player), Some(seat)) = (out.players.get_mut(index), seats.get(index)) {
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

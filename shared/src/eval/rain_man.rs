//! The Lean Poker hand-ranking service "Rain Man" (spec §8), as a function.
//!
//! Rain Man (`https://rainman.leanpoker.org/rank`, source `github.com/lean-poker/rainman`) is a
//! small Sinatra app around the `poker-ranking` Ruby gem (1.1.5 in its Gemfile.lock). It
//! parses `cards` as JSON, answers `400 Bad request: not enough cards` when that array has
//! fewer than five entries, and otherwise returns the gem's `Hand#data`: `rank`, `value`,
//! `second_value`, `kickers`, `cards_used` and `cards`. The service answers whatever the gem
//! makes of its input, so this module follows the gem's algorithms rather than a correct
//! poker evaluator: the two differ only on inputs a real deal never produces (a card given
//! twice, more than seven cards), and bots compare our answers with the hosted one's.
//!
//! What the gem does, read from its sources (`lib/card.rb`, `lib/hand.rb`,
//! `lib/hand_type/*.rb` and `spec/*.rb` of `devill/poker-ranking`); `docs/decisions.md` says
//! which points the stored sources settle and which are our best reading:
//!
//! - A card is a JSON object with `rank` and `suit`, or a name such as `"Ace of Spades"`. The
//!   rank is compared as text (an integer `10` reads as `"10"`): `2`..`10`, `J` `Q` `K` `A`
//!   or `Jack` `Queen` `King` `Ace`, any letter case; suits are `hearts`, `diamonds`,
//!   `spades`, `clubs`, any letter case. A card given twice counts twice (it can make a pair).
//! - The cards are sorted by value (2..=14), a stable sort: cards of one rank stay in the
//!   order they were given. `cards` echoes them in that order, with short ranks and
//!   lower-case suits.
//! - The categories are tried from the best down (straight flush, four of a kind, full house,
//!   flush, straight, three of a kind, two pairs, pair, high card) on that sorted list:
//!
//! | rank | hand | `value` | `second_value` | `kickers` |
//! |---|---|---|---|---|
//! | 0 | high card | highest card | = value | the five highest values, high to low |
//! | 1 | pair | the pair | = value | the three highest others, high to low |
//! | 2 | two pairs | higher pair | lower pair | `[kicker]`: the best other value, a third pair's included |
//! | 3 | three of a kind | the trips | = value | the two highest others, high to low |
//! | 4 | straight | top card (5 for the wheel) | = value | `[]` |
//! | 5 | flush | top flush card | = value | the five highest flush values, high to low |
//! | 6 | full house | the highest trips | best other pair or trips | `[]` |
//! | 7 | four of a kind | the quads | = value | `[kicker]`: the best other value |
//! | 8 | straight flush | top card (5 for the wheel) | = value | `[]` |
//!
//! `cards_used` is five cards in ascending value, cards of one rank in the order given; the
//! wheel's ace counts as one for its `value` (5) but is listed by its rank, last (`2 3 4 5 A`,
//! as the hosted service answers). When more cards of a rank are there than the hand needs,
//! the gem takes the last ones in sorted order (for straights the first of each rank, and for
//! the wheel the last ace).

use super::{card_set, classify_set, to_card, Category, EvalError, Hand, HandStrength};
use crate::card::{Card, Rank, Suit};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A Rain-Man-shaped hand ranking (spec §8); serialises with Rain Man's JSON keys.
///
/// ```
/// use shared::eval::rain_man_rank_json;
/// let answer = rain_man_rank_json(r#"[
///     {"rank":"5","suit":"diamonds"}, {"rank":"6","suit":"diamonds"},
///     {"rank":"7","suit":"diamonds"}, {"rank":"7","suit":"spades"},
///     {"rank":"8","suit":"diamonds"}, {"rank":"9","suit":"diamonds"}]"#).unwrap();
/// assert_eq!((answer.rank, answer.value, answer.second_value), (8, 9, 9));
/// assert_eq!(answer.cards_used.len(), 5);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RainManRank {
    /// 0 high card, 1 pair, 2 two pair, 3 three of a kind, 4 straight, 5 flush, 6 full house,
    /// 7 four of a kind, 8 straight flush.
    pub rank: u8,
    /// The main card value (2..=14) of the hand; see the module docs per category.
    pub value: u8,
    /// The second card value: the lower pair of two pair, the pair of a full house, else
    /// equal to `value`.
    pub second_value: u8,
    /// Tie-breaking card values, most significant first; see the module docs per category.
    pub kickers: Vec<u8>,
    /// The five cards that make the hand, in ascending value (the wheel's ace last, as an
    /// ace), cards of one rank in the order they were given.
    pub cards_used: Vec<Card>,
    /// All the cards ranked, sorted by value (low to high), cards of one rank in the order
    /// they were given. Absent from some older answers, hence optional when reading.
    #[serde(default)]
    pub cards: Vec<Card>,
}

impl RainManRank {
    /// Rain Man's answer for the cards of `hand`, given in [`Hand::cards`] order (which only
    /// decides the order of cards of one rank).
    pub(super) fn from_hand(hand: &Hand) -> RainManRank {
        rank_sorted(sorted(&hand.cards()))
    }

    /// The category for `rank`, or `None` when `rank` is not 0..=8 (only possible for a
    /// deserialised value).
    pub fn category(&self) -> Option<Category> {
        Category::from_rain_man_rank(self.rank)
    }
}

/// Ranks cards like Rain Man: five or more cards, in the order given (which decides the order
/// of cards of one rank in the answer). More than seven cards, and a card given twice, are
/// ranked as the service ranks them (a repeated card counts twice).
///
/// # Errors
/// [`EvalError::NotEnoughCards`] for fewer than five cards (the service's 400).
pub fn rain_man_rank(cards: &[Card]) -> Result<RainManRank, EvalError> {
    if cards.len() < 5 {
        return Err(EvalError::NotEnoughCards(cards.len()));
    }
    Ok(rank_sorted(sorted(cards)))
}

/// Ranks a Rain Man request's `cards` parameter: a JSON array of cards such as
/// `[{"rank":"10","suit":"hearts"}, {"rank":"Ace","suit":"Spades"}, "King of Clubs", ...]`
/// (see the module docs for every spelling the service accepts).
///
/// # Errors
/// [`EvalError::InvalidCards`] when the text is not a JSON array, or when an entry of an
/// array of five or more is not a card; [`EvalError::NotEnoughCards`] for an array of fewer
/// than five entries, whatever they hold (the service counts before it reads them).
pub fn rain_man_rank_json(cards_json: &str) -> Result<RainManRank, EvalError> {
    let value: Value = serde_json::from_str(cards_json)
        .map_err(|error| EvalError::InvalidCards(error.to_string()))?;
    let Value::Array(entries) = value else {
        return Err(EvalError::InvalidCards("not an array".to_string()));
    };
    if entries.len() < 5 {
        return Err(EvalError::NotEnoughCards(entries.len()));
    }
    let cards = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            card_of(entry)
                .map_err(|reason| EvalError::InvalidCards(format!("card {index}: {reason}")))
        })
        .collect::<Result<Vec<Card>, EvalError>>()?;
    rain_man_rank(&cards)
}

/// Not part of the API: the reference evaluator's strength and best five cards (most
/// significant first), for the tests that check [`super::evaluate`] against it.
///
/// # Errors
/// [`EvalError::NotEnoughCards`] for fewer than five cards, [`EvalError::DuplicateCard`] when
/// a card appears twice.
#[doc(hidden)]
pub fn reference_best_five(cards: &[Card]) -> Result<(HandStrength, [Card; 5]), EvalError> {
    let classified =
        classify_set(card_set(cards)?).ok_or(EvalError::NotEnoughCards(cards.len()))?;
    Ok((
        HandStrength::from_classified(&classified),
        classified.cards.map(to_card),
    ))
}

/// One entry of the `cards` array as the gem reads it: an object's `rank` and `suit`, or a
/// card name `"<rank> of <suit>"`.
fn card_of(entry: &Value) -> Result<Card, String> {
    let (rank, suit) = match entry {
        Value::Object(fields) => {
            // The gem takes the rank's text form (`to_s`), so an integer 10 is "10"; a float
            // prints with a decimal point and so never names a rank.
            let rank = match fields.get("rank") {
                Some(Value::String(text)) => text.clone(),
                Some(Value::Number(number)) => number.to_string(),
                Some(other) => return Err(format!("unknown rank {other}")),
                None => return Err("no rank".to_string()),
            };
            let suit = match fields.get("suit") {
                Some(Value::String(text)) => text.clone(),
                Some(other) => return Err(format!("unknown suit {other}")),
                None => return Err("no suit".to_string()),
            };
            (rank, suit)
        }
        Value::String(name) => {
            split_name(name).ok_or_else(|| format!("{name:?} is not a card name"))?
        }
        other => return Err(format!("{other} is neither a card object nor a card name")),
    };
    let rank = rank_named(&rank).ok_or_else(|| format!("unknown rank {rank:?}"))?;
    let suit = suit_named(&suit).ok_or_else(|| format!("unknown suit {suit:?}"))?;
    Ok(Card::new(rank, suit))
}

/// Splits a card name the way the gem does (`split /\s+of\s+/`): the rank before the first
/// ` of ` (with any whitespace around `of`), the suit up to the next one.
fn split_name(name: &str) -> Option<(String, String)> {
    let (rank, rest) = split_at_of(name)?;
    let suit = split_at_of(rest).map_or(rest, |(suit, _)| suit);
    Some((rank.to_string(), suit.to_string()))
}

/// The text before and after the first run of whitespace, `of`, whitespace.
fn split_at_of(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        if bytes[start].is_ascii_whitespace() {
            let mut at = start;
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            if bytes[at..].starts_with(b"of") {
                let mut end = at + 2;
                let spaces = end;
                while end < bytes.len() && bytes[end].is_ascii_whitespace() {
                    end += 1;
                }
                if end > spaces {
                    return Some((&text[..start], &text[end..]));
                }
            }
            start = at;
        } else {
            start += 1;
        }
    }
    None
}

/// A rank as the gem names it: `2`..`10`, `J` `Q` `K` `A`, `Jack` `Queen` `King` `Ace`, in
/// any letter case.
fn rank_named(text: &str) -> Option<Rank> {
    Rank::from_wire(&text.to_ascii_uppercase()).or_else(|| {
        Some(match text.to_ascii_lowercase().as_str() {
            "jack" => Rank::Jack,
            "queen" => Rank::Queen,
            "king" => Rank::King,
            "ace" => Rank::Ace,
            _ => return None,
        })
    })
}

/// A suit as the gem names it, in any letter case.
fn suit_named(text: &str) -> Option<Suit> {
    Suit::from_wire(&text.to_ascii_lowercase())
}

/// The cards sorted by value, cards of one rank in the order given (`sort_by` on the gem's
/// platform keeps that order, as the hosted answers show).
fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut sorted = cards.to_vec();
    sorted.sort_by_key(|card| card.rank);
    sorted
}

fn value(card: &Card) -> u8 {
    card.rank.value()
}

/// The gem's answer for at least five cards sorted by [`sorted`].
fn rank_sorted(cards: Vec<Card>) -> RainManRank {
    let (category, value, second_value, kickers, cards_used) = classify(&cards);
    RainManRank {
        rank: category.rain_man_rank(),
        value,
        second_value,
        kickers,
        cards_used,
        cards,
    }
}

type Classified = (Category, u8, u8, Vec<u8>, Vec<Card>);

/// The first category that holds, tried from the best down as the gem tries them.
fn classify(cards: &[Card]) -> Classified {
    // The gem's suit order for straight flushes; it stops at the first suit that has one.
    for suit in [Suit::Hearts, Suit::Diamonds, Suit::Spades, Suit::Clubs] {
        let of_suit: Vec<Card> = cards.iter().copied().filter(|c| c.suit == suit).collect();
        if let Some((top, used)) = straight(&of_suit) {
            return (Category::StraightFlush, top, top, Vec::new(), used);
        }
    }
    let quads = highest_same_value(cards, 4, &[]);
    if quads > 0 {
        let other = highest_same_value(cards, 2, &[quads]);
        let kicker = singles(cards, 1)
            .into_iter()
            .chain([other])
            .max()
            .unwrap_or(other);
        return (
            Category::FourOfAKind,
            quads,
            quads,
            vec![kicker],
            used_for(cards, &[quads]),
        );
    }
    let trips = highest_same_value(cards, 3, &[]);
    if trips > 0 {
        let pair = highest_same_value(cards, 2, &[trips]);
        if pair > 0 {
            return (
                Category::FullHouse,
                trips,
                pair,
                Vec::new(),
                used_for(cards, &[trips, pair]),
            );
        }
    }
    // The gem counts suits in this order and takes the first with five cards or more.
    for suit in [Suit::Hearts, Suit::Clubs, Suit::Diamonds, Suit::Spades] {
        let of_suit: Vec<Card> = cards.iter().copied().filter(|c| c.suit == suit).collect();
        if of_suit.len() >= 5 {
            let kickers: Vec<u8> = of_suit.iter().rev().take(5).map(value).collect();
            let used = of_suit[of_suit.len() - 5..].to_vec();
            return (Category::Flush, kickers[0], kickers[0], kickers, used);
        }
    }
    if let Some((top, used)) = straight(cards) {
        return (Category::Straight, top, top, Vec::new(), used);
    }
    if trips > 0 {
        return (
            Category::ThreeOfAKind,
            trips,
            trips,
            singles(cards, 2),
            used_for(cards, &[trips]),
        );
    }
    // Two pairs: two ranks held twice (trips were caught above, so these are pairs).
    let repeats = cards.windows(2).filter(|w| w[0].rank == w[1].rank).count();
    let high = highest_same_value(cards, 2, &[]);
    if repeats >= 2 {
        let low = highest_same_value(cards, 2, &[high]);
        // The kicker may come from a third pair: the best value left either way.
        let third = highest_same_value(cards, 2, &[high, low]);
        let kicker = singles(cards, 1)
            .into_iter()
            .chain([third])
            .max()
            .unwrap_or(third);
        return (
            Category::TwoPair,
            high,
            low,
            vec![kicker],
            used_for(cards, &[high, low]),
        );
    }
    if high > 0 {
        return (
            Category::Pair,
            high,
            high,
            singles(cards, 3),
            used_for(cards, &[high]),
        );
    }
    let top = cards.last().map_or(0, value);
    (
        Category::HighCard,
        top,
        top,
        singles(cards, 5),
        used_for(cards, &[]),
    )
}

/// The highest value held at least `n` times, skipping `skip`, or 0: the gem walks the sorted
/// cards counting runs of one value.
fn highest_same_value(cards: &[Card], n: usize, skip: &[u8]) -> u8 {
    let mut found = 0;
    let mut count = 0;
    let mut last = 0;
    for card in cards {
        let v = value(card);
        if v == last && !skip.contains(&v) {
            count += 1;
            if count == n {
                found = v;
            }
        } else {
            count = 1;
            last = v;
        }
    }
    found
}

/// The values held exactly once, high to low, at most `n` of them: the gem's kickers.
fn singles(cards: &[Card], n: usize) -> Vec<u8> {
    let mut count = [0usize; 15];
    for card in cards {
        count[value(card) as usize] += 1;
    }
    cards
        .iter()
        .rev()
        .map(value)
        .filter(|&v| count[v as usize] == 1)
        .take(n)
        .collect()
}

/// The five cards used for a hand built on `values` (most significant first): the gem lines
/// up the other cards, then each of `values` from the least significant, keeps the last
/// five, and answers them in ascending value.
fn used_for(cards: &[Card], values: &[u8]) -> Vec<Card> {
    let mut lined: Vec<Card> = cards
        .iter()
        .copied()
        .filter(|card| !values.contains(&value(card)))
        .collect();
    for &v in values.iter().rev() {
        lined.extend(cards.iter().copied().filter(|card| value(card) == v));
    }
    let mut used = lined.split_off(lined.len().saturating_sub(5));
    used.sort_by_key(|card| card.rank);
    used
}

/// The highest straight in sorted `cards`: its top value (5 for the wheel) and its five cards
/// in ascending value, or `None`.
///
/// The gem walks the cards keeping a run of consecutive values (a card of the run's last value
/// is passed over, so the first card of each rank stays); when the highest card is an ace, the
/// run starts with it counting as one. The last run that reached five cards is the straight.
/// Its cards are then listed by rank like every other hand's, so the wheel's ace, which ran
/// first as a one, is listed last (`2 3 4 5 A`).
fn straight(cards: &[Card]) -> Option<(u8, Vec<Card>)> {
    let mut run: Vec<Card> = Vec::new();
    let mut last = 0;
    if let Some(&ace) = cards.last().filter(|card| card.rank == Rank::Ace) {
        run.push(ace);
        last = 1;
    }
    let mut best: Option<Vec<Card>> = None;
    for &card in cards {
        let v = value(&card);
        if run.is_empty() || v == last + 1 {
            run.push(card);
        } else if v > last {
            run.clear();
            run.push(card);
        }
        last = run.last().map_or(0, value);
        if run.len() >= 5 {
            best = Some(run.clone());
        }
    }
    best.map(|run| {
        let mut used = run[run.len() - 5..].to_vec();
        let top = value(&used[4]);
        used.sort_by_key(|card| card.rank);
        (top, used)
    })
}

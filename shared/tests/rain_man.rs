//! Rain Man (spec §8) as the hosted service answers, which is what the `poker-ranking` gem
//! (1.1.5) computes: every field and the order of `cards` and `cards_used`, worked out by hand
//! from the gem's sources for each case (see `shared/src/eval/rain_man.rs` and
//! `docs/decisions.md`), not from our evaluator.

use shared::eval::{rain_man_rank, rain_man_rank_json, Category, EvalError, RainManRank};
use shared::Card;

/// Cards in short notation, a card given twice included (`parse_cards` refuses those).
fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|card| card.parse().unwrap())
        .collect()
}

fn short(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The request's `cards` JSON for cards in short notation, in the order written.
fn json(text: &str) -> String {
    serde_json::to_string(&cards(text)).unwrap()
}

/// One expectation: the cards in the order given; `rank`, `value`, `second_value`,
/// `kickers`; `cards_used` and `cards` in the order the service lists them.
struct Case {
    given: &'static str,
    rank: u8,
    value: u8,
    second_value: u8,
    kickers: &'static [u8],
    cards_used: &'static str,
    cards: &'static str,
}

fn check(case: &Case, answer: &RainManRank) {
    let given = case.given;
    assert_eq!(answer.rank, case.rank, "{given}: rank");
    assert_eq!(answer.value, case.value, "{given}: value");
    assert_eq!(
        answer.second_value, case.second_value,
        "{given}: second_value"
    );
    assert_eq!(answer.kickers, case.kickers, "{given}: kickers");
    assert_eq!(
        short(&answer.cards_used),
        case.cards_used,
        "{given}: cards_used"
    );
    assert_eq!(short(&answer.cards), case.cards, "{given}: cards");
    assert_eq!(
        answer.category().map(Category::rain_man_rank),
        Some(case.rank)
    );
}

fn check_all(cases: &[Case]) {
    for case in cases {
        check(case, &rain_man_rank(&cards(case.given)).unwrap());
        check(case, &rain_man_rank_json(&json(case.given)).unwrap());
    }
}

/// Cards of one rank keep the order they were given in `cards` and `cards_used`, and
/// `cards_used` runs from the lowest value up (the kickers are not put first).
#[test]
fn rain_man_lists_cards_by_value_ties_in_the_order_given() {
    check_all(&[
        Case {
            given: "Kh Jh 8c 7d 4s 2c 3d",
            rank: 0,
            value: 13,
            second_value: 13,
            kickers: &[13, 11, 8, 7, 4],
            cards_used: "4s 7d 8c Jh Kh",
            cards: "2c 3d 4s 7d 8c Jh Kh",
        },
        // The pair is below its kickers: it still comes first.
        Case {
            given: "4h Ks 4s Td 5s 2c",
            rank: 1,
            value: 4,
            second_value: 4,
            kickers: &[13, 10, 5],
            cards_used: "4h 4s 5s Td Ks",
            cards: "2c 4h 4s 5s Td Ks",
        },
        Case {
            given: "3d 9h 3c Ah 7s",
            rank: 1,
            value: 3,
            second_value: 3,
            kickers: &[14, 9, 7],
            cards_used: "3d 3c 7s 9h Ah",
            cards: "3d 3c 7s 9h Ah",
        },
        // The gem's own three-of-a-kind case: the trips, then the two best kickers.
        Case {
            given: "Qd Js Jh Jc Ah Kd",
            rank: 3,
            value: 11,
            second_value: 11,
            kickers: &[14, 13],
            cards_used: "Js Jh Jc Kd Ah",
            cards: "Js Jh Jc Qd Kd Ah",
        },
    ]);
}

/// Two pairs: the kicker is the best other value, a third pair's included, and the card
/// used for it is the last one given of that value.
#[test]
fn rain_man_two_pairs() {
    check_all(&[
        Case {
            given: "Kd Kh 9s 9d 7c 7h 2s",
            rank: 2,
            value: 13,
            second_value: 9,
            kickers: &[7],
            cards_used: "7h 9s 9d Kd Kh",
            cards: "2s 7c 7h 9s 9d Kd Kh",
        },
        Case {
            given: "4c Jh 4s Jc Ah",
            rank: 2,
            value: 11,
            second_value: 4,
            kickers: &[14],
            cards_used: "4c 4s Jh Jc Ah",
            cards: "4c 4s Jh Jc Ah",
        },
    ]);
}

/// Full houses and quads: `kickers` and which cards of a rank are used.
#[test]
fn rain_man_full_house_and_four_of_a_kind() {
    check_all(&[
        Case {
            given: "3c 6c 3s 6h 3d",
            rank: 6,
            value: 3,
            second_value: 6,
            kickers: &[],
            cards_used: "3c 3s 3d 6c 6h",
            cards: "3c 3s 3d 6c 6h",
        },
        // The gem's own case: two trips, the higher is the trips, two of the lower are used
        // (the last two given).
        Case {
            given: "Td Th Ts Js Jc Jh",
            rank: 6,
            value: 11,
            second_value: 10,
            kickers: &[],
            cards_used: "Th Ts Js Jc Jh",
            cards: "Td Th Ts Js Jc Jh",
        },
        // The kicker comes from a pair; the card used is the last king given.
        Case {
            given: "9c 9s Kd 9d 9h Kh 2c",
            rank: 7,
            value: 9,
            second_value: 9,
            kickers: &[13],
            cards_used: "9c 9s 9d 9h Kh",
            cards: "2c 9c 9s 9d 9h Kd Kh",
        },
    ]);
}

/// Straights run from their low end; of two cards of a rank inside the run the first given is
/// used; the wheel uses the last ace given, is worth 5 and lists its ace last, by rank, as the
/// hosted service does (`2 3 4 5 A`).
#[test]
fn rain_man_straights_and_the_wheel() {
    check_all(&[
        Case {
            given: "8c 9s Th Ts Jh Qd 2c",
            rank: 4,
            value: 12,
            second_value: 12,
            kickers: &[],
            cards_used: "8c 9s Th Jh Qd",
            cards: "2c 8c 9s Th Ts Jh Qd",
        },
        Case {
            given: "5s 4h 3c 2d Ac Kd As",
            rank: 4,
            value: 5,
            second_value: 5,
            kickers: &[],
            cards_used: "2d 3c 4h 5s As",
            cards: "2d 3c 4h 5s Kd Ac As",
        },
        // Eight cards in a row: the highest five.
        Case {
            given: "2h 3d 4c 5s 6h 7d 8c 9s",
            rank: 4,
            value: 9,
            second_value: 9,
            kickers: &[],
            cards_used: "5s 6h 7d 8c 9s",
            cards: "2h 3d 4c 5s 6h 7d 8c 9s",
        },
        // The README's example: a straight flush nine high beside a seven of spades.
        Case {
            given: "5d 6d 7d 7s 8d 9d",
            rank: 8,
            value: 9,
            second_value: 9,
            kickers: &[],
            cards_used: "5d 6d 7d 8d 9d",
            cards: "5d 6d 7d 7s 8d 9d",
        },
        Case {
            given: "Kc Ah 3h 2h 5h 4h",
            rank: 8,
            value: 5,
            second_value: 5,
            kickers: &[],
            cards_used: "2h 3h 4h 5h Ah",
            cards: "2h 3h 4h 5h Kc Ah",
        },
    ]);
}

/// Flushes: the five best cards of the suit, ascending; the kickers their values, high to low.
#[test]
fn rain_man_flushes() {
    check_all(&[
        Case {
            given: "Qc 2c Tc 7c 6c 4c 9h",
            rank: 5,
            value: 12,
            second_value: 12,
            kickers: &[12, 10, 7, 6, 4],
            cards_used: "4c 6c 7c Tc Qc",
            cards: "2c 4c 6c 7c 9h Tc Qc",
        },
        Case {
            given: "Ad 9h Kh 2h 5h Ah",
            rank: 5,
            value: 14,
            second_value: 14,
            kickers: &[14, 13, 9, 5, 2],
            cards_used: "2h 5h 9h Kh Ah",
            cards: "2h 5h 9h Kh Ad Ah",
        },
    ]);
}

/// A card given twice counts twice, as the gem counts it: the hosted service answers 200.
#[test]
fn rain_man_counts_a_repeated_card_twice() {
    check_all(&[
        Case {
            given: "As As Qs Js 9h",
            rank: 1,
            value: 14,
            second_value: 14,
            kickers: &[12, 11, 9],
            cards_used: "9h Js Qs As As",
            cards: "9h Js Qs As As",
        },
        // Four hearts and an ace of hearts twice make a flush (checked before the pair).
        Case {
            given: "Ah Kh Qh 9h Ah 2s",
            rank: 5,
            value: 14,
            second_value: 14,
            kickers: &[14, 14, 13, 12, 9],
            cards_used: "9h Qh Kh Ah Ah",
            cards: "2s 9h Qh Kh Ah Ah",
        },
        // Five times the same card: four of a kind, with no other value for a kicker.
        Case {
            given: "7d 7d 7d 7d 7d",
            rank: 7,
            value: 7,
            second_value: 7,
            kickers: &[0],
            cards_used: "7d 7d 7d 7d 7d",
            cards: "7d 7d 7d 7d 7d",
        },
    ]);
}

/// Ranks and suits in every spelling the gem reads: long names, any letter case, integers,
/// and card names such as `"King of Clubs"`. The answer spells them the short way.
#[test]
fn rain_man_reads_every_spelling_the_gem_reads() {
    let royal = r#"[{"rank":"Ace","suit":"spades"},{"rank":"King","suit":"Spades"},
        {"rank":"queen","suit":"SPADES"},{"rank":"JACK","suit":"spades"},
        {"rank":10,"suit":"spades"},{"rank":"2","suit":"hearts"},"3 of Clubs"]"#;
    let answer = rain_man_rank_json(royal).unwrap();
    assert_eq!(
        (answer.rank, answer.value, answer.second_value),
        (8, 14, 14)
    );
    assert_eq!(short(&answer.cards_used), "Ts Js Qs Ks As");
    assert_eq!(short(&answer.cards), "2h 3c Ts Js Qs Ks As");
    let text = serde_json::to_string(&answer).unwrap();
    assert!(
        text.starts_with(r#"{"rank":8,"value":14,"second_value":14,"kickers":[],"cards_used":[{"rank":"10","suit":"spades"},"#),
        "{text}"
    );
    let names =
        r#"["Ace of Hearts", "a of hearts", "K  of  Diamonds", "7 of clubs", "2 of Spades"]"#;
    let answer = rain_man_rank_json(names).unwrap();
    assert_eq!((answer.rank, answer.value), (1, 14));
    assert_eq!(short(&answer.cards), "2s 7c Kd Ah Ah");
    // Single letters in lower case, and integers for the number ranks.
    let small = r#"[{"rank":"j","suit":"hearts"},{"rank":9,"suit":"hearts"},
        {"rank":8,"suit":"hearts"},{"rank":"10","suit":"hearts"},{"rank":"q","suit":"hearts"}]"#;
    let answer = rain_man_rank_json(small).unwrap();
    assert_eq!((answer.rank, answer.value), (8, 12));
    assert_eq!(short(&answer.cards_used), "8h 9h Th Jh Qh");
}

/// What the service cannot rank: fewer than five entries (its 400, counted before the
/// entries are read), and anything the gem cannot read (where the hosted app fails with a
/// 500; ours is a clear error the HTTP layer answers with a 400).
#[test]
fn rain_man_refuses_what_it_cannot_rank() {
    let four = &json("5d 6d 7d 7s");
    assert_eq!(rain_man_rank_json(four), Err(EvalError::NotEnoughCards(4)));
    assert!(EvalError::NotEnoughCards(4)
        .to_string()
        .starts_with("Bad request: not enough cards"));
    assert_eq!(rain_man_rank_json("[]"), Err(EvalError::NotEnoughCards(0)));
    assert_eq!(
        rain_man_rank_json("[1, 2, 3, 4]"),
        Err(EvalError::NotEnoughCards(4))
    );
    assert_eq!(
        rain_man_rank(&cards("Ah Kh")),
        Err(EvalError::NotEnoughCards(2))
    );
    let five = |card: &str| format!("[{card}, {card}, {card}, {card}, {card}]");
    for bad in [
        "not json".to_string(),
        "{}".to_string(),
        r#"{"rank":"A","suit":"spades"}"#.to_string(),
        "5".to_string(),
        r#""Ace of Spades""#.to_string(),
        five(r#"{"rank":"1","suit":"spades"}"#),
        five(r#"{"rank":"T","suit":"spades"}"#),
        five(r#"{"rank":11,"suit":"spades"}"#),
        five(r#"{"rank":10.0,"suit":"spades"}"#),
        five(r#"{"rank":"10 ","suit":"spades"}"#),
        five(r#"{"rank":"Ace","suit":"stars"}"#),
        five(r#"{"rank":"Ace"}"#),
        five(r#"{"suit":"spades"}"#),
        five(r#"{"rank":"A","suit":1}"#),
        five(r#""Ace Spades""#),
        five("7"),
        five("null"),
    ] {
        let error = rain_man_rank_json(&bad).unwrap_err();
        assert!(
            matches!(error, EvalError::InvalidCards(_)),
            "{bad}: {error:?}"
        );
        assert!(error.to_string().starts_with("Bad request: "), "{error}");
    }
}

/// Many cards, and the order decides only how cards of one rank are listed.
#[test]
fn rain_man_takes_any_number_of_cards() {
    let answer = rain_man_rank(&cards("2c 3d 5h 7s 9c Jd Kh Ac")).unwrap();
    assert_eq!((answer.rank, answer.value), (0, 14));
    assert_eq!(answer.kickers, [14, 13, 11, 9, 7]);
    let deck: Vec<Card> = Card::deck().collect();
    let answer = rain_man_rank(&deck).unwrap();
    // Every heart is in the deck, and hearts are the first suit the gem tries.
    assert_eq!((answer.rank, answer.value), (8, 14));
    assert_eq!(short(&answer.cards_used), "Th Jh Qh Kh Ah");
    assert_eq!(answer.cards.len(), 52);
    let mut reversed = deck.clone();
    reversed.reverse();
    let backwards = rain_man_rank(&reversed).unwrap();
    assert_eq!(backwards.rank, answer.rank);
    assert_eq!(backwards.cards_used, answer.cards_used);
}

/// The JSON form round-trips, and older answers without `cards` still read.
#[test]
fn rain_man_answers_round_trip() {
    let answer = rain_man_rank_json(&json("4h Ks 4s Td 5s 2c")).unwrap();
    let text = serde_json::to_string(&answer).unwrap();
    assert!(
        text.starts_with(r#"{"rank":1,"value":4,"second_value":4,"kickers":[13,10,5],"cards_used":[{"rank":"4","suit":"hearts"},"#),
        "{text}"
    );
    let back: RainManRank = serde_json::from_str(&text).unwrap();
    assert_eq!(back, answer);
    let old = r#"{"rank":1,"value":4,"second_value":4,"kickers":[13,10,5],"cards_used":[]}"#;
    let old: RainManRank = serde_json::from_str(old).unwrap();
    assert_eq!(old.category(), Some(Category::Pair));
    assert!(old.cards.is_empty());
}

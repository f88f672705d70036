//! What `cargo arena` prints of the changed decisions: a summary of the top groups under
//! every verdict, every group with its example hand with `--why`.

use super::{ChangeGroup, Continuation, ExampleHand, Why, WhyError};
use player::PlayerStatus;

/// Groups the summary shows.
pub(crate) const SUMMARY_GROUPS: usize = 3;

/// `1st`, `2nd`, ...
pub(crate) fn place(place: usize) -> String {
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

fn effect(group: &ChangeGroup) -> String {
    if group.effect.half_width.is_finite() {
        format!("{:+.3} ± {:.3}", group.effect.mean, group.effect.half_width)
    } else {
        format!("{:+.3} ± ?", group.effect.mean)
    }
}

/// The changed decisions under a verdict: the top groups (`all`: every group with its example
/// hand); `run_seconds`, the run's own play time, to compare the replay's cost with.
pub(crate) fn why(why: &Result<Why, WhyError>, all: bool, run_seconds: f64) {
    println!();
    let why = match why {
        Ok(why) => why,
        Err(error) => {
            println!("why: {error}");
            return;
        }
    };
    let games = why.deal_sets * why.rotations;
    if why.changed_games == 0 {
        println!(
            "why: no decision of yours changed in the {games} games both runs played: both versions answered alike everywhere"
        );
        return;
    }
    println!(
        "why: a decision of yours changed in {} of the {games} games both runs played; by the kind of the first one in each game, what it did to your points a game (luck taken out, 95%; they add up to {:+.3}):",
        why.changed_games, why.difference.mean
    );
    let shown = if all {
        why.groups.len()
    } else {
        SUMMARY_GROUPS.min(why.groups.len())
    };
    for group in &why.groups[..shown] {
        println!(
            "  {:>16}  in {:>4} games  {}",
            effect(group),
            group.games,
            group.description
        );
        if all {
            let positions: Vec<String> = group
                .positions
                .iter()
                .map(|p| format!("{} {}", p.position, p.games))
                .collect();
            println!("{:>38}where: {}", "", positions.join(", "));
            if let Some(example) = &group.example {
                print_example(example);
            }
        }
    }
    let rest = &why.groups[shown..];
    if !rest.is_empty() {
        let sum: f64 = rest.iter().map(|g| g.effect.mean).sum();
        let games: u64 = rest.iter().map(|g| g.games).sum();
        println!(
            "  {:>16}  in {games:>4} games  {} other kinds (cargo arena --why shows them all, each with an example hand)",
            format!("{sum:+.3}"),
            rest.len()
        );
    }
    if why.answered_otherwise > 0 {
        println!(
            "  note: asked again, your bot answered {} of {} changed decisions otherwise than in the run: it draws random numbers, reads the clock or learns between calls, so some of these changes are its own noise, not the edit",
            why.answered_otherwise, why.asked_again
        );
    }
    println!(
        "  (the games replayed from the saved answers up to their changed decisions in {:.1} s; the run played in {:.1} s)",
        why.replay_seconds, run_seconds
    );
}

fn print_example(example: &ExampleHand) {
    let state = &example.state;
    println!(
        "      example: game {} (deal set {}), hand {}, you {}:",
        example.game,
        example.deal_set,
        example.round,
        match example.position {
            super::Position::Early | super::Position::Late => {
                format!("in {} position", example.position)
            }
            super::Position::Button => "on the button".to_string(),
            blind => format!("in the {blind}"),
        }
    );
    let seats: Vec<String> = state
        .players
        .iter()
        .map(|p| {
            let button = if p.id == state.dealer {
                " (button)"
            } else {
                ""
            };
            match p.status {
                PlayerStatus::Out => format!("{}: out", p.name),
                PlayerStatus::Folded => {
                    format!(
                        "{}{button}: {} behind, {} in, folded",
                        p.name,
                        p.stack.get(),
                        p.bet.get()
                    )
                }
                PlayerStatus::Active if p.stack.is_zero() => {
                    format!("{}{button}: all-in for {}", p.name, p.bet.get())
                }
                PlayerStatus::Active => {
                    format!(
                        "{}{button}: {} behind, {} in",
                        p.name,
                        p.stack.get(),
                        p.bet.get()
                    )
                }
            }
        })
        .collect();
    println!("        seats: {}", seats.join(" · "));
    let cards: Vec<String> = state.my_cards().iter().map(ToString::to_string).collect();
    let board: Vec<String> = state
        .community_cards
        .iter()
        .map(ToString::to_string)
        .collect();
    println!(
        "        your cards {}, board {}, pot {}, {} to call, blinds {}/{}",
        cards.join(" "),
        if board.is_empty() {
            "none yet".to_string()
        } else {
            board.join(" ")
        },
        state.pot.get(),
        state.call_amount().get(),
        state.small_blind.get(),
        state.big_blind().get()
    );
    println!("        this hand: {}", example.hand_so_far.join(", "));
    continuation("before", &example.before);
    continuation("now", &example.now);
}

fn continuation(label: &str, game: &Continuation) {
    let rest: Vec<&str> = game
        .rest_of_hand
        .iter()
        .skip(1)
        .map(String::as_str)
        .collect();
    let then = if rest.is_empty() {
        "the hand ends".to_string()
    } else {
        rest.join(", ")
    };
    println!(
        "        {label}: answered {} ({}); then {then}",
        game.answer, game.action
    );
    let hand = match game.hand_chips {
        0 => "the hand: no chips won or lost".to_string(),
        won if won > 0 => format!("the hand won you {won} chips"),
        lost => format!("the hand lost you {} chips", -lost),
    };
    println!(
        "          {hand}; the game: {}, {} points (luck of the cards {:+.2})",
        place(game.place),
        game.points,
        game.luck
    );
}

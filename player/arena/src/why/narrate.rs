//! The example hand of a group, told as a team reads a hand: what happened in the hand before
//! your changed decision, the document your bot was given, and how each version's game went
//! on from there (the rest of the hand, what it won or lost you, the game's end).

use super::replay::Watch;
use engine::game_event::GameEvent;
use player::{BetAction, Chips, GameState, Street};

/// Follows a replay and keeps the hand of your `target`-th bet request.
pub(crate) struct Narrator<'a> {
    target: usize,
    names: &'a [String],
    yours: usize,
    in_hand: bool,
    reached: bool,
    pub(crate) state: Option<GameState>,
    pub(crate) before: Vec<String>,
    pub(crate) after: Vec<String>,
    stack_at_start: u64,
    pub(crate) stack_at_end: Option<u64>,
    /// Players still contesting the hand.
    contesting: usize,
    /// The largest bet on this street so far (the blinds count preflop): a raise where there
    /// is none is a bet.
    street_bet: u64,
}

impl<'a> Narrator<'a> {
    /// A narrator of the hand of your `target`-th request, with the names by seat.
    pub(crate) fn new(target: usize, names: &'a [String], yours: usize) -> Narrator<'a> {
        Narrator {
            target,
            names,
            yours,
            in_hand: false,
            reached: false,
            state: None,
            before: Vec::new(),
            after: Vec::new(),
            stack_at_start: 0,
            stack_at_end: None,
            contesting: 0,
            street_bet: 0,
        }
    }

    /// Chips the hand won (positive) or lost you.
    pub(crate) fn hand_chips(&self) -> i64 {
        self.stack_at_end.unwrap_or(0) as i64 - self.stack_at_start as i64
    }

    fn name(&self, seat: usize) -> &str {
        self.names.get(seat).map_or("?", String::as_str)
    }

    /// `verb` (third person) as said of `seat`: "you fold", "tight folds".
    fn verb(&self, seat: usize, verb: &'static str) -> &'static str {
        if seat != self.yours {
            return verb;
        }
        match verb {
            "posts" => "post",
            "folds" => "fold",
            "checks" => "check",
            "calls" => "call",
            "raises" => "raise",
            "bets" => "bet",
            "goes" => "go",
            "shows" => "show",
            "wins" => "win",
            other => other,
        }
    }

    fn line(&mut self, line: String) {
        if self.reached {
            self.after.push(line);
        } else {
            self.before.push(line);
        }
    }

    fn describe(&self, event: &GameEvent) -> Option<String> {
        match event {
            GameEvent::BlindPosted {
                seat,
                blind,
                amount,
                ..
            } => Some(format!(
                "{} {} the {} blind {}",
                self.name(seat.index()),
                self.verb(seat.index(), "posts"),
                match blind {
                    engine::game_event::Blind::Small => "small",
                    engine::game_event::Blind::Big => "big",
                },
                amount.get()
            )),
            // Raises "to" the street's bet, as hand histories count them.
            GameEvent::BetPlaced {
                seat,
                action,
                put_in,
                street_bet_after: bet_after,
                ..
            } => {
                let name = self.name(seat.index());
                let verb = |verb| self.verb(seat.index(), verb);
                Some(match action {
                    BetAction::Fold => format!("{name} {}", verb("folds")),
                    BetAction::Check => format!("{name} {}", verb("checks")),
                    BetAction::Call => format!("{name} {} {}", verb("calls"), put_in.get()),
                    BetAction::Raise if self.street_bet == 0 => {
                        format!("{name} {} {}", verb("bets"), bet_after.get())
                    }
                    BetAction::Raise => {
                        format!("{name} {} to {}", verb("raises"), bet_after.get())
                    }
                    BetAction::AllIn => {
                        format!("{name} {} all-in for {}", verb("goes"), bet_after.get())
                    }
                })
            }
            GameEvent::HandRevealed {
                seat,
                cards,
                strength,
                ..
            } => Some(format!(
                "{} {} {} {} ({})",
                self.name(seat.index()),
                self.verb(seat.index(), "shows"),
                cards[0],
                cards[1],
                strength.description()
            )),
            GameEvent::PotAwarded { shares, .. } => {
                let won: Vec<String> = shares
                    .iter()
                    .map(|share| {
                        let seat = share.seat.index();
                        let wins = self.verb(seat, "wins");
                        format!("{} {wins} {}", self.name(seat), share.amount.get())
                    })
                    .collect();
                (!won.is_empty()).then(|| won.join(", "))
            }
            GameEvent::PlayerEliminated { seat, place, .. } => Some(format!(
                "{} {} out ({})",
                self.name(seat.index()),
                if seat.index() == self.yours {
                    "are"
                } else {
                    "is"
                },
                super::print::place(*place)
            )),
            _ => None,
        }
    }
}

impl Watch for Narrator<'_> {
    fn request(&mut self, index: usize, state: &GameState, _: Chips) -> bool {
        if index == self.target {
            self.reached = true;
            self.state = Some(state.clone());
        }
        true
    }

    fn event(&mut self, event: &GameEvent) {
        match event {
            GameEvent::HandStarted {
                stacks, big_blind, ..
            } => {
                self.street_bet = big_blind.get();
                self.contesting = stacks.iter().filter(|s| !s.is_zero()).count();
                if self.reached {
                    self.in_hand = false;
                } else {
                    self.in_hand = true;
                    self.before.clear();
                    self.stack_at_start = stacks.get(self.yours).map_or(0, |s| s.get());
                }
            }
            GameEvent::HandEnded { stacks, .. } if self.in_hand && self.reached => {
                self.stack_at_end = Some(stacks.get(self.yours).map_or(0, |s| s.get()));
                self.in_hand = false;
            }
            // A board dealt out after everyone but one folded decides nothing: left out.
            GameEvent::CommunityCardDealt { .. } if self.in_hand && self.contesting <= 1 => {}
            GameEvent::CommunityCardDealt { street, card } if self.in_hand => {
                self.street_bet = 0;
                let label = match street {
                    Street::Preflop | Street::Flop => "flop",
                    Street::Turn => "turn",
                    Street::River => "river",
                };
                let list = if self.reached {
                    &mut self.after
                } else {
                    &mut self.before
                };
                match list.last_mut() {
                    Some(last) if *street == Street::Flop && last.starts_with("flop ") => {
                        last.push_str(&format!(" {card}"));
                    }
                    _ => list.push(format!("{label} {card}")),
                }
            }
            _ if self.in_hand => {
                if let GameEvent::BetPlaced {
                    action: BetAction::Fold,
                    ..
                } = event
                {
                    self.contesting = self.contesting.saturating_sub(1);
                }
                if let Some(line) = self.describe(event) {
                    self.line(line);
                }
                if let GameEvent::BetPlaced {
                    street_bet_after, ..
                } = event
                {
                    self.street_bet = self.street_bet.max(street_bet_after.get());
                }
            }
            _ => {}
        }
    }
}

#!/usr/bin/env python3
"""The reference edits of the arena's benches, applied to a copy of the template's
player/team/src/strategy.rs: `edits.py EDIT FILE`, or `edits.py (folder|pair-shover) FILE
--whole` to replace the file with a whole other strategy.

Edits of the template (each one line or three, as a team would make them):
- ace: "min-raise any ace": preflop, any hand holding an ace makes the minimum raise;
- tighter-calls: play_score 7 -> 9, fewer preflop calls (a large effect on points);
- slightly-tighter-calls: play_score 7 -> 8 (a medium one);
- looser-raises: raise_score 10 -> 8, more preflop raises (a small effect on points, a large
  one on chips);
- value-bets: value_bet_strength 0.7 -> 0.8, fewer value bets after the flop (too small to
  measure).
Whole strategies:
- folder: checks or folds, always;
- pair-shover: the README's smallest bot: all-in with any pair, else check or fold.
"""
import sys

EDITS = {
    "ace": (
        "    fn preflop(&self, state: &GameState, stack: Chips, score: f64) -> Chips {\n",
        "    fn preflop(&self, state: &GameState, stack: Chips, score: f64) -> Chips {\n"
        "        if state.my_cards().iter().any(|card| card.rank == Rank::Ace) {\n"
        "            return state.minimum_raise_amount();\n"
        "        }\n",
    ),
    "tighter-calls": ("play_score: 7.0,", "play_score: 9.0,"),
    "slightly-tighter-calls": ("play_score: 7.0,", "play_score: 8.0,"),
    "looser-raises": ("raise_score: 10.0,", "raise_score: 8.0,"),
    "value-bets": ("value_bet_strength: 0.7,", "value_bet_strength: 0.8,"),
}

HEADER = """use player::{Chips, GameState, Player};

pub const VERSION: &str = "%s";

#[derive(Debug, Clone, Default)]
pub struct Bot;

impl Player for Bot {
    fn bet_request(&self, state: &GameState) -> Chips {
%s
    }

    fn version(&self) -> String {
        VERSION.to_string()
    }
}
"""

WHOLE = {
    "folder": HEADER % ("fold only", "        let _ = state;\n        Chips::ZERO"),
    "pair-shover": HEADER
    % (
        "shove any pair",
        "        let cards = state.my_cards();\n"
        "        if cards.len() == 2 && cards[0].rank == cards[1].rank {\n"
        "            return state.all_in_amount();\n"
        "        }\n"
        "        Chips::ZERO",
    ),
}


def main():
    name, path = sys.argv[1], sys.argv[2]
    if "--whole" in sys.argv:
        if name not in WHOLE:
            sys.exit(f"unknown strategy {name!r} (known: {', '.join(WHOLE)})")
        with open(path, "w") as f:
            f.write(WHOLE[name])
        return
    if name not in EDITS:
        sys.exit(f"unknown edit {name!r} (known: {', '.join(EDITS)})")
    old, new = EDITS[name]
    with open(path) as f:
        text = f.read()
    if text.count(old) != 1:
        sys.exit(f"{path}: the edit {name!r} does not apply (is this the template?)")
    with open(path, "w") as f:
        f.write(text.replace(old, new))


if __name__ == "__main__":
    main()

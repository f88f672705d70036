#!/usr/bin/env python3
"""Replays the dealer's PHH hand histories with PokerKit and checks them.

Usage: phh_check.py FILE_OR_DIR...   (directories are searched for *.phh and *.phhs)

A .phhs file holds many hands, each a table [<round>] (PHH's multi-hand form, read with
HandHistory.load_all); its hands are named FILE[<round>] below.

For every hand: PokerKit loads the hand, replays every action under standard no-limit
hold'em rules and the result is compared with the file's finishing_stacks and winnings
(the chips each player pulled from the table at the end).

Lean Poker differs from standard rules in known ways (see the comment at the top of each
file). A hand that PokerKit cannot replay is classified:

  ban          the hand has _lean_bans: a banned player's chips leave the game, which
               standard rules cannot express (checked: every action before the ban replays)
  discarded    _lean_chips_discarded > 0 (the OSS odd-chip rule destroys chips)
  reopen       a raise by a player facing a short all-in (no re-opening rule in Lean Poker)
  odd-chips    a split pot whose odd chips PokerKit gives all to the first winner, where
               Lean Poker deals them one at a time (stacks differ by at most the odd chips)

Anything else is a failure. Prints one line per hand that is not a plain pass, a summary
line "phh_check: N hands, P passed, K known differences (...), F failed", and exits 1 when
any hand failed.
"""

import sys
import tomllib
import warnings
from collections import Counter
from pathlib import Path

from pokerkit import HandHistory
from pokerkit.notation import parse_action
from pokerkit.state import (
    BetCollection,
    BlindOrStraddlePosting,
    CheckingOrCalling,
    ChipsPushing,
    CompletionBettingOrRaisingTo,
)


def files(arguments):
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            yield from sorted(
                (p for p in path.rglob("*") if p.suffix in (".phh", ".phhs")),
                key=lambda p: (str(p.parent), p.suffix, len(p.name), p.name),
            )
        else:
            yield path


def histories(path):
    """(name, HandHistory) for every hand in the file: one in a .phh, each table in a .phhs."""
    with open(path, "rb") as handle:
        if path.suffix == ".phhs":
            # Table names are the rounds; load_all yields the tables in file order.
            text = handle.read().decode()
            rounds = list(tomllib.loads(text).keys())
            loaded = list(HandHistory.loads_all(text))
            if not loaded:
                raise ValueError("no hand in the file")
            for round_, history in zip(rounds, loaded):
                yield f"{path}[{round_}]", history
        else:
            yield str(path), HandHistory.load(handle)


def replay(history):
    """Applies every action; returns (state, index of the failing action or None, error)."""
    state = history.create_state()
    for index, action in enumerate(history.actions):
        while True:
            try:
                parse_action(state, action, history.parse_value)
                break
            except ValueError as error:
                # Let PokerKit do what it automates (collecting bets, burning, mucking...).
                if not step_automatically(state):
                    return state, index, str(error)
    while state.status:
        if not step_automatically(state):
            break
    return state, None, None


def step_automatically(state):
    if state.can_post_ante():
        state.post_ante()
    elif state.can_collect_bets():
        state.collect_bets()
    elif state.can_post_blind_or_straddle():
        state.post_blind_or_straddle()
    elif state.can_burn_card():
        state.burn_card("??")
    elif state.status and state.can_show_or_muck_hole_cards():
        state.show_or_muck_hole_cards()
    elif state.can_select_runout_count():
        state.select_runout_count()
    elif state.can_kill_hand():
        state.kill_hand()
    elif state.can_push_chips():
        state.push_chips()
    elif state.can_pull_chips():
        state.pull_chips()
    else:
        return False
    return True


def classify(history, state, failed_at, error):
    """'pass', a known difference, or 'FAIL: ...'."""
    fields = history.user_defined_fields
    if fields.get("_lean_bans"):
        actions = history.actions
        ban_index = next(
            (i for i, a in enumerate(actions) if "#" not in a and a.endswith(" f") and is_ban(history, i)),
            None,
        )
        if failed_at is not None and ban_index is not None and failed_at < ban_index:
            return f"FAIL: action {failed_at} ({actions[failed_at]!r}) before the ban: {error}"
        return "ban"
    if fields.get("_lean_chips_discarded"):
        return "discarded"
    if failed_at is not None:
        if "non-full all-in" in error or "Short all-in cannot be raised" in error:
            return "reopen"
        return f"FAIL: action {failed_at} ({history.actions[failed_at]!r}): {error}"
    if state.status:
        return "FAIL: the hand is not over after the last action"
    stacks = list(state.stacks)
    expected = list(history.finishing_stacks)
    split = any(
        isinstance(operation, ChipsPushing) and sum(1 for a in operation.amounts if a) > 1
        for operation in state.operations
    )
    if stacks != expected:
        difference = sum(abs(a - b) for a, b in zip(stacks, expected))
        if split and sum(stacks) == sum(expected) and difference <= 2 * len(stacks):
            return "odd-chips"
        return f"FAIL: finishing stacks {stacks}, the file says {expected}"
    if history.winnings is not None:
        won = collected(history, state)
        if won != list(history.winnings):
            return f"FAIL: winnings (collected from pots) {won}, the file says {list(history.winnings)}"
    return "pass"


def collected(history, state):
    """Chips each player won from pots: finishing - starting + put in - own uncalled bet."""
    count = len(state.stacks)
    put_in = [0] * count
    street = [0] * count
    for operation in state.operations:
        if isinstance(operation, BlindOrStraddlePosting):
            put_in[operation.player_index] += operation.amount
            street[operation.player_index] += operation.amount
        elif isinstance(operation, CheckingOrCalling):
            put_in[operation.player_index] += operation.amount
            street[operation.player_index] += operation.amount
        elif isinstance(operation, CompletionBettingOrRaisingTo):
            delta = operation.amount - street[operation.player_index]
            put_in[operation.player_index] += delta
            street[operation.player_index] = operation.amount
        elif isinstance(operation, BetCollection):
            street = [0] * count
    largest = max(range(count), key=lambda i: put_in[i])
    second = max((put_in[i] for i in range(count) if i != largest), default=0)
    uncalled = [0] * count
    uncalled[largest] = max(0, put_in[largest] - second)
    starting = list(history.starting_stacks)
    return [
        state.stacks[i] - starting[i] + put_in[i] - uncalled[i] for i in range(count)
    ]


def is_ban(history, index):
    # Ban lines name the player: "p3: <reason> (N chips left the game)".
    player = history.actions[index].split()[0]
    return any(ban.startswith(player + ":") for ban in history.user_defined_fields["_lean_bans"])


def verdicts(path):
    """(hand name, verdict) for every hand in the file at path."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            loaded = list(histories(path))
        except Exception as exception:  # a file PokerKit cannot even load
            yield str(path), f"FAIL: {type(exception).__name__}: {exception}"
            return
        for name, history in loaded:
            try:
                state, failed_at, error = replay(history)
                verdict = classify(history, state, failed_at, error)
            except Exception as exception:
                verdict = f"FAIL: {type(exception).__name__}: {exception}"
            yield name, verdict


def main(arguments):
    results = Counter()
    failed = 0
    for path in files(arguments):
        for name, verdict in verdicts(path):
            if verdict.startswith("FAIL"):
                failed += 1
                results["failed"] += 1
                print(f"{name}: {verdict}")
            elif verdict != "pass":
                results[verdict] += 1
                print(f"{name}: known difference: {verdict}")
            else:
                results["passed"] += 1
    total = sum(results.values())
    known = {k: v for k, v in results.items() if k not in ("passed", "failed")}
    known_text = ", ".join(f"{k} {v}" for k, v in sorted(known.items())) or "none"
    print(
        f"phh_check: {total} hands, {results['passed']} passed, "
        f"{sum(known.values())} known differences ({known_text}), {failed} failed"
    )
    return 1 if failed or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

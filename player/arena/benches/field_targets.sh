#!/usr/bin/env bash
# The default field's targets, each seed: 1,000 games of the default field against the team's
# template, a fold-only bot and the README's smallest bot (all-in with any pair, else check or
# fold): the folder finishes in the bottom two by points, the template in the top half, the
# pair shover below the template.
#
#   player/arena/benches/field_targets.sh [SEED...]     (default: seed 1)
source "$(dirname "$0")/lib.sh"

SEEDS=${*:-1}
missed=0
for seed in $SEEDS; do
  for bot in template folder pair-shover; do
    use_strategy "$bot"
    build_arena
    "$ARENA" --games 1000 --seed "$seed" --no-save --json "$WORK/$bot-$seed.json" > /dev/null
  done
  restore_strategy
  python3 - "$WORK" "$seed" <<'PY' || missed=1
import json, sys
work, seed = sys.argv[1], sys.argv[2]
def standings(bot):
    report = json.load(open(f"{work}/{bot}-{seed}.json"))["report"]
    return [(e["name"], e["points"]) for e in report["entrants"]]
rows = {bot: standings(bot) for bot in ("template", "folder", "pair-shover")}
for bot, row in rows.items():
    print(f"seed {seed}, you = {bot:<11}", "  ".join(f"{n} {p}" for n, p in row))
def place(row):  # your place by points (1 = most), ties counted against you
    mine = row[0][1]
    return 1 + sum(1 for _, p in row[1:] if p >= mine)
seats = len(rows["template"])
template_points = rows["template"][0][1]
checks = [
    ("fold-only in the bottom two", place(rows["folder"]) >= seats - 1, f"{place(rows['folder'])} of {seats}"),
    ("template in the top half", place(rows["template"]) <= seats // 2, f"{place(rows['template'])} of {seats}"),
    ("pair shover below the template", rows["pair-shover"][0][1] < template_points,
     f"{rows['pair-shover'][0][1]} against {template_points} points"),
]
ok = True
for name, passed, detail in checks:
    print(f"  {'met ' if passed else 'MISSED'} {name}: {detail}")
    ok &= passed
sys.exit(0 if ok else 1)
PY
done
exit $missed

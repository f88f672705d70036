#!/usr/bin/env python3
"""Compares two `cargo arena --json` reports of the same options (the same deal sets), as the
arena's verdict does and as the tests before it did, and prints how many games each test needs
for the difference seen: `compare_runs.py BEFORE.json AFTER.json [--markdown LABEL]`.

- adjusted: your points per game with the luck of the cards taken out, paired by deal set, the
  luck weighed by a coefficient fitted on the other sets (the verdict's `engine::stats::adjust`,
  written again below);
- raw: your points per game, paired by deal set;
- points (unpaired): your points per game per deal set, Welch's two-sample test (the old
  test's method on the event's currency);
- chips (unpaired): your chips per 100 hands per deal set, Welch's two-sample test (the arena's
  verdict before points; `arena::stats::unpaired_difference`).

Reports of the arena before points (no `your_sets`, only `your_chips_per_100_by_set`) give
the chips figures only.

Games needed = deal sets × rotations for 95% confidence and 80% power at the difference seen:
((1.96 + 0.84) · sd / difference)² pairs for a paired test, (1.96 + 0.84)² (s1² + s0²) /
difference² sets per version for Welch's. The raw and the adjusted figures estimate the same
difference, so they are also given at one common effect (the adjusted mean), where their ratio
is the ratio of the variances.
"""
import json
import math
import sys

Z = 1.959964 + 0.841621


def load(path):
    with open(path) as f:
        document = json.load(f)
    report = document["report"] if "report" in document else document
    return report


# engine::stats::adjust's constants: ten folds by deal set index, the prior coefficient and its
# spread.
FOLDS, PRIOR, SPREAD = 10, 0.8, 0.25


def coefficient(samples):
    """engine::stats::adjust::Moments::coefficient: the least-squares slope of the outcomes on
    the luck, combined with the prior by their precisions."""
    n = len(samples)
    if n < 3:
        return PRIOR
    my = sum(y for y, _ in samples) / n
    mx = sum(x for _, x in samples) / n
    vx = sum((x - mx) ** 2 for _, x in samples) / (n - 1)
    if vx <= 1e-12 * (1 + sum(x * x for _, x in samples) / n):
        return PRIOR
    cov = sum((x - mx) * (y - my) for y, x in samples) / (n - 1)
    vy = sum((y - my) ** 2 for y, _ in samples) / (n - 1)
    theta = cov / vx
    variance = max(vy - theta * cov, 0) * (n - 1) / (n - 2) / ((n - 1) * vx)
    if variance <= 0:
        return theta
    weight, prior_weight = 1 / variance, 1 / SPREAD**2
    return (weight * theta + prior_weight * PRIOR) / (weight + prior_weight)


def adjust(samples):
    """engine::stats::adjust::adjust_samples: each (outcome, luck) sample less its luck weighed
    by the coefficient fitted on the other folds (fold = index mod FOLDS)."""
    thetas = [coefficient([s for i, s in enumerate(samples) if i % FOLDS != fold]) for fold in range(FOLDS)]
    return [y - thetas[i % FOLDS] * x for i, (y, x) in enumerate(samples)]


def luck(result):
    return result["luck"]["own_pots"] + result["luck"]["others_pots"]


def mean_sd(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var)


def main():
    args = sys.argv[1:]
    label = None
    if "--markdown" in args:
        i = args.index("--markdown")
        label = args[i + 1]
        del args[i : i + 2]
    before, after = load(args[0]), load(args[1])
    if before["key"] != after["key"]:
        sys.exit("the two reports were played with different options")
    rotations = after["rotations"]
    if "your_sets" not in after:
        chips_only(before, after, rotations, label)
        return
    sets_before, sets_after = before["your_sets"], after["your_sets"]
    n = min(len(sets_before), len(sets_after))
    sets_before, sets_after = sets_before[:n], sets_after[:n]
    per_game = lambda total: total / rotations
    adjusted = adjust(
        [(per_game(a["points"] - b["points"]), per_game(luck(a) - luck(b))) for a, b in zip(sets_after, sets_before)]
    )
    raw = [per_game(a["points"] - b["points"]) for a, b in zip(sets_after, sets_before)]
    chips_after = [s["chips_per_100"] for s in sets_after]
    chips_before = [s["chips_per_100"] for s in sets_before]
    m_adj, sd_adj = mean_sd(adjusted)
    m_raw, sd_raw = mean_sd(raw)
    m_c1, s_c1 = mean_sd(chips_after)
    m_c0, s_c0 = mean_sd(chips_before)
    d_chips = m_c1 - m_c0
    games = lambda sets: math.ceil(sets) * rotations
    paired = lambda sd, d: games((Z * sd / d) ** 2) if d else math.inf
    welch = lambda d: games(Z * Z * (s_c1**2 + s_c0**2) / d**2) if d else math.inf
    points_after = [per_game(s["points"]) for s in sets_after]
    points_before = [per_game(s["points"]) for s in sets_before]
    s_p1, s_p0 = mean_sd(points_after)[1], mean_sd(points_before)[1]
    welch_points = games(Z * Z * (s_p1**2 + s_p0**2) / m_raw**2) if m_raw else math.inf
    row = {
        "sets": n,
        "adjusted_mean": m_adj,
        "adjusted_half_width": 1.96 * sd_adj / math.sqrt(n),
        "raw_mean": m_raw,
        "raw_half_width": 1.96 * sd_raw / math.sqrt(n),
        "chips_difference": d_chips,
        "chips_half_width": 1.96 * math.sqrt(s_c1**2 / n + s_c0**2 / n),
        "games_adjusted": paired(sd_adj, m_adj),
        "games_raw": paired(sd_raw, m_raw),
        "games_raw_at_adjusted_effect": paired(sd_raw, m_adj),
        "games_points_welch_each": welch_points,
        "games_chips_welch_each": welch(d_chips),
        "variance_ratio_raw_over_adjusted": (sd_raw / sd_adj) ** 2 if sd_adj else math.inf,
        "identical_sets": sum(1 for a, b in zip(sets_after, sets_before) if a == b),
    }
    if label:
        print(
            f"| {label} | {n * rotations} | {m_adj:+.3f} ± {row['adjusted_half_width']:.3f} | "
            f"{m_raw:+.3f} ± {row['raw_half_width']:.3f} | {d_chips:+.0f} ± {row['chips_half_width']:.0f} | "
            f"{row['games_adjusted']:,} | {row['games_raw']:,} ({row['games_raw_at_adjusted_effect']:,}) | "
            f"{row['games_points_welch_each']:,} | {row['games_chips_welch_each']:,} | "
            f"{row['variance_ratio_raw_over_adjusted']:.1f} |"
        )
    else:
        for key, value in row.items():
            print(f"{key}: {value:.4g}" if isinstance(value, float) else f"{key}: {value}")


def chips_only(before, after, rotations, label):
    now = after["your_chips_per_100_by_set"]
    then = before["your_chips_per_100_by_set"]
    (m1, s1), (m0, s0) = mean_sd(now), mean_sd(then)
    d = m1 - m0
    games = math.ceil(Z * Z * (s1**2 + s0**2) / d**2) * rotations if d else math.inf
    half = 1.96 * math.sqrt(s1**2 / len(now) + s0**2 / len(then))
    if label:
        print(f"| {label} | {len(now) * rotations} | {d:+.0f} ± {half:.0f} | {games:,} |")
    else:
        print(f"chips_difference: {d:.4g}\nchips_half_width: {half:.4g}\ngames_chips_welch_each: {games}")


if __name__ == "__main__":
    main()

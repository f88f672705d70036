#!/usr/bin/env python3
"""How the luck's coefficient should be fitted: bias and interval width of the ways to fit it,
on real games of each style, resampled to a version's size (issue 38, docs/decisions.md).

    LUCK_BY_STYLE_DUMP=DIR cargo test -p lean-poker-arena --test arena_tests -- \\
        --ignored luck_by_style --nocapture          # one game a line per style: points,luck
    python3 player/arena/benches/coefficient_bias.py DIR [GAMES] [TRIALS]   (default 40 4000)

Each trial draws GAMES games of a style with replacement from its 1,500 (the luck centred to
mean 0, as it is in expectation, so that the true mean of every estimator is the style's mean
points) and adjusts them four ways:

- whole: points - luck (the coefficient 1);
- in-sample: the least-squares coefficient of the very games it adjusts;
- cross-fitted: engine::stats::adjust (ten folds, each fold's coefficient fitted on the other
  nine and shrunk towards the prior 0.8 with spread 0.25);
- oracle: the style's own best coefficient over all 1,500 games (what no estimate can beat).

For each it prints the mean bias in units of the raw mean's standard error (with two standard
errors of the simulation), the mean ratio of the adjusted interval's width to the raw one's,
and the share of trials where the adjusted interval is wider than the raw one by more than 2%.
"""
import glob
import os
import random
import sys

FOLDS, PRIOR, SPREAD = 10, 0.8, 0.25


def moments(ys, xs):
    n = len(ys)
    my, mx = sum(ys) / n, sum(xs) / n
    vx = sum((x - mx) ** 2 for x in xs) / (n - 1)
    vy = sum((y - my) ** 2 for y in ys) / (n - 1)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (n - 1)
    return vx, vy, cov


def slope(ys, xs):
    if len(ys) < 3:
        return None
    vx, vy, cov = moments(ys, xs)
    if vx <= 1e-12:
        return None
    theta = cov / vx
    n = len(ys)
    variance = max(vy - theta * cov, 0) * (n - 1) / (n - 2) / ((n - 1) * vx)
    return theta, variance


def shrunk(ys, xs):
    fit = slope(ys, xs)
    if fit is None:
        return PRIOR
    theta, variance = fit
    if variance <= 0:
        return theta
    weight, prior_weight = 1 / variance, 1 / SPREAD**2
    return (weight * theta + prior_weight * PRIOR) / (weight + prior_weight)


def cross_fitted(ys, xs):
    out = []
    thetas = []
    for fold in range(FOLDS):
        rest = [i for i in range(len(ys)) if i % FOLDS != fold]
        thetas.append(shrunk([ys[i] for i in rest], [xs[i] for i in rest]))
    return [y - thetas[i % FOLDS] * x for i, (y, x) in enumerate(zip(ys, xs))]


def sd(values):
    m = sum(values) / len(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5


def main():
    folder = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 4000
    rng = random.Random(1)
    print(f"{games} games a version, {trials} trials a style: bias (raw standard errors) / width over raw / wider by >2%")
    print("| style | whole | in-sample | cross-fitted | oracle |")
    print("|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        rows = [tuple(map(float, line.split(","))) for line in open(path) if line.strip()]
        ys = [y for y, _ in rows]
        mean_x = sum(x for _, x in rows) / len(rows)
        xs = [x - mean_x for _, x in rows]
        truth = sum(ys) / len(ys)
        error = sd(ys) / games**0.5
        _, _, cov = moments(ys, xs)
        oracle_theta = cov / moments(ys, xs)[0]
        ways = {
            "whole": lambda y, x: [a - b for a, b in zip(y, x)],
            "in-sample": lambda y, x: [a - (slope(y, x) or (0, 0))[0] * b for a, b in zip(y, x)],
            "cross-fitted": cross_fitted,
            "oracle": lambda y, x: [a - oracle_theta * b for a, b in zip(y, x)],
        }
        cells = []
        for adjust in ways.values():
            means, ratios = [], []
            for _ in range(trials):
                picks = [rng.randrange(len(ys)) for _ in range(games)]
                y = [ys[i] for i in picks]
                x = [xs[i] for i in picks]
                adjusted = adjust(y, x)
                means.append(sum(adjusted) / games)
                if sd(y) > 0:
                    ratios.append(sd(adjusted) / sd(y))
            bias = (sum(means) / trials - truth) / error
            noise = 2 * sd(means) / trials**0.5 / error
            wider = sum(r > 1.02 for r in ratios) / len(ratios)
            cells.append(f"{bias:+.3f} ± {noise:.3f} / {sum(ratios) / len(ratios):.3f} / {wider:.0%}")
        print(f"| {os.path.basename(path)[:-4]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""One feature set per profile: the builds a team's first hour makes share their dependencies.

Cargo unifies features only across the packages one command selects, so a dependency whose
features differ between two builds of the same profile is compiled twice, with everything
built on it (tokio, then actix, then the SDK...). This compares, with `cargo tree`, the
features every shared dependency gets in:
  - release: the team's player (`cargo build --release -p team`, what the deploy and the
    local tournament build) against the team's crate with its arena (`cargo arena`);
  - tests: `cargo test --workspace` against `cargo test -p team`, and against the dealer's plain
    debug build (`cargo run -p lean-poker-dealer -- demo`, the local tournament), which
    then reuses the test build's dependencies.
and fails naming each crate whose features differ. Usage: python3 .ci/features_aligned.py
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def features(args):
    """{package: set of enabled features} for the resolve `cargo tree ARGS` describes."""
    output = subprocess.run(
        ["cargo", "tree", "--locked", "--prefix", "none", "--format", "{p}|{f}", *args],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    found = {}
    for line in output.splitlines():
        package, _, enabled = line.partition("|")
        # `(*)` marks a package already printed above, `(proc-macro)` a host package.
        package = package.replace("(*)", "").strip()
        names = {name.replace("(*)", "").strip() for name in enabled.split(",")}
        found.setdefault(package, set()).update(name for name in names if name)
    return found


def compare(what, left_name, left, right_name, right, itself=None):
    """Fails on every shared package with other features but `itself` (the package whose
    feature is the difference between the two builds)."""
    differ = []
    for package in sorted(set(left) & set(right)):
        if itself and package.split(" ")[0] == itself:
            continue
        if left[package] != right[package]:
            only_left = sorted(left[package] - right[package])
            only_right = sorted(right[package] - left[package])
            differ.append(f"{package}: {left_name} only {only_left}, {right_name} only {only_right}")
    if differ:
        print(f"{what}: {len(differ)} shared dependencies are built with other features:")
        for line in differ:
            print(f"  {line}")
    else:
        print(f"{what}: the {len(set(left) & set(right))} shared packages have the same features")
    sys.stdout.flush()
    return not differ


def main():
    release = compare(
        "release",
        "the team's player", features(["-p", "team", "-e", "normal,build"]),
        "the team's crate with its arena", features(["-p", "team", "--features", "arena", "-e", "normal,build"]),
        itself="team",
    )
    workspace_tests = features(["--workspace", "-e", "normal,build,dev"])
    tests = compare(
        "tests",
        "cargo test --workspace", workspace_tests,
        "cargo test -p team", features(["-p", "team", "-e", "normal,build,dev"]),
    )
    dealer = compare(
        "debug",
        "cargo test --workspace", workspace_tests,
        "the dealer's debug build", features(["-p", "lean-poker-dealer", "-e", "normal,build"]),
    )
    if not (release and tests and dealer):
        sys.exit("error: align the features in [workspace.dependencies] (ARCHITECTURE.md, "
                 "\"one feature set per profile\")")


if __name__ == "__main__":
    main()

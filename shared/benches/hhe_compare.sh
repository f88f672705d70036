#!/usr/bin/env bash
# Our evaluator against holdem-hand-evaluator (b-inary's crate, "hhe") on issue 18's cases, in
# one process, alternated rounds: M hands/s of each and the ratio ours/hhe round by round (see
# shared/benches/hhe_compare/src/main.rs and shared/benches/README.md, "Issue 18, third pass").
#
#   shared/benches/hhe_compare.sh HHE_DIR                 # 7 rounds of every case
#   shared/benches/hhe_compare.sh HHE_DIR 15 "10M"        # rounds, cases whose name has "10M"
#
# HHE_DIR is a checkout of https://github.com/b-inary/holdem-hand-evaluator (its root, with
# Cargo.toml and assets/). hhe is published on GitHub only, so it cannot be a dependency of
# the repository: this script writes the bench crate's manifest, with hhe as a path
# dependency, into the bench's own target folder (under the workspace's target directory)
# and builds it there in release, seeded with the workspace's lock file so that the shared
# crate builds against the same versions as everywhere else.
set -euo pipefail

usage() {
    cat >&2 <<'EOF'
usage: shared/benches/hhe_compare.sh HHE_DIR [ROUNDS] [CASE-SUBSTRING]

HHE_DIR must be a checkout of holdem-hand-evaluator, for example:
    git clone https://github.com/b-inary/holdem-hand-evaluator /tmp/hhe
    shared/benches/hhe_compare.sh /tmp/hhe
(it is on GitHub only, not on crates.io; any copy of the repository's root folder, with its
Cargo.toml, src/ and assets/, will do).
EOF
    exit 2
}

[[ $# -ge 1 ]] || usage
hhe_dir=$1
shift
if [[ ! -f $hhe_dir/Cargo.toml || ! -d $hhe_dir/assets ]] ||
    ! grep -q '^name = "holdem-hand-evaluator"' "$hhe_dir/Cargo.toml"; then
    echo "error: $hhe_dir is not a holdem-hand-evaluator checkout (no Cargo.toml naming" \
        "holdem-hand-evaluator, or no assets/)" >&2
    usage
fi
hhe_dir=$(cd "$hhe_dir" && pwd)

bench_dir=$(cd "$(dirname "$0")/hhe_compare" && pwd)
repo=$(cd "$bench_dir/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$repo/target}/hhe_compare
crate=$target/crate
mkdir -p "$crate"

# TOML basic strings: the paths are quoted as they are; refuse the two characters that would
# need escaping rather than write a broken manifest.
for path in "$repo" "$hhe_dir"; do
    if [[ $path == *'"'* || $path == *'\'* ]]; then
        echo "error: a path with a quote or a backslash is not supported: $path" >&2
        exit 2
    fi
done

cat >"$crate/Cargo.toml.new" <<EOF
# Written by shared/benches/hhe_compare.sh: do not edit (the script rewrites it).
[package]
name = "hhe-compare-bench"
description = "M hands/s: lean-poker's evaluator against holdem-hand-evaluator."
version = "0.1.0"
edition = "2021"
publish = false

# Not a member of the repository's workspace.
[workspace]

[[bin]]
name = "hhe_compare"
path = "$bench_dir/src/main.rs"

[dependencies]
lean-poker-shared = { path = "$repo/shared", default-features = false }
holdem-hand-evaluator = { path = "$hhe_dir" }

# The workspace's release profile (hhe's own thin LTO applies only inside its own workspace).
[profile.release]
debug = "line-tables-only"
EOF
# Rewritten only when it changes, so that cargo's fingerprints stay valid between runs.
if cmp -s "$crate/Cargo.toml.new" "$crate/Cargo.toml"; then
    rm "$crate/Cargo.toml.new"
else
    mv "$crate/Cargo.toml.new" "$crate/Cargo.toml"
fi
[[ -f $crate/Cargo.lock ]] || cp "$repo/Cargo.lock" "$crate/Cargo.lock"

CARGO_TARGET_DIR=$target cargo build --release -q --manifest-path "$crate/Cargo.toml"
exec "$target/release/hhe_compare" "$@"

#!/usr/bin/env bash
# Our evaluator against holdem-hand-evaluator (b-inary's crate, "hhe"), in one process,
# alternated rounds: M hands per second of the thread's on-CPU time for each, and the ratio
# ours/hhe round by round; or instructions a hand, counted by callgrind (see
# shared/benches/hhe_compare/src/main.rs and shared/benches/README.md).
#
#   shared/benches/hhe_compare.sh HHE_DIR                 # 7 rounds of every case
#   shared/benches/hhe_compare.sh HHE_DIR 15 "10M"        # rounds, cases whose name has "10M"
#   shared/benches/hhe_compare.sh HHE_DIR instructions    # callgrind: instructions a hand
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
       shared/benches/hhe_compare.sh HHE_DIR instructions [CASE-SUBSTRING]

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
# The thread's CPU time (clock_gettime).
libc = "0.2"

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
bench=$target/release/hhe_compare
if [[ ${1:-} != instructions ]]; then
    exec "$bench" "$@"
fi

# Instructions a hand: one round under callgrind (without the order check, which is not what is
# measured), then each loop function's inclusive count divided by the hands it evaluates.
# callgrind lists an inlined function once per source file its code comes from; the entry of
# the function's own file includes the others, so the largest entry is the function's count.
command -v valgrind >/dev/null || {
    echo "error: valgrind is needed for instructions (apt-get install valgrind)" >&2
    exit 2
}
out=$target/callgrind.out
echo "callgrind, one round (a few minutes)..." >&2
HHE_COMPARE_SKIP_CHECK=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$bench" 1 "${2:-}" >/dev/null 2>"$target/callgrind.log" || {
    cat "$target/callgrind.log" >&2
    exit 1
}
callgrind_annotate --inclusive=yes --threshold=100 "$out" | awk '
    BEGIN {
        hands["our_loops::random_strength_of"] = 1e7
        hands["our_loops::random_seven_cards_strength"] = 1e7
        hands["our_loops::random_hand_key"] = 1e7
        hands["random_hhe"] = 1e7
        hands["random_unchecked"] = 1e7
        hands["random_hhe_two_byte"] = 1e7
        hands["our_loops::enumerate_all"] = 133784560
        hands["all_hhe"] = 133784560
        name["our_loops::random_strength_of"] = "10M random: ours strength_of(&[Card; 7])"
        name["our_loops::random_seven_cards_strength"] = "10M random: ours SevenCards::strength()"
        name["our_loops::random_hand_key"] = "10M random: ours HandKey + Card x7, strength()"
        name["random_hhe"] = "10M random: hhe Hand add_card x7, evaluate()"
        name["random_unchecked"] = "10M random: ours, no repeat test (ceiling)"
        name["random_hhe_two_byte"] = "10M random: hhe, two bytes a card as ours"
        name["our_loops::enumerate_all"] = "all hands: ours nested Deal::one_more"
        name["all_hhe"] = "all hands: hhe nested Hand::add_card"
        order = "our_loops::random_strength_of our_loops::random_seven_cards_strength our_loops::random_hand_key random_hhe random_unchecked random_hhe_two_byte our_loops::enumerate_all all_hhe"
    }
    /^ *[0-9,]+ \(/ {
        cost = $1
        gsub(",", "", cost)
        # "COST (PERCENT)  file:function [binary]": the function follows the first colon.
        line = substr($0, index($0, ")") + 1)
        split(line, words, " ")
        function_name = substr(words[1], index(words[1], ":") + 1)
        sub(/^hhe_compare::/, "", function_name)
        if (function_name in hands && cost + 0 > total[function_name] + 0) total[function_name] = cost
    }
    END {
        count = split(order, names, " ")
        for (i = 1; i <= count; i++) {
            f = names[i]
            if (f in total) printf "%-50s %7.1f instructions a hand\n", name[f], total[f] / hands[f]
        }
    }'

# Sourced by the shell benches (shards.sh, web_follow.sh) from the repository's root: where
# the release binaries are, a work folder that goes away on exit with every background process
# whose pid is in `pids`, and the hands a run played.

# The release binaries' folder (wherever CARGO_TARGET_DIR or the workspace puts target/).
release_dir() {
    local target
    target=$(cargo metadata --format-version 1 --no-deps --locked |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
    echo "$target/release"
}

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# hands_played RESULTS_JSON: the hands of every game of a run (merged runs nest them in "result").
hands_played() {
    python3 -c 'import json,sys
games = json.load(open(sys.argv[1]))["games"]
print(sum(g.get("hands_played") or g.get("result", {}).get("hands_played", 0) for g in games))' "$1"
}

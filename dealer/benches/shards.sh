#!/usr/bin/env bash
# How a run scales over shards on one machine: the same run of sit'n'gos played as 1, 2 and 4
# `dealer run --shard K/N` processes at once, in process (six house bots) and over HTTP (six
# player processes on 127.0.0.2-7, shared by every shard as an event's players are).
# Prints per case: wall seconds, hands, hands/s, and the 1-minute load average before and
# after, for docs/benchmarks.md, "Ranking at scale: shards and merge".
#
#   dealer/benches/shards.sh                  # 48 sit'n'gos in process, 12 over HTTP
#   SHARDS_GAMES=96 SHARDS_HTTP_GAMES=24 dealer/benches/shards.sh
#   SHARDS_COUNTS="1 2" dealer/benches/shards.sh
#
# Release binaries are built first. Every shard plays with --parallel 1 and --outputs none, so
# what scales is the number of dealer processes; the shards are merged and checked complete.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${SHARDS_GAMES:-48}
http_games=${SHARDS_HTTP_GAMES:-12}
counts=${SHARDS_COUNTS:-"1 2 4"}
seed=${SHARDS_SEED:-7}

cargo build --release --locked -q -p lean-poker-dealer --bin dealer \
    -p team --bin player -p lean-poker-examples --bin calling-station
# shellcheck source=dealer/benches/lib.sh
. dealer/benches/lib.sh
release=$(release_dir)
dealer=$release/dealer

# Six player processes: three template bots (the SDK's `player`), three calling stations, one
# HTTP worker per shard so no shard waits on another's request.
workers=$(echo "$counts" | tr ' ' '\n' | sort -n | tail -1)
http_flags=()
for i in 2 3 4 5 6 7; do
    if [ "$i" -le 4 ]; then binary=$release/player; else binary=$release/calling-station; fi
    PORT=9000 PLAYER_HOST=127.0.0.$i PLAYER_WORKERS=$workers RUST_LOG=warn \
        "$binary" >/dev/null 2>&1 &
    pids+=("$!")
    http_flags+=(--player "p$i=http://127.0.0.$i:9000/")
done
bot_flags=(--bot a=strategy --bot b=strategy --bot c=calling-station --bot d=calling-station
    --bot e=raiser --bot f=random)
sleep 1

load() { cut -d' ' -f1 /proc/loadavg; }

# play LABEL GAMES FLAGS...: the run as 1, 2, 4 shards at once.
play() {
    local label=$1 total=$2
    shift 2
    for n in $counts; do
        local dir=$work/$label-$n before start end shard_pids=() shard_dirs=()
        before=$(load)
        start=$(date +%s.%N)
        for ((k = 0; k < n; k++)); do
            "$dealer" run "$@" --games "$total" --seed "$seed" --reproducible --outputs none \
                --parallel 1 --shard "$k/$n" --out "$dir/shard-$k" -q >/dev/null &
            shard_pids+=("$!")
            shard_dirs+=("$dir/shard-$k")
        done
        for pid in "${shard_pids[@]}"; do wait "$pid"; done
        end=$(date +%s.%N)
        "$dealer" merge --out "$dir/merged" "${shard_dirs[@]}" >/dev/null
        local played
        played=$(hands_played "$dir/merged/results.json")
        python3 -c 'import sys; l,n,g,h,s,e,b,a=sys.argv[1:]; w=float(e)-float(s); print(f"{l:<10} {n} shard(s)  {g} games  {int(h):>6} hands  {w:6.1f} s  {int(h)/w:8.0f} hands/s  load {b} -> {a}")' \
            "$label" "$n" "$total" "$played" "$start" "$end" "$before" "$(load)"
    done
}

echo "$(nproc) cores; $(uname -r)"
play in-process "$games" "${bot_flags[@]}"
play http "$http_games" "${http_flags[@]}"

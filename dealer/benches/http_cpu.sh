#!/usr/bin/env bash
# The dealer's own CPU per request over HTTP, and hands/s, with each choice of outputs: what the
# `dealer` binary itself costs when six SDK players answer (issue #18's figures).
#
# Six release `player` processes (the SDK serving the template bot, one HTTP worker each) on
# 127.0.0.2-7; `dealer run --parallel 1` plays GAMES sit'n'gos with a fixed seed, one process
# per measured run, its user and system CPU read by wait4 and divided by the requests
# results.json counts (every check, version, bet_request and showdown). Scenarios:
#
#   default     no --outputs: whatever this dealer writes by default
#   hands-file  log, requests, hands-file (one hands.phhs a game), players, decks
#   hands       log, requests, hands (one .phh file a hand), players, decks
#   none        --outputs none (results.json only)
#
# and each file-writing scenario again "after delete": just before the measured run, a copy of
# an earlier per-hand run's folder (hundreds of small files) is made and deleted, as when a
# person deletes old runs and starts a new one (ext4 then scans the freed inodes when it
# allocates new ones).
#
# Several dealers are measured side by side, alternated run by run in every round, so that the
# load of the machine falls on each alike: HTTP_CPU_OLD=/path/to/an/older/dealer adds one
# (its "default" is its own defaults), and HTTP_CPU_BASE=/path/to/a/third one more, named
# "base" (e.g. the branch point of a change, next to an older release). Prints the median
# (min-max) of the rounds and the 1-minute load average at the start and end.
#
#   dealer/benches/http_cpu.sh                    # 6 games a run, 3 rounds, this tree's dealer
#   HTTP_CPU_OLD=/work/before/dealer dealer/benches/http_cpu.sh 6 5
#   HTTP_CPU_SCENARIOS="default hands-file" dealer/benches/http_cpu.sh
#   HTTP_CPU_DIR=/dev/shm/x dealer/benches/http_cpu.sh   # outputs on another filesystem
#   HTTP_CPU_COUNT=2 dealer/benches/http_cpu.sh           # also count, over 2 games per case
#   HTTP_CPU_ROUNDS=0 HTTP_CPU_COUNT=2 dealer/benches/http_cpu.sh   # only count
#
# HTTP_CPU_COUNT=N adds counts that do not depend on the machine's load, for each dealer and
# each scenario (fresh disk), over N games: the dealer's user-space instructions per request
# (valgrind's callgrind) and its system calls per request by kind (strace -c -f). Both run
# without SSL_CERT_FILE (a dealer reads the whole file at start-up, once per process).
#
# Outputs go under HTTP_CPU_DIR (default: a folder in the target directory, so on the disk a
# run's outputs would be on; /tmp may be tmpfs elsewhere). Dealer and players share the
# machine: compare rows of the same run, not across machines.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-${HTTP_CPU_GAMES:-6}}
rounds=${2:-${HTTP_CPU_ROUNDS:-3}}
seed=${HTTP_CPU_SEED:-2024}
scenarios=${HTTP_CPU_SCENARIOS:-"default hands-file hands none"}
variants=${HTTP_CPU_VARIANTS:-"fresh deleted"}

cargo build --release --locked -q -p lean-poker-dealer --bin dealer -p team --bin player
# shellcheck source=dealer/benches/lib.sh
. dealer/benches/lib.sh
release=$(release_dir)
dealers=("new=$release/dealer")
if [ -n "${HTTP_CPU_BASE:-}" ]; then dealers=("base=$HTTP_CPU_BASE" "${dealers[@]}"); fi
if [ -n "${HTTP_CPU_OLD:-}" ]; then dealers=("old=$HTTP_CPU_OLD" "${dealers[@]}"); fi

base=${HTTP_CPU_DIR:-$(dirname "$release")/http_cpu}
rm -rf "$base"
mkdir -p "$base"
trap 'cleanup; rm -rf "$base"' EXIT

player_flags=()
for i in 2 3 4 5 6 7; do
    PORT=9300 PLAYER_HOST=127.0.0.$i PLAYER_WORKERS=1 RUST_LOG=warn \
        "$release/player" >/dev/null 2>&1 &
    pids+=("$!")
    player_flags+=(--player "p$i=http://127.0.0.$i:9300/")
done
sleep 1

outputs_of() {
    case $1 in
    default) ;;
    hands-file) echo "--outputs log,requests,hands-file,players,decks" ;;
    hands) echo "--outputs log,requests,hands,players,decks" ;;
    none) echo "--outputs none" ;;
    *) echo "unknown scenario $1" >&2 && exit 2 ;;
    esac
}

# The folder the "after delete" variant copies and deletes: a per-hand run of the same games.
litter=$base/litter
"${dealers[-1]#*=}" run "${player_flags[@]}" --games "$games" --seed "$seed" --parallel 1 \
    --outputs log,requests,hands,players,decks --out "$litter" -q >/dev/null
echo "the 'after delete' litter: $(find "$litter" -type f | wc -l) files, $(du -sh "$litter" | cut -f1)"

# measure DEALER_NAME DEALER SCENARIO VARIANT ROUND: one run, one line in $base/rows.
measure() {
    local name=$1 dealer=$2 scenario=$3 variant=$4 round=$5
    local out=$base/runs/$name-$scenario-$variant-$round
    if [ "$variant" = deleted ]; then
        cp -r "$litter" "$base/scratch"
        rm -rf "$base/scratch"
    fi
    # shellcheck disable=SC2046 # the flags are words
    python3 - "$out" "$name" "$scenario" "$variant" "$dealer" run "${player_flags[@]}" \
        --games "$games" --seed "$seed" --parallel 1 $(outputs_of "$scenario") \
        --out "$out" -q >>"$base/rows" <<'EOF'
# Runs the dealer and reads its CPU time from wait4 (microseconds; GNU time prints 10 ms).
import json, os, subprocess, sys, time
out, name, scenario, variant, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
start = time.monotonic()
child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - start
if status != 0:
    sys.exit(f"{name} {scenario}: the dealer exited with {status}")
games = json.load(open(os.path.join(out, "results.json")))["games"]
hands = sum(g["hands_played"] for g in games)
requests = sum(g["requests"] for g in games)
print(json.dumps({"dealer": name, "scenario": scenario, "variant": variant,
    "hands": hands, "requests": requests, "hands_s": hands / wall,
    "cpu_us": (usage.ru_utime + usage.ru_stime) * 1e6 / requests,
    "sys_us": usage.ru_stime * 1e6 / requests}))
EOF
    # Only the "after delete" runs see a just-deleted folder: earlier runs' outputs stay.
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for ((round = 1; round <= rounds; round++)); do
    for scenario in $scenarios; do
        for variant in $variants; do
            if [ "$scenario" = none ] && [ "$variant" = deleted ]; then continue; fi
            for entry in "${dealers[@]}"; do
                measure "${entry%%=*}" "${entry#*=}" "$scenario" "$variant" "$round"
            done
        done
    done
    # Keep the disk from filling over many rounds; the next round starts on a quiet disk.
    rm -rf "$base/runs"
    sleep 2
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

[ -s "$base/rows" ] && python3 - "$base/rows" "$games" "$rounds" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"{sys.argv[2]} games a run, {sys.argv[3]} rounds, median (min-max)")
print(f"{'dealer':<6} {'outputs':<11} {'disk':<13} {'hands':>6} {'req/hand':>8} "
      f"{'hands/s':>22} {'CPU us/request':>22} {'of it sys':>10}")
keys = []
for row in rows:
    key = (row["dealer"], row["scenario"], row["variant"])
    if key not in keys:
        keys.append(key)
def spread(values, digits):
    return (f"{statistics.median(values):,.{digits}f} "
            f"({min(values):,.{digits}f}-{max(values):,.{digits}f})")
for key in sorted(keys, key=lambda k: (k[1], k[2], k[0])):
    mine = [r for r in rows if (r["dealer"], r["scenario"], r["variant"]) == key]
    disk = "fresh" if key[2] == "fresh" else "after delete"
    print(f"{key[0]:<6} {key[1]:<11} {disk:<13} {mine[0]['hands']:>6} "
          f"{mine[0]['requests'] / mine[0]['hands']:>8.1f} "
          f"{spread([r['hands_s'] for r in mine], 0):>22} "
          f"{spread([r['cpu_us'] for r in mine], 1):>22} "
          f"{statistics.median(r['sys_us'] for r in mine):>9.1f}")
EOF
echo "load average at the start: $load_start; at the end: $load_end"

if [ -n "${HTTP_CPU_COUNT:-}" ]; then
    echo
    echo "counted over $HTTP_CPU_COUNT games (callgrind: user-space instructions; strace -c -f: system calls)"
    printf '%-6s %-11s %9s %14s %10s  %s\n' dealer outputs requests "instr/request" "calls/req" "calls per request by kind (>= 0.05)"
    for scenario in $scenarios; do
        for entry in "${dealers[@]}"; do
            name=${entry%%=*} dealer=${entry#*=}
            # shellcheck disable=SC2046 # the flags are words
            env -u SSL_CERT_FILE valgrind --tool=callgrind --callgrind-out-file="$base/callgrind" \
                "$dealer" run "${player_flags[@]}" --games "$HTTP_CPU_COUNT" --seed "$seed" \
                --parallel 1 $(outputs_of "$scenario") --out "$base/count-cg-$name-$scenario" -q \
                >/dev/null 2>"$base/callgrind.err"
            # shellcheck disable=SC2046
            env -u SSL_CERT_FILE strace -c -f -o "$base/strace" \
                "$dealer" run "${player_flags[@]}" --games "$HTTP_CPU_COUNT" --seed "$seed" \
                --parallel 1 $(outputs_of "$scenario") --out "$base/count-st-$name-$scenario" -q \
                >/dev/null
            python3 - "$base" "$name" "$scenario" <<'EOF'
import json, re, sys
base, name, scenario = sys.argv[1:4]
def requests(run):
    games = json.load(open(f"{base}/{run}/results.json"))["games"]
    return sum(g["requests"] for g in games)
text = open(f"{base}/callgrind.err").read()
instructions = int(re.search(r"I\s+refs:\s+([\d,]+)", text).group(1).replace(",", ""))
cg_requests = requests(f"count-cg-{name}-{scenario}")
st_requests = requests(f"count-st-{name}-{scenario}")
calls = {}
for line in open(f"{base}/strace"):
    fields = line.split()
    if len(fields) >= 5 and fields[0][0].isdigit() and fields[-1] != "total":
        calls[fields[-1]] = int(fields[3])
total = sum(calls.values()) / st_requests
kinds = ", ".join(f"{kind} {count / st_requests:.2f}"
                  for kind, count in sorted(calls.items(), key=lambda kv: -kv[1])
                  if count / st_requests >= 0.05)
print(f"{name:<6} {scenario:<11} {cg_requests:>9} {instructions / cg_requests:>14,.0f} "
      f"{total:>10.2f}  {kinds}")
EOF
        done
    done
fi

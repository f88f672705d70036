#!/usr/bin/env python3
"""Instructions per bet_request of a player binary under callgrind (user space).

Usage: player/sdk/benches/callgrind_bet.py BINARY PORT [RUST_LOG] [ACTION]
(RUST_LOG defaults to warn; ACTION is bet_request, the default, or check)

Starts BINARY under valgrind on 127.0.0.1:PORT with one worker, sends 100 warm-up bet_requests
(capture 09, 6 players, preflop) over one keep-alive connection, dumps the counters, sends 500
more, dumps again, stops the player, and prints the second dump's total over 500: start-up,
warm-up and shutdown cancel out. Instruction counts do not depend on the machine's load, so two
binaries can be compared on a busy machine; run each a few times (thread hand-offs vary).
"""
import glob, http.client, os, signal, subprocess, sys, time, urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

binary, port = sys.argv[1], int(sys.argv[2])
log = sys.argv[3] if len(sys.argv) > 3 else "warn"
action = sys.argv[4] if len(sys.argv) > 4 else "bet_request"
if action not in ("bet_request", "check"):
    sys.exit(f"ACTION must be bet_request or check, not {action!r}")
state = open(ROOT / "shared/tests/fixtures/gamestates/09-preflop-r0-6-seats-first-request.json").read()
body = (urllib.parse.urlencode({"action": "bet_request", "game_state": state})
        if action == "bet_request" else "action=check")
out = f"/tmp/callgrind-bet-{port}"
for f in glob.glob(out + "*"):
    os.remove(f)
env = dict(os.environ, PORT=str(port), PLAYER_HOST="127.0.0.1", RUST_LOG=log, PLAYER_WORKERS="1")
proc = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", binary],
                        env=env, stderr=subprocess.DEVNULL)
for _ in range(600):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/")
        conn.getresponse().read()
        break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit("player did not start")

def send(n):
    for _ in range(n):
        conn.request("POST", "/", body, {"Content-Type": "application/x-www-form-urlencoded"})
        answer = conn.getresponse().read()
        assert answer.strip().isdigit() if action == "bet_request" else answer == b"OK", answer

send(100)
subprocess.run(["callgrind_control", "-d", str(proc.pid)], check=True, stdout=subprocess.DEVNULL)
send(500)
subprocess.run(["callgrind_control", "-d", str(proc.pid)], check=True, stdout=subprocess.DEVNULL)
conn.close()
proc.send_signal(signal.SIGTERM)
proc.wait(timeout=120)

def total(path):
    for line in open(path):
        if line.startswith("totals:") or line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"no totals in {path}")

# `-d` dumps and zeroes: NAME.PID.1 is start-up and the warm-up, NAME.PID.2 exactly the 500
# measured requests, NAME.PID the shutdown.
second = [p for p in glob.glob(out + "*") if p.endswith(".2")]
print(f"{binary}: per {action} {total(second[0]) / 500:.0f} instructions (log {log})")

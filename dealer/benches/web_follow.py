#!/usr/bin/env python3
"""Driver of dealer/benches/web_follow.sh (see there): plays the ways, alternated, and counts
each process's CPU apart.

Usage: web_follow.py BIN_DIR GAMES ROUNDS FOLLOWERS [PAUSE=4]
PAUSE is the followers' wait between games (4 s as the page; 0 follows every game it can).
DEALER=path/to/dealer measures another build of the dealer (e.g. a saved one, for A/B) with the
players of BIN_DIR.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BIN, GAMES, ROUNDS, FOLLOWERS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
PAUSE = sys.argv[5] if len(sys.argv) > 5 else "4"
HERE = os.path.dirname(os.path.abspath(__file__))
DEALER = os.environ.get("DEALER", f"{BIN}/dealer")
TICK = os.sysconf("SC_CLK_TCK")
WAYS = ["plain", "live", "followed"]


def cpu_seconds(pid):
    """User + system CPU seconds of a running process (from /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def hands_of(folder):
    with open(os.path.join(folder, "results.json")) as results:
        games = json.load(results)["games"]
    return sum(game.get("hands_played") or game.get("result", {}).get("hands_played", 0) for game in games)


def play(players, flags, out):
    """Runs `dealer run`; returns (wall seconds, the dealer's CPU seconds)."""
    command = [DEALER, "run", "--quiet", "--reproducible", "--seed", "7", "--games", str(GAMES)]
    start = time.monotonic()
    child = subprocess.Popen(command + players + flags + ["--out", out], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"dealer run failed ({child.returncode})")
    return wall, usage.ru_utime + usage.ru_stime


def serve(folder):
    """Starts `dealer serve --out folder`; returns the process and its URL."""
    server = subprocess.Popen(
        [DEALER, "serve", "--out", folder, "--bind", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for line in server.stdout:
        match = re.search(r" at (http://\S+)", line)
        if match:
            return server, match.group(1).rstrip("/")
    sys.exit("dealer serve did not start")


def main():
    work = tempfile.mkdtemp(prefix="web-follow-")
    player_procs, players = [], []
    try:
        for port, kind in enumerate(["raiser", "calling-station", "random", "folder", "all-in"], 19301):
            env = dict(os.environ, PORT=str(port))
            player_procs.append(
                subprocess.Popen([f"{BIN}/{kind}"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
            players += ["--player", f"{kind}=http://127.0.0.1:{port}/"]
        time.sleep(1)
        rows = {way: [] for way in WAYS}
        for round_ in range(1, ROUNDS + 1):
            # Each round starts with a different way, so a drift in the machine's load hits
            # every way alike.
            shift = (round_ - 1) % len(WAYS)
            for way in WAYS[shift:] + WAYS[:shift]:
                players_before = sum(cpu_seconds(p.pid) for p in player_procs)
                served = os.path.join(work, f"served-{way}-{round_}")
                os.makedirs(served)
                out = os.path.join(served, "run")
                server = clients = None
                if way == "followed":
                    server, url = serve(served)
                    stop = os.path.join(work, f"stop-{round_}")
                    clients = subprocess.Popen(
                        [sys.executable, os.path.join(HERE, "web_follow_clients.py"), url, "run", str(FOLLOWERS), stop, PAUSE],
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                    serve_before = cpu_seconds(server.pid)
                wall, dealer_cpu = play(players, [] if way == "plain" else ["--live"], out)
                row = {"round": round_, "hands": hands_of(out), "wall": wall, "dealer": dealer_cpu}
                row["players"] = sum(cpu_seconds(p.pid) for p in player_procs) - players_before
                if server:
                    row["serve"] = cpu_seconds(server.pid) - serve_before
                    open(stop, "w").close()
                    row["clients"] = json.loads(clients.communicate()[0])
                    server.terminate()
                    server.wait()
                row["rate"] = row["hands"] / wall
                rows[way].append(row)
                per_hand = lambda seconds: f"{seconds / row['hands'] * 1e6:.0f}"
                line = (
                    f"round {round_} {way:8}: {row['rate']:5.0f} hands/s ({row['hands']} hands, {wall:.2f} s); "
                    f"CPU us/hand: dealer {per_hand(dealer_cpu)}, players {per_hand(row['players'])}"
                )
                if server:
                    clients_row = row["clients"]
                    line += (
                        f", serve {per_hand(row['serve'])}, followers {per_hand(clients_row['cpu_s'])} "
                        f"({clients_row['games']} games, {clients_row['entries']} entries, "
                        f"{clients_row['requests']} requests, {clients_row['errors']} errors)"
                    )
                print(line, flush=True)
        plain = statistics.median(row["rate"] for row in rows["plain"])
        for way in WAYS:
            median = statistics.median(row["rate"] for row in rows[way])
            dealer = statistics.median(row["dealer"] / row["hands"] for row in rows[way]) * 1e6
            extra = ""
            if way == "followed":
                serve_cpu = statistics.median(row["serve"] / row["hands"] for row in rows[way]) * 1e6
                extra = f", serve {serve_cpu:.0f} us/hand"
            print(
                f"median {way:8}: {median:5.0f} hands/s ({(median / plain - 1) * 100:+.1f}% of plain); "
                f"dealer {dealer:.0f} us/hand{extra}"
            )
    finally:
        for proc in player_procs:
            proc.terminate()
        shutil.rmtree(work, ignore_errors=True)


main()

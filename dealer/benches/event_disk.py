#!/usr/bin/env python3
"""Whether `--disk-budget` holds (issue 34): run by event_disk.sh, which builds the release
binaries first.

For each budget, a fresh event of SDK player processes (the release `player`, over HTTP on
loopback) and house bots, 12 entrants by default (two tables of six), every other setting at
its default (pause 500 ms, `compress_after` 20), plays MINUTES with `--disk-budget BUDGET`.
Every SAMPLE_EVERY seconds the event's folder is measured as `du` counts it (st_blocks * 512,
everything under it), and the folders of the games being played at that moment (the
database's `running` games). Reported:

- **peak**: the most the folder held at a sample, and what the games in play held then; the
  budget holds when the peak is within it (the server holds back room for a round's games: the
  tables times the largest game written so far, so a game larger than every one before it can
  pass the budget by its excess);
- **what the budget forced**: games compressed and games whose files were deleted early (what
  the event page says), the files' states at the end;
- **replays**: every finished game through `dealer replay` (its files, or its record when they
  are gone): the count that came out identical.

Usage: event_disk.py DEALER PLAYER [minutes=5] [budgets=100MB,50MB] [sdk_players=6] [bots=6]
"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

from event_field import free_port, start_field, stop_and_remove, stop_server

BOT_KINDS = ["equity", "random", "calling-station", "raiser", "equity", "folder"]
SAMPLE_EVERY = 1.0


def disk(path):
    """Disk blocks of a file or folder (and everything under it), in bytes; what vanishes
    while it is walked counts for nothing."""
    try:
        stat = os.lstat(path)
    except FileNotFoundError:
        return 0
    total = stat.st_blocks * 512
    if os.path.isdir(path) and not os.path.islink(path):
        try:
            names = os.listdir(path)
        except FileNotFoundError:
            return total
        for name in names:
            total += disk(os.path.join(path, name))
    return total


def query(data, sql):
    db = sqlite3.connect(f"file:{os.path.join(data, 'event.sqlite')}?mode=ro", uri=True,
                         timeout=10)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def mb(bytes_):
    return f"{bytes_ / 1e6:,.1f} MB"


def parse_size(text):
    units = {"GB": 10**9, "MB": 10**6, "KB": 10**3}
    for unit, factor in units.items():
        if text.upper().endswith(unit):
            return int(float(text[: -len(unit)]) * factor)
    return int(text)


def replay_all(dealer, data):
    """Every finished game through `dealer replay`: (identical, total, first failures)."""
    games = [n for (n,) in query(
        data, "SELECT number FROM games WHERE state = 'finished' ORDER BY number")]
    identical, failures = 0, []
    for number in games:
        done = subprocess.run(
            [dealer, "replay", "--quiet", os.path.join(data, "games", f"game-{number}")],
            capture_output=True, text=True, env=dict(os.environ, RUST_LOG="warn"))
        said = done.stdout + done.stderr
        if done.returncode == 0 and "Identical" in said:
            identical += 1
        elif len(failures) < 3:
            failures.append(f"game {number}: {said.strip()[:300]}")
    return identical, len(games), failures


def run_budget(dealer, player, budget_text, minutes, sdk_players, bots):
    budget = parse_size(budget_text)
    work = tempfile.mkdtemp(prefix="event-disk-")
    data = os.path.join(work, "data")
    log = os.path.join(work, "serve.log")
    children = []
    try:
        config = ["seed = 34"] + start_field(player, sdk_players, bots, BOT_KINDS, children)
        config_path = os.path.join(work, "disk.toml")
        with open(config_path, "w") as file:
            file.write("\n".join(config) + "\n")
        time.sleep(1)  # the players start listening
        print(f"--disk-budget {budget_text}: {sdk_players} SDK players + {bots} house bots, "
              f"{minutes:g} min; load average {os.getloadavg()[0]:.1f}", flush=True)
        server = subprocess.Popen(
            [dealer, "serve", "--config", config_path, "--data", data, "--bind",
             f"127.0.0.1:{free_port()}", "--quiet", "--disk-budget", budget_text],
            stdout=subprocess.DEVNULL, stderr=open(log, "a"))
        started = time.time()
        peak, peak_in_play, peak_at, samples, over = 0, 0, 0.0, 0, 0
        peak_without_play = 0
        while time.time() - started < minutes * 60:
            time.sleep(SAMPLE_EVERY)
            if server.poll() is not None:
                sys.exit(f"the server exited ({server.returncode}): see {log}")
            if not os.path.exists(os.path.join(data, "event.sqlite")):
                continue
            try:
                running = [n for (n,) in query(
                    data, "SELECT number FROM games WHERE state = 'running'")]
            except sqlite3.Error:
                continue
            in_play = sum(disk(os.path.join(data, "games", f"game-{n}")) for n in running)
            total = disk(data)
            samples += 1
            over += total > budget
            peak_without_play = max(peak_without_play, total - in_play)
            if total > peak:
                peak, peak_in_play, peak_at = total, in_play, time.time() - started
        stop_server(server)
        (games, first, last), = query(
            data, "SELECT COUNT(*), MIN(started_at), MAX(ended_at) FROM games "
                  "WHERE state = 'finished'")
        pace = games / ((last - first) / 60000) if games and last > first else 0
        states = dict(query(data, "SELECT files, COUNT(*) FROM games GROUP BY files"))
        meta = dict(query(data, "SELECT key, value FROM meta WHERE key LIKE 'budget_%' "
                                "OR key = 'largest_game_bytes'"))
        print(f"  played: {games} games, {pace:.1f} a minute; files {states}")
        print(f"  peak: {mb(peak)} at {peak_at:.0f} s ({peak / budget:.0%} of the budget), "
              f"{mb(peak_in_play)} of it in the games being played; without them at most "
              f"{mb(peak_without_play)}; {over} of {samples} samples over the budget")
        if "largest_game_bytes" in meta:
            print(f"  the budget compressed {meta.get('budget_compressed_early', 0)} games early "
                  f"and deleted the files of {meta.get('budget_dropped_early', 0)} recent ones; "
                  f"largest game written {mb(int(meta['largest_game_bytes']))}")
        else:
            print("  (a build that does not count what the budget forced)")
        identical, total, failures = replay_all(dealer, data)
        print(f"  replays: {identical} of {total} finished games identical", flush=True)
        for failure in failures:
            print(f"    {failure}")
        return peak <= budget and identical == total
    finally:
        stop_and_remove(children, work, "EVENT_DISK_KEEP")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    dealer, player = sys.argv[1], sys.argv[2]
    minutes = float(sys.argv[3]) if len(sys.argv) > 3 else 5
    budgets = sys.argv[4].split(",") if len(sys.argv) > 4 else ["100MB", "50MB"]
    sdk_players = int(sys.argv[5]) if len(sys.argv) > 5 else 6
    bots = int(sys.argv[6]) if len(sys.argv) > 6 else 6
    held = [run_budget(dealer, player, budget, minutes, sdk_players, bots)
            for budget in budgets]
    if not all(held):
        sys.exit("a budget was exceeded or a game did not replay identically")


if __name__ == "__main__":
    main()

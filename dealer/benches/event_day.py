#!/usr/bin/env python3
"""The pace of an event and the disk it keeps per game, at default settings, projected to an
8-hour day (issue 26): run by event_day.sh, which builds the release binaries first.

Plays an event as the issue's trial did: SDK player processes (the release `player`, over HTTP
on loopback) and house bots, 12 entrants by default, so two tables of six, every other setting
at its default (pause 500 ms, the default outputs, `compress_after` 20, the 2 GB budget). Then:

1. **pace**: finished games a minute, from the first game's start to the last one's end (the
   database's times), over MINUTES of play;
2. **what is kept per game when space is short**: the server is started again on the same
   folder with the smallest disk budget (50 MB) until retention has thinned every game it may
   (all but the newest `compress_after`; at most THIN_SECONDS); what the folder then takes,
   less those newest
   games' folders, divided by the games, is the disk a game keeps for good: its compact record
   in the database (this build), or its compact folder and database rows (a build without
   records). Also printed: the record's bytes (where the database has them) and a compressed
   and a raw game folder's disk.

The projection: games in 8 hours at that pace; what keeping every one of them takes; the
room the 2 GB budget leaves for full logs (compressed, `compress_after` newest raw).

Usage: event_day.py DEALER PLAYER [minutes=5] [sdk_players=6] [bots=6]

DEALER is the `dealer` binary to measure (another build's, to compare: the branch point's, say),
PLAYER the release `player`. "disk" is st_blocks * 512, as `du` counts it.
"""
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

from event_field import free_port, start_field, stop_and_remove, stop_server

BOT_KINDS = ["equity", "random", "calling-station", "raiser", "equity", "folder"]
BUDGET = 2_000_000_000
HEADROOM = 20
THIN_BUDGET = 50_000_000
THIN_SECONDS = 180
COMPRESS_AFTER = 20
DAY_MINUTES = 8 * 60


def disk(path):
    """Disk blocks of a file or folder (and everything under it), in bytes."""
    if not os.path.lexists(path):
        return 0
    stat = os.lstat(path)
    total = stat.st_blocks * 512
    if os.path.isdir(path) and not os.path.islink(path):
        for name in os.listdir(path):
            total += disk(os.path.join(path, name))
    return total


def serve(dealer, config, data, log, *extra):
    return subprocess.Popen(
        [dealer, "serve", "--config", config, "--data", data, "--bind",
         f"127.0.0.1:{free_port()}", "--quiet", *extra],
        stdout=subprocess.DEVNULL, stderr=open(log, "a"))


def stop(server):
    stop_server(server)


def query(data, sql):
    db = sqlite3.connect(f"file:{os.path.join(data, 'event.sqlite')}?mode=ro", uri=True)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def has_table(data, name):
    return bool(query(data, f"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '{name}'"))


def mb(bytes_):
    return f"{bytes_ / 1e6:,.1f} MB"


def kb(bytes_):
    return f"{bytes_ / 1e3:,.1f} KB"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    dealer, player = sys.argv[1], sys.argv[2]
    minutes = float(sys.argv[3]) if len(sys.argv) > 3 else 5
    sdk_players = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    bots = int(sys.argv[5]) if len(sys.argv) > 5 else 6
    work = tempfile.mkdtemp(prefix="event-day-")
    data = os.path.join(work, "data")
    log = os.path.join(work, "serve.log")
    children = []
    try:
        config = ["seed = 26"]
        config += start_field(player, sdk_players, bots, BOT_KINDS, children)
        config_path = os.path.join(work, "day.toml")
        with open(config_path, "w") as file:
            file.write("\n".join(config) + "\n")
        time.sleep(1)  # the players start listening
        print(f"{dealer}: {sdk_players} SDK players + {bots} house bots, default settings, "
              f"{minutes:g} min; load average {os.getloadavg()[0]:.1f}", flush=True)
        server = serve(dealer, config_path, data, log)
        time.sleep(minutes * 60)
        stop(server)
        (games, hands, first, last), = query(
            data, "SELECT COUNT(*), SUM(hands), MIN(started_at), MAX(ended_at) FROM games "
                  "WHERE state = 'finished'")
        pace = games / ((last - first) / 60000)
        raw = [disk(os.path.join(data, "games", f"game-{n}")) for (n,) in query(
            data, "SELECT number FROM games WHERE state = 'finished' AND files = 'kept' "
                  "ORDER BY number DESC LIMIT 10")]
        compressed = [bytes_ for (bytes_,) in query(
            data, "SELECT disk_bytes FROM games WHERE files = 'compressed' "
                  "AND disk_bytes IS NOT NULL")]
        folder_before = disk(data)
        print(f"played: {games} games, {hands / games:.1f} hands a game, "
              f"{pace:.1f} games a minute; folder {mb(folder_before)}")

        database = sum(disk(os.path.join(data, "event.sqlite" + s)) for s in ("", "-wal", "-shm"))
        record = None
        if has_table(data, "game_records"):
            (record,), = query(data, "SELECT AVG(LENGTH(record)) FROM game_records")
        # Thin: a budget of half the folder, so retention makes old games as small as it may:
        # compact folders (a build without records), or no folder at all (with records).
        budget = max(THIN_BUDGET, folder_before // 2)
        server = serve(dealer, config_path, data, log, "--disk-budget", f"{budget}B")
        started = time.time()
        while time.time() - started < THIN_SECONDS:
            time.sleep(2)
            if disk(data) < budget:
                break
        thin_time = time.time() - started
        stop(server)
        (games_now,), = query(data, "SELECT COUNT(*) FROM games WHERE state <> 'running'")
        states = dict(query(data, "SELECT files, COUNT(*) FROM games GROUP BY files"))
        compact = [bytes_ for (bytes_,) in query(
            data, "SELECT disk_bytes FROM games WHERE files = 'compact' AND disk_bytes > 0")]
        compact_game = statistics.mean(compact) if compact else 0
        # What a game keeps for good: its rows (and record) in the database, and its compact
        # folder where the build keeps one.
        per_game = database / games + compact_game
        print(f"thinned ({mb(budget)} budget, {thin_time:.0f} s): {games_now} games, files "
              f"{json.dumps(states)}")
        print(f"kept per game for good: {kb(per_game)} = database {kb(database / games)}"
              + (f" (its record {record:,.0f} B)" if record else "")
              + (f" + compact folder {kb(compact_game)}" if compact_game else ""))
        raw_game = statistics.median(raw) if raw else 0
        compressed_game = statistics.median(compressed) if compressed else 0
        print(f"a game's folder: raw {kb(raw_game)}, compressed {kb(compressed_game)} (medians)")

        day_games = pace * DAY_MINUTES
        day_kept = day_games * per_game
        usable = BUDGET - BUDGET // HEADROOM
        recent = COMPRESS_AFTER * raw_game
        room = usable - day_kept - recent
        print(f"8 hours: {day_games:,.0f} games; every game kept: {mb(day_kept)} "
              f"({day_kept / usable:.0%} of the {mb(usable)} a 2 GB budget fills before "
              f"thinning)")
        if room > 0 and compressed_game:
            print(f"  room left for full logs: {mb(room)}, the newest "
                  f"{room / compressed_game:,.0f} games' compressed logs "
                  f"(+ the newest {COMPRESS_AFTER} raw)")
        else:
            share = max(0.0, (usable - recent) / day_kept) if day_kept else 1.0
            print(f"  the budget keeps the newest {min(share, 1.0):.0%} of the day's games; "
                  f"the oldest {max(0.0, 1 - share):.0%} are pruned")
    finally:
        stop_and_remove(children, work, "EVENT_DAY_KEEP")


if __name__ == "__main__":
    main()

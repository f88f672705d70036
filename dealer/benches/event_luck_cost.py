#!/usr/bin/env python3
"""What valuing the luck of the cards costs `dealer serve` (issue 32): run by
event_luck_cost.sh, which builds the release binaries first.

Plays an event at the default pace (pause_ms and table_size left to the settings' defaults: 500 ms
between rounds, tables of 10) with
house bots of the real field's profiles and the house's stronger kinds (and, if asked, SDK
player processes over HTTP on loopback), until GAMES games have finished. Every SAMPLE_EVERY
seconds it reads, from /proc:

- the CPU (utime + stime) of the thread named "event-luck" (/proc/PID/task/*/comm, stat) and
  of the whole server (/proc/PID/stat: every thread, the ended ones too);
- the server's VmRSS;
- the games finished and those waiting to be valued (the database, read-only: finished games
  whose `games.luck` is still NULL).

It prints the valuer's share of the server's CPU from the first checkpoint (FIRST games, once
the event's start is behind it) to the last, its CPU per game valued, the most games ever
waiting to be valued (a round never waits for the valuer: the scheduler only notifies it; a
backlog above one round's games would mean it falls behind), and RSS at the first checkpoint,
at the end and the highest seen; every CHECKPOINT_EVERY games, the median RSS of the last
RSS_WINDOW seconds (freed memory goes back to the OS in steps, so one instant says little).

Usage: event_luck_cost.py RELEASE_DIR [games=5000] [bots=40] [sdk_players=0]
"""
import os
import sqlite3
import statistics
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from event_field import free_port, rss_kib, start_field, stop_children

BOT_KINDS = ["real-a", "real-b", "real-c", "real-d", "tight", "loose", "push-fold", "solid"]
SAMPLE_EVERY = 0.5
FIRST = 100
CHECKPOINT_EVERY = 500
RSS_WINDOW = 10.0
TICK = os.sysconf("SC_CLK_TCK")


def cpu_ticks(stat_path):
    with open(stat_path) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def luck_thread_ticks(pid):
    """The "event-luck" thread's CPU ticks, None before it exists."""
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/comm") as comm:
                if comm.read().strip() == "event-luck":
                    return cpu_ticks(f"/proc/{pid}/task/{task}/stat")
        except OSError:
            continue
    return None


def game_counts(database):
    """Finished games, and those of them still waiting to be valued."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        return connection.execute(
            "SELECT COUNT(*), COALESCE(SUM(luck IS NULL), 0) FROM games WHERE state = 'finished'"
        ).fetchone()
    finally:
        connection.close()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    release = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    bots = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    sdk_players = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    work = tempfile.mkdtemp(prefix="event-luck-cost-")
    children = []
    try:
        # 500 MB: retention runs from about game 1,800, as late in a long day;
        # EVENT_LUCK_COST_BUDGET=off shows the valuer's memory without retention's.
        budget = os.environ.get("EVENT_LUCK_COST_BUDGET", "500 MB")
        config = ["seed = 32", f'disk_budget = "{budget}"']
        config += start_field(os.path.join(release, "player"), sdk_players, bots, BOT_KINDS,
                              children)
        config_path = os.path.join(work, "cost.toml")
        with open(config_path, "w") as file:
            file.write("\n".join(config) + "\n")
        time.sleep(1)  # the players start listening
        port = free_port()
        data = os.path.join(work, "data")
        server = subprocess.Popen(
            [os.path.join(release, "dealer"), "serve", "--config", config_path, "--data", data,
             "--bind", f"127.0.0.1:{port}", "--quiet"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "serve.log"), "w"))
        children.append(server)
        pid = server.pid
        print(f"{sdk_players} SDK players over HTTP + {bots} house bots ({', '.join(BOT_KINDS)}), "
              f"default pace and tables; until {games} games", flush=True)
        database = os.path.join(data, "event.sqlite")
        started = time.time()
        first = None  # (games, valued, luck ticks, server ticks, time)
        most_waiting, rss_max, rss_first, last = 0, 0, None, None
        samples = 0
        recent_rss = []  # (time, KiB) of the last RSS_WINDOW seconds
        next_checkpoint = CHECKPOINT_EVERY
        while True:
            if server.poll() is not None:
                sys.exit(f"the server exited ({server.returncode}); see {work}/serve.log")
            time.sleep(SAMPLE_EVERY)
            if not os.path.exists(database):
                continue
            try:
                finished, waiting = game_counts(database)
                luck = luck_thread_ticks(pid)
                total = cpu_ticks(f"/proc/{pid}/stat")
                rss = rss_kib(pid)
            except (sqlite3.OperationalError, OSError, RuntimeError):
                continue
            if luck is None:
                continue
            samples += 1
            rss_max = max(rss_max, rss)
            now = time.time()
            recent_rss = [(t, r) for t, r in recent_rss if t >= now - RSS_WINDOW] + [(now, rss)]
            if finished >= next_checkpoint:
                median = statistics.median(r for _, r in recent_rss)
                print(f"games {finished:5}: VmRSS median of the last {RSS_WINDOW:.0f} s "
                      f"{median / 1024:5.1f} MiB; server CPU {total / TICK:6.1f} s, event-luck "
                      f"{luck / TICK:5.1f} s; waiting to be valued now {waiting}", flush=True)
                next_checkpoint += CHECKPOINT_EVERY
            if first is None and finished >= FIRST:
                first = (finished, finished - waiting, luck, total, time.time())
                rss_first = rss
            if first is not None:
                most_waiting = max(most_waiting, waiting)
            last = (finished, finished - waiting, luck, total, time.time(), rss, waiting)
            if finished >= games:
                break
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
        abandoned = connection.execute(
            "SELECT COUNT(*) FROM games WHERE state = 'abandoned'").fetchone()[0]
        # What each finished game adds to the database, by table with its indexes: the
        # valuer's hand notes beside the game's own rows and record.
        sizes = {}
        for name, table, size in connection.execute(
                "SELECT d.name, COALESCE(m.tbl_name, d.name), SUM(d.pgsize) FROM dbstat d "
                "LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY d.name"):
            sizes[table] = sizes.get(table, 0) + size
        connection.close()
        finished, valued, luck, total, at, rss, waiting = last
        luck_s = (luck - first[2]) / TICK
        total_s = (total - first[3]) / TICK
        games_valued = valued - first[1]
        wall = at - first[4]
        print(f"games {first[0]} to {finished} ({games_valued} valued) in {wall:.0f} s "
              f"({(finished - first[0]) / wall * 3600:.0f} games an hour, "
              f"{abandoned} abandoned in all)")
        print(f"server CPU {total_s:.1f} s, event-luck thread {luck_s:.1f} s: "
              f"{luck_s / total_s:.1%} of the server's CPU; "
              f"{luck_s * 1000 / max(games_valued, 1):.2f} ms of valuer CPU a game")
        print(f"games waiting to be valued: at most {most_waiting} (sampled every "
              f"{SAMPLE_EVERY} s, {samples} samples), {waiting} at the end")
        print(f"VmRSS: {rss_first / 1024:.1f} MiB at {first[0]} games, {rss / 1024:.1f} MiB at "
              f"{finished}, at most {rss_max / 1024:.1f} MiB")
        largest = sorted(sizes.items(), key=lambda item: -item[1])[:6]
        print("database a finished game, by table with its indexes: " + ", ".join(
            f"{table} {size / finished / 1024:.2f} KiB" for table, size in largest)
            + f"; in all {sum(sizes.values()) / finished / 1024:.2f} KiB")
        print(f"whole run {time.time() - started:.0f} s; load {os.getloadavg()[0]:.1f}")
    finally:
        stop_children(children)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

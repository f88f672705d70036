#!/usr/bin/env python3
"""Memory and file handles of `dealer serve` over a long event (issue 17): run by
event_soak.sh, which builds the release binaries first.

Plays an event in fast-forward (pause_ms = 0) with SDK player processes (the release `player`
binary, over HTTP on loopback) and house bots, more entrants than fit at one table, so several
tables play at once; a small disk budget makes retention compress, compact and prune games
the whole time, as on a long day. While it plays, a page-like client polls the leaderboard,
the games list and the chart, and opens the newest ended game's log, as the room's screen does.

Samples the server's /proc/PID/status VmRSS and number of /proc/PID/fd entries every half
second on a thread of its own (so the page-like client never pauses), and at each checkpoint
of finished games reports the last SAMPLE_WINDOW seconds: both swing with the moment (the
files of the games in play come and go with every round, and freed memory is handed back to
the OS every 10 s), so one instant says little. It fails (exit 1) when the last checkpoint's
median RSS or lowest open-file count (the handles held whatever the phase of the round: a
leak raises it) is more than 10 % above the first's; the highest are printed too.

Usage: event_soak.py RELEASE_DIR [first=500] [last=5000] [sdk_players=4] [bots=28]

SOAK_SERVER_WRAPPER, when set, is a command the server is started under (split on spaces), for
instance `heaptrack -o /tmp/serve` to see which allocations hold the memory; the samples are
still the dealer process's own (found among the wrapper's descendants).
"""
import concurrent.futures
import json
import os
import shutil
import statistics
import threading
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from event_field import free_port, rss_kib, start_field, stop_children

BOT_KINDS = ["equity", "raiser", "calling-station", "random", "folder", "all-in"]
GROWTH_LIMIT = 0.10
SAMPLE_EVERY = 0.5
SAMPLE_WINDOW = 10.0


def get(base, path, timeout=10):
    with urllib.request.urlopen(base + path, timeout=timeout) as response:
        return response.read()


def old_game(base, number):
    """Opens an older game's log, as a team looking back does: compact games' logs are
    regenerated; a pruned game's 404 is an answer too."""
    try:
        get(base, f"/api/runs/games/games/{number}/log")
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise


def rss_parts_kib(pid):
    """The anonymous (heap, stacks) and file-backed (the binary, mapped files) parts of RSS."""
    parts = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            name, _, rest = line.partition(":")
            if name in ("Rss", "Anonymous"):
                parts[name] = int(rest.split()[0])
    return parts.get("Anonymous", 0), parts.get("Rss", 0) - parts.get("Anonymous", 0)


def dealer_pid(pid, release):
    """The dealer process: `pid` itself, or (under SOAK_SERVER_WRAPPER) its descendant running
    the dealer binary."""
    dealer = os.path.realpath(os.path.join(release, "dealer"))
    queue = [pid]
    while queue:
        current = queue.pop(0)
        try:
            if os.path.realpath(f"/proc/{current}/exe") == dealer:
                return current
            with open(f"/proc/{current}/task/{current}/children") as children:
                queue += [int(child) for child in children.read().split()]
        except OSError:
            continue
    return None


def open_files(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Sampler(threading.Thread):
    """Samples a process's RSS and open files every SAMPLE_EVERY seconds."""

    def __init__(self, find_pid):
        super().__init__(daemon=True)
        self.find_pid = find_pid
        self.samples = []  # (time, rss KiB, open files)
        self.lock = threading.Lock()
        self.done = threading.Event()

    def run(self):
        while not self.done.wait(SAMPLE_EVERY):
            pid = self.find_pid()
            if pid is None:
                continue
            try:
                sample = (time.time(), rss_kib(pid), open_files(pid))
            except (OSError, RuntimeError):
                continue
            with self.lock:
                self.samples.append(sample)
                cutoff = sample[0] - 2 * SAMPLE_WINDOW
                while self.samples and self.samples[0][0] < cutoff:
                    self.samples.pop(0)

    def window(self):
        """The last SAMPLE_WINDOW seconds' RSS and open files (waiting for a full window)."""
        start = time.time()
        time.sleep(SAMPLE_WINDOW)
        with self.lock:
            recent = [s for s in self.samples if s[0] >= start]
        return [s[1] for s in recent], [s[2] for s in recent]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    release = sys.argv[1]
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    last = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    sdk_players = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    bots = int(sys.argv[5]) if len(sys.argv) > 5 else 28
    checkpoints = sorted({first, last} | {n for n in range(1000, last, 1000) if n > first})
    work = tempfile.mkdtemp(prefix="event-soak-")
    children = []
    try:
        config = ["pause_ms = 0", "table_size = 10", "seed = 17",
                  'outputs = ["log", "requests", "hands-file", "players", "decks"]']
        config += start_field(os.path.join(release, "player"), sdk_players, bots, BOT_KINDS, children)
        config_path = os.path.join(work, "soak.toml")
        with open(config_path, "w") as file:
            file.write("\n".join(config) + "\n")
        time.sleep(1)  # the players start listening
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        wrapper = os.environ.get("SOAK_SERVER_WRAPPER", "").split()
        server = subprocess.Popen(
            wrapper + [os.path.join(release, "dealer"), "serve", "--config", config_path,
             "--data", os.path.join(work, "data"), "--bind", f"127.0.0.1:{port}",
             "--disk-budget", "200 MB", "--quiet"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "serve.log"), "w"))
        children.append(server)
        print(f"{sdk_players} SDK players + {bots} house bots, tables of 10, pause 0, "
              f"disk budget 200 MB; checkpoints {checkpoints}", flush=True)
        started = time.time()
        samples = []
        pending = list(checkpoints)
        tables = 0
        dealer = {}

        def find_dealer():
            if "pid" not in dealer:
                pid = dealer_pid(server.pid, release)
                if pid is None:
                    return None
                dealer["pid"] = pid
            return dealer["pid"]

        sampler = Sampler(find_dealer)
        sampler.start()
        window = None
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        while pending or window is not None:
            if server.poll() is not None:
                sys.exit(f"the server exited ({server.returncode}); see {work}/serve.log")
            try:
                status = json.loads(get(base, "/api/event"))
                get(base, "/api/event/leaderboard")
                games = json.loads(get(base, "/api/event/games?page=1&per_page=20"))
                get(base, "/api/event/history?max_points=200")
                ended = [g for g in games.get("games", []) if g.get("state") == "finished"]
                if ended:
                    newest = ended[0]["number"]
                    get(base, f"/api/runs/games/games/{newest}/log")
                    old_game(base, max(1, newest - 400))
                tables = max(tables, len(games.get("running", [])))
            except urllib.error.HTTPError:
                raise
            except OSError:
                time.sleep(0.5)
                continue
            finished = status["games_finished"]
            pid = find_dealer()
            if window is not None and window.done():
                rss, fds = window.result()
                checkpoint, at = window_started
                window = None
                anonymous, file_backed = rss_parts_kib(pid)
                sample = (checkpoint, at, statistics.median(rss), min(fds),
                          cpu_seconds(pid), time.time() - started, max(rss), max(fds))
                samples.append(sample)
                print(f"games {at:6}: VmRSS median {sample[2] / 1024:6.1f} MiB (max "
                      f"{sample[6] / 1024:.1f}; now anonymous {anonymous / 1024:.1f}, files "
                      f"{file_backed / 1024:.1f}), open files min {sample[3]:3} max "
                      f"{sample[7]:3}, server CPU {sample[4]:7.1f} s, {sample[5]:6.0f} s "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
            if window is None and pending and finished >= pending[0] and pid is not None:
                window_started = (pending.pop(0), finished)
                window = executor.submit(sampler.window)
            time.sleep(1)
        sampler.done.set()
        executor.shutdown()
        du = subprocess.run(["du", "-sB1", os.path.join(work, "data")], capture_output=True,
                            text=True).stdout.split()[0]
        print(f"most tables seen playing at once: {tables}; event folder {int(du) / 1e6:.0f} MB "
              f"on disk (budget 200 MB)")
        (rss0, fd0), (rss1, fd1) = samples[0][2:4], samples[-1][2:4]
        rss_growth, fd_growth = rss1 / rss0 - 1, fd1 / fd0 - 1
        print(f"growth from {samples[0][1]} to {samples[-1][1]} games: median VmRSS "
              f"{rss_growth:+.1%}, lowest open files {fd_growth:+.1%} "
              f"(limit +{GROWTH_LIMIT:.0%})")
        if rss_growth > GROWTH_LIMIT or fd_growth > GROWTH_LIMIT:
            sys.exit("FAIL: the server grows over the event")
        print("ok: flat")
    finally:
        if "find_dealer" in locals() and dealer.get("pid") not in (None, server.pid):
            # Under a wrapper: the dealer itself first (a wrapper may not pass the signal on).
            try:
                os.kill(dealer["pid"], signal.SIGTERM)
            except OSError:
                pass
        stop_children(children)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""See event_hands.sh. Usage: python3 event_hands.py RELEASE_DIR [games=2000]"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from event_field import free_port, rss_kib, stop_children

KINDS = ["tight", "loose", "equity", "shover", "solid", "push-fold", "raiser"]


def cpu_seconds(pid):
    """utime + stime of a process, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM")


def serve(dealer, args, log, children):
    """Starts `dealer serve ARGS` and returns its process and base URL (from its first line)."""
    child = subprocess.Popen([dealer, "serve", *args], stdout=subprocess.PIPE,
                             stderr=open(log, "w"), text=True)
    children.append(child)
    line = child.stdout.readline()
    url = re.search(r"http://\S+", line).group(0)
    return child, url.removesuffix("event").rstrip("/") + "/"


def status(base):
    with urllib.request.urlopen(base + "api/event") as answer:
        return json.load(answer)


def download(base, pid, since):
    """One download: (games, bytes, wall s, server CPU s, server RSS KiB before and peak)."""
    rss = rss_kib(pid)
    cpu = cpu_seconds(pid)
    started = time.monotonic()
    size = 0
    with urllib.request.urlopen(f"{base}api/event/hands?since={since}") as answer:
        games = int(answer.headers["Lean-Poker-Games"])
        while chunk := answer.read(1 << 16):
            size += len(chunk)
    return games, size, time.monotonic() - started, cpu_seconds(pid) - cpu, rss, peak_kib(pid)


def arena(binary, base, target):
    """One `cargo arena --field-from BASE` run: (wall s, CPU s, max RSS KiB, its Fetched line)."""
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    started = time.monotonic()
    child = subprocess.Popen([binary, "--field-from", base, "--games", "6", "--no-save",
                              "--threads", "2"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    output = child.stdout.read()
    _, code, usage = os.wait4(child.pid, 0)
    if code != 0:
        raise RuntimeError(f"cargo arena failed: {output}")
    fetched = next(line for line in output.splitlines() if line.startswith("Fetched"))
    return (time.monotonic() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
            fetched)


def main():
    release = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    dealer = os.path.join(release, "dealer")
    children = []
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "event")
        config = os.path.join(work, "event.toml")
        lines = ["seed = 39", "pause_ms = 0", "recheck_ms = 1000", "table_size = 7"]
        for index, kind in enumerate(KINDS):
            lines += ["[[bot]]", f'name = "team-{index + 1}"', f'kind = "{kind}"']
        with open(config, "w") as file:
            file.write("\n".join(lines) + "\n")
        try:
            live, base = serve(dealer, ["--config", config, "--data", data, "--bind",
                                        f"127.0.0.1:{free_port()}"],
                               os.path.join(work, "live.log"), children)
            while status(base)["games_finished"] < games:
                time.sleep(1)
            stop_children(children)
            children.clear()
            server, base = serve(dealer, ["--out", data, "--bind", f"127.0.0.1:{free_port()}"],
                                 os.path.join(work, "read-only.log"), children)
            finished = status(base)["games_finished"]
            load = os.getloadavg()[0]
            print(f"{finished} games of seven house bots (load average {load:.1f})")
            print("route                     games     bytes  wall s  server CPU s  RSS KiB before/peak")
            for since in (0, finished // 2):
                got, size, wall, cpu, rss, peak = download(base, server.pid, since)
                print(f"since={since:<18} {got:>6} {size:>9} {wall:>7.2f} {cpu:>13.2f}  {rss}/{peak}")
            target = os.path.join(work, "target")
            for run in ("first run", "second run"):
                wall, cpu, rss, fetched = arena(os.path.join(release, "arena"), base, target)
                print(f"cargo arena, {run}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
                      f"{rss} KiB max RSS: {fetched}")
        finally:
            stop_children(children)


if __name__ == "__main__":
    main()

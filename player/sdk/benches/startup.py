#!/usr/bin/env python3
"""Start-to-first-answer time and idle resident memory of a player binary.

Usage: startup.py <binary> [runs]

Each run starts the binary with only PORT and RUST_LOG=warn set (the container sets info,
one line per request; warn keeps the request log out of the memory figure), polls
127.0.0.1:PORT with `action=check` until it answers 200, and records the time since the
process was spawned. After the first run's answer, it also sends 1,000 bet_requests, waits a
second and reads VmRSS from /proc (the idle resident memory after warm-up).
"""
import os, signal, statistics, subprocess, sys, time, urllib.parse

from loopback import free_port, post as request

HERE = os.path.dirname(os.path.abspath(__file__))
STATE = os.path.join(HERE, "..", "tests", "fixtures", "captures",
                     "09-preflop-r0-6-seats-first-request.json")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    bet_body = "action=bet_request&game_state=" + urllib.parse.quote(open(STATE).read(), safe="")
    times = []
    rss = None
    for run in range(runs):
        port = free_port()
        env = {"PORT": str(port), "RUST_LOG": "warn", "PATH": os.environ.get("PATH", "")}
        start = time.perf_counter()
        process = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    if request(port, "action=check").startswith(b"HTTP/1.1 200"):
                        break
                except OSError:
                    pass
                if time.perf_counter() - start > 10:
                    raise SystemExit("no answer within 10 s")
                time.sleep(0.0005)
            times.append((time.perf_counter() - start) * 1000)
            if run == 0:
                rss_first = rss_kib(process.pid)
                for _ in range(1000):
                    request(port, bet_body)
                time.sleep(1)
                rss = (rss_first, rss_kib(process.pid))
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=10)
    times.sort()
    print(f"start to first answer over {runs} runs: median {statistics.median(times):.1f} ms, "
          f"p90 {times[int(len(times) * 0.9) - 1]:.1f} ms, max {times[-1]:.1f} ms")
    print(f"resident memory: {rss[0] / 1024:.1f} MiB after the first answer, "
          f"{rss[1] / 1024:.1f} MiB idle after 1,000 bet_requests")


if __name__ == "__main__":
    main()

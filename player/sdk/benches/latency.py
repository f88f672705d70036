#!/usr/bin/env python3
"""Latency of the player at one connection (what a dealer does) and at 16, side by side with
another build of ours and with the official Go template (issue 18).

Usage:
  player/sdk/benches/latency.py [--ours BINARY] [--baseline BINARY] [--go-template DIR]
                            [--rounds N] [--duration 3s] [--rust-log LEVEL]
                            [--only c1-bet,...] [--realtime | --nice N]

- `--ours`: the player binary to measure (default: `cargo build --release` of this checkout,
  the deploy build).
- `--baseline`: another player binary, labelled `before` (e.g. main's), measured in the same
  rounds.
- `--go-template`: a checkout of lean-poker/poker-player-go; built with `go build` into a
  temporary folder. Skipped, with a message, when not given or when `go` is not installed.
- Every server runs as deployed: its own default logging (ours `RUST_LOG=info`, one line per
  request, unless `--rust-log`; the Go template's `log.Printf` per request), stderr to
  /dev/null, default worker count (ours one per core, Go's GOMAXPROCS).

Each round runs every scenario on every server, one after the other (servers in a rotated
order each round), so that the machine's load is shared alike:

  c1-bet    wrk -t1 -c1,  bet_request with a six-seat game_state (latency/six-seats.json)
  c1-check  wrk -t1 -c1,  action=check
  c16-bet   wrk -t1 -c16, bet_request
  c16-bet-t2 wrk -t2 -c16, bet_request

Printed: each run's p50, p99, requests/s and the server's CPU time per request (user + system
from /proc/PID/stat, all threads), then per scenario and server the median with min–max over
the rounds, and the load average before and after. wrk runs on the same cores as the servers.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time, urllib.parse
from pathlib import Path

import loopback
from loopback import free_port

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
STATE = HERE / "latency" / "six-seats.json"
LUA = HERE / "latency" / "latency.lua"
SCENARIOS = [
    # name, wrk threads, connections, action
    ("c1-bet", 1, 1, "bet_request"),
    ("c1-check", 1, 1, "check"),
    ("c16-bet", 1, 16, "bet_request"),
    ("c16-bet-t2", 2, 16, "bet_request"),
]
TICKS = os.sysconf("SC_CLK_TCK")


def post(port, body):
    """One request on a fresh connection: (status, answer text)."""
    head, _, text = loopback.post(port, body).partition(b"\r\n\r\n")
    return int(head.split()[1]), text.decode()


def cpu_seconds(pid):
    """User + system time of every thread of `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


NICE = []


def context_switches(pid):
    """Context switches (voluntary + involuntary) of the live threads of `pid` so far: each
    is a thread falling asleep or being preempted, the wake-ups a request costs."""
    total = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            for line in status.read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
        except OSError:
            pass  # the thread ended meanwhile
    return total


class Server:
    def __init__(self, label, command, env):
        self.label, self.port = label, free_port()
        env = dict(env, PORT=str(self.port))
        self.process = subprocess.Popen(NICE + command, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        give_up = time.monotonic() + 10
        while True:
            try:
                status, _ = post(self.port, "action=check")
                if status == 200:
                    break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > give_up:
                sys.exit(f"{label}: the server did not start")
            time.sleep(0.05)
        body = urllib.parse.urlencode({"action": "bet_request", "game_state": STATE.read_text()})
        status, answer = post(self.port, body)
        if status != 200 or not answer.strip().isdigit():
            sys.exit(f"{label}: bet_request answered {status} {answer!r}, not digits")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def run_wrk(server, scenario, duration):
    name, threads, connections, action = scenario
    args = NICE + ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}", "-s", str(LUA),
            f"http://127.0.0.1:{server.port}/", "--", action, str(STATE)]
    cpu_before = cpu_seconds(server.process.pid)
    switches_before = context_switches(server.process.pid)
    output = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server.process.pid) - cpu_before
    switches = context_switches(server.process.pid) - switches_before
    line = next((l for l in output.splitlines() if l.startswith("LATENCY ")), None)
    if line is None:
        sys.exit(f"wrk printed no LATENCY line:\n{output}")
    fields = dict(pair.split("=") for pair in line.split()[1:])
    requests = int(fields["requests"])
    return {
        "p50": int(fields["p50_us"]),
        "p99": int(fields["p99_us"]),
        "rps": requests / (int(fields["duration_us"]) / 1e6),
        "cpu_us": cpu / max(requests, 1) * 1e6,
        "switches": switches / max(requests, 1),
        "errors": int(fields["errors"]),
    }


def summary(values, digits=0):
    def fmt(value):
        return f"{value:,.{digits}f}"
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ours", help="player binary (default: cargo build --release)")
    parser.add_argument("--baseline", help="another player binary, labelled 'before'")
    parser.add_argument("--go-template", help="checkout of lean-poker/poker-player-go")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", default="3s")
    parser.add_argument("--rust-log", help="RUST_LOG for our servers (default: unset, info)")
    parser.add_argument("--only", help="comma-separated scenario names")
    parser.add_argument("--nice", type=int, default=0,
                        help="niceness for the servers and wrk (negative needs root): on a "
                             "machine shared with other jobs, -10 keeps them from preempting "
                             "the measured processes")
    parser.add_argument("--realtime", action="store_true",
                        help="run the servers and wrk under SCHED_FIFO priority 20 (root): "
                             "other jobs then cannot delay a wake-up by a time slice, so "
                             "what is measured is the servers, not the machine's load")
    options = parser.parse_args()
    if options.realtime:
        if shutil.which("chrt") is None:
            sys.exit("--realtime needs chrt (util-linux)")
        NICE.extend(["chrt", "--fifo", "20"])
    elif options.nice:
        NICE.extend(["nice", "-n", str(options.nice)])
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (apt-get install -y wrk)")

    ours = options.ours
    if ours is None:
        subprocess.run(["cargo", "build", "--release", "--locked", "-p", "team",
                        "--bin", "player"], cwd=ROOT, check=True)
        metadata = subprocess.run(["cargo", "metadata", "--format-version", "1", "--no-deps"],
                                  cwd=ROOT, capture_output=True, text=True, check=True).stdout
        ours = str(Path(json.loads(metadata)["target_directory"]) / "release" / "player")
    rust_env = {k: v for k, v in os.environ.items() if k not in ("RUST_LOG", "PLAYER_WORKERS")}
    if options.rust_log is not None:
        rust_env["RUST_LOG"] = options.rust_log
    commands = [("ours", [ours], rust_env)]
    if options.baseline:
        commands.append(("before", [options.baseline], rust_env))
    scratch = tempfile.TemporaryDirectory(prefix="latency-go-")
    if options.go_template is None:
        print("Go template skipped: no --go-template DIR given")
    elif shutil.which("go") is None:
        print("Go template skipped: `go` is not installed (apt-get install -y golang-go)")
    else:
        binary = Path(scratch.name) / "poker-player-go"
        subprocess.run(["go", "build", "-o", str(binary), "."], cwd=options.go_template,
                       check=True, env=dict(os.environ, GOFLAGS="-mod=mod", GOPROXY="off"))
        commands.append(("go-template", [str(binary)], dict(os.environ)))

    scenarios = SCENARIOS
    if options.only:
        wanted = options.only.split(",")
        scenarios = [s for s in SCENARIOS if s[0] in wanted]
    servers = []
    try:
        for label, command, env in commands:
            servers.append(Server(label, command, env))
        load_before = os.getloadavg()
        print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}"
              f"; {'SCHED_FIFO 20' if options.realtime else f'niceness {options.nice}'}")
        results = {}
        for round_index in range(options.rounds):
            for scenario in scenarios:
                shift = round_index % len(servers)
                for server in servers[shift:] + servers[:shift]:
                    result = run_wrk(server, scenario, options.duration)
                    results.setdefault((scenario[0], server.label), []).append(result)
                    print(f"round {round_index + 1} {scenario[0]:<11} {server.label:<12}"
                          f" p50 {result['p50']:>6} µs  p99 {result['p99']:>6} µs"
                          f"  {result['rps']:>8,.0f} req/s  cpu {result['cpu_us']:5.1f} µs/req"
                          f"  switches {result['switches']:4.2f}/req"
                          f"  errors {result['errors']}  load {os.getloadavg()[0]:.2f}", flush=True)
        load_after = os.getloadavg()
    finally:
        for server in servers:
            server.stop()
    print(f"\nload average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    print(f"{options.rounds} rounds of {options.duration}; median (min–max)")
    print(f"{'scenario':<11} {'server':<12} {'p50 µs':<16} {'p99 µs':<20} {'req/s':<26}"
          f" {'cpu µs/req':<20} switches/req")
    for scenario in scenarios:
        for server in servers:
            runs = results[(scenario[0], server.label)]
            print(f"{scenario[0]:<11} {server.label:<12}"
                  f" {summary([r['p50'] for r in runs]):<16}"
                  f" {summary([r['p99'] for r in runs]):<20}"
                  f" {summary([r['rps'] for r in runs]):<26}"
                  f" {summary([r['cpu_us'] for r in runs], 1):<20}"
                  f" {summary([r['switches'] for r in runs], 2)}")
    if any(r["errors"] for runs in results.values() for r in runs):
        sys.exit("some requests failed (errors above)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Every shell command of the team's path runs as printed.

Reads the fenced ```sh blocks of README.md and player/README.md, in order, and runs each from
the repository root with a timeout, failing with the page and line of the block that broke.
A block may be preceded by a marker comment:

  <!-- ci: skip "why" -->        not run here (e.g. `git clone` of your fork, `docker build`
                                 without a Docker engine); the reason is printed
  <!-- ci: ran by .ci/run -->     .ci/run runs exactly these command lines itself (checked)
  <!-- ci: background PORT -->   a server: started in the background, the block passes once
                                 PORT accepts connections; it runs until a `<!-- ci: stop -->`
                                 line or the end of the page, then gets SIGTERM
Any other block runs with `bash -euo pipefail` and must exit 0.

Usage: python3 .ci/readme_commands.py [PAGE ...]   (default: README.md player/README.md)
"""
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", "player/README.md"]
TIMEOUT_S = 1800
SERVER_START_S = 600
MARKER = re.compile(r"\s*<!-- ci: (skip \"[^\"]+\"|ran by \.ci/run|background \d+|stop) -->\s*$")


def blocks(page):
    """(line, marker or None, command text) for each sh block, and ("stop") markers, in order."""
    lines = (ROOT / page).read_text().splitlines()
    out = []
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if re.match(r"<!-- ci: stop -->$", stripped):
            out.append((index + 1, "stop", ""))
        elif stripped.startswith("```") and stripped[3:].strip() in ("sh", "bash", "shell"):
            indent = len(line) - len(line.lstrip())
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip().startswith("```"))
            previous = next((l for l in reversed(lines[:index]) if l.strip()), "")
            marker = MARKER.match(previous)
            text = "\n".join(l[indent:] for l in lines[index + 1:end])
            out.append((index + 1, marker.group(1) if marker else None, text))
            index = end
        elif stripped.startswith("<!-- ci:") and not MARKER.match(line):
            sys.exit(f"error: {page}:{index + 1}: unknown marker {stripped}")
        index += 1
    return out


def port_open(port):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def stop(servers):
    for where, process in servers:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        print(f"    stopped the server of {where}", flush=True)
    servers.clear()


def main(pages):
    ci_run = (ROOT / ".ci/run").read_text().splitlines()
    servers = []
    ran = skipped = 0
    try:
        for page in pages:
            for line, marker, text in blocks(page):
                where = f"{page}:{line}"
                if marker == "stop":
                    stop(servers)
                    continue
                commands = [c for c in text.splitlines() if c.strip() and not c.strip().startswith("#")]
                print(f"==> {where}: {commands[0] if commands else ''}", flush=True)
                if marker and marker.startswith("skip"):
                    print(f"    skipped: {marker[5:].strip()[1:-1]}", flush=True)
                    skipped += 1
                    continue
                if marker == "ran by .ci/run":
                    missing = [c for c in commands if not any(c.strip() in l for l in ci_run)]
                    if missing:
                        sys.exit(f"error: {where}: .ci/run does not run {missing}")
                    print("    run by .ci/run itself", flush=True)
                    continue
                if marker and marker.startswith("background"):
                    port = int(marker.split()[1])
                    if port_open(port):
                        sys.exit(f"error: {where}: something already listens on port {port}")
                    process = subprocess.Popen(["bash", "-euo", "pipefail", "-c", text], cwd=ROOT, start_new_session=True)
                    servers.append((where, process))
                    deadline = time.monotonic() + SERVER_START_S
                    while not port_open(port):
                        if process.poll() is not None:
                            sys.exit(f"error: {where}: the server exited ({process.returncode}) before it listened on {port}")
                        if time.monotonic() > deadline:
                            sys.exit(f"error: {where}: nothing listened on port {port} after {SERVER_START_S} s")
                        time.sleep(0.2)
                    print(f"    listening on {port}", flush=True)
                    ran += 1
                    continue
                try:
                    result = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=ROOT, timeout=TIMEOUT_S, start_new_session=True)
                except subprocess.TimeoutExpired:
                    sys.exit(f"error: {where}: still running after {TIMEOUT_S} s")
                if result.returncode != 0:
                    sys.exit(f"error: {where}: the block exited with {result.returncode}")
                ran += 1
            stop(servers)
    finally:
        stop(servers)
    print(f"every shell block of {', '.join(pages)} ran as printed: {ran} run, {skipped} skipped with a reason")


if __name__ == "__main__":
    main(sys.argv[1:] or PAGES)

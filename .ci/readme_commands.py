#!/usr/bin/env python3
"""Every shell command of the team's path and of the organiser's page runs as printed.

Reads the fenced ```sh blocks of README.md, player/README.md, player/arena/README.md and
dealer/README.md, in order, and runs each with a timeout, failing with the page and line of the
block that broke, and prints how long each took. The team's pages run from the repository
root. dealer/README.md is the organiser's page: its commands are
the installed `dealer`'s (`cargo install --path dealer` puts it on PATH), run in an organiser's
own folder. Rather than a release install (minutes), its blocks run with the dealer's debug
build first on PATH (`cargo build -p lean-poker-dealer`, run first: after the workspace's test
build nothing is compiled, .ci/features_aligned.py keeps their features equal), in a fresh
temporary folder removed afterwards, so the page's `games/` and event folders never land in
the repository and a second run starts clean.
A block may be preceded by a marker comment:

  <!-- ci: skip "why" -->        not run here (e.g. `git clone` of your fork, `docker build`
                                 without a Docker engine); the reason is printed
  <!-- ci: ran by .ci/run -->     .ci/run runs exactly these command lines itself (checked)
  <!-- ci: background PORT -->   a server: started in the background, the block passes once
                                 PORT accepts connections; it runs until a `<!-- ci: stop -->`
                                 line or the end of the page, then gets SIGTERM
  <!-- ci: file NAME -->         the next fenced block (any language, e.g. ```toml) is written,
                                 as printed, to NAME in the page's folder: the file the page's
                                 commands then read (a config file)
Any other block runs with `bash -euo pipefail` and must exit 0.

Usage: python3 .ci/readme_commands.py [PAGE ...]
(default: README.md player/README.md player/arena/README.md dealer/README.md)
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", "player/README.md", "player/arena/README.md", "dealer/README.md"]
# Pages whose commands are an installed binary's: page -> (cargo package, binary).
INSTALLED = {"dealer/README.md": ("lean-poker-dealer", "dealer")}
TIMEOUT_S = 1800
SERVER_START_S = 600
MARKER = re.compile(r"\s*<!-- ci: (skip \"[^\"]+\"|ran by \.ci/run|background \d+|stop|file [\w.\-]+) -->\s*$")


def blocks(page):
    """(line, marker or None, text) for each sh block and each block a `file` marker names, and
    ("stop") markers, in order. Other fenced blocks (```text, ```toml...) are passed over."""
    lines = (ROOT / page).read_text().splitlines()
    out = []
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if re.match(r"<!-- ci: stop -->$", stripped):
            out.append((index + 1, "stop", ""))
        elif stripped.startswith("```"):
            indent = len(line) - len(line.lstrip())
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip().startswith("```"))
            previous = next((l for l in reversed(lines[:index]) if l.strip()), "")
            marker = MARKER.match(previous)
            marker = marker.group(1) if marker else None
            text = "\n".join(l[indent:] for l in lines[index + 1:end])
            if stripped[3:].strip() in ("sh", "bash", "shell") or (marker and marker.startswith("file ")):
                out.append((index + 1, marker, text))
            index = end
        elif stripped.startswith("<!-- ci:") and not MARKER.match(line):
            sys.exit(f"error: {page}:{index + 1}: unknown marker {stripped}")
        elif stripped.startswith("<!-- ci: file "):
            following = next((l.strip() for l in lines[index + 1:] if l.strip()), "")
            if not following.startswith("```"):
                sys.exit(f"error: {page}:{index + 1}: {stripped} is not followed by a fenced block")
        index += 1
    return out


def installed(package, binary):
    """The PATH on which `binary` is the package's debug build, built now if it is not current."""
    subprocess.run(["cargo", "build", "--locked", "--quiet", "-p", package], cwd=ROOT, check=True)
    metadata = subprocess.run(["cargo", "metadata", "--locked", "--no-deps", "--format-version", "1"],
                              cwd=ROOT, capture_output=True, text=True, check=True).stdout
    debug = Path(json.loads(metadata)["target_directory"]) / "debug"
    if not (debug / binary).is_file():
        sys.exit(f"error: {debug / binary} is missing after cargo build -p {package}")
    return f"{debug}{os.pathsep}{os.environ.get('PATH', '')}"


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
            env = dict(os.environ)
            folder = None
            cwd = ROOT
            if page in INSTALLED:
                env["PATH"] = installed(*INSTALLED[page])
                folder = tempfile.mkdtemp(prefix="readme-" + page.split("/")[0] + "-")
                cwd = Path(folder)
                print(f"==> {page}: `{INSTALLED[page][1]}` is {env['PATH'].split(os.pathsep)[0]}/{INSTALLED[page][1]}; the page runs in {folder}", flush=True)
            try:
                for line, marker, text in blocks(page):
                    where = f"{page}:{line}"
                    if marker == "stop":
                        stop(servers)
                        continue
                    if marker and marker.startswith("file "):
                        name = marker[5:]
                        (cwd / name).write_text(text + "\n")
                        print(f"==> {where}: wrote {name}", flush=True)
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
                        process = subprocess.Popen(["bash", "-euo", "pipefail", "-c", text], cwd=cwd, env=env, start_new_session=True)
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
                    started = time.monotonic()
                    try:
                        result = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=cwd, env=env, timeout=TIMEOUT_S, start_new_session=True)
                    except subprocess.TimeoutExpired:
                        sys.exit(f"error: {where}: still running after {TIMEOUT_S} s")
                    if result.returncode != 0:
                        sys.exit(f"error: {where}: the block exited with {result.returncode}")
                    print(f"    ({time.monotonic() - started:.1f} s)", flush=True)
                    ran += 1
                stop(servers)
            finally:
                if folder:
                    stop(servers)
                    shutil.rmtree(folder, ignore_errors=True)
    finally:
        stop(servers)
    print(f"every shell block of {', '.join(pages)} ran as printed: {ran} run, {skipped} skipped with a reason")


if __name__ == "__main__":
    main(sys.argv[1:] or PAGES)

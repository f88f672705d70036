#!/usr/bin/env python3
"""Followers for dealer/benches/web_follow.sh: one light process holding N pages' connections.

Each follower does what the page's "follow the newest game live" view (app.js,
`followNewest`) does, over raw asyncio sockets (no curl or python process per request, so
the followers' own CPU stays small and is counted apart): find the newest running game in
`GET /api/runs/{run}`, read its details and `/log`, follow `/live?from=<entries>` to its
`end` event, read `/log` once more, wait PAUSE seconds (the page waits 4 s before it looks
for the next game) and start again. One more task polls `GET /api/runs/{run}` every 2 s, as
the run page does.

Usage: web_follow_clients.py URL RUN FOLLOWERS STOP_FILE [PAUSE=4]
Runs until STOP_FILE exists, then prints one JSON line: requests made, SSE entries received,
games followed, and this process's CPU seconds.
"""
import asyncio
import json
import os
import sys
from urllib.parse import urlsplit

URL, RUN, FOLLOWERS, STOP = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
PAUSE = float(sys.argv[5]) if len(sys.argv) > 5 else 4.0
HOST = urlsplit(URL).hostname
PORT = urlsplit(URL).port
counts = {"requests": 0, "entries": 0, "games": 0, "errors": 0}


def stopped():
    return os.path.exists(STOP)


async def get(path):
    """A whole GET answer's body (HTTP/1.1, one connection per request)."""
    reader, writer = await asyncio.open_connection(HOST, PORT)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    counts["requests"] += 1
    head, _, body = data.partition(b"\r\n\r\n")
    if b"chunked" in head.lower():
        body = unchunk(body)
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(head.split(b"\r\n", 1)[0].decode())
    return body


def unchunk(body):
    out, pos = bytearray(), 0
    while True:
        end = body.index(b"\r\n", pos)
        size = int(body[pos:end].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += body[end + 2 : end + 2 + size]
        pos = end + 2 + size + 2


async def live(game, start):
    """Follows /live from entry `start` to its end event (or the stop file)."""
    reader, writer = await asyncio.open_connection(HOST, PORT)
    path = f"/api/runs/{RUN}/games/{game}/live?from={start}"
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
    await writer.drain()
    counts["requests"] += 1
    buffer = b""
    try:
        while not stopped():
            try:
                data = await asyncio.wait_for(reader.read(65536), 0.5)
            except asyncio.TimeoutError:
                continue
            if not data:
                return
            buffer += data
            # Only the event names and ids are looked at (chunked framing in between is
            # skipped over): the id is the number of entries sent so far.
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                if b"event: end" in block:
                    return
                for line in block.split(b"\n"):
                    if line.startswith(b"id: "):
                        counts["entries"] = counts["entries"] - start + int(line[4:])
                        start = int(line[4:])
    finally:
        writer.close()


async def follower():
    while not stopped():
        try:
            summary = json.loads(await get(f"/api/runs/{RUN}"))
            running = [g["game"] for g in summary["games"] if g["status"] == "running"]
            if not running:
                await asyncio.sleep(0.05)
                continue
            game = running[-1]
            await get(f"/api/runs/{RUN}/games/{game}")
            log = json.loads(await get(f"/api/runs/{RUN}/games/{game}/log"))
            await live(game, len(log["entries"]))
            await get(f"/api/runs/{RUN}/games/{game}/log")
            counts["games"] += 1
            waited = 0.0
            while waited < PAUSE and not stopped():
                await asyncio.sleep(0.1)
                waited += 0.1
        except (OSError, RuntimeError, ValueError, KeyError):
            counts["errors"] += 1
            await asyncio.sleep(0.1)


async def run_page():
    while not stopped():
        try:
            await get(f"/api/runs/{RUN}")
        except (OSError, RuntimeError):
            counts["errors"] += 1
        await asyncio.sleep(2)


async def main():
    await asyncio.gather(run_page(), *(follower() for _ in range(FOLLOWERS)))
    times = os.times()
    counts["cpu_s"] = round(times.user + times.system, 3)
    print(json.dumps(counts), flush=True)


asyncio.run(main())

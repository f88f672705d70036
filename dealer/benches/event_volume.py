#!/usr/bin/env python3
"""Bytes per hand of an event's game folders, per file kind: the numbers of
docs/benchmarks.md, "Disk budget and output volume".

Usage: event_volume.py DATA LAST_GAME

Counts the finished games (those with a `result.json`) numbered up to LAST_GAME under
DATA/games, so a second run of the event that compresses them can be measured on the same
games. A `.gz` file counts under its plain name; "disk" is st_blocks * 512 (what the file
system really uses, 4 KiB blocks on ext4), the other figure the file's length. The game
folders themselves (and their `players/`, `hands/` subfolders) count in the `(folders)` row:
a folder takes a disk block too. Also prints the bytes per game.
"""
import json
import os
import sys


def kind(relative):
    """The row a file counts in: its name, or its folder for the many-file kinds."""
    plain = relative[:-3] if relative.endswith(".gz") else relative
    if plain.startswith("hands/"):
        return "hands/*.phh"
    if plain.startswith("players/"):
        return "players/*.log"
    return plain


def main(data, last_game):
    games_dir = os.path.join(data, "games")
    sizes = {}  # kind -> [bytes, disk bytes, files]
    hands = games = 0
    for name in os.listdir(games_dir):
        folder = os.path.join(games_dir, name)
        result = os.path.join(folder, "result.json")
        if not name.startswith("game-") or not os.path.isfile(result):
            continue
        if int(name[len("game-"):]) > last_game:
            continue
        games += 1
        with open(result) as file:
            hands += json.load(file)["hands_played"]
        for parent, _, files in os.walk(folder):
            stat = os.stat(parent)
            row = sizes.setdefault("(folders)", [0, 0, 0])
            row[0] += stat.st_size
            row[1] += stat.st_blocks * 512
            row[2] += 1
            for file in files:
                path = os.path.join(parent, file)
                stat = os.stat(path)
                row = sizes.setdefault(kind(os.path.relpath(path, folder)), [0, 0, 0])
                row[0] += stat.st_size
                row[1] += stat.st_blocks * 512
                row[2] += 1
    if hands == 0:
        sys.exit(f"no finished game up to game-{last_game} in {games_dir}")
    print(f"{games} games, {hands} hands ({hands / games:.1f} per game)")
    for name, (size, disk, files) in sorted(sizes.items()):
        print(f"{name:18} {size / hands:9.0f} B/hand  {disk / hands:9.0f} disk B/hand  {files} files")
    total, total_disk = (sum(row[i] for row in sizes.values()) for i in (0, 1))
    print(f"{'total':18} {total / hands:9.0f} B/hand  {total_disk / hands:9.0f} disk B/hand")
    print(f"{'per game':18} {total / games:9.0f} B       {total_disk / games:9.0f} disk B")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]))

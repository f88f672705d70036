#!/usr/bin/env python3
"""Proves the workspace's declared rust-version is a true floor for the locked dependencies.

No other toolchain can be fetched where CI runs, so instead of building with that exact rustc
this reads every locked package's own `rust-version` from `cargo metadata --locked` (the whole
lock file: every platform and feature) and fails when one needs a newer rustc than the
workspace declares, or when README.md states another floor.

    python3 .ci/rust_version_floor.py     # from anywhere in the repository
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def show(parts):
    return ".".join(map(str, parts))


def main():
    metadata = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout
    )
    members = set(metadata["workspace_members"])
    declared = {p["rust_version"] for p in metadata["packages"] if p["id"] in members}
    if len(declared) != 1 or None in declared:
        sys.exit(f"workspace members declare different rust-versions: {sorted(map(str, declared))}")
    floor = version(declared.pop())
    needs = sorted(
        (version(p["rust_version"]), p["name"], p["version"])
        for p in metadata["packages"]
        if p["id"] not in members and p.get("rust_version")
    )
    too_new = [need for need in needs if need[0] > floor]
    for need, name, package_version in too_new:
        print(f"{name} {package_version} needs rustc {show(need)}", file=sys.stderr)
    if too_new:
        sys.exit(f"the lock file needs a newer rustc than the declared rust-version {show(floor)}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stated = re.search(r"Rust ≥ ([0-9.]+)", readme)
    if not stated or version(stated.group(1)) != floor:
        found = stated.group(0) if stated else "no 'Rust ≥ X'"
        sys.exit(f"README.md must state the floor as 'Rust ≥ {show(floor)}' (found {found})")
    highest, name, package_version = needs[-1]
    print(f"rust-version {show(floor)} holds for every locked package "
          f"(the most demanding: {name} {package_version}, {show(highest)})")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The team's crate holds for any legal bot, and nothing else depends on it.

For each bot in turn (the README's smallest bot, every bot in .ci/bots/, and the committed
template) pasted as player/team/src/strategy.rs, with the README's test snippets appended to
player/team/tests/strategy.rs:
  - `cargo fmt --check`, `cargo clippy -p team --all-targets --all-features -D warnings` and
    `cargo test -p team` pass (a bot that panics is reported by the tests, not failed);
  - `cargo test --workspace --no-run` compiles nothing but the team's crate: no SDK, dealer or
    other test binary is rebuilt because the team's file changed.
And `cargo tree` of every other member (the SDK, the dealer, ...) holds no `team`.
The two files are restored however the script ends. Run from anywhere: python3 .ci/team_checks.py
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRATEGY = ROOT / "player/team/src/strategy.rs"
TESTS = ROOT / "player/team/tests/strategy.rs"
PAGE = ROOT / "player/README.md"
STRATEGY_MARK = "player/team/src/strategy.rs"
TEST_MARK = "a test in player/team/tests/strategy.rs"


def snippets(text):
    """(marker, code, line) for every ```rust block, the marker from the line before it."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        if line.strip().startswith("```rust"):
            indent = len(line) - len(line.lstrip())
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip().startswith("```"))
            marker = None
            previous = next((l for l in reversed(lines[:index]) if l.strip()), "")
            match = re.match(r"\s*<!-- snippet: (.*?) -->", previous)
            if match:
                marker = match.group(1)
            code = "\n".join(l[indent:] for l in lines[index + 1:end]) + "\n"
            found.append((marker, code, index + 1))
    return found


def run(args, what):
    print(f"    $ {' '.join(args)}", flush=True)
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: {what}: `{' '.join(args)}` failed:\n{result.stdout}{result.stderr}")
    return result


def with_tests(original, tests):
    """The team's test file with each README test snippet as a #[test] of its own."""
    out = original
    for number, (code, line) in enumerate(tests):
        body = "".join(("    " + l if l.strip() else "") + "\n" for l in code.splitlines())
        out += f"\n/// player/README.md:{line}\n#[test]\nfn readme_snippet_{number}() {{\n{body}}}\n"
    return out


def main():
    page = PAGE.read_text()
    found = snippets(page)
    unknown = [f"player/README.md:{line}" for marker, _, line in found if marker not in (STRATEGY_MARK, TEST_MARK)]
    if unknown:
        sys.exit(f"error: rust blocks with no known `<!-- snippet: ... -->` marker: {unknown}")
    readme_bots = [(f"player/README.md:{line}", code) for marker, code, line in found if marker == STRATEGY_MARK]
    tests = [(code, line) for marker, code, line in found if marker == TEST_MARK]
    if not readme_bots:
        sys.exit("error: player/README.md has no snippet for player/team/src/strategy.rs")
    # `cargo tree` of every other member holds no `team`: nothing depends on the team's crate.
    members = json.loads(run(["cargo", "metadata", "--format-version", "1", "--no-deps", "--locked"], "cargo metadata").stdout)["packages"]
    for package in members:
        if package["name"] == "team":
            continue
        tree = run(["cargo", "tree", "--locked", "-p", package["name"], "-e", "all", "--prefix", "none", "--format", "{p}"], "cargo tree")
        if any(line.split(" ")[0] == "team" for line in tree.stdout.splitlines()):
            sys.exit(f"error: {package['name']} depends on the team's crate (cargo tree -p {package['name']} -i team)")
    print(f"    no other member ({len(members) - 1}) has the team's crate in its tree", flush=True)
    original_strategy = STRATEGY.read_text()
    original_tests = TESTS.read_text()
    bots = readme_bots + [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted((ROOT / ".ci/bots").glob("*.rs"))]
    bots.append(("the committed template", original_strategy))
    try:
        # The baseline the freshness check compares with: everything built with the template.
        run(["cargo", "test", "--workspace", "--locked", "--no-run"], "the workspace's tests build")
        for name, code in bots:
            print(f"==> {name} as player/team/src/strategy.rs", flush=True)
            STRATEGY.write_text(code)
            TESTS.write_text(with_tests(original_tests, tests))
            run(["cargo", "fmt", "--all", "--", "--check"], f"{name}: formatting")
            run(["cargo", "clippy", "-p", "team", "--all-targets", "--all-features", "--locked", "--", "-D", "warnings"], f"{name}: clippy")
            tested = run(["cargo", "test", "-p", "team", "--locked"], f"{name}: the team's tests")
            passed = re.findall(r"test result: ok\. (\d+) passed", tested.stdout)
            print(f"    team tests: {sum(map(int, passed))} passed", flush=True)
            built = run(["cargo", "test", "--workspace", "--locked", "--no-run", "--message-format=json"], f"{name}: the workspace's tests build")
            rebuilt = set()
            for line in built.stdout.splitlines():
                message = json.loads(line)
                if message.get("reason") == "compiler-artifact" and not message.get("fresh", True):
                    rebuilt.add(message["package_id"])
            others = sorted(p for p in rebuilt if "/player/team#" not in p and not re.search(r"[#/]team@", p))
            if others:
                sys.exit(f"error: {name}: editing the team's file rebuilt other packages: {others}")
            print(f"    rebuilt by the edit: {len(rebuilt)} unit(s) of the team's crate, nothing else", flush=True)
    finally:
        STRATEGY.write_text(original_strategy)
        TESTS.write_text(original_tests)
    print(f"the team's crate passes with {len(bots)} bots; no other package depends on it")


if __name__ == "__main__":
    main()

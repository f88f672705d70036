#!/usr/bin/env python3
"""Every relative link of the Markdown pages a user reads leads somewhere: the file exists and,
with a `#fragment`, the page has a heading with that anchor (GitHub's rule: lower case, spaces
to `-`, punctuation but `-` and `_` dropped). Usage: python3 .ci/readme_links.py"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(page):
    found = set()
    counts = {}
    in_code = False
    for line in page.read_text().splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip()
        slug = re.sub(r"[^\w\- ]", "", text.lower().replace("`", "")).replace(" ", "-")
        number = counts.get(slug, 0)
        counts[slug] = number + 1
        found.add(slug if number == 0 else f"{slug}-{number}")
    return found


def main():
    pages = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    broken = []
    for name in pages:
        page = ROOT / name
        in_code = False
        for number, line in enumerate(page.read_text().splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # http(s), mailto: not checked here (no network)
                path, _, fragment = target.partition("#")
                file = (page.parent / path).resolve() if path else page
                if not file.exists():
                    broken.append(f"{name}:{number}: {target}: no such file")
                elif fragment and file.suffix == ".md" and fragment not in anchors(file):
                    broken.append(f"{name}:{number}: {target}: no heading #{fragment}")
    if broken:
        sys.exit("broken links:\n  " + "\n  ".join(broken))
    print(f"every relative link of {len(pages)} Markdown pages resolves")


if __name__ == "__main__":
    main()

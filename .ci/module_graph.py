#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a loop.

Reads every `src/**/*.rs` of the workspace's library crates, resolves each `crate::…`,
`super::…` and `self::…` path in code (comments and strings skipped) to the file that defines
that module, and looks for loops among those file-to-file edges. Edges between a file and its
own ancestors (`mod.rs`/`lib.rs` that declare it, which children read with `super::`) are the
module tree itself and are not counted. Run with `--print` to see every edge.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CRATES = ["shared", "engine", "player/sdk", "player/bots", "player/arena", "dealer", "examples"]
PATH_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^{}]*)\}")


def strip(text):
    """Removes comments, strings and char literals, keeping line structure."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\])'", "' '", text)
    return text


def module_of(src, path):
    """The module path (list of names) a file defines."""
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("lib", "main", "mod"):
        rel = rel[:-1]
    return rel


def crate_graph(crate):
    src = os.path.join(ROOT, crate, "src")
    files = {}
    for dirpath, _, names in os.walk(src):
        if os.sep + "bin" in dirpath[len(src):] or "assets" in dirpath:
            continue
        for name in names:
            if name.endswith(".rs") and name != "main.rs":
                path = os.path.join(dirpath, name)
                files[tuple(module_of(src, path))] = os.path.relpath(path, ROOT)
    edges = {}
    for module, path in files.items():
        text = strip(open(os.path.join(ROOT, path), encoding="utf-8").read())
        # `#[cfg(test)] mod tests { … }` blocks are cut: a test may read anything.
        cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
        if cut:
            text = text[: cut.start()]
        targets = set()
        paths = [m.group(1) + m.group(2) for m in PATH_RE.finditer(text)]
        for group in USE_GROUP_RE.finditer(text):
            for item in group.group(3).split(","):
                item = item.strip().split(" as ")[0].strip()
                if item and item != "self" and re.match(r"^[A-Za-z_][\w:]*$", item):
                    paths.append(group.group(1) + group.group(2) + "::" + item)
        for text_path in paths:
            parts = text_path.split("::")
            head, rest = parts[0], parts[1:]
            if head == "crate":
                base = []
            else:
                base = list(module)
                if head == "super":
                    base = base[:-1]
                while rest and rest[0] == "super":
                    base, rest = base[:-1], rest[1:]
            full = base + rest
            # The deepest file that defines a prefix of the path.
            for cut_at in range(len(full), -1, -1):
                target = tuple(full[:cut_at])
                if target in files:
                    targets.add(target)
                    break
        for target in targets:
            if target == module:
                continue
            # The module tree itself: a file and the files that declare it.
            if module[: len(target)] == target or target[: len(module)] == module:
                continue
            edges.setdefault(module, set()).add(target)
    return files, edges


def loops(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(component)

    sys.setrecursionlimit(10000)
    for node in list(edges):
        if node not in index:
            visit(node)
    return out


def main():
    failed = False
    for crate in CRATES:
        files, edges = crate_graph(crate)
        if "--print" in sys.argv:
            for module, targets in sorted(edges.items()):
                for target in sorted(targets):
                    print(f"{files[module]} -> {files[target]}")
        for component in loops(edges):
            failed = True
            names = sorted(files[m] for m in component)
            print(f"import loop in {crate}: " + " <-> ".join(names), file=sys.stderr)
        # The crate's parts (its top-level modules) in one direction too.
        parts = {}
        for module, targets in edges.items():
            for target in targets:
                if module and target and module[0] != target[0]:
                    parts.setdefault(module[0], set()).add(target[0])
        for component in loops(parts):
            failed = True
            print(f"import loop between the parts of {crate}: " + " <-> ".join(sorted(component)), file=sys.stderr)
    if failed:
        sys.exit(1)
    print("no import loops between the modules of " + ", ".join(CRATES))


main()

#!/usr/bin/env python3
"""Checks that the modules of every crate are layered: no import loop between a crate's files, and no
top-level module importing one declared above it.

The layers are declared once, in docs/ARCHITECTURE.md's ```layers block (a crate name on its own line,
then its top-level modules one layer per indented line, top first; `lib` is the crate root lib.rs,
`main` a binary's main.rs). A module may name modules on its own line or on lines below it.

An import is a path in the code (comments removed) starting with `crate::`, `super::` or `self::`; it
points at the deepest file the path names. A file naming one of its own ancestors (a child using its
parent's items) is not an edge: the parent is its namespace. Approximate by design: it reads paths,
not Rust's name resolution (a `use` of a re-export counts as an import of the module that re-exports).

usage: tools/layers.py [--crate NAME ...] [REPO]   (exit 1 on a loop, an upward import, or a top-level
module the layers do not declare; without --crate every crate under crates/ is checked)
"""
import argparse
import os
import re
import sys

ROOTS = {"lib": "lib", "main": "main"}


def declared_layers(repo):
    """{crate: [set of modules per layer, top first]} from docs/ARCHITECTURE.md."""
    text = open(os.path.join(repo, "docs", "ARCHITECTURE.md"), encoding="utf-8").read()
    m = re.search(r"```layers\n(.*?)```", text, re.S)
    if not m:
        sys.exit("docs/ARCHITECTURE.md has no ```layers block")
    layers, crate = {}, None
    for line in m.group(1).splitlines():
        body = line.split("#", 1)[0].rstrip()
        if not body.strip():
            continue
        if not body[0].isspace():
            crate = body.strip().rstrip(":")
            layers[crate] = []
        elif crate is None:
            sys.exit(f"layers block: a layer before any crate name: {line!r}")
        else:
            layers[crate].append(set(body.split()))
    return layers


def files_of(src):
    """{module path tuple: file} for every .rs file under src; the roots are ('lib',) and ('main',)."""
    files = {}
    for d, _, names in os.walk(src):
        for f in names:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(d, f), src)[:-3].split(os.sep)
            if rel == ["lib"] or rel == ["main"]:
                mod = (rel[0],)
            elif rel[-1] == "mod":
                mod = tuple(rel[:-1])
            else:
                mod = tuple(rel)
            files[mod] = os.path.join(d, f)
    return files


def code(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    return re.sub(r"//[^\n]*", "", text)


def bin_modules(files):
    """Top-level modules that belong to the binary (declared with `mod` in main.rs)."""
    if ("main",) not in files:
        return set()
    return set(re.findall(r"^\s*(?:pub\s+)?mod\s+([A-Za-z_0-9]+)\s*;", code(files[("main",)]), re.M))


def imports(mod, text, files, root):
    """Modules `mod` names; `root` is the crate root it belongs to (('lib',) or ('main',))."""
    out = set()
    here = [] if mod == root else list(mod)
    for m in re.finditer(r"\b((?:crate|super|self)(?:::[A-Za-z_0-9]+)+)", text):
        parts = m.group(1).split("::")
        if parts[0] == "crate":
            base, rest = [], parts[1:]
        elif parts[0] == "self":
            base, rest = list(here), parts[1:]
        else:
            base, i = list(here), 0
            while i < len(parts) and parts[i] == "super":
                base, i = base[:-1], i + 1
            rest = parts[i:]
        path = tuple(base + rest)
        while path and path not in files:
            path = path[:-1]
        target = path if path else root
        if target == mod or mod[: len(target)] == target:
            continue  # itself or an ancestor: its namespace
        if not path and mod != root and root == ("lib",) and len(mod) > 0:
            # An item of the crate root (lib.rs): the top. Counted for layers, not for loops.
            out.add(root)
            continue
        out.add(target)
    return out


def loops(graph):
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def name(mod):
    return "::".join(mod)


def check_crate(repo, crate, layers):
    src = os.path.join(repo, "crates", crate, "src")
    files = files_of(src)
    bins = bin_modules(files)
    graph = {}
    for mod, path in files.items():
        root = ("main",) if mod[0] in bins or mod == ("main",) else ("lib",)
        graph[mod] = imports(mod, code(path), files, root)
    problems = []
    # Loops between files (edges into the crate root are namespace uses, not loop edges).
    loop_graph = {m: {t for t in ts if t not in (("lib",), ("main",))} for m, ts in graph.items()}
    for comp in loops(loop_graph):
        members = set(comp)
        edges = [f"{name(a)} -> {name(b)}" for a in comp for b in sorted(loop_graph[a] & members)]
        problems.append(f"import loop through {', '.join(name(m) for m in comp)}: " + "; ".join(edges))
    # Layers of top-level modules.
    if crate not in layers:
        problems.append("no layers declared in docs/ARCHITECTURE.md")
        return problems
    rank = {}
    for i, layer in enumerate(layers[crate]):
        for m in layer:
            rank[m] = i
    for top in sorted({m[0] for m in files}):
        if top not in rank:
            problems.append(f"module {top} is in no layer of docs/ARCHITECTURE.md")
    for m in sorted(set(rank) - {m[0] for m in files}):
        problems.append(f"docs/ARCHITECTURE.md declares {m}, which has no file")
    for a in sorted(graph):
        for b in sorted(graph[a]):
            ta, tb = a[0], b[0]
            if ta in rank and tb in rank and rank[tb] < rank[ta]:
                problems.append(f"{name(a)} imports {name(b)}, a layer above it")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crate", action="append", help="check only this crate (repeatable)")
    ap.add_argument("repo", nargs="?", default=".")
    a = ap.parse_args()
    layers = declared_layers(a.repo)
    crates_dir = os.path.join(a.repo, "crates")
    crates = a.crate or sorted(c for c in os.listdir(crates_dir) if os.path.isdir(os.path.join(crates_dir, c, "src")))
    bad = 0
    for crate in crates:
        if not os.path.isdir(os.path.join(crates_dir, crate, "src")):
            print(f"{crate}: no such crate")
            bad += 1
            continue
        problems = check_crate(a.repo, crate, layers)
        for p in problems:
            print(f"{crate}: {p}")
        bad += len(problems)
        if not problems:
            print(f"{crate}: layered, no import loop")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

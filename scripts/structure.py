#!/usr/bin/env python3
"""Module structure of the workspace's library crates: import cycles and file sizes.

    python3 scripts/structure.py [--check] [--max-lines N] [ROOT]

For every crate under ROOT/crates it builds the graph "module A names module B"
from the `crate::…`, `super::…` and `self::…` paths in A's non-test code (paths
through a re-export in lib.rs count as naming the module that defines the item),
and reports every cycle: strongly connected modules, where the edges between a
module and its own submodules do not count (they are one unit). It also lists each crate's files, lines and largest file.
With --check it exits 1 on a cycle or on a library file over --max-lines
(default 650; the project keeps files under ~600 lines).
"""

import re
import sys
from pathlib import Path

PATH_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP_RE = re.compile(r"\buse\s+(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\};", re.S)
TEST_MOD_RE = re.compile(r"^\s*#\[cfg\((?:test|all\(test\b[^\]\n]*\))\)\]\s*\n\s*(pub(\([a-z]+\))?\s+)?mod\s+\w+\s*\{", re.M)


def module_of(src: Path, f: Path) -> tuple:
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def strip(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    m = TEST_MOD_RE.search(text)
    return text[: m.start()] if m else text


def root_reexports(lib_text: str) -> dict:
    """Names re-exported at the crate root -> defining top-level module."""
    names = {}
    for m in re.finditer(r"\bpub use\s+(?:crate::|self::)?([a-z_][a-z0-9_]*)::(\{[^;]*\}|[A-Za-z_][A-Za-z0-9_]*);", lib_text, re.S):
        module, items = m.group(1), m.group(2)
        for item in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", items):
            if item not in ("self", "as"):
                names.setdefault(item, (module,))
    return names


def resolve(mod: tuple, head: str, segs: list, modules: set, reexp: dict, is_dir_mod: bool):
    if head == "crate":
        base = ()
    elif head == "self":
        base = mod
    else:  # super
        base = mod[:-1]
    while segs and segs[0] == "super":
        base, segs = base[:-1], segs[1:]
    best = base
    path = base
    for s in segs:
        path = path + (s,)
        if path in modules:
            best = path
        else:
            break
    if best == () and segs and segs[0] in reexp:
        return reexp[segs[0]]
    return best


def analyse(crate: Path):
    src = crate / "src"
    files = sorted(p for p in src.rglob("*.rs"))
    modules = {module_of(src, f): f for f in files}
    lib = src / "lib.rs"
    reexp = root_reexports(strip(lib.read_text())) if lib.exists() else {}
    edges = {m: set() for m in modules}
    for m, f in modules.items():
        text = strip(f.read_text())
        found = [(h, [s for s in rest.split("::") if s]) for h, rest in PATH_RE.findall(text)]
        for h, rest, group in USE_GROUP_RE.findall(text):
            prefix = [s for s in rest.split("::") if s]
            for item in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", group):
                found.append((h, prefix + [item]))
        for h, segs in found:
            t = resolve(m, h, segs, set(modules), reexp, f.name == "mod.rs")
            if t != m and t != () and m != () and t in modules:
                edges[m].add(t)
    return files, modules, edges


def related(a: tuple, b: tuple) -> bool:
    return a[: len(b)] == b or b[: len(a)] == a


def cycles(edges: dict):
    # A module and its own submodules are one unit (a child uses its parent's
    # items, the parent declares and re-exports the child): drop those edges,
    # then every strongly connected component left is a cycle (Tarjan).
    edges = {v: {w for w in ws if not related(v, w)} for v, ws in edges.items()}
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    check = "--check" in args
    max_lines = 650
    if "--max-lines" in args:
        max_lines = int(args[args.index("--max-lines") + 1])
    rest = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--max-lines")]
    root = Path(rest[0]) if rest else Path(__file__).resolve().parent.parent
    bad = False
    print(f"{'crate':<16} {'files':>5} {'lines':>6}  largest file")
    report = []
    for crate in sorted((root / "crates").iterdir()):
        if not (crate / "src").is_dir():
            continue
        files, modules, edges = analyse(crate)
        sizes = [(len(f.read_text().splitlines()), f) for f in files]
        total = sum(n for n, _ in sizes)
        n, big = max(sizes)
        print(f"{crate.name:<16} {len(files):>5} {total:>6}  {big.relative_to(crate / 'src')} ({n})")
        for comp in cycles(edges):
            bad = True
            names = ", ".join("::".join(c) for c in comp)
            report.append(f"cycle in {crate.name}: {names}")
        for n, f in sizes:
            if n > max_lines:
                report.append(f"long file: {f.relative_to(root)} ({n} lines > {max_lines})")
                bad = True
    for line in report:
        print(line)
    if not report:
        print(f"no import cycles; every library file <= {max_lines} lines")
    if check and bad:
        sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Module structure of the workspace: import cycles, file sizes, source maps, layout.

    python3 scripts/structure.py [--check] [--max-lines N] [--max-other-lines N] [ROOT]
    python3 scripts/structure.py --self-test

For every crate under ROOT/crates it builds the graph "module A names module B"
from the `crate::…`, `super::…` and `self::…` paths in A's code, test code
included (`#[cfg(test)]` modules, inline or in their own file; paths inside an
inline test module resolve from that module; a module brought in by `use`
and named through it (`use crate::arch;` then `arch::f`) counts; a path
through a module's `pub use child::item` names the module that defines the
item), and reports every cycle: strongly connected modules, where the edges
between a module and its own submodules do not count (they are one unit).

It also checks
  * file sizes: every library file (`crates/*/src`, `src/`) <= --max-lines
    (default 650); every `.rs` file under `tests/`, `benches/`, `examples/`,
    `fuzz/`, `embedded/` and each crate's `tests/`, `benches/`, `examples/`
    <= --max-other-lines (default 900);
  * source maps: each crate README's `## Source map` section names every file
    under the crate's `src/` (by its path from `src/` in backticks, or, in a
    table row whose first cell names its folder `d/`, by its name; `d/mod.rs`
    is the `d/` row itself), and every path in a row's first cell exists;
  * layout: the root README's `## Layout` block names every tracked top-level
    folder and every crate folder, and every path it names exists;
  * dispatch sites: no `cfg(...)` / `cfg!(...)` / `cfg_attr(...)` naming
    `target_arch` in a library crate's `src/` outside its `arch/` folder
    (issue #37 item 1: kernels are chosen through the `Avx2` token, and what
    is per-architecture lives in `arch/`), except a test-only one
    (`cfg(all(test, ...))`) and the files in ARCH_ALLOWED;
  * test targets: in a crate whose Cargo.toml sets `autotests = false` (its
    integration tests are one binary, `tests/all.rs`, each file a module of
    it), every `tests/<name>.rs` and `tests/<name>/main.rs` is compiled by a
    `[[test]]` target: its root, or a module reached from a root through
    `mod` items (`#[path]` included). Without it a new test file there would
    silently never build nor run.

It prints one table per crate and per group of test / bench / example files,
then the problems. With --check it exits 1 on any problem. --self-test plants
one violation of each kind in a temporary copy of the files the check reads
and shows that each is caught (and nothing else).

Cycles listed in OPEN_CYCLES below (found when test code began to count, in
code another change owns) are printed as open and do not fail the check.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PATH_RE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP_RE = re.compile(r"\buse\s+(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\};", re.S)
TEST_MOD_RE = re.compile(r"^\s*#\[cfg\((?:test|all\(test\b[^\]\n]*\))\)\]\s*\n\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+(\w+)\s*\{", re.M)
BACKTICK_RE = re.compile(r"`([^`]+)`")

LIBRARY_MAX = 650
OTHER_MAX = 900
# Folders whose `.rs` files are tests, benches, examples, fuzz targets or
# firmware (the --max-other-lines cap); `*` is one crate folder.
OTHER_DIRS = ["tests", "benches", "examples", "fuzz", "embedded",
              "crates/*/tests", "crates/*/benches", "crates/*/examples"]


# Cycles found when test code began to count (issue #37 item 4), in code
# another change owns at the time: reported as open, not failed. Each entry is
# (crate, the cycle's modules as printed); an entry that no longer matches a
# cycle is reported as stale so it gets removed.
OPEN_CYCLES = {
}

# Library files that may name `target_arch` outside an `arch/` folder, and why.
ARCH_ALLOWED = {
    "crates/pqdr-common/src/simd.rs": "the one AVX2 token: its detection is per-architecture by definition",
    "crates/pqdr-ctgrind/src/lib.rs": "valgrind client requests: per-architecture inline assembly (test tooling)",
}
# Sites found when this check began, in code another change owns at the time:
# reported as open, not failed ({file: why}); a stale entry is reported.
OPEN_ARCH_SITES = {
}
CFG_RE = re.compile(r"\bcfg(?:_attr)?!?\s*\(")


def arch_site_problems(crate: Path, root: Path):
    """(problems, open files): `target_arch` cfgs in `src/` outside `arch/`."""
    problems, open_files = [], set()
    for f in sorted((crate / "src").rglob("*.rs")):
        rel = str(f.relative_to(root))
        if "arch" in f.relative_to(crate / "src").parts[:-1] or rel in ARCH_ALLOWED:
            continue
        text = strip_comments(f.read_text())
        for m in CFG_RE.finditer(text):
            depth, i = 1, m.end()
            while i < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            body = re.sub(r"\s+", "", text[m.end():i - 1])
            if "target_arch" not in body or body.startswith("all(test,"):
                continue
            line = text.count("\n", 0, m.start()) + 1
            if rel in OPEN_ARCH_SITES:
                open_files.add(rel)
            else:
                problems.append(f"target_arch outside arch/: {rel}:{line} (move it behind crate::arch)")
    return problems, open_files


def module_of(src: Path, f: Path) -> tuple:
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", text)


def split_test_modules(text: str):
    """(code outside inline test modules, [(test module name, its body)])."""
    outside, blocks, pos = [], [], 0
    for m in TEST_MOD_RE.finditer(text):
        if m.start() < pos:
            continue  # nested inside a block already taken
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        outside.append(text[pos:m.start()])
        blocks.append((m.group(1), text[m.end():i]))
        pos = i
    outside.append(text[pos:])
    return "".join(outside), blocks


REEXPORT_RE = re.compile(r"\bpub(?:\([a-z]+\))?\s+use\s+(?:crate::|self::)?([a-z_][a-z0-9_]*)::(\{[^;]*\}|[A-Za-z_][A-Za-z0-9_]*);", re.S)


def reexports(mod: tuple, text: str, modules: set) -> dict:
    """Names a module re-exports from one of its child modules (or, at the
    crate root, from any top-level module) -> the defining module."""
    names = {}
    for m in REEXPORT_RE.finditer(text):
        child, items = mod + (m.group(1),), m.group(2)
        if child not in modules:
            continue
        for item in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", items):
            if item not in ("self", "as"):
                names.setdefault(item, child)
    return names


def resolve(mod: tuple, head: str, segs: list, modules: set, reexp: dict):
    if head == "crate":
        base = ()
    elif head == "self":
        base = mod
    else:  # super
        base = mod[:-1]
    while segs and segs[0] == "super":
        base, segs = base[:-1], segs[1:]
    best, path, rest = base, base, segs
    for i, s in enumerate(segs):
        path = path + (s,)
        if path in modules:
            best, rest = path, segs[i + 1:]
        else:
            break
    # An item re-exported by the module named: the module that defines it
    # (followed through chains of re-exports).
    seen = set()
    while rest and rest[0] in reexp.get(best, {}) and best not in seen:
        seen.add(best)
        best = reexp[best][rest[0]]
    return best


def paths_in(text: str):
    found = [(h, [s for s in rest.split("::") if s]) for h, rest in PATH_RE.findall(text)]
    for h, rest, group in USE_GROUP_RE.findall(text):
        prefix = [s for s in rest.split("::") if s]
        for item in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", group):
            found.append((h, prefix + [item]))
    # A module brought in by `use` (`use crate::arch;`), then named through it
    # (`arch::mul_x4`): the longer path, so a re-export in it is followed.
    for h, segs in list(found):
        last = segs[-1] if segs else ""
        if last and last[0].islower() and last not in ("self", "super", "crate"):
            for more in re.findall(r"(?<![:\w])" + re.escape(last) + r"((?:::[A-Za-z_][A-Za-z0-9_]*)+)", text):
                found.append((h, segs + [x for x in more.split("::") if x]))
    return found


def analyse(crate: Path):
    src = crate / "src"
    files = sorted(p for p in src.rglob("*.rs"))
    modules = {module_of(src, f): f for f in files}
    names = set(modules)
    reexp = {m: reexports(m, split_test_modules(strip_comments(f.read_text()))[0], names)
             for m, f in modules.items()}
    edges = {m: set() for m in modules}
    for m, f in modules.items():
        code, tests = split_test_modules(strip_comments(f.read_text()))
        # (module the path is written in, path): an inline test module's
        # `super::` is the file's module; its edges count as the file's.
        found = [(m, h, segs) for h, segs in paths_in(code)]
        for name, body in tests:
            found += [(m + (name,), h, segs) for h, segs in paths_in(body)]
        for ctx, h, segs in found:
            t = resolve(ctx, h, segs, names, reexp)
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


MOD_ITEM_RE = re.compile(r"((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;")
PATH_ATTR_RE = re.compile(r'#\[path\s*=\s*"([^"]+)"\]')


def test_target_problems(crate: Path, root: Path):
    """With `autotests = false`: the files cargo would have found as tests
    (`tests/*.rs`, `tests/*/main.rs`) that no `[[test]]` target compiles."""
    toml = crate / "Cargo.toml"
    if not toml.exists() or not re.search(r"^autotests\s*=\s*false", toml.read_text(), re.M):
        return []
    tests = crate / "tests"
    roots = []
    for block in re.split(r"^\[", toml.read_text(), flags=re.M):
        if not block.startswith("[test]]"):
            continue
        path = re.search(r'^path\s*=\s*"([^"]+)"', block, re.M)
        name = re.search(r'^name\s*=\s*"([^"]+)"', block, re.M)
        if path:
            roots.append(crate / path.group(1))
        elif name:
            roots += [tests / f"{name.group(1)}.rs", tests / name.group(1) / "main.rs"]
    # (file, whether it owns its folder: a target's root, a mod.rs, a file
    # loaded through #[path]; a plain `name.rs` module's children are in name/).
    todo = [(Path(os.path.normpath(r)), True) for r in roots]
    reached = set()
    while todo:
        f, owner = todo.pop()
        if f in reached or not f.is_file():
            continue
        reached.add(f)
        for attrs, name in MOD_ITEM_RE.findall(strip_comments(f.read_text(errors="replace"))):
            attr = PATH_ATTR_RE.search(attrs)
            if attr:
                todo.append((Path(os.path.normpath(f.parent / attr.group(1))), True))
                continue
            base = f.parent if owner else f.parent / f.stem
            todo += [(base / f"{name}.rs", False), (base / name / "mod.rs", True)]
    found = sorted(tests.glob("*.rs")) + sorted(tests.glob("*/main.rs")) if tests.is_dir() else []
    return [f"test targets: {f.relative_to(root)} is compiled by no [[test]] target of "
            f"{toml.relative_to(root)} (autotests = false): add it to tests/all.rs "
            f"(`#[path = \"{f.relative_to(tests)}\"] mod ...;`) or as a [[test]]"
            for f in found if f not in reached]


def section(text: str, title: str):
    """The lines of the `## title` section (up to the next `## ` heading), or None."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().lower() == "## " + title.lower():
            out = []
            for rest in lines[i + 1:]:
                if rest.startswith("## "):
                    break
                out.append(rest)
            return out
    return None


def source_map_problems(crate: Path, root: Path):
    """Files under src/ the README's Source map does not name, and paths it
    names that do not exist."""
    readme = crate / "README.md"
    if not readme.exists():
        return []
    rel_readme = readme.relative_to(root)
    lines = section(readme.read_text(), "Source map")
    if lines is None:
        return [f"source map: {rel_readme} has no '## Source map' section"]
    src = crate / "src"
    files = sorted(str(f.relative_to(src)) for f in src.rglob("*.rs"))
    named = set()       # every backticked token of the section
    dir_rows = []       # (folder "d/", tokens of the row)
    first_cells = []    # (line, tokens of the row's first cell)
    for line in lines:
        tokens = BACKTICK_RE.findall(line)
        named.update(tokens)
        if line.lstrip().startswith("|"):
            cells = line.strip().strip("|").split("|")
            first = BACKTICK_RE.findall(cells[0]) if cells else []
            first_cells.append(first)
            for t in first:
                if t.endswith("/"):
                    dir_rows.append((t, set(tokens)))
    problems = []
    for f in files:
        ok = f in named
        for d, tokens in dir_rows:
            if ok:
                break
            if f.startswith(d):
                rest = f[len(d):]
                ok = rest == "mod.rs" or rest in tokens or Path(f).name in tokens
        if not ok:
            problems.append(f"source map: {rel_readme} does not name src/{f}")
    for first in first_cells:
        dirs = [t for t in first if t.endswith("/")]
        for t in first:
            if not (t.endswith(".rs") or t.endswith("/")):
                continue
            # A bare name beside a folder (`sort/` (`records.rs`)) is in it.
            where = [t] + ([d + t for d in dirs] if "/" not in t else [])
            if not any((src / w).exists() for w in where):
                problems.append(f"source map: {rel_readme} names src/{t}, which does not exist")
    return problems


def tracked_top_dirs(root: Path):
    """Top-level folders git tracks (the folders on disk when ROOT is no git
    work tree, as in --self-test)."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files"], check=True,
                             capture_output=True, text=True).stdout
        if (root / ".git").exists():
            return sorted({p.split("/")[0] for p in out.splitlines() if "/" in p})
    except (OSError, subprocess.CalledProcessError):
        pass
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.name not in (".git", "target"))


def layout_problems(root: Path):
    readme = root / "README.md"
    lines = section(readme.read_text(), "Layout") if readme.exists() else None
    if lines is None:
        return ["layout: README.md has no '## Layout' section"]
    block, inside = [], False
    for line in lines:
        if line.startswith("```"):
            if inside:
                break
            inside = True
            continue
        if inside:
            block.append(line)
    paths = []
    for line in block:
        # The path column: up to the first run of two spaces (the description).
        head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        for p in head.split(","):
            p = p.strip()
            if p and ("/" in p or p.startswith(".")):
                paths.append(p.rstrip("/"))
    problems = []
    listed_top = {p.split("/")[0] for p in paths}
    for d in tracked_top_dirs(root):
        if d not in listed_top:
            problems.append(f"layout: README.md's Layout block does not name the folder {d}/")
    crates = root / "crates"
    if crates.is_dir():
        for c in sorted(crates.iterdir()):
            if (c / "Cargo.toml").exists() and f"crates/{c.name}" not in paths:
                problems.append(f"layout: README.md's Layout block does not name crates/{c.name}")
    for p in paths:
        if not (root / p).exists():
            problems.append(f"layout: README.md's Layout block names {p}, which does not exist")
    return problems


def other_files(root: Path):
    """{group folder: [files]} for the test / bench / example / fuzz / firmware caps."""
    groups = {}
    for pattern in OTHER_DIRS:
        for d in sorted(root.glob(pattern)):
            if not d.is_dir():
                continue
            fs = sorted(f for f in d.rglob("*.rs") if "target" not in f.relative_to(d).parts)
            if fs:
                groups[str(d.relative_to(root))] = fs
    return groups


def run(root: Path, max_lines: int, max_other: int, out=print, open_cycles=True):
    """Prints the tables; returns the list of problems."""
    report, seen_open, seen_arch = [], set(), set()
    out(f"{'library crate':<24} {'files':>5} {'lines':>6}  largest file (cap {max_lines})")
    libs = [c for c in sorted((root / "crates").iterdir()) if (c / "src").is_dir()]
    if (root / "src").is_dir():
        libs.append(root)
    for crate in libs:
        files = sorted((crate / "src").rglob("*.rs"))
        if not files:
            continue
        sizes = [(len(f.read_text().splitlines()), f) for f in files]
        total = sum(n for n, _ in sizes)
        n, big = max(sizes)
        name = crate.name if crate != root else "(root) src"
        out(f"{name:<24} {len(files):>5} {total:>6}  {big.relative_to(crate / 'src')} ({n})")
        if crate != root:
            _, _, edges = analyse(crate)
            for comp in cycles(edges):
                names = ", ".join("::".join(c) for c in comp)
                if (crate.name, names) in OPEN_CYCLES:
                    seen_open.add((crate.name, names))
                else:
                    report.append(f"cycle in {crate.name} (test code counted): {names}")
            report += source_map_problems(crate, root)
            found, opened = arch_site_problems(crate, root)
            report += found
            seen_arch |= opened
        for n, f in sizes:
            if n > max_lines:
                report.append(f"long file: {f.relative_to(root)} ({n} lines > {max_lines})")
    out("")
    out(f"{'tests / benches / examples':<24} {'files':>5} {'lines':>6}  largest file (cap {max_other})")
    for group, files in other_files(root).items():
        sizes = [(len(f.read_text(errors='replace').splitlines()), f) for f in files]
        n, big = max(sizes)
        out(f"{group:<24} {len(files):>5} {sum(k for k, _ in sizes):>6}  {big.relative_to(root / group)} ({n})")
        for n, f in sizes:
            if n > max_other:
                report.append(f"long file: {f.relative_to(root)} ({n} lines > {max_other})")
    report += layout_problems(root)
    for crate in sorted((root / "crates").iterdir()):
        if crate.is_dir():
            report += test_target_problems(crate, root)
    if open_cycles:
        out("")
        for (crate, names), why in OPEN_CYCLES.items():
            if (crate, names) in seen_open:
                out(f"open cycle (allowed, OPEN_CYCLES) in {crate}: {names}: {why}")
            elif (root / "crates" / crate).is_dir():
                out(f"stale OPEN_CYCLES entry (the cycle is gone, remove it): {crate}: {names}")
        for rel, why in OPEN_ARCH_SITES.items():
            if rel in seen_arch:
                out(f"open target_arch site (allowed, OPEN_ARCH_SITES): {rel}: {why}")
            elif (root / rel).exists() or (root / rel).parent.is_dir():
                out(f"stale OPEN_ARCH_SITES entry (no site left, remove it): {rel}")
    return report


def self_test():
    """Plants one violation of each kind in a temporary copy of what the check
    reads; each must add exactly its own finding."""
    real = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for d in tracked_top_dirs(real):
            (root / d).mkdir()
        shutil.copy(real / "README.md", root / "README.md")
        for c in sorted((real / "crates").iterdir()):
            if not c.is_dir():
                continue
            for name in ("README.md", "Cargo.toml"):
                if (c / name).exists():
                    (root / "crates" / c.name).mkdir(exist_ok=True)
                    shutil.copy(c / name, root / "crates" / c.name / name)
            if (c / "src").is_dir():
                shutil.copytree(c / "src", root / "crates" / c.name / "src")
            # The test targets' sources (the test-target check follows their `mod` items).
            for f in sorted((c / "tests").rglob("*.rs")) if (c / "tests").is_dir() else []:
                (root / f.relative_to(real)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(f, root / f.relative_to(real))
        silent = lambda *a: None  # noqa: E731
        base = set(run(root, LIBRARY_MAX, OTHER_MAX, silent))

        def planted(what, expect, plant, undo):
            plant()
            new = set(run(root, LIBRARY_MAX, OTHER_MAX, silent)) - base
            undo()
            hit = [p for p in new if expect in p]
            ok = len(hit) == 1 and len(new) == 1
            print(f"  {'caught' if ok else 'MISSED'}: {what}: {sorted(new) or 'no finding'}")
            return ok

        def write(rel, text):
            """Writes ROOT/rel; returns what removes it and the folders it made."""
            p = root / rel
            made = [d for d in reversed(p.relative_to(root).parents) if not (root / d).exists()]
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)

            def undo():
                p.unlink()
                for d in reversed(made):
                    (root / d).rmdir()
            return undo

        mapped = root / "crates/pqdr-mlkem"
        mapped_readme = (mapped / "README.md").read_text()
        readme = (root / "README.md").read_text()
        fn = "fn f() {}\n"
        checks = [
            ("library file over the cap", "long file: crates/zz-plant/src/lib.rs",
             lambda: write("crates/zz-plant/src/lib.rs", fn * (LIBRARY_MAX + 1)), "tree"),
            ("test file over the cap", "long file: tests/planted.rs",
             lambda: write("tests/planted.rs", fn * (OTHER_MAX + 1)), None),
            ("bench file over the cap", "long file: benches/planted.rs",
             lambda: write("benches/planted.rs", fn * (OTHER_MAX + 1)), None),
            ("fuzz target over the cap", "long file: fuzz/fuzz_targets/planted.rs",
             lambda: write("fuzz/fuzz_targets/planted.rs", fn * (OTHER_MAX + 1)), None),
            ("import cycle in library code", "cycle in zz-plant",
             lambda: [write("crates/zz-plant/src/lib.rs", "mod a;\nmod b;\n"),
                      write("crates/zz-plant/src/a.rs", "use crate::b::y;\npub fn x() {}\n"),
                      write("crates/zz-plant/src/b.rs", "use crate::a::x;\npub fn y() {}\n")], "tree"),
            ("import cycle through a #[cfg(test)] module only", "cycle in zz-plant",
             lambda: [write("crates/zz-plant/src/lib.rs", "mod a;\nmod b;\n"),
                      write("crates/zz-plant/src/a.rs",
                            "pub fn x() {}\n\n#[cfg(all(test, feature = \"x\"))]\nmod tests {\n"
                            "    use super::*;\n    use crate::b::y;\n}\n"),
                      write("crates/zz-plant/src/b.rs", "use crate::a::x;\npub fn y() {}\n")], "tree"),
            ("target_arch cfg outside arch/", "target_arch outside arch/: crates/zz-plant/src/lib.rs:2",
             lambda: [write("crates/zz-plant/src/lib.rs",
                            "mod arch;\n#[cfg(all(feature = \"simd\", target_arch = \"x86_64\"))]\nfn f() {}\n"
                            "#[cfg(all(\n    test,\n    target_arch = \"x86_64\"\n))]\nmod t {}\n"),
                      write("crates/zz-plant/src/arch/mod.rs",
                            "#[cfg(target_arch = \"x86_64\")]\npub(crate) fn g() {}\n")], "tree"),
            ("source file missing from its crate's Source map",
             "does not name src/planted_small.rs",
             lambda: write("crates/pqdr-mlkem/src/planted_small.rs", fn), None),
            ("Source map naming a file that does not exist", "names src/ghost.rs",
             lambda: (mapped / "README.md").write_text(
                 mapped_readme.replace("## Source map\n", "## Source map\n\n| `ghost.rs` | nothing |\n", 1)),
             "map"),
            ("top-level folder missing from the Layout", "does not name the folder planted/",
             lambda: write("planted/x.txt", "x\n"), None),
            ("test file no [[test]] target compiles (autotests = false)",
             "test targets: crates/pqdr-mlkem/tests/planted_alone.rs is compiled by no",
             lambda: write("crates/pqdr-mlkem/tests/planted_alone.rs", fn), None),
            ("Layout naming a folder that does not exist", "names ghostdir",
             lambda: (root / "README.md").write_text(
                 readme.replace("## Layout\n\n```text\n", "## Layout\n\n```text\nghostdir/                 nothing\n", 1)),
             "readme"),
        ]
        # A test file between the two caps must not be reported.
        undo_mid = write("tests/mid.rs", fn * (LIBRARY_MAX + 10))
        mid = set(run(root, LIBRARY_MAX, OTHER_MAX, silent)) - base
        undo_mid()
        ok = not mid
        print(f"  {'quiet' if ok else 'FALSE ALARM'}: a {LIBRARY_MAX + 10}-line test file (library cap, not test cap)")
        # A new test file added to tests/all.rs must not be reported.
        all_rs = root / "crates/pqdr-mlkem/tests/all.rs"
        all_text = all_rs.read_text()
        undo_listed = write("crates/pqdr-mlkem/tests/planted_listed.rs", fn)
        all_rs.write_text(all_text + '#[path = "planted_listed.rs"]\nmod planted_listed;\n')
        listed = set(run(root, LIBRARY_MAX, OTHER_MAX, silent)) - base
        all_rs.write_text(all_text)
        undo_listed()
        ok &= not listed
        print(f"  {'quiet' if not listed else 'FALSE ALARM'}: a test file added to tests/all.rs {sorted(listed) or ''}")
        for what, expect, plant, kind in checks:
            result = []

            def do_plant(plant=plant, result=result):
                result.append(plant())

            def undo(kind=kind, result=result):
                if kind == "tree":
                    shutil.rmtree(root / "crates/zz-plant")
                elif kind == "map":
                    (mapped / "README.md").write_text(mapped_readme)
                elif kind == "readme":
                    (root / "README.md").write_text(readme)
                else:
                    result[0]()
            ok &= planted(what, expect, do_plant, undo)
    if not ok:
        print("structure self-test FAILED")
        return 1
    print(f"structure self-test: all {len(checks)} planted violations caught, no false alarm")
    return 0


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        return self_test()
    check = "--check" in args
    max_lines, max_other = LIBRARY_MAX, OTHER_MAX
    if "--max-lines" in args:
        max_lines = int(args[args.index("--max-lines") + 1])
    if "--max-other-lines" in args:
        max_other = int(args[args.index("--max-other-lines") + 1])
    rest = [a for i, a in enumerate(args)
            if not a.startswith("--") and (i == 0 or args[i - 1] not in ("--max-lines", "--max-other-lines"))]
    root = Path(rest[0]) if rest else Path(__file__).resolve().parent.parent
    report = run(root, max_lines, max_other)
    print("")
    for line in report:
        print(line)
    if not report:
        print(f"no import cycles (test code counted); every library file <= {max_lines} lines, "
              f"every test / bench / example file <= {max_other}; every Source map and the Layout complete; every test file in a test target; "
              f"no target_arch cfg outside arch/")
    else:
        print(f"structure: {len(report)} problem(s)")
    return 1 if check and report else 0


if __name__ == "__main__":
    sys.exit(main())

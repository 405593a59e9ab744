#!/usr/bin/env python3
"""One SVG bar chart per algorithm from criterion's saved estimates or a race log.

Criterion writes target/criterion/<group>/<function>/<baseline>/{benchmark,estimates}.json;
`--save-baseline NAME` names the run. This script reads the medians of the
groups it is given, from one or more baselines (e.g. the default run `new`,
with the SIMD paths, and a `portable` run built with `--no-default-features`),
and draws one panel per operation, one bar per implementation, fastest first,
with the time and the ratio to pqdr's bar.

    scripts/bench-chart.py --title ML-KEM-768 \
        --group ML-KEM-768/keygen --group ML-KEM-768/encaps --group ML-KEM-768/decaps \
        --baseline new --label pqdr="pqdr (AVX2)" \
        --extra portable:pqdr="pqdr (portable)" \
        --out charts/mlkem768.svg --markdown

With `--race FILE` the medians come from the output of the interleaved race
(`cargo run --release --features bench-peers --example race -- …`: its
`<!-- median µs: op: name t, …; op: … -->` line after each set's table) instead
of criterion; groups are `SET/OP` (e.g. `mlkem768/decaps`), functions the race's
contestant names (`pqdr`, `PQClean AVX2`, `AWS-LC`, …):

    scripts/bench-chart.py --race docs/charts/race-2026-12-03.txt --title ML-KEM-768 \
        --group mlkem768/keygen --group mlkem768/encaps --group mlkem768/decaps \
        --label pqdr="pqdr (AVX2)" --out docs/charts/mlkem768.svg

No dependencies beyond the Python standard library.
"""

import argparse
import html
import json
import pathlib
import sys

PQDR_COLOURS = ["#1f5fa8", "#7fa9d9"]  # SIMD run, then portable run
PEER_COLOURS = ["#b8860b", "#8b5a2b", "#6b8e23", "#8e44ad", "#c0392b", "#2c7f7f", "#7f7f7f"]


def load(root: pathlib.Path, baseline: str) -> dict:
    """(group_id, function_id) -> median in nanoseconds, for one baseline."""
    out = {}
    for meta in root.glob(f"**/{baseline}/benchmark.json"):
        try:
            b = json.loads(meta.read_text())
            e = json.loads((meta.parent / "estimates.json").read_text())
        except (OSError, ValueError):
            continue
        group, func = b["group_id"], b["function_id"]
        if b.get("value_str"):  # BenchmarkId::new(op, implementation)
            group, func = f"{group}/{func}", b["value_str"]
        out[(group, func)] = e["median"]["point_estimate"]
    return out


def load_race(path: pathlib.Path) -> dict:
    """(SET/OP, contestant) -> median in nanoseconds, from a race log."""
    out = {}
    current = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.endswith(":") and " " not in line:
            current = line[:-1]
        elif line.startswith("<!-- median µs:") and current:
            body = line[len("<!-- median µs:"):].rstrip("->").strip()
            for op_part in body.split(";"):
                op, _, entries = op_part.strip().partition(":")
                for entry in entries.split(","):
                    name, _, value = entry.strip().rpartition(" ")
                    out[(f"{current}/{op.strip()}", name)] = float(value) * 1e3
    if not out:
        sys.exit(f"no race medians in {path}")
    return out


def fmt_time(ns: float) -> str:
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--criterion", default="target/criterion", type=pathlib.Path)
    p.add_argument("--race", type=pathlib.Path,
                   help="read medians from this race log instead of criterion")
    p.add_argument("--title", required=True)
    p.add_argument("--group", action="append", required=True,
                   help="criterion group id, one panel each (repeat)")
    p.add_argument("--baseline", default="new", help="the main run's baseline name")
    p.add_argument("--label", action="append", default=[],
                   help="FUNCTION=LABEL: display name of a function of the main run")
    p.add_argument("--extra", action="append", default=[],
                   help="BASELINE:FUNCTION=LABEL: one more bar from another run")
    p.add_argument("--only", action="append", default=[],
                   help="keep only these functions of the main run (repeat)")
    p.add_argument("--reference", default="pqdr",
                   help="function of the main run the ratios are relative to")
    p.add_argument("--out", type=pathlib.Path, required=True)
    p.add_argument("--markdown", action="store_true",
                   help="also print a markdown table (ratio = other / reference)")
    return p.parse_args(argv)


def collect(args):
    """[(group, [(label, ns, colour, is_reference)])], missing groups reported."""
    main = load_race(args.race) if args.race else load(args.criterion, args.baseline)
    labels = dict(kv.split("=", 1) for kv in args.label)
    extras = []
    for spec in args.extra:
        base, rest = spec.split(":", 1)
        func, label = rest.split("=", 1)
        extras.append((load(args.criterion, base), func, label))
    panels = []
    # One colour per peer function across all panels (first seen, first served).
    peer_colour = {}
    for group in args.group:
        rows = []
        funcs = sorted(f for (g, f) in main if g == group)
        if args.only:
            funcs = [f for f in funcs if f in args.only]
        for func in funcs:
            ref = func == args.reference
            if func.startswith("pqdr"):
                colour = PQDR_COLOURS[0]
            else:
                if func not in peer_colour:
                    peer_colour[func] = PEER_COLOURS[len(peer_colour) % len(PEER_COLOURS)]
                colour = peer_colour[func]
            rows.append((labels.get(func, func), main[(group, func)], colour, ref))
        for data, func, label in extras:
            if (group, func) in data:
                rows.append((label, data[(group, func)], PQDR_COLOURS[1], False))
        if not rows:
            sys.exit(f"no results for group {group!r} in {args.race or args.criterion}")
        rows.sort(key=lambda r: r[1])
        panels.append((group, rows))
    return panels


def svg(title, panels, source="criterion median time per operation"):
    width, left, right, bar, gap, head = 860, 190, 210, 16, 4, 26
    y = 40
    parts = []
    for group, rows in panels:
        ref = next((ns for (_, ns, _, is_ref) in rows if is_ref), None)
        longest = max(ns for (_, ns, _, _) in rows)
        parts.append(f'<text x="10" y="{y + 16}" class="op">{html.escape(group)}</text>')
        y += head
        for label, ns, colour, is_ref in rows:
            w = (width - left - right) * ns / longest
            ratio = f" · {ns / ref:.2f}× pqdr's time" if ref and not is_ref else ""
            weight = ' font-weight="bold"' if is_ref else ""
            parts.append(
                f'<text x="{left - 6}" y="{y + bar - 3}" text-anchor="end"{weight}>'
                f"{html.escape(label)}</text>"
                f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colour}"/>'
                f'<text x="{left + w + 4:.1f}" y="{y + bar - 3}">{fmt_time(ns)}{ratio}</text>')
            y += bar + gap
        y += 10
    height = y + 10
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">\n'
        '<style>.op{font-weight:bold;font-size:13px}</style>\n'
        f'<rect width="{width}" height="{height}" fill="white"/>\n'
        f'<text x="10" y="22" font-size="15" font-weight="bold">{html.escape(title)}'
        f" — {html.escape(source)} (shorter is faster)</text>\n"
        + "\n".join(parts) + "\n</svg>\n")


def markdown(panels):
    lines = ["| operation | implementation | median | time / pqdr's |", "|---|---|---|---|"]
    for group, rows in panels:
        ref = next((ns for (_, ns, _, is_ref) in rows if is_ref), None)
        for label, ns, _, _ in rows:
            r = f"{ns / ref:.2f}" if ref else ""
            lines.append(f"| {group} | {label} | {fmt_time(ns)} | {r} |")
    return "\n".join(lines)


def main(argv):
    args = parse_args(argv)
    panels = collect(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    source = ("interleaved race, median time per operation" if args.race
              else "criterion median time per operation")
    args.out.write_text(svg(args.title, panels, source))
    print(f"wrote {args.out}")
    if args.markdown:
        print(markdown(panels))


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Documentation references stay inside the repository (issue #33).

The repository's own specifications are docs/protocol/ratchet.md,
docs/protocol/handshake.md and docs/constant-time.md. Design notes that lived
outside the repository must not be cited any more. This script fails (exit 1,
one `file:line: reason` per finding) when a tracked file (`git ls-files`):

  * mentions the parent-directory notes folder (dot-dot slash "shared") or a
    path into it ("shared/" followed by a note's name, or the notes folder's
    absolute path, ABS_SHARED below);
  * names one of the old notes (RATCHET, HANDSHAKE, CONSTANT-TIME, DESIGN,
    STYLE, each with ".md", upper case) other than as part of a path into a
    docs/ directory;
  * is a Markdown file with a relative link `[text](target)`, an image
    `![alt](target)` or a reference definition `[label]: target` whose target
    (anchor and query removed; relative to the file, or to the repository root
    if it starts with "/") is not a tracked file or a directory holding tracked
    files. Links inside fenced code blocks and inline code are not links.

    python3 scripts/check-doc-refs.py              # check the repository
    python3 scripts/check-doc-refs.py --self-test  # plant bad references in a
                                                   # temporary tree; each must be found

Run by .ci/run right after the module-structure step.
"""
import os
import re
import subprocess
import sys
import tempfile
from urllib.parse import unquote

# Built at run time so that this file does not trip its own checks.
NOTES = ["RATCHET", "HANDSHAKE", "CONSTANT-TIME", "DESIGN", "STYLE"]
NOTE_FILES = [n + ".md" for n in NOTES]
PARENT_SHARED = ".." + "/shared"
ABS_SHARED = "/work" + "/shared"

# A bare note name: the name, with the path characters in front of it (if any).
NOTE_RE = re.compile(r"([A-Za-z0-9_.~/-]*?)(?<![A-Za-z0-9_-])(" + "|".join(
    re.escape(n) for n in NOTE_FILES) + r")(?![A-Za-z0-9_-])")
SHARED_NOTE_RE = re.compile(r"(?<![A-Za-z0-9_-])shared/(" + "|".join(
    re.escape(n) for n in NOTE_FILES) + r")", re.IGNORECASE)

# Markdown links. INLINE: [text](target "title") and ![alt](target);
# REFDEF: [label]: target at the start of a line.
INLINE_RE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+[\"'(][^)]*)?\)")
REFDEF_RE = re.compile(r"^\s{0,3}\[[^\]^][^\]]*\]:\s*(<[^>]*>|\S+)")
CODE_SPAN_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def tracked_files(root):
    out = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True,
                         capture_output=True).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None  # binary
    return data.decode("utf-8", "replace")


def name_findings(rel, text):
    """Mentions of the notes outside the repository."""
    found = []
    for no, line in enumerate(text.splitlines(), 1):
        if PARENT_SHARED in line:
            found.append((rel, no, "refers to " + PARENT_SHARED + " (notes outside the repository)"))
        elif ABS_SHARED in line:
            found.append((rel, no, "refers to " + ABS_SHARED + " (notes outside the repository)"))
        elif "shared/" in line.lower() and SHARED_NOTE_RE.search(line):
            found.append((rel, no, "path into the notes folder: " + SHARED_NOTE_RE.search(line).group(0)))
        if not any(n in line for n in NOTE_FILES):
            continue  # (fast path: the regex below is slow on long hex lines)
        for m in NOTE_RE.finditer(line):
            prefix, name = m.group(1), m.group(2)
            path = prefix + name
            if path.startswith("docs/") or "/docs/" in path:
                continue
            found.append((rel, no, f"names {name} (cite docs/protocol/ratchet.md, "
                          "docs/protocol/handshake.md or docs/constant-time.md instead)"))
    return found


def link_targets(text):
    """(line number, target) of every link outside code."""
    fence = None
    for no, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            if fence is None:
                fence = m.group(1)[0] * len(m.group(1))
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        plain = CODE_SPAN_RE.sub("", line)
        for m in INLINE_RE.finditer(plain):
            yield no, m.group(1)
        m = REFDEF_RE.match(plain)
        if m:
            yield no, m.group(1)


def link_findings(rel, text, exists):
    found = []
    base = os.path.dirname(rel)
    for no, target in link_targets(text):
        t = target.strip("<>")
        if not t or t.startswith("#") or SCHEME_RE.match(t) or t.startswith("//"):
            continue
        path = re.split(r"[#?]", t, maxsplit=1)[0]
        if not path:
            continue
        path = unquote(path)
        if path.startswith("/"):
            resolved = os.path.normpath(path.lstrip("/"))
        else:
            resolved = os.path.normpath(os.path.join(base, path))
        if resolved.startswith(".."):
            found.append((rel, no, f"link leaves the repository: {target}"))
        elif not exists(resolved):
            found.append((rel, no, f"broken link: {target} (no tracked file {resolved})"))
    return found


def check(root, files):
    tracked = set(files)
    dirs = {""}
    for f in files:
        d = os.path.dirname(f)
        while d and d not in dirs:
            dirs.add(d)
            d = os.path.dirname(d)

    def exists(p):
        p = "" if p == "." else p.rstrip("/")
        return p in tracked or p in dirs

    found = []
    for rel in files:
        text = read_text(os.path.join(root, rel))
        if text is None:
            continue
        found += name_findings(rel, text)
        if rel.endswith(".md"):
            found += link_findings(rel, text, exists)
    # One line per (file, line, reason), in file order.
    return list(dict.fromkeys(found))


def self_test():
    """Plants each kind of bad reference in a temporary tree; all must be found,
    and the good references beside them must not."""
    bad = {
        "a.md": [
            "See " + PARENT_SHARED + "/notes for details.",            # 1
            "As " + NOTE_FILES[0] + " §1.8 says.",                      # 2
            "The [spec](docs/protocol/missing.md) is gone.",            # 3
            "![chart](docs/charts/none.svg)",                           # 4
            "[old]: ../outside.md",                                     # 5
            "Copied from " + ABS_SHARED + "/vectors.",                  # 6
            "Path: shared/" + NOTE_FILES[1] + ".",                      # 7
            "See crates/x/" + NOTE_FILES[3] + " too.",                  # 8
        ],
        "src/lib.rs": [
            "//! The protocol is " + NOTE_FILES[1] + " §5.",            # 1
            "// " + NOTE_FILES[2] + " recipe A",                        # 2
            "// see " + NOTE_FILES[4],                                  # 3
        ],
    }
    good = {
        "docs/protocol/handshake.md": [
            "# spec",
            "[ratchet](ratchet.md), [root](../../README.md#top), [web](https://example.org/x.md)",
            "[dir](../../src), [self](#spec), [abs](/README.md)",
            "`[not a link](nowhere.md)` and a path docs/" + NOTE_FILES[0] + " is fine.",
            "```",
            "[also not a link](nowhere.md)",
            "```",
        ],
        "docs/protocol/ratchet.md": ["ok"],
        "README.md": ["[docs](docs/protocol/handshake.md) [lib](src/lib.rs) BENCHMARKS.md"],
    }
    expected = {("a.md", n) for n in range(1, 9)} | {("src/lib.rs", n) for n in range(1, 4)}
    with tempfile.TemporaryDirectory() as root:
        for tree in (bad, good):
            for rel, lines in tree.items():
                os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write("\n".join(lines) + "\n")
        files = sorted(list(bad) + list(good))
        found = check(root, files)
    got = {(f, n) for f, n, _ in found}
    for f, n, why in found:
        print(f"  found {f}:{n}: {why}")
    missed = expected - got
    extra = got - expected
    if missed or extra:
        print(f"check-doc-refs self-test FAILED: missed {sorted(missed)}, false alarms {sorted(extra)}")
        return 1
    print(f"check-doc-refs self-test: all {len(expected)} planted bad references found, no false alarms")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if sys.argv[1:]:
        print(__doc__)
        return 2
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True,
                          capture_output=True, text=True).stdout.strip()
    files = tracked_files(root)
    found = check(root, files)
    for f, n, why in found:
        print(f"{f}:{n}: {why}")
    if found:
        print(f"check-doc-refs: {len(found)} problem(s) in {len({f for f, _, _ in found})} file(s)")
        return 1
    print(f"check-doc-refs: {len(files)} tracked files, no reference outside the repository, "
          "every relative Markdown link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())

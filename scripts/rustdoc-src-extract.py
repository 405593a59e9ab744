#!/usr/bin/env python3
"""Rebuild Rust library sources from rustdoc "source" pages (issue #20).

The rust-docs component ships every file of `core` as an HTML page under
`share/doc/rust/html/src/core/**.rs.html`.  Each page names its file in
`<meta name="description" content="Source of the Rust file `PATH`.">` and holds
the text in its `<pre>` block: line-number anchors (`<a ... data-nosnippet>N</a>`)
are dropped, every other tag is stripped and HTML entities are unescaped.

Usage: rustdoc-src-extract.py HTML_SRC_DIR OUT_DIR
Writes OUT_DIR/library/... (paths normalised, `..` resolved).  Prints the count.
"""

import html
import os
import posixpath
import re
import sys

DESC = re.compile(r'<meta name="description" content="Source of the Rust file `([^`]+)`\.">')
PRE = re.compile(r'<pre class="rust"><code>(.*?)</code></pre>', re.S)
LINENO = re.compile(r'<a href=#\d+ id=\d+ data-nosnippet>\d+</a>')
TAG = re.compile(r'<[^>]*>')


def extract(page: str):
    m = DESC.search(page)
    p = PRE.search(page)
    if not m or not p:
        return None, None
    path = posixpath.normpath(html.unescape(m.group(1)))
    body = LINENO.sub('', p.group(1))
    body = TAG.sub('', body)
    return path, html.unescape(body)


def main() -> int:
    src, out = sys.argv[1], sys.argv[2]
    n = 0
    for root, _dirs, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs.html'):
                continue
            with open(os.path.join(root, f), encoding='utf-8') as fh:
                path, text = extract(fh.read())
            if path is None:
                print(f'warning: no source in {root}/{f}', file=sys.stderr)
                continue
            if not path.startswith('library/') or '..' in path.split('/'):
                print(f'warning: skipping odd path {path}', file=sys.stderr)
                continue
            dst = os.path.join(out, path)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if not text.endswith('\n'):
                text += '\n'
            with open(dst, 'w', encoding='utf-8', newline='') as fh:
                fh.write(text)
            n += 1
    print(n)
    return 0 if n else 1


if __name__ == '__main__':
    sys.exit(main())

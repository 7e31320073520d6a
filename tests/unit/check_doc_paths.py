#!/usr/bin/env python3
"""Every file path named in docs/architecture.md's tables exists.

Usage (ctest runs it): check_doc_paths.py <repo-root> [doc ...]

The tables are the newcomer's map (rooms, where is op X, the pipeline's and
the runtime's files): a path there that no longer exists sends them looking
for nothing. A backticked token in a table cell is a path when it ends in a
source/doc extension (or is a folder ending in '/'); `a_{x,y}.c`,
`a{,_b}.c` and `pipeline_queue.c/.h` are expanded, `*` globs. Cells write
paths relative to different roots (`ops/resize_op.c`, `x86/resize_*.c`,
`parity_color.cpp`), and file names are unique across the tree (a layering
rule), so a token matches when some file of the tree ends with it.
Exits 1 listing every token that matches nothing."""
import fnmatch
import os
import re
import sys

EXT = r"(c|h|cu|cuh|cpp|hpp|py|pyi|cmake|sh|md|in|txt|toml|json|yml|yaml)"
PATHLIKE = re.compile(r"^[\w./{},*+-]+\." + EXT + r"$|^[\w./*-]+/$")


def expand(tok):
    m = re.search(r"\{([^{}]*)\}", tok)
    if m:
        out = []
        for alt in m.group(1).split(","):
            out += expand(tok[: m.start()] + alt + tok[m.end():])
        return out
    m = re.match(r"^(.*)\.(\w+)/\.(\w+)$", tok)  # pipeline_queue.c/.h
    if m:
        return [f"{m.group(1)}.{m.group(2)}", f"{m.group(1)}.{m.group(3)}"]
    return [tok]


def tree(root):
    files, dirs = [], set()
    for d, subdirs, names in os.walk(root):
        subdirs[:] = [s for s in subdirs if not (s.startswith("build") or s.startswith(".") or s == "__pycache__")]
        rel = os.path.relpath(d, root)
        rel = "" if rel == "." else rel + "/"
        dirs.add(rel)
        files += [rel + n for n in names]
    return files, dirs


def matches(tok, files, dirs):
    if tok.endswith("/"):
        return any(("/" + d).endswith("/" + tok) for d in dirs)
    pat = "*/" + tok
    return any(fnmatch.fnmatchcase("/" + f, pat) for f in files)


def table_tokens(text):
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.lstrip().startswith("|"):
            continue
        for tok in re.findall(r"`([^`]+)`", line):
            tok = tok.strip()
            if " " in tok or not PATHLIKE.match(tok):
                continue
            yield lineno, tok


def main(argv):
    root = argv[1]
    docs = argv[2:] or ["docs/architecture.md"]
    files, dirs = tree(root)
    bad, n = [], 0
    for doc in docs:
        text = open(os.path.join(root, doc), encoding="utf-8").read()
        for lineno, tok in table_tokens(text):
            for path in expand(tok):
                n += 1
                if not matches(path, files, dirs):
                    bad.append(f"{doc}:{lineno}: `{tok}`: no file of the tree ends with {path}")
    for b in bad:
        print(b)
    print(f"check_doc_paths: {n - len(bad)} passed, {len(bad)} failed")
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

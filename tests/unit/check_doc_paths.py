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

The "Where is op X" table is also checked for completeness: it has the
"Python binding" and "anchor shim" columns, every row fills every column,
each of those two cells names a path (checked above like every token) or
says "-" and why, and every op binding of the extension
(python/src/ops_*.c, post_*.c) and every benchmark anchor shim
(bench/opencv_*.cpp but the image loader opencv_io.cpp) is named in its
column, so an op added without its map entry fails too.

`--self-test` runs the checks on broken copies of the table (a path that
does not exist, an empty binding cell, a binding file left out) and fails
unless each is caught.
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


OP_TABLE = "## Where is op X"
OP_COLUMNS = ("Python binding", "anchor shim")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def path_tokens(cell):
    return [t.strip() for t in re.findall(r"`([^`]+)`", cell) if " " not in t.strip() and PATHLIKE.match(t.strip())]


def check_op_table(doc, text, files):
    """The op table's binding and shim columns: present, filled, complete. Returns (checks, failures)."""
    lines = text.splitlines()
    if OP_TABLE not in lines:
        return 1, [f"{doc}: no '{OP_TABLE}' section"]
    k = lines.index(OP_TABLE) + 1
    while k < len(lines) and not lines[k].startswith("|"):
        k += 1
    header = cells(lines[k]) if k < len(lines) else []
    idx = {}
    for name in OP_COLUMNS:
        hit = [i for i, h in enumerate(header) if h.startswith(name)]
        if not hit:
            return 1, [f"{doc}:{k + 1}: the op table has no '{name}' column"]
        idx[name] = hit[0]
    bad, n = [], 0
    named = {name: set() for name in OP_COLUMNS}
    k += 2  # past the separator
    while k < len(lines) and lines[k].startswith("|"):
        row = cells(lines[k])
        n += 1
        if len(row) != len(header):
            bad.append(f"{doc}:{k + 1}: {len(row)} cells for the table's {len(header)} columns")
        for name, i in idx.items():
            cell = row[i] if i < len(row) else ""
            toks = path_tokens(cell)
            if not toks and not cell.startswith("-"):
                bad.append(f"{doc}:{k + 1}: the '{name}' cell names no file and does not say '-' (none) and why")
            named[name].update(os.path.basename(p) for t in toks for p in expand(t))
        k += 1
    want = {
        "Python binding": sorted(os.path.basename(f) for f in files
                                 if re.fullmatch(r"python/src/(ops|post)_\w+\.c", f)),
        "anchor shim": sorted(os.path.basename(f) for f in files
                              if re.fullmatch(r"bench/opencv_\w+\.cpp", f) and not f.endswith("opencv_io.cpp")),
    }
    for name, need in want.items():
        for f in need:
            n += 1
            if f not in named[name]:
                bad.append(f"{doc}: `{f}` is not named in the op table's '{name}' column")
    return n, bad


def check(root, docs, files, dirs, texts=None):
    bad, n = [], 0
    for doc in docs:
        text = texts[doc] if texts else open(os.path.join(root, doc), encoding="utf-8").read()
        for lineno, tok in table_tokens(text):
            for path in expand(tok):
                n += 1
                if not matches(path, files, dirs):
                    bad.append(f"{doc}:{lineno}: `{tok}`: no file of the tree ends with {path}")
        if doc == "docs/architecture.md":
            m, b = check_op_table(doc, text, files)
            n += m
            bad += b
    return n, bad


def self_test(root, files, dirs):
    """Each breakage of the op table must be caught; returns the number that were not."""
    doc = "docs/architecture.md"
    text = open(os.path.join(root, doc), encoding="utf-8").read()
    row = next(line for line in text.splitlines() if line.startswith("| `pf_lut` |"))
    broken = {
        "a binding path that does not exist": row.replace("`python/src/ops_lut.c`", "`python/src/ops_gone.c`"),
        "an empty binding cell": row.replace("`python/src/ops_lut.c`", ""),
        "a shim path that does not exist": row.replace("`bench/opencv_lut.cpp`", "`bench/opencv_gone.cpp`"),
    }
    missed = 0
    for what, line in broken.items():
        assert line != row, what
        _, bad = check(root, [doc], files, dirs, {doc: text.replace(row, line)})
        print(f"self-test: {what}: {'caught' if bad else 'NOT caught'}")
        missed += not bad
    _, bad = check(root, [doc], files + ["python/src/ops_new_family.c"], dirs, {doc: text})
    print(f"self-test: a binding file left out of the table: {'caught' if bad else 'NOT caught'}")
    return missed + (not bad)


def main(argv):
    root = argv[1]
    files, dirs = tree(root)
    if argv[2:] == ["--self-test"]:
        missed = self_test(root, files, dirs)
        print(f"check_doc_paths --self-test: {missed} breakage(s) not caught")
        return 1 if missed else 0
    docs = argv[2:] or ["docs/architecture.md"]
    n, bad = check(root, docs, files, dirs)
    for b in bad:
        print(b)
    print(f"check_doc_paths: {n - len(bad)} passed, {len(bad)} failed")
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

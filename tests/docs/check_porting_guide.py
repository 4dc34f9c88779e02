#!/usr/bin/env python3
"""Checks docs/porting-from-java.md against Redisson's operation list and our headers.

Usage: check_porting_guide.py REPO_ROOT [GUIDE] [--coverage]

The guide has one section per Redisson type of API-COVERAGE.md:

    ## RMap — `Map`                      (the C++ class, or a sentence saying why there is none)
    | `readAllMap` | `read_all_map` |     (the C++ operation(s): each must be public on the class,
    | `entrySet` | — why not ... |        or Class::op on another class; `—` gives the reason
    | `compute` | not yet |               there is none; `not yet`: missing, counts against coverage)
    C++ only: `entries`, `lock_name`.      (operations with no Redisson name)

It fails when a Redisson name has no row (or a row names no Redisson operation), when a row names
a C++ operation the header does not have, or when a class has a public operation that neither its
section nor the section of a base class names (async_x is named by x). So the guide cannot drift
from include/redisson/: adding or removing an operation means updating the guide.
--coverage prints, per type, how many Redisson operations have a C++ operation or a reason.
"""

import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import cpp_api  # noqa: E402

SNAKE = re.compile(r"^(?:([A-Z]\w*)::)?([a-z][a-z0-9_]*)(?:\(\))?$")


def read_coverage(root):
    shared = root.parent / "shared" / "API-COVERAGE.md"
    copy = root / "tests" / "fixtures" / "API-COVERAGE.md"
    text = copy.read_text()
    if shared.exists() and shared.read_text() != text:
        sys.exit(f"{copy} differs from {shared}: copy the shared list in")
    types = {}
    for name, count, line in re.findall(r"^## (\S+) \((\d+)\)\n\n(.*)$", text, re.M):
        ops = re.findall(r"`(\w+)`", line)
        assert len(ops) == int(count), name
        types[name] = ops
    return types


class Section:
    def __init__(self, java, head, line):
        self.java, self.head, self.line = java, head, line
        m = re.fullmatch(r"`(\w+)`.*", head)
        self.cpp = m.group(1) if m else None
        self.rows = {}  # Java name -> C++ cell
        self.text = []  # every line, for the names it mentions


def read_guide(path):
    sections, cur = {}, None
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = re.match(r"^## (R\w+|RObject\+RExpirable) — (.+)$", line)
        if m:
            cur = Section(m.group(1), m.group(2).strip(), n)
            if cur.java in sections:
                raise SystemExit(f"{path}:{n}: a second section for {cur.java}")
            sections[cur.java] = cur
            continue
        if line.startswith("## "):
            cur = None
        if cur is None:
            continue
        cur.text.append(line)
        r = re.match(r"^\| `(\w+)` \| (.*) \|$", line)
        if r:
            if r.group(1) in cur.rows:
                raise SystemExit(f"{path}:{n}: {cur.java}.{r.group(1)} has two rows")
            cur.rows[r.group(1)] = (r.group(2).strip(), n)
    return sections


def ancestors(classes, name, args=None, out=None):
    out = out if out is not None else []
    info = classes.get(name)
    if info is None or name in out:
        return out
    out.append(name)
    subst = dict(zip(info.params, args or []))
    for b in info.bases:
        bname, bargs = cpp_api.base_name(b)
        if bname in subst:
            bname, bargs = cpp_api.base_name(subst[bname])
        ancestors(classes, bname, bargs, out)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = pathlib.Path(args[0]).resolve()
    guide = pathlib.Path(args[1]) if len(args) > 1 else root / "docs" / "porting-from-java.md"
    coverage = read_coverage(root)
    sections = read_guide(guide)
    classes = cpp_api.scan(root / "include" / "redisson")
    errors = []
    by_class = {s.cpp: s for s in sections.values() if s.cpp}

    def err(line, msg):
        errors.append(f"{guide}:{line}: {msg}")

    for java in coverage:
        if java not in sections:
            err(0, f"no section for {java} (## {java} — `Class` or — why there is none)")
    for java, s in sections.items():
        if java not in coverage:
            err(s.line, f"{java} is not a type of API-COVERAGE.md")
            continue
        if s.cpp is None:
            if s.rows:
                err(s.line, f"{java} has no C++ class but has rows")
            continue
        if s.cpp not in classes:
            err(s.line, f"{java}: no class {s.cpp} in include/redisson/")
            continue
        ops = cpp_api.public_operations(classes, s.cpp)
        for name in coverage[java]:
            if name not in s.rows:
                err(s.line, f"{java}.{name}: no row")
        for name, (cell, line) in s.rows.items():
            if name not in coverage[java]:
                err(line, f"{java}.{name} is not in API-COVERAGE.md")
            if cell.startswith("not yet"):
                continue
            if cell.startswith("—"):
                if len(cell) < 8:
                    err(line, f"{java}.{name}: — needs the reason")
            elif not cell.startswith("`"):
                err(line, f"{java}.{name}: `op`, — reason, or not yet")
            for token in re.findall(r"`([^`]+)`", cell):
                m = SNAKE.match(token)
                if not m:
                    continue
                owner = m.group(1) or s.cpp
                if owner not in classes:
                    err(line, f"{java}.{name}: no class {owner}")
                elif m.group(2) not in cpp_api.public_operations(classes, owner):
                    err(line, f"{java}.{name}: {owner} has no public {m.group(2)}")
        mentioned = set()
        for cls in ancestors(classes, s.cpp):
            sec = by_class.get(cls)
            if sec:
                for t in sec.text:
                    mentioned.update(re.findall(r"`(?:\w+::)?(\w+)(?:\(\))?`", t))
        for op, owner in sorted(ops.items()):
            plain = op[len("async_") :] if op.startswith("async_") else op
            if op not in mentioned and plain not in mentioned:
                err(s.line, f"{java}: {s.cpp}::{op} ({owner}) is public but the guide does not name it")

    if "--coverage" in sys.argv:
        print(f"{'type':28} {'C++':24} mapped explained not-yet  share")
        for java, names in coverage.items():
            s = sections.get(java)
            rows = s.rows if s else {}
            mapped = sum(1 for n in names if n in rows and not rows[n][0].startswith(("—", "not yet")))
            explained = sum(1 for n in names if n in rows and rows[n][0].startswith("—"))
            missing = len(names) - mapped - explained
            cpp = s.cpp if s and s.cpp else "-"
            print(f"{java:28} {cpp:24} {mapped:6} {explained:9} {missing:7}  {100 * (mapped + explained) // len(names):4}%")
    if errors:
        print("\n".join(errors))
        print(f"porting guide: {len(errors)} problem(s)")
        return 1
    print(f"porting guide: {len(sections)} types checked against include/redisson/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

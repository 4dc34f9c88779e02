"""The public operations of redisson-cpp's classes, read from the headers in include/redisson/.

A small scanner, not a C++ parser: it relies on the headers being clang-formatted (STYLE.md) and
finds, for every class and struct at namespace scope, its template parameters, its public bases and
the names of its public member functions (constructors, operators and friends left out;
`using Base::name;` counts as a member). public_operations() then adds what public bases give,
substituting a base that is a template parameter (BlockingPops<Queue<T>> : public Base).
"""

import pathlib
import re

IDENT = re.compile(r"[A-Za-z_]\w*")


def strip_comments(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)  # a literal's content never matters here
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_top(text, sep=","):
    """Splits at `sep` outside <>, (), [] and {}."""
    parts, depth, cur = [], 0, []
    for c in text:
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def base_name(type_text):
    """`detail::BlockingPops<Queue<T>>` -> ("BlockingPops", ["Queue<T>"])."""
    t = type_text.strip()
    args = []
    if "<" in t:
        head, rest = t.split("<", 1)
        args = [a.strip() for a in split_top(rest.rsplit(">", 1)[0])]
    else:
        head = t
    return head.split("::")[-1].strip(), args


def matching(text, i, open_c, close_c):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced " + open_c)


class ClassInfo:
    def __init__(self, name, params, bases, header):
        self.name, self.params, self.bases, self.header = name, params, bases, header
        self.methods = set()  # public member function names, own


def statements(body):
    """Yields (text, is_definition) for every declaration at depth 0 of a class body."""
    i, n, start = 0, len(body), 0
    while i < n:
        c = body[i]
        if c == "{":
            j = matching(body, i, "{", "}")
            head = body[start:i]
            yield head, True
            i = j + 1
            if i < n and body[i] == ";":
                i += 1
            start = i
            continue
        if c == "(":
            i = matching(body, i, "(", ")") + 1
            continue
        if c == ";":
            yield body[start:i], False
            start = i + 1
        elif c == ":" and re.fullmatch(r"\s*(public|protected|private)\s*", body[start:i]):
            yield body[start : i + 1], False
            start = i + 1
        i += 1


def drop_template_prefix(decl):
    d = decl.strip()
    while d.startswith("template"):
        k = d.find("<")
        d = d[matching(d, k, "<", ">") + 1 :].strip()
    return d


def function_name(decl):
    """The name a member declaration declares, if it declares a function."""
    d = drop_template_prefix(decl)
    d = re.sub(r"\bdecltype\s*\(", "(", d)  # decltype(...) is a type, not the name
    if re.match(r"(friend|using|typedef|static_assert|enum|class|struct|union)\b", d):
        return None
    d = re.sub(r"^requires\s+[^(]*?(?=\b\w+\s+\w+\s*\()", "", d)
    depth = 0
    for i, c in enumerate(d):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth <= 0:
            head = d[:i].rstrip()
            if re.search(r"operator\W*$", head) or "operator" in head.split()[-1:]:
                return None
            m = re.search(r"(~?[A-Za-z_]\w*)$", head)
            return m.group(1) if m else None
    return None


def scan_header(path, classes):
    text = strip_comments(path.read_text())
    head_re = re.compile(
        r"(template\s*<(?P<params>[^{;]*?)>\s*)?\b(?P<kind>class|struct)\s+(?P<name>[A-Za-z_]\w*)"
        r"(\s+final)?\s*(:(?P<bases>[^{;]*))?\{"
    )
    alias_re = re.compile(r"\busing\s+(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<type>[^;]+);")
    pos = 0
    while True:
        m = head_re.search(text, pos)
        for a in alias_re.finditer(text, pos, m.start() if m else len(text)):
            # a namespace-scope alias (SetMultimap = MultimapBase<...>): a class with one base
            info = ClassInfo(a.group("name"), [], [a.group("type").strip()], path)
            classes.setdefault(info.name, info)
        if not m:
            break
        brace = m.end() - 1
        end = matching(text, brace, "{", "}")
        params = []
        if m.group("params"):
            for p in split_top(m.group("params")):
                words = IDENT.findall(p.split("=")[0])
                if words:
                    params.append(words[-1])
        bases = []
        for b in split_top(m.group("bases") or ""):
            b = b.strip()
            access = "private" if m.group("kind") == "class" else "public"
            for word in ("public", "protected", "private", "virtual"):
                if b.startswith(word + " "):
                    if word != "virtual":
                        access = word
                    b = b[len(word) + 1 :].strip()
            if access == "public":
                bases.append(b)
        info = ClassInfo(m.group("name"), params, bases, path)
        access = "private" if m.group("kind") == "class" else "public"
        for decl, _ in statements(text[brace + 1 : end]):
            d = decl.strip()
            am = re.fullmatch(r"(public|protected|private)\s*:", d)
            if am:
                access = am.group(1)
                continue
            if access != "public":
                continue
            um = re.fullmatch(r"using\s+[\w:<>, ]+::(~?\w+)", d)
            if um and um.group(1) not in ("Base",):
                info.methods.add(um.group(1))
                continue
            name = function_name(d)
            if name and name != info.name and not name.startswith("~"):
                info.methods.add(name)
        if info.name not in classes or not classes[info.name].methods:
            classes[info.name] = info  # a definition wins over a forward declaration
        pos = end + 1  # nested classes are not API types of their own here


def scan(include_dir):
    classes = {}
    for path in sorted(pathlib.Path(include_dir).rglob("*.hpp")):
        if "/impl/" in str(path):
            continue
        scan_header(path, classes)
    return classes


def public_operations(classes, name, args=None, seen=None):
    """Operation name -> the class that declares it, for class `name` and its public bases."""
    seen = seen if seen is not None else set()
    info = classes.get(name)
    if info is None or name in seen:
        return {}
    seen.add(name)
    subst = dict(zip(info.params, args or []))
    ops = {}
    for b in info.bases:
        bname, bargs = base_name(b)
        if bname in subst:
            bname, bargs = base_name(subst[bname])
        for op, owner in public_operations(classes, bname, bargs, seen).items():
            ops.setdefault(op, owner)
    for op in info.methods:
        ops[op] = name
    return ops


if __name__ == "__main__":
    import sys

    cls = scan(sys.argv[1])
    for cname in sys.argv[2:]:
        ops = public_operations(cls, cname)
        print(cname, len(ops))
        for op in sorted(ops):
            print("  ", op, "(" + ops[op] + ")")

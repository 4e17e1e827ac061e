#!/usr/bin/env python3
"""Fails when a public name of sinter is missing from docs/api.md.

usage: check_api.py <include dir> <api.md>

Public: what headers under <include dir> (*.hpp, *.inl) declare directly in
namespace sinter, a namespace nested in it (sinter::random) or an inline
namespace of it (not sinter::detail, nor class
members): types, enums, concepts, aliases, functions, operators (`operator+`),
variables, also when a function-like macro declares them at namespace scope;
macros SINTER_* a header tests with #ifndef/defined() (not SINTER_DETAIL_*);
environment variables SINTER_* read with getenv. Documented: the name appears
in api.md inside backticks as a whole identifier, or in a `### ` heading.
A brace-tracking scanner finds the names; it first checks itself on SAMPLE.
"""
import os
import re
import sys

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>(?:u8|[uUL])?"(?:\\.|[^"\\\n])*")
  | (?P<chr>(?:u8|[uUL])?'(?:\\.|[^'\\\n])*')
  | (?P<num>\.?\d(?:[\w.]|'(?=\w)|[eEpP][+-])*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op><=>|<<=|>>=|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|.)
""", re.X | re.S)

# Keywords and specifiers that may precede a declared name.
SKIP_PAREN = {"decltype", "noexcept", "alignas", "__attribute__", "__declspec",
              "requires", "sizeof", "alignof", "explicit", "__launch_bounds__",
              "asm", "__asm__", "static_assert"}
CLASS_KEYS = {"class", "struct", "union", "enum"}


COMMENT = re.compile(r"""//[^\n]*|/\*.*?\*/|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')""", re.S)


def strip_comments(text):
    """Comments become a space; string and character literals are kept."""
    return COMMENT.sub(lambda m: m.group(1) or " ", text)


def tokenize(text):
    return [m.group() for m in TOKEN.finditer(text) if m.lastgroup != "ws"]


def split_preprocessor(text, branch):
    """Returns (code without directives, {macro: (params, body tokens)}).

    Of each #if/#elif/#else chain only one branch is kept (the first when
    `branch` is 0, the last when 1), so that braces opened differently in
    two branches stay balanced; the caller scans both ways."""
    text = text.replace("\\\n", " ")
    lines = text.split("\n")
    last, opened = [], []  # per #if in order: its last branch's index
    for line in lines:
        m = re.match(r"\s*#\s*(\w+)", line)
        if m and m.group(1) in ("if", "ifdef", "ifndef"):
            opened.append(len(last))
            last.append(0)
        elif m and m.group(1) in ("elif", "else") and opened:
            last[opened[-1]] += 1
        elif m and m.group(1) == "endif" and opened:
            opened.pop()
    macros, code, seen = {}, [], 0
    stack = []  # per open #if: [index of the current branch, index kept]
    for line in lines:
        m = re.match(r"\s*#\s*(\w+)(.*)", line)
        live = all(b == k for b, k in stack)
        if not m:
            code.append(line if live else "")
            continue
        code.append("")
        if m.group(1) in ("if", "ifdef", "ifndef"):
            stack.append([0, last[seen] if branch == 1 else 0])
            seen += 1
        elif m.group(1) in ("elif", "else") and stack:
            stack[-1][0] += 1
        elif m.group(1) == "endif" and stack:
            stack.pop()
        if not live:
            continue
        d = re.match(r"\s*(\w+)\(([^)]*)\)(.*)", m.group(2)) if m.group(1) == "define" else None
        if d:
            params = [p.strip() for p in d.group(2).split(",") if p.strip()]
            macros[d.group(1)] = (params, tokenize(d.group(3)))
    return "\n".join(code), macros


def expand(tokens, macros):
    """Expands the function-like macros of `macros` (one level deep, then again)."""
    for _ in range(4):
        out, i, changed = [], 0, False
        while i < len(tokens):
            t = tokens[i]
            if t in macros and i + 1 < len(tokens) and tokens[i + 1] == "(":
                params, body = macros[t]
                args, cur, depth, j = [], [], 0, i + 2
                while j < len(tokens):
                    u = tokens[j]
                    if u in "([{":
                        depth += 1
                    elif u in ")]}":
                        if depth == 0:
                            break
                        depth -= 1
                    if u == "," and depth == 0:
                        args.append(cur)
                        cur = []
                    else:
                        cur.append(u)
                    j += 1
                args.append(cur)
                sub = dict(zip(params, args))
                for b in body:
                    out.extend(sub.get(b, [b]) if b != "#" else [])
                i, changed = j + 1, True
            else:
                out.append(t)
                i += 1
        tokens = out
        if not changed:
            break
    return tokens


def skip_balanced(tokens, i):
    """tokens[i] opens a bracket; returns the index after its match."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[tokens[i]]]
    i += 1
    while i < len(tokens) and stack:
        t = tokens[i]
        if t in pairs:
            stack.append(pairs[t])
        elif t == stack[-1]:
            stack.pop()
        i += 1
    return i


def skip_angles(stmt, i):
    """stmt[i] == '<'; returns the index after the matching '>'."""
    depth, i = 0, i
    while i < len(stmt):
        t = stmt[i]
        if t in "([{":
            i = skip_balanced(stmt, i)
            continue
        if t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
        elif t == ">>":
            depth -= 2
        i += 1
        if depth <= 0:
            break
    return i


def strip_prefix(stmt):
    """Drops template headers, requires-clauses, attributes and `export`."""
    i = 0
    while i < len(stmt):
        t = stmt[i]
        if t == "template" and i + 1 < len(stmt) and stmt[i + 1] == "<":
            i = skip_angles(stmt, i + 1)
        elif t == "requires":
            i += 1
            while i < len(stmt):
                if stmt[i] == "(":
                    i = skip_balanced(stmt, i)
                else:
                    while i < len(stmt) and (re.match(r"\w", stmt[i]) or stmt[i] == "::"):
                        i += 1
                    if i < len(stmt) and stmt[i] == "<":
                        i = skip_angles(stmt, i)
                if i < len(stmt) and stmt[i] in ("&&", "||"):
                    i += 1
                    continue
                break
        elif t == "[" and i + 1 < len(stmt) and stmt[i + 1] == "[":
            i = skip_balanced(stmt, i)
        elif t == "export":
            i += 1
        else:
            break
    return stmt[i:]


def top_level(stmt):
    """Yields (index, token) outside brackets and template argument lists."""
    i, angle = 0, 0
    while i < len(stmt):
        t = stmt[i]
        if t in ("(", "[", "{"):
            yield i, t
            i = skip_balanced(stmt, i)
            continue
        if t == "operator":
            yield i, t
            i += 1
            continue
        if t == "<" and i > 0 and re.match(r"\w", stmt[i - 1]) and stmt[i - 1] != "operator":
            i = skip_angles(stmt, i)
            continue
        yield i, t
        i += 1


def declared_name(stmt):
    """The name a namespace-scope statement declares, or None."""
    s = strip_prefix(stmt)
    if not s or s[0] in ("static_assert", "namespace", "extern", "template", "friend"):
        return None
    if s[0] == "using":
        if len(s) > 1 and s[1] == "namespace":
            return None
        if "=" in s:
            return s[1]
        ids = [t for t in s if re.match(r"[A-Za-z_]", t)]
        return ids[-1]
    if s[0] == "concept":
        return s[1]
    if s[0] == "typedef":
        ids = [t for t in s if re.match(r"[A-Za-z_]", t)]
        return ids[-1]
    if s[0] in CLASS_KEYS:
        k = 1
        while k < len(s) and (s[k] in ("class", "struct") or s[k] == "["):
            k = skip_balanced(s, k) if s[k] == "[" else k + 1
        while k < len(s) and s[k] in SKIP_PAREN:
            k = skip_balanced(s, k + 1)
        return s[k] if k < len(s) and re.match(r"[A-Za-z_]", s[k]) else None
    prev = None
    for i, t in top_level(s):
        if t == "operator":
            j = i + 1
            sym = ""
            while j < len(s) and s[j] != "(":
                sym += s[j]
                j += 1
            if sym == "" and s[j:j + 2] == ["(", ")"]:
                sym = "()"
            return "operator" + sym
        if t in ("(", "=", "{", ";", "["):
            if t == "(" and prev in SKIP_PAREN:
                prev = None
                continue
            return prev
        if re.match(r"[A-Za-z_]", t):
            prev = t
    return prev


def is_public(scopes):
    """namespace sinter or a nested namespace of it (sinter::random), not detail."""
    path = [p for sc in scopes for p in sc]
    return bool(path) and path[0] == "sinter" and not any(p in ("detail", "<anonymous>") for p in path)


def scan(tokens, names, where):
    """Walks the tokens, tracking namespaces; records names in namespace sinter."""
    scopes = []  # namespace names; None for a scope that is not a namespace
    stmt, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("(", "["):
            j = skip_balanced(tokens, i)
            stmt.extend(tokens[i:j])
            i = j
            continue
        if t == "{":
            s = strip_prefix(stmt)
            if s and s[0] in ("namespace", "inline") and "namespace" in s[:2]:
                # an inline namespace is transparent: its names are sinter's
                parts = [x for x in s[1:] if re.match(r"\w", x) and x != "namespace"]
                scopes.append([] if s[0] == "inline" else parts or ["<anonymous>"])
                stmt, i = [], i + 1
                continue
            if s and s[0] == "extern":
                scopes.append([])
                stmt, i = [], i + 1
                continue
            public = is_public(scopes)
            tops = [x for _, x in top_level(s)]
            is_function = "(" in tops and "=" not in tops[:tops.index("(")] and \
                not (s and s[0] in CLASS_KEYS and "(" not in tops[:2]) and \
                (s and s[0] not in ("concept", "using"))
            is_class = bool(s) and s[0] in CLASS_KEYS and not is_function
            if public and s:
                name = declared_name(stmt + ["{"])
                if name:
                    names.setdefault(name, where)
            i = skip_balanced(tokens, i)
            if is_function and not is_class:
                stmt = []
            else:
                stmt.append("{}")  # class body or braced initialiser: the statement goes on
            continue
        if t == "}":
            if scopes:
                scopes.pop()
            stmt, i = [], i + 1
            continue
        if t == ";":
            if is_public(scopes) and stmt and "{}" not in stmt:
                name = declared_name(stmt + [";"])
                if name:
                    names.setdefault(name, where)
            stmt, i = [], i + 1
            continue
        stmt.append(t)
        i += 1


def collect(include_dir):
    files = []
    for root, _, fs in os.walk(include_dir):
        files += [os.path.join(root, f) for f in fs if f.endswith((".hpp", ".inl"))]
    names = {}
    for branch in (0, 1):
        macros, sources = {}, []
        for path in sorted(files):
            with open(path, encoding="utf-8") as f:
                code, m = split_preprocessor(strip_comments(f.read()), branch)
            macros.update(m)
            sources.append((path, code))
        for path, code in sources:
            scan(expand(tokenize(code), macros), names, os.path.relpath(path, include_dir))
    # Configuration: macros a user may define before including sinter (a
    # header tests whether they are defined) and environment variables read.
    for path in sorted(files):
        with open(path, encoding="utf-8") as f:
            text = strip_comments(f.read())
        rel = os.path.relpath(path, include_dir)
        for m in re.findall(r"#\s*(?:ifndef\s+|(?:el)?if\s+!?\s*defined\s*\(\s*)(SINTER_\w+)", text):
            if not m.startswith("SINTER_DETAIL_"):
                names.setdefault(m, rel + " (macro)")
        for m in re.findall(r'getenv\(\s*"(SINTER_\w+)"', text):
            names.setdefault(m, rel + " (environment variable)")
    return names


def documented(api_text):
    """Identifiers (and operator names) in backticks or in ### headings."""
    api_text = api_text.replace("\\|", "|")  # `operator\|\|` escaped in a table
    spans = re.findall(r"`([^`\n]+)`", api_text)
    spans += re.findall(r"^### (.*)$", api_text, re.M)
    found = set()
    for s in spans:
        found.update(re.findall(r"[A-Za-z_]\w*", s))
        found.update("operator" + op.replace(" ", "") for op in
                     re.findall(r"operator\s*(<=>|<<=|>>=|\(\)|\[\]|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=]=?)", s))
    return found


# The scanner's own check, run first: one name of every kind it must find,
# and names it must not (detail, nested in a class or a function, other
# namespaces), in the shapes sinter's headers use.
SAMPLE = r"""
#pragma once
#define MAKE_FN(name_) template <class A> inline auto name_(A a) { return a; }
#ifndef SINTER_SAMPLE_KNOB
#define SINTER_SAMPLE_KNOB 4
#endif
namespace sinter {
namespace detail { struct hidden {}; inline int hidden_fn() { return 0; } }
struct s_struct { int nested_field; void nested_method(); };
template <class T, std::size_t R = 2> class s_class { using nested_alias = T; };
union s_union { int i; float f; };
enum s_enum : int { s_enumerator_is_not_listed };
enum class s_enum_class { a, b };
using s_alias = int;
typedef long s_typedef;
template <class T> concept s_concept = requires(T t) { t.x; };
struct s_fwd;
inline int s_function(int x) { int local = x; return local; }
template <class T, std::size_t N> requires(N > 0) auto s_template_function(const T (&)[N]) -> decltype(N) { return N; }
template <class T> decltype(auto) s_decltype_function(T&& t) { return t; }
inline constexpr int s_variable = 3;
inline constexpr s_struct s_braced{};
template <class T> inline constexpr bool s_variable_template = sizeof(T) > 1;
template <class A, class B> auto operator+(A a, B b) { return a; }
std::ostream& operator<<(std::ostream& os, const s_struct&);
#if SINTER_HAS_CUDA()
inline namespace with_x {
#else
inline namespace without_x {
#endif
inline bool s_in_inline_namespace() { return getenv("SINTER_SAMPLE_ENV") != nullptr; }
}
MAKE_FN(s_macro_function)
}  // namespace sinter
namespace other { int s_other_namespace; }
namespace sinter::detail { int s_detail_too; }
namespace sinter::nested { struct s_nested_struct {}; namespace detail { int s_nested_detail; } }
namespace sinter { namespace nested2 { inline int s_nested_function() { return 1; } } }
"""
SAMPLE_NAMES = {
    "s_struct", "s_class", "s_union", "s_enum", "s_enum_class", "s_alias", "s_typedef",
    "s_concept", "s_fwd", "s_function", "s_template_function", "s_decltype_function",
    "s_variable", "s_braced", "s_variable_template", "operator+", "operator<<",
    "s_in_inline_namespace", "s_macro_function", "SINTER_SAMPLE_KNOB", "SINTER_SAMPLE_ENV",
    "s_nested_struct", "s_nested_function",
}


def self_test():
    """Scans SAMPLE; returns the differences from SAMPLE_NAMES ("" if none)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "sample.hpp"), "w", encoding="utf-8") as f:
            f.write(SAMPLE)
        got = set(collect(d))
    missed, extra = SAMPLE_NAMES - got, got - SAMPLE_NAMES
    return (f"missed {sorted(missed)} " if missed else "") + (f"found extra {sorted(extra)}" if extra else "")


def main(argv):
    if len(argv) != 3:
        print("usage: check_api.py <include dir> <api.md>", file=sys.stderr)
        return 2
    problem = self_test()
    if problem:
        print(f"sinter: check_api.py: the scanner fails its own sample: {problem}; fix the scanner")
        return 1
    names = collect(argv[1])
    with open(argv[2], encoding="utf-8") as f:
        found = documented(f.read())
    missing = sorted(n for n in names if n not in found)
    print(f"check_api: {len(names)} public names (namespace sinter and its nested namespaces, configuration macros, "
          f"environment variables) checked against {argv[2]}")
    for n in missing:
        print(f"sinter: docs/api.md: `{n}` (declared in {names[n]}) is not documented; "
              f"add it in backticks or a ### heading")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

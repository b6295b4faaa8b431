#!/usr/bin/env python3
"""The architecture rules `make lint` checks (README, "How it is built").

usage: deps_graph.py [--root DIR] [--print] [OBJECT.o ...]

1. Stages. Every file of src/ and include/ has the stage rank of its
   module (STAGES below; a file no stage names is an error, so a new file
   gets a rank when it is added). A file may include only headers of its
   own stage or an earlier one: `#include "pdf.h"` in src/profile.c is an
   error.
   A header in src/ (font_int.h, profile_import.h) is its module's own:
   only that module's files (src/font*.c) include it.
2. Libraries. Each library's headers are included only by the files that
   wrap it (LIBRARIES below).
3. Prefixes. Every name an object exports starts with its module's
   prefix, or one of the private prefixes PREFIXES lists (each of which
   the README's prefix tables must name).
4. Calls. Given the objects, the call graph between .c files is read from
   `nm` (a file uses another when one of its undefined symbols is defined
   there): a call into a later stage is an error, and so is any cycle.
   --print lists the graph, one "file -> file: symbols" line per edge.

Each violation is one line "FILE: rule: what", and the exit status is 1.
"""
import collections
import fnmatch
import os
import re
import subprocess
import sys

# Stage ranks, in pipeline order (README): a module is a file's name
# without .c/.h and without _int (font_int.h is the font module's); a
# name covers its parts too (font: font_chain.c, font_int.h, ...).
STAGES = [
    ("base", "err arena buf utf8 unicode suggest file deps ofile version datadir dl"),
    ("read", "ydoc json image"),  # YAML/JSON trees, photo pixels
    ("profile", "profile model"),
    ("style", "style"),
    ("locale", "locale"),
    # the page list is the data set lines and pages are made of: inline
    # builds its runs, layout fills it, pdf and page_dump read it
    ("page", "page"),
    ("text", "font sfnt hyph para bidi thai inline"),
    ("layout", "layout"),
    ("output", "pdf html"),
    ("cli", "watch starter"),
    ("main", "main"),
]

# library header (a regular expression on the <...> name) -> the files
# (fnmatch patterns) that may include it
LIBRARIES = [
    (r"yaml\.h", "libyaml", ["src/ydoc.c"]),
    (r"hpdf.*\.h", "libharu", ["src/pdf*.c", "src/pdf_int.h"]),
    (r"ft2build\.h|freetype/.*", "FreeType", ["src/font*.c", "src/font_int.h"]),
    (r"hb(-.*)?\.h", "HarfBuzz", ["src/font*.c", "src/font_int.h", "src/unicode.c"]),
    (r"fontconfig/.*", "fontconfig", ["src/font*.c"]),
    (r"png\.h|pngconf\.h", "libpng", ["src/image.c"]),
    (r"jpeglib\.h|jerror\.h|jconfig\.h|jmorecfg\.h", "libjpeg", ["src/image.c"]),
    (r"fribidi.*\.h", "libfribidi", ["src/bidi.c"]),
    (r"libdeflate\.h", "libdeflate", ["src/pdf_deflate.c"]),
    (r"(linebreak|linebreakdef|wordbreak|wordbreakdef|graphemebreak|"
     r"graphemebreakdef|unibreakbase|unibreakdef|emojidef|eastasianwidthdef)\.h",
     "libunibreak", ["src/inline.c"]),
    (r"hyphen\.h", "libhyphen", ["src/hyph.c"]),
    # none: src/thai.c reads libthai's dictionary itself
    (r"thai/.*|datrie/.*", "libthai", []),
    (r"zlib\.h", "zlib", []),
]

# Exported names: each starts with its module's prefix (the first part of
# the file's name and "_": font_ for font_face.c), or one of these (README,
# "Name prefixes"); a name alone (no "_" after it) is an exact name.
PREFIXES = {
    "arena": "xcalloc xmalloc xrealloc xstrdup xfill",
    "err": "errs_ warn_at",
    "unicode*": "uni_",
    "main": "main",
    "layout*": "lay_",
    "layout_text": "sp_",
    "layout_vlist": "v_",
    "profile_val": "pv_",
    "profile_import": "pim_",
    "profile_jsonresume": "pjr_",
    "profile_rendercv*": "prcv_",
    "profile_alfolio": "pal_",
    "profile_bib*": "pbib_",
    "profile_names": "pnames_",
    "profile_post": "pm_ pu_",
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def module(path):
    m = os.path.basename(path)
    m = re.sub(r"\.[ch]$", "", m)
    return re.sub(r"_int$", "", m)


def rank(mod):
    for i, (_, names) in enumerate(STAGES):
        for n in names.split():
            if mod == n or mod.startswith(n + "_"):
                return i
    return None


def stage_name(r):
    return STAGES[r][0]


def sources(root):
    out = []
    for d in ("src", "include"):
        for f in sorted(os.listdir(os.path.join(root, d))):
            if f.endswith((".c", ".h")):
                out.append(d + "/" + f)
    return out


def header_module(name, root):
    """The module owning header NAME as included ("font_int.h", "pdf.h")."""
    for d in ("include", "src"):
        if os.path.exists(os.path.join(root, d, name)):
            return module(name)
    return None


def check_sources(root, bad):
    for f in sources(root):
        r = rank(module(f))
        if r is None:
            bad.append(f"{f}: stage: module '{module(f)}' has no stage rank "
                       "(add it to STAGES in tests/tools/deps_graph.py)")
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for ln, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                kind, name = m.groups()
                if kind == '"':
                    hm = header_module(name, root)
                    if hm is None:
                        bad.append(f"{f}:{ln}: include: \"{name}\" is not in include/ or src/")
                        continue
                    if os.path.exists(os.path.join(root, "src", name)) and \
                            module(f).split("_")[0] != hm.split("_")[0]:
                        bad.append(f"{f}:{ln}: private: includes \"{name}\", which only "
                                   f"src/{hm.split('_')[0]}*.c may include (use include/"
                                   f"{hm.split('_')[0]}.h)")
                    hr = rank(hm)
                    if hr is not None and hr > r:
                        bad.append(f"{f}:{ln}: stage: includes \"{name}\" of the later "
                                   f"stage '{stage_name(hr)}' (this file is in stage "
                                   f"'{stage_name(r)}'; includes go only downward)")
                    continue
                for pat, lib, allowed in LIBRARIES:
                    if re.fullmatch(pat, name) and not any(fnmatch.fnmatch(f, a) for a in allowed):
                        who = ", ".join(allowed) if allowed else "no file"
                        bad.append(f"{f}:{ln}: library: includes <{name}> of {lib}, "
                                   f"which only {who} may include")


def prefix_ok(mod, sym):
    allowed = [mod.split("_")[0] + "_"]
    for pat, extra in PREFIXES.items():
        if fnmatch.fnmatch(mod, pat):
            allowed += extra.split()
    return any(sym.startswith(a) if a.endswith("_") else sym == a for a in allowed), allowed


def call_graph(objs, bad):
    defs, undef = {}, collections.defaultdict(set)
    for o in objs:
        mod = os.path.basename(o)[:-2]
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRCVWG":
                defs[p[2]] = mod
                ok, allowed = prefix_ok(mod, p[2])
                if not ok and "." not in p[2]:
                    bad.append(f"src/{mod}.c: prefix: exports {p[2]}, which has none of "
                               f"its prefixes ({', '.join(allowed)}; make it static, or "
                               "name it so)")
            elif len(p) == 2 and p[0] == "U":
                undef[mod].add(p[1])
    g = collections.defaultdict(lambda: collections.defaultdict(set))
    for mod, syms in undef.items():
        for s in syms:
            d = defs.get(s)
            if d and d != mod:
                g[mod][d].add(s)
    return {m: dict(v) for m, v in g.items()}, sorted(set(defs.values()) | set(undef))


def cycles(g, nodes):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, {})):
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
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def check_calls(objs, bad, show):
    g, nodes = call_graph(objs, bad)
    for a in sorted(g):
        ra = rank(a)
        for b in sorted(g[a]):
            rb = rank(b)
            if show:
                print(f"{a} -> {b}: {' '.join(sorted(g[a][b]))}")
            if ra is not None and rb is not None and rb > ra:
                bad.append(f"src/{a}.c: stage: calls {', '.join(sorted(g[a][b]))} in "
                           f"src/{b}.c of the later stage '{stage_name(rb)}'")
    for comp in cycles(g, nodes):
        edges = [f"{a} -> {b} ({', '.join(sorted(g[a][b]))})"
                 for a in comp for b in sorted(g.get(a, {})) if b in comp]
        bad.append(f"src/{comp[0]}.c: cycle: the .c files {', '.join(comp)} call each "
                   f"other: {'; '.join(edges)}")


def check_readme(root, bad):
    """Every private prefix of PREFIXES is in the README's prefix tables."""
    path = os.path.join(root, "README.md")
    if not os.path.exists(path):
        return
    text = open(path, encoding="utf-8").read()
    for mod, extra in PREFIXES.items():
        for p in extra.split():
            if f"`{p}" not in text:
                bad.append(f"README.md: prefix: `{p}` ({mod}) is not in the prefix tables")


def main(argv):
    root, show, objs = ".", False, []
    i = 0
    while i < len(argv):
        if argv[i] == "--root":
            root = argv[i + 1]
            i += 1
        elif argv[i] == "--print":
            show = True
        else:
            objs.append(argv[i])
        i += 1
    bad = []
    check_sources(root, bad)
    check_readme(root, bad)
    if objs:
        check_calls(objs, bad, show)
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

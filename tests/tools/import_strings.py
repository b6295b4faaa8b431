#!/usr/bin/env python3
"""import_strings.py INPUT PDFTEXT MESSAGES: is anything a user wrote lost?

Walks INPUT (a RenderCV or native YAML file, a JSON Resume or al-folio
JSON/YAML file, or a .bib; a native profile's `bibtex:` files are walked
too) and collects every human-visible string: names, titles, text,
items, venues, numbers. Machine values are skipped (URLs, DOIs, paths,
booleans, icons, keys of the configuration trees `design`, `settings`,
`rendercv_settings`, `locale`, `locale_catalog`, whose effect is the look,
not text). A string is accounted for when it appears in PDFTEXT (the
pdftotext output; whitespace and letter case ignored, markup removed) or
when MESSAGES has a located warning with "ignored" at the string's line.
Prints the strings that are lost, then "N/M strings" (N accounted for).
Exit 0 always: the caller decides what figure it requires.
"""
import os
import re
import sys

import yaml

SKIP_KEYS = {
    "url", "doi", "photo", "image", "$schema", "icon", "file", "urldate",
    "issn", "isbn", "biburl", "bibsource", "timestamp", "adsurl", "adsnote",
    "bibtex_show", "preview", "altmetric", "dimensions", "selected",
    "design", "settings", "rendercv_settings", "locale", "locale_catalog",
    "vita", "layout", "type", "tags", "numbering", "group_by", "highlight",
    "bibtex", "style", "network", "website", "html", "pdf", "code", "slides",
    "poster", "video", "arxiv", "supp", "blog", "category", "eprinttype",
    "archiveprefix", "primaryclass", "crossref", "language", "countryCode",
    "postalCode", "id", "meta", "username", "equal",
}
DATE_RE = re.compile(r"^(\d{4})(-\d{2}(-\d{2})?)?$")


def norm(s):
    s = re.sub(r"<[^>]*>", "", s)                       # HTML tags
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)      # [label](url)
    s = re.sub(r"(?<!\\)[*`]", "", s)                   # **, *, `code`
    s = s.replace("\\*", "*")
    # vita sets typographic punctuation (locale_smart): compare as ASCII
    s = s.translate(str.maketrans({"\u2019": "'", "\u2018": "'", "\u201a": "'",
                                   "\u201c": '"', "\u201d": '"', "\u201e": '"',
                                   "\u00ab": '"', "\u00bb": '"', "\u2013": "-",
                                   "\u2014": "-", "\u2026": "..."}))
    s = re.sub(r"-+", "-", s)
    return re.sub(r"\s+", "", s).casefold()


def found(s, text):
    if "\0" in s:       # the text around a formula
        return all(found(x, text) for x in s.split("\0"))
    if " - " in s and all(found(x, text) for x in s.split(" - ")):
        return True     # RenderCV: a nested list folded into one line
    n = norm(s).rstrip(",")
    if not n or n in text:
        return True
    # a long string may be broken by a page footer: its pieces must appear
    pieces = [n[i:i + 24] for i in range(0, len(n), 24)]
    return len(pieces) > 1 and all(p in text for p in pieces)


# ---- YAML / JSON (positions from the composed node tree) ----

def walk_node(node, key, out):
    if key in SKIP_KEYS:
        return
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            walk_node(v, k.value if isinstance(k, yaml.ScalarNode) else "", out)
    elif isinstance(node, yaml.SequenceNode):
        for v in node.value:
            walk_node(v, key, out)
    elif isinstance(node, yaml.ScalarNode):
        v = node.value.strip()
        if not v or v in ("true", "false", "null", "~") or "://" in v:
            return
        m = DATE_RE.match(v)
        if m:
            v = m.group(1)     # a date: its year must show
        out.append((node.start_mark.line + 1, v))


# ---- BibTeX ----

LATEX = [(r"\&", "&"), ("---", "—"), ("--", "–"), ("~", " "), (r"\%", "%"),
         (r"\_", "_"), (r"\$", "$")]
ACCENT = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308",
          "~": "\u0303", "c": "\u0327", "v": "\u030c", "=": "\u0304",
          "u": "\u0306", ".": "\u0307", "H": "\u030b", "r": "\u030a"}
SKIP_BIB = (SKIP_KEYS - {"type"}) | {"month", "eprint", "issn", "isbn", "langid"}
# biblatex's type keys: the locale's phrase ("PhD thesis") stands for them
BIBLATEX_TYPES = {"phdthesis", "mathesis", "mastersthesis", "techreport"}


def delatex(s):
    import unicodedata
    s = re.sub(r"\\([`'^\"~=.]|[cvuHr](?=[\s{]))\s*\{?\\?([A-Za-z])\}?",
               lambda m: m.group(2).replace("i", "i") + ACCENT[m.group(1)], s)
    for a, b in LATEX:
        s = s.replace(a, b)
    s = re.sub(r"\$[^$]*\$", "\0", s)          # math: checked by unit tests
    s = re.sub(r"\\[A-Za-z]+\s*", "", s)
    s = s.replace("{", "").replace("}", "")
    return unicodedata.normalize("NFC", s)


def bib_entries(path):
    src = open(path, encoding="utf-8").read()
    out = []
    macros = dict((m.group(1).lower(), m.group(2)) for m in
                  re.finditer(r"@string\s*\{\s*(\w+)\s*=\s*\{(.*)\}\s*\}", src, re.I))
    for m in re.finditer(r"^[ \t]*@(\w+)\s*[{(]", src, re.M):
        kind = m.group(1).lower()
        if kind in ("comment", "preamble", "string"):
            continue
        i = m.end()
        depth = 1
        j = i
        while j < len(src) and depth:
            depth += {"{": 1, "}": -1}.get(src[j], 0)
            j += 1
        body = src[i:j - 1]
        line0 = src.count("\n", 0, i) + 1
        for f in re.finditer(r"(\w+)\s*=\s*", body):
            name = f.group(1).lower()
            k = f.end()
            if k >= len(body):
                continue
            if body[k] in "{\"":
                close = "}" if body[k] == "{" else '"'
                d, e = 0, k
                while e < len(body):
                    c = body[e]
                    if c == "{":
                        d += 1
                    elif c == "}":
                        d -= 1
                    if (close == "}" and d == 0 and c == "}") or \
                       (close == '"' and d == 0 and c == '"' and e > k):
                        break
                    e += 1
                val = body[k + 1:e]
            else:
                val = re.match(r"[\w.]*", body[k:]).group(0)
                val = macros.get(val.lower(), val)
            # only the fields that sit at brace level 0 of the entry
            if body[:f.start()].count("{") != body[:f.start()].count("}"):
                continue
            out.append((line0 + body.count("\n", 0, f.start()), name, val))
    return out


def walk_bib(path, out):
    for line, name, val in bib_entries(path):
        if name in SKIP_BIB or "://" in val or not val.strip():
            continue
        if name == "title" and val.startswith("\\"):
            continue
        if name in ("author", "editor"):
            for a in re.split(r"\s+and\s+", val):
                a = delatex(a).strip()
                if a == "others":
                    continue
                fam = a.split(",")[0] if "," in a else a.split()[-1]
                out.append((line, fam.strip(), name))
            continue
        if name == "journal" and val.startswith("\\"):
            continue          # an AAS macro: checked by unit tests
        if name == "type" and val.strip().lower() in BIBLATEX_TYPES:
            continue
        if name == "date" and DATE_RE.match(val.strip()):
            val = val.strip()[:4]   # biblatex's date: its year must show
        v = re.sub(r"(\d)-(\d)", "\\1–\\2", delatex(val).strip())
        if not v:
            continue
        out.append((line, v, name))


def main():
    inp, txt, msgs = sys.argv[1:4]
    text = norm(open(txt, encoding="utf-8", errors="replace").read())
    ignored = {}
    for ln in open(msgs, encoding="utf-8", errors="replace"):
        m = re.match(r"(.*?):(\d+):\d+: warning: .*ignored", ln)
        if m:
            ignored.setdefault(os.path.basename(m.group(1)), set()).add(int(m.group(2)))
        m = re.match(r"(.*?):\d+:\d+: warning: ignored: BibTeX field '([^']*)'", ln)
        if m:
            ignored.setdefault(os.path.basename(m.group(1)), set()).add(m.group(2))
    strs = []   # (file, line, string)
    if inp.endswith(".bib"):
        got = []
        walk_bib(inp, got)
        strs += [(inp, l, s, n) for l, s, n in got]
    else:
        src = open(inp, encoding="utf-8").read()
        if inp.endswith(".bib"):
            pass
        root = yaml.compose(src)
        got = []
        walk_node(root, "", got)
        strs += [(inp, l, s, None) for l, s in got]
        if isinstance(root, yaml.MappingNode):
            for sec in yaml.safe_load(src).get("sections", []) or []:
                if isinstance(sec, dict) and sec.get("bibtex"):
                    p = os.path.join(os.path.dirname(inp), sec["bibtex"])
                    got = []
                    walk_bib(p, got)
                    strs += [(p, l, s, n) for l, s, n in got]
    lost = 0
    for f, l, s, n in strs:
        ign = ignored.get(os.path.basename(f), ())
        if found(s, text) or l in ign or (n and n in ign):
            continue
        lost += 1
        print("lost: %s:%d: %s" % (f, l, s[:100]))
    print("%d/%d strings" % (len(strs) - lost, len(strs)))


main()

#!/usr/bin/env python3
"""gen_yaml.py SEED DIR N: N random YAML documents into DIR, mostly in the
part of YAML ydoc_fast reads (block maps and lists, compact maps, flow
collections, plain/quoted scalars with escapes, block scalars with every
chomping, plain scalars over lines, comments, blank lines, Unicode), with
the near misses it must leave to libyaml (tabs, bad escapes, document
markers, indicators, duplicate keys, odd indentation). tests/scripts/
ydoc_fast.sh reads each with both readers (test_ydoc --compare)."""
import random, sys, os
R = random.Random(int(sys.argv[1]))
words = ["a", "b", "key", "name", "x y", "Müller", "朱展达", "C#", "a#b", "http://x.y/z", "-5", "--x", "~", "null", "1", "2.5",
         "é", "it's", "say \"hi\"", "a: b", "a :b", "x:y", "[x]", "{y}", "a, b", "#c", " lead", "trail ", "|", ">", "*", "&", "!", "%", "@", "`",
         "- x", "?", "?x", ":x", "a  b", "", "  ", "true", "\\", "\\n", "'", "\"", "''", "..", "---", "...", "a\tb"]
keys = ["a", "b", "c", "name", "title", "k1", "k 2", "x-y", "é", "キー", "-k", "a#b", "~", "null", "a:b", "url", "d"]
def plain():
    return R.choice(words)
def scalar(ind, flow=False):
    r = R.random()
    w = plain()
    if r < 0.45:
        return w
    if r < 0.6:
        return "'" + w.replace("'", "''") + "'"
    if r < 0.75:
        esc = R.choice(["", "\\n", "\\t", "\\\"", "\\\\", "\\u00e9", "\\x41", "\\U0001F600", "\\/", "\\ ", "\\_", "\\N", "\\e", "\\0", "\\q", "\\L"])
        return '"' + w.replace("\\", "\\\\").replace('"', '\\"') + esc + '"'
    if r < 0.85 and not flow:
        # block scalar
        h = R.choice(["|", ">", "|-", ">-", "|+", ">+", "|2", "> # c"])
        lines = []
        n = ind + R.choice([1, 2, 2, 4])
        for _ in range(R.randint(0, 4)):
            t = R.choice(["text", "more text", "  indented", "", "   ", "#not comment", "a: b", "- x", "x  "])
            lines.append((" " * n + t) if t.strip() or R.random() < 0.5 else t)
        return h + "\n" + "\n".join(lines) + ("\n" if lines and R.random() < 0.8 else "")
    if flow or R.random() < 0.5:
        return flowc(2)
    # multi-line plain
    return w + "\n" + " " * (ind + R.choice([0, 1, 2])) + plain()
def flowc(d):
    if d <= 0 or R.random() < 0.3:
        return R.choice(["[]", "{}", "[a]", "{k: v}"])
    if R.random() < 0.5:
        return "[" + ", ".join(scalar(0, True) if R.random() < 0.7 else flowc(d - 1) for _ in range(R.randint(0, 4))) + "]"
    return "{" + ", ".join(R.choice(keys) + ": " + (scalar(0, True) if R.random() < 0.7 else flowc(d - 1)) for _ in range(R.randint(0, 4))) + "}"
def comment():
    return R.choice(["", "", "", " # c", "  #x", "#y"])
def node(ind, d, out):
    r = R.random()
    if d <= 0 or r < 0.3:
        return None
    if r < 0.65:
        n = R.randint(1, 4)
        used = set()
        for i in range(n):
            k = R.choice(keys)
            if R.random() < 0.9 and k in used: continue
            used.add(k)
            emit_pair(ind, k, d, out)
    else:
        for i in range(R.randint(1, 4)):
            emit_item(ind, d, out)
    return True
def emit_pair(ind, k, d, out):
    r = R.random()
    sp = R.choice([" ", " ", "  "])
    if r < 0.55:
        out.append(" " * ind + k + ":" + sp + scalar(ind) + comment())
    else:
        out.append(" " * ind + k + ":" + comment())
        if R.random() < 0.15: out.append(R.choice(["", "  # c", "#c", "   "]))
        sub = ind + R.choice([0, 1, 2, 2, 4])
        if sub == ind:
            for i in range(R.randint(0, 3)): emit_item(ind, d - 1, out)
        else:
            node(sub, d - 1, out)
def emit_item(ind, d, out):
    r = R.random()
    if r < 0.4:
        out.append(" " * ind + "-" + R.choice([" ", "  "]) + scalar(ind) + comment())
    elif r < 0.7:
        # compact map
        sp = R.choice([" ", "  "])
        k = R.choice(keys)
        out.append(" " * ind + "-" + sp + k + ": " + scalar(ind + 1 + len(sp)) + comment())
        for i in range(R.randint(0, 2)):
            k2 = R.choice(keys)
            out.append(" " * (ind + 1 + len(sp)) + k2 + ": " + scalar(ind + 1 + len(sp)))
    else:
        out.append(" " * ind + "-" + comment())
        node(ind + R.choice([0, 2, 2, 3]), d - 1, out)
    if R.random() < 0.1: out.append("")
def doc():
    out = []
    if R.random() < 0.1:
        out.append(scalar(0))
    else:
        node(R.choice([0, 0, 0, 1, 2]), 4, out)
    s = "\n".join(out)
    if R.random() < 0.9: s += "\n"
    return s
d = sys.argv[2]
os.makedirs(d, exist_ok=True)
for i in range(int(sys.argv[3])):
    open(os.path.join(d, "g%05d.yaml" % i), "w").write(doc())

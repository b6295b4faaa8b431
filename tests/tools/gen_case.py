#!/usr/bin/env python3
"""Generate src/unicode_casetab.h, vita's case tables, from the Unicode
Character Database files of Debian's unicode-data package.

usage: gen_case.py [UCD_DIR] > src/unicode_casetab.h   (make case-table)

UCD_DIR (default /usr/share/unicode) holds UnicodeData.txt,
SpecialCasing.txt and PropList.txt. The tables (src/unicode_case.c reads
them; tests/unit/test_case.c checks every code point against the files):

- case_upper, case_lower, case_title: the simple mappings of UnicodeData
  (fields 12-14; an empty title is the upper one) as runs of code points
  start, start+step, ... (step 1 or 2: Latin Extended's alternating
  capital/small pairs) that all map by the same delta;
- case_special: the unconditional full mappings of SpecialCasing (ß -> SS,
  ligatures, ŉ, Armenian ech-yiwn, Greek with ypogegrammeni), lower, title
  and upper, up to three code points each;
- case_soft_dotted: PropList's Soft_Dotted (Lithuanian's dot above);
- case_blocks: a bit per block of 256 code points, set when a code point
  of the block changes in capitals (uni_upper copies the others: CJK,
  Hangul, Arabic, Indic);
- case_greek: every Greek letter (U+0370-03FF, U+1F00-1FFF) whose capital
  in Greek typography differs from it: the capital of its base letter
  (the first code point of its canonical decomposition) and what the rest
  of the decomposition carried (accent, dialytika, ypogegrammeni, other
  marks), and whether it is a vowel.
The language-dependent rules of SpecialCasing (tr, az, lt) and the Greek
rules are code in src/unicode_case.c.
"""
import os
import re
import sys

GREEK_ACCENT = {0x300, 0x301, 0x342, 0x302, 0x303, 0x311}
GREEK_DIALYTIKA = {0x308}
GREEK_YPOGEGRAMMENI = {0x345}
GREEK_OTHER = {0x304, 0x306, 0x313, 0x314, 0x343}
GREEK_VOWELS = {0x391, 0x395, 0x397, 0x399, 0x39F, 0x3A5, 0x3A9}
# flag bits, as src/unicode_case.c names them
F_VOWEL, F_ACCENT, F_DIALYTIKA, F_YPOGEGRAMMENI, F_OTHER = 1, 2, 4, 8, 16


def read_ucd(d):
    upper, lower, title, decomp, gc = {}, {}, {}, {}, {}
    with open(os.path.join(d, "UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split(";")
            cp = int(p[0], 16)
            gc[cp] = p[2]
            if p[5] and not p[5].startswith("<"):
                decomp[cp] = [int(x, 16) for x in p[5].split()]
            if p[12]:
                upper[cp] = int(p[12], 16)
            if p[13]:
                lower[cp] = int(p[13], 16)
            if p[14]:
                title[cp] = int(p[14], 16)
            elif p[12]:
                title[cp] = int(p[12], 16)
    return upper, lower, title, decomp, gc


def read_special(d):
    """Unconditional entries: cp -> (lower, title, upper), and the file's version."""
    out, version = {}, "?"
    with open(os.path.join(d, "SpecialCasing.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"# SpecialCasing-([0-9.]+)\.txt", line)
            if m:
                version = m.group(1)
            line = line.split("#")[0].strip()
            if not line:
                continue
            p = [x.strip() for x in line.split(";")]
            if len(p) > 4 and p[4]:
                continue  # conditional: code in unicode_case.c
            cp = int(p[0], 16)
            out[cp] = tuple([int(x, 16) for x in p[i].split()] for i in (1, 2, 3))
    return out, version


def read_prop(d, name):
    s = set()
    with open(os.path.join(d, "PropList.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            r, prop = [x.strip() for x in line.split(";")]
            if prop != name:
                continue
            a, _, b = r.partition("..")
            for cp in range(int(a, 16), int(b or a, 16) + 1):
                s.add(cp)
    return s


def runs(mapping):
    """[(start, count, step, delta)]: greedy runs of equal delta."""
    out = []
    for cp in sorted(mapping):
        delta = mapping[cp] - cp
        if delta == 0:
            continue
        if out:
            start, n, step, d = out[-1]
            last = start + (n - 1) * step
            if d == delta and n < 255:
                if n == 1 and cp - start in (1, 2):
                    out[-1] = (start, 2, cp - start, d)
                    continue
                if cp == last + step:
                    out[-1] = (start, n + 1, step, d)
                    continue
        out.append((cp, 1, 1, delta))
    return out


def full_decomp(cp, decomp):
    if cp not in decomp:
        return [cp]
    r = []
    for x in decomp[cp]:
        r += full_decomp(x, decomp)
    return r


def greek(upper, decomp, gc):
    out = []
    for cp in list(range(0x370, 0x400)) + list(range(0x1F00, 0x2000)):
        if not gc.get(cp, "").startswith("L"):
            continue
        d = full_decomp(cp, decomp)
        base = d[0]
        cap = upper.get(base, base)
        flags = F_VOWEL if cap in GREEK_VOWELS else 0
        for m in d[1:]:
            if m in GREEK_ACCENT:
                flags |= F_ACCENT
            elif m in GREEK_DIALYTIKA:
                flags |= F_DIALYTIKA
            elif m in GREEK_YPOGEGRAMMENI:
                flags |= F_YPOGEGRAMMENI
            elif m in GREEK_OTHER:
                flags |= F_OTHER
            else:
                flags = -1  # a mark Greek capitals keep: not this table's
        if flags < 0 or not (0x370 <= cap < 0x400):
            continue
        if cap == cp and not (flags & ~F_VOWEL):
            continue
        out.append((cp, cap, flags))
    return out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
    upper, lower, title, decomp, gc = read_ucd(d)
    special, version = read_special(d)
    soft = read_prop(d, "Soft_Dotted")
    w = sys.stdout.write
    w("/* Generated by tests/tools/gen_case.py from the Unicode %s character\n"
      " * database (UnicodeData.txt, SpecialCasing.txt, PropList.txt): do not\n"
      " * edit; `make case-table` regenerates it. Only src/unicode_case.c\n"
      " * includes it. */\n" % version)
    w('#define CASE_UNICODE_VERSION "%s"\n\n' % version)
    w("typedef struct case_run {\n\tuint32_t start;\n\tuint8_t n, step;\n\tint32_t delta;\n"
      "} case_run_t;\n\n")
    for name, m in (("upper", upper), ("lower", lower), ("title", title)):
        r = runs(m)
        w("static const case_run_t case_%s[%d] = {\n" % (name, len(r)))
        for i in range(0, len(r), 3):
            w("\t" + " ".join("{0x%04X, %d, %d, %d}," % x for x in r[i:i + 3]) + "\n")
        w("};\n\n")
    w("typedef struct case_special {\n\tuint32_t cp;\n\tuint32_t m[3][3]; /* lower, title, upper */\n"
      "} case_special_t;\n\n")
    w("static const case_special_t case_special[%d] = {\n" % len(special))

    def three(v):
        return "{" + ", ".join("0x%04X" % x for x in (v + [0, 0, 0])[:3]) + "}"
    for cp in sorted(special):
        lo, ti, up = special[cp]
        w("\t{0x%04X, {%s, %s, %s}},\n" % (cp, three(lo), three(ti), three(up)))
    w("};\n\n")
    s = sorted(soft)
    w("static const uint32_t case_soft_dotted[%d] = {\n" % len(s))
    for i in range(0, len(s), 8):
        w("\t" + " ".join("0x%04X," % x for x in s[i:i + 8]) + "\n")
    w("};\n\n")
    g = greek(upper, decomp, gc)
    cased = set(cp >> 8 for cp in list(upper) + list(title) + list(special) + [x[0] for x in g])
    nb = (max(cased) >> 5) + 1
    w("static const uint32_t case_blocks[%d] = {\n" % nb)
    words = [sum(1 << (b & 31) for b in cased if b >> 5 == i) for i in range(nb)]
    for i in range(0, nb, 6):
        w("\t" + " ".join("0x%08X," % x for x in words[i:i + 6]) + "\n")
    w("};\n\n")
    w("typedef struct case_greek {\n\tuint16_t cp, cap;\n\tuint8_t flags;\n} case_greek_t;\n\n")
    w("static const case_greek_t case_greek[%d] = {\n" % len(g))
    for i in range(0, len(g), 4):
        w("\t" + " ".join("{0x%04X, 0x%04X, %d}," % x for x in g[i:i + 4]) + "\n")
    w("};\n")


if __name__ == "__main__":
    main()

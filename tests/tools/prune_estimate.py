#!/usr/bin/python3
"""prune_estimate.py FONT TEXTS OUT: how much of HarfBuzz 6.0's face set-up and
shaping a GSUB and GPOS cut down to what TEXTS can use would save (a
measurement for issue 13, not a test; needs python3-fonttools).

TEXTS: a file of texts, one a line, or a layout dump (vita render
--dump=layout: its runs' texts). The closure of TEXTS in FONT: the cmap
glyphs of its code points (their canonical decompositions, U+25CC, the
space, the Devanagari and Tibetan viramas), grown by the outputs of every
GSUB subtable whose first coverage meets it, where the lookups followed
are the features' (every feature, every script) and those that a context
rule able to match calls (every position of the rule can hold a glyph of
the closure). OUT is FONT with every other lookup emptied (no subtables)
and every subtable that can never apply dropped; glyph ids, scripts and
features as they were. Then, e.g. (same texts, one plan, +kern, und):

  valgrind --tool=callgrind hb-shape --features=kern --language=und \
      --text-file=T FONT   (and OUT; hb_shape_plan_create_cached2 is the
  set-up, hb_shape_plan_execute the shaping; the glyphs must be the same)

Prints what was kept. Only for these texts: what other text would need is
gone, so vita could only do this with a guard (BENCHMARKS.md, face and
plan set-up, session 11).
"""
import re
import sys
import unicodedata

from fontTools.ttLib import TTFont

RUN = re.compile(r'^\s*run .*?"((?:[^"\\]|\\.)*)" glyphs=')
fn, textf, out = sys.argv[1:4]
lines = open(textf, encoding="utf-8").read().split("\n")
runs = [re.sub(r'\\(.)', r'\1', m.group(1)) for m in map(RUN.match, lines) if m]
text = "\n".join(runs) if runs else "\n".join(lines)
f = TTFont(fn)
cmap = f.getBestCmap(); order = f.getGlyphOrder(); gid = {g: i for i, g in enumerate(order)}
S = set(ord(c) for c in text if c != '\n') | {0x25CC, 0x20, 0x94D, 0xF84}
for c in list(S):
    S |= set(ord(x) for x in unicodedata.normalize('NFD', chr(c)))
G = {0} | {gid[cmap[c]] for c in S if c in cmap}
def cov(c): return {gid[g] for g in c.glyphs}
def hit(c): return any(gid[g] in G for g in c.glyphs)
def classes_present(cd):
    m = cd.classDefs if cd else {}
    pres = set(m.get(order[g], 0) for g in G)
    return pres
def unwrap(l, st, ext):
    if l.LookupType == ext: return st.ExtSubTable, st.ExtensionLookupType
    return st, l.LookupType
class C:
    def __init__(self, glyphs): self.glyphs = list(glyphs)
def first_cov(tag, ty, st):
    if tag == 'GSUB':
        if ty in (1, 2): return C(st.mapping.keys())
        if ty == 3: return C(st.alternates.keys())
        if ty == 4: return C(st.ligatures.keys())
        if ty == 8: return st.Coverage
        if ty in (5, 6):
            if st.Format == 3: return st.Coverage[0] if ty == 5 else st.InputCoverage[0]
            return st.Coverage
    else:
        if ty in (1, 2, 3): return st.Coverage
        if ty in (4, 5): return st.MarkCoverage
        if ty == 6: return st.Mark1Coverage
        if ty in (7, 8):
            if st.Format == 3: return st.Coverage[0] if ty == 7 else st.InputCoverage[0]
            return st.Coverage
def live_rules(tag, ty, st):
    """nested lookup indices of the rules that can match glyphs of G"""
    ctx, chain = (5, 6) if tag == 'GSUB' else (7, 8)
    rec = 'SubstLookupRecord' if tag == 'GSUB' else 'PosLookupRecord'
    res = []
    if st.Format == 3:
        if ty == ctx: seqs = [st.Coverage]
        else: seqs = st.BacktrackCoverage + st.InputCoverage + st.LookAheadCoverage
        if all(hit(c) for c in seqs): res.append([r.LookupListIndex for r in getattr(st, rec)])
        return res
    P = 'Sub' if tag == 'GSUB' else 'Pos'
    if st.Format == 1:
        sets = getattr(st, ('Chain' if ty == chain else '') + P + 'RuleSet')
        for g, rs in zip(st.Coverage.glyphs, sets):
            if gid[g] not in G or rs is None: continue
            for r in getattr(rs, ('Chain' if ty == chain else '') + P + 'Rule'):
                if ty == ctx: seq = r.Input
                else: seq = r.Backtrack + r.Input + r.LookAhead
                if all(gid[x] in G for x in seq): res.append([x.LookupListIndex for x in getattr(r, rec)])
    else:
        if ty == ctx:
            cin = classes_present(st.ClassDef); cb = cl = None
        else:
            cin = classes_present(st.InputClassDef); cb = classes_present(st.BacktrackClassDef); cl = classes_present(st.LookAheadClassDef)
        sets = getattr(st, ('Chain' if ty == chain else '') + P + 'ClassSet')
        fc = {(st.ClassDef if ty == ctx else st.InputClassDef).classDefs.get(order[g], 0) for g in G if order[g] in set(st.Coverage.glyphs)}
        for ci, rs in enumerate(sets):
            if rs is None or ci not in fc: continue
            for r in getattr(rs, ('Chain' if ty == chain else '') + P + 'ClassRule'):
                ok = all(c in cin for c in r.Input)
                if ty == chain: ok = ok and all(c in cb for c in r.Backtrack) and all(c in cl for c in r.LookAhead)
                if ok: res.append([x.LookupListIndex for x in getattr(r, rec)])
    return res
def run(tag, ext, outputs):
    t = f[tag].table; L = t.LookupList.Lookup
    inv = set(i for fr in t.FeatureList.FeatureRecord for i in fr.Feature.LookupListIndex)
    changed = True
    while changed:
        changed = False
        for i in sorted(inv):
            for st0 in L[i].SubTable:
                st, ty = unwrap(L[i], st0, ext)
                c = first_cov(tag, ty, st)
                if c is not None and not hit(c): continue
                if (tag == 'GSUB' and ty in (5, 6)) or (tag == 'GPOS' and ty in (7, 8)):
                    for nl in live_rules(tag, ty, st):
                        for x in nl:
                            if x not in inv: inv.add(x); changed = True
                elif outputs:
                    o = set()
                    if ty == 1: o = {gid[b] for a, b in st.mapping.items() if gid[a] in G}
                    elif ty == 2: o = {gid[x] for a, b in st.mapping.items() if gid[a] in G for x in b}
                    elif ty == 3: o = {gid[x] for a, b in st.alternates.items() if gid[a] in G for x in b}
                    elif ty == 4: o = {gid[lg.LigGlyph] for a, ls in st.ligatures.items() if gid[a] in G for lg in ls if all(gid[c] in G for c in lg.Component)}
                    elif ty == 8: o = {gid[b] for a, b in zip(st.Coverage.glyphs, st.Substitute) if gid[a] in G}
                    if not o <= G: G.update(o); changed = True
    return inv
def prune(tag, ext, inv):
    t = f[tag].table; L = t.LookupList.Lookup; ks = ns = 0
    for i, l in enumerate(L):
        keep = []
        if i in inv:
            for st0 in l.SubTable:
                st, ty = unwrap(l, st0, ext)
                c = first_cov(tag, ty, st)
                if c is not None and not hit(c): continue
                if ((tag == 'GSUB' and ty in (5, 6)) or (tag == 'GPOS' and ty in (7, 8))) and not live_rules(tag, ty, st): continue
                keep.append(st0)
        ns += len(l.SubTable); ks += len(keep)
        l.SubTable = keep; l.SubTableCount = len(keep)
    print(tag, 'lookups invoked', len(inv), '/', len(L), 'subtables kept', ks, '/', ns)
invs = run('GSUB', 7, True)
invp = run('GPOS', 9, False)
print('glyphs', len(G), '/', len(order))
prune('GSUB', 7, invs); prune('GPOS', 9, invp)
f.save(out)

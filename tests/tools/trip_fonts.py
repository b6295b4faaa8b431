#!/usr/bin/python3
"""trip_fonts.py NOTO-SERIF-REGULAR.ttf OUTDIR: write edited copies of Noto
Serif into OUTDIR, each under a family name of its own ("Trip <Name>"),
each with one OpenType construct a fast shaping path must either apply
exactly as HarfBuzz does or leave to HarfBuzz: pair kerning with a second
value record, ligatures and contexts under always-on features on plain
letters, single positioning in kern, lookup flags, Extension lookups, GDEF
without glyph classes, an old 'kern' table without GPOS, FeatureVariations,
and so on. Prints, a line each, the family name, a text the edit changes
and what vita's records for it should do (differ from the unedited
copy's, "Trip Base"; stay the same: features vita turns off; any). For tests/scripts/shape_trip.sh;
the fonts are made at run time (never committed): python3-fonttools.

The font is first cut to Latin, Greek, Cyrillic and punctuation (fast to
edit and save); each variant merges lookups written in feature-file syntax
into the existing GSUB/GPOS (their features added to every language
system), so Noto's own kerning, marks, small caps and figures stay."""
import copy
import io
import random
import sys

from fontTools import subset
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.otlLib import builder as otl
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.ttLib.tables.DefaultTable import DefaultTable
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0

SRC, OUT = sys.argv[1], sys.argv[2]

UNICODES = (list(range(0x20, 0x370)) + list(range(0x370, 0x530)) + list(range(0x1E00, 0x2000)) +
            list(range(0x2000, 0x20D0)) + list(range(0x2100, 0x2190)) + list(range(0xFB00, 0xFB07)))


def base_font():
    f = TTFont(SRC)
    opts = subset.Options()
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.glyph_names = True
    opts.hinting = False
    opts.legacy_kern = True
    s = subset.Subsetter(opts)
    s.populate(unicodes=UNICODES)
    s.subset(f)
    buf = io.BytesIO()
    f.save(buf)
    return buf.getvalue()


BASE = base_font()


def load():
    return TTFont(io.BytesIO(BASE))


def walk_records(obj, off, seen=None):
    """Add off to every LookupListIndex of a (Subst|Pos)LookupRecord under obj."""
    if seen is None:
        seen = set()
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, list):
        for x in obj:
            walk_records(x, off, seen)
        return
    if not hasattr(obj, "__dict__"):
        return
    if hasattr(obj, "SequenceIndex") and hasattr(obj, "LookupListIndex"):
        obj.LookupListIndex += off
        return
    for v in list(vars(obj).values()):
        if isinstance(v, (list, ot.BaseTable)) or hasattr(v, "__dict__"):
            walk_records(v, off, seen)


def all_langsys(table):
    for sr in table.ScriptList.ScriptRecord:
        if sr.Script.DefaultLangSys:
            yield sr.Script.DefaultLangSys
        for ls in sr.Script.LangSysRecord:
            yield ls.LangSys


def sort_features(table):
    recs = table.FeatureList.FeatureRecord
    order = sorted(range(len(recs)), key=lambda i: (recs[i].FeatureTag, i))
    new_index = {old: new for new, old in enumerate(order)}
    table.FeatureList.FeatureRecord = [recs[i] for i in order]
    for ls in all_langsys(table):
        ls.FeatureIndex = sorted(new_index[i] for i in ls.FeatureIndex)
        if ls.ReqFeatureIndex != 0xFFFF:
            ls.ReqFeatureIndex = new_index[ls.ReqFeatureIndex]
        ls.FeatureCount = len(ls.FeatureIndex)


def merge(font, tag, fea):
    """Build fea alone, then append its lookups to font[tag]: to the features
    of the same tag (after their own lookups), or as new features in every
    language system."""
    scratch = load()
    del scratch[tag]
    addOpenTypeFeaturesFromString(scratch, fea, tables=[tag])
    new, old = scratch[tag].table, font[tag].table
    off = len(old.LookupList.Lookup)
    for lk in new.LookupList.Lookup:
        walk_records(lk, off)
    old.LookupList.Lookup.extend(new.LookupList.Lookup)
    old.LookupList.LookupCount = len(old.LookupList.Lookup)
    added = []
    for fr in new.FeatureList.FeatureRecord:
        idx = [i + off for i in fr.Feature.LookupListIndex]
        recs = old.FeatureList.FeatureRecord
        same = [r for r in recs if r.FeatureTag == fr.FeatureTag]
        for r in same:  # HarfBuzz takes the first feature of a tag: add to it
            r.Feature.LookupListIndex = list(r.Feature.LookupListIndex) + idx
            r.Feature.LookupCount = len(r.Feature.LookupListIndex)
        fr.Feature.LookupListIndex = idx
        fr.Feature.LookupCount = len(idx)
        added.append((fr.FeatureTag, len(recs)))
        recs.append(fr)
    old.FeatureList.FeatureCount = len(old.FeatureList.FeatureRecord)
    tags = [r.FeatureTag for r in old.FeatureList.FeatureRecord]
    for ls in all_langsys(old):     # the new ones where the tag is not
        have = {tags[i] for i in ls.FeatureIndex}
        ls.FeatureIndex = list(ls.FeatureIndex) + [i for t, i in added if t not in have]
    sort_features(old)
    return font


def kern_pairs(font):
    """Noto's first kern subtable (glyph pairs) as a kern-table dict."""
    pairs = {}
    for lk in font["GPOS"].table.LookupList.Lookup:
        for st in lk.SubTable:
            if lk.LookupType == 2 and st.Format == 1:
                for g1, ps in zip(st.Coverage.glyphs, st.PairSet):
                    for pv in ps.PairValueRecord:
                        v = getattr(pv.Value1, "XAdvance", 0) if pv.Value1 else 0
                        if v:
                            pairs[(g1, pv.SecondGlyph)] = v
        break
    return pairs


def v_kern_table(font):
    pairs = kern_pairs(font)
    pairs[("A", "V")] = -120
    pairs[("T", "o")] = -90
    pairs[("n", "n")] = -35
    del font["GPOS"]
    k = newTable("kern")
    k.version = 0
    t = KernTable_format_0()
    t.version, t.format, t.coverage, t.tupleIndex = 0, 0, 1, 0
    t.kernTable = pairs
    k.kernTables = [t]
    font["kern"] = k
    return font


def v_no_gpos(font):
    del font["GPOS"]    # HarfBuzz's fallback mark positioning
    return font


def v_no_gdef_classes(font):
    font["GDEF"].table.GlyphClassDef = None
    return font


def v_no_gdef(font):
    del font["GDEF"]
    return font


def v_featvar(font):
    """GPOS FeatureVariations: with no variation coordinates (all 0) the
    condition -1..1 holds, so 'kern' is replaced by a lookup of its own."""
    merge(font, "GPOS", "lookup fv { pos n n -60; pos A V -200; } fv;\n"
                        "feature zzzz { lookup fv; } zzzz;")
    t = font["GPOS"].table
    recs = t.FeatureList.FeatureRecord
    kern = [i for i, r in enumerate(recs) if r.FeatureTag == "kern"]
    zz = [r for r in recs if r.FeatureTag == "zzzz"][0]
    cond = ot.ConditionTable()
    cond.Format, cond.AxisIndex, cond.FilterRangeMinValue, cond.FilterRangeMaxValue = 1, 0, -1.0, 1.0
    cs = ot.ConditionSet()
    cs.ConditionTable = [cond]
    cs.ConditionCount = 1
    fts = ot.FeatureTableSubstitution()
    fts.Version = 0x00010000
    fts.SubstitutionRecord = []
    for i in kern:
        r = ot.FeatureTableSubstitutionRecord()
        r.FeatureIndex = i
        r.Feature = copy.deepcopy(zz.Feature)
        fts.SubstitutionRecord.append(r)
    fts.SubstitutionCount = len(fts.SubstitutionRecord)
    rec = ot.FeatureVariationRecord()
    rec.ConditionSet = cs
    rec.FeatureTableSubstitution = fts
    fv = ot.FeatureVariations()
    fv.Version = 0x00010000
    fv.FeatureVariationRecord = [rec]
    fv.FeatureVariationCount = 1
    t.FeatureVariations = fv
    t.Version = 0x00010001
    return font


def v_drop_script(tag):
    def f(font):
        for tt in ("GSUB", "GPOS"):
            t = font[tt].table
            t.ScriptList.ScriptRecord = [s for s in t.ScriptList.ScriptRecord if s.ScriptTag != tag]
            t.ScriptList.ScriptCount = len(t.ScriptList.ScriptRecord)
        return font
    return f


def v_no_kern_feature(font):
    t = font["GPOS"].table
    for r in t.FeatureList.FeatureRecord:
        if r.FeatureTag == "kern":
            r.FeatureTag = "ss19"
    sort_features(t)
    return font


def add_feature(table, tag, feature):
    fr = ot.FeatureRecord()
    fr.FeatureTag, fr.Feature = tag, feature
    table.FeatureList.FeatureRecord.append(fr)
    table.FeatureList.FeatureCount = len(table.FeatureList.FeatureRecord)
    i = len(table.FeatureList.FeatureRecord) - 1
    for ls in all_langsys(table):
        ls.FeatureIndex = list(ls.FeatureIndex) + [i]
    sort_features(table)


def features(table, tag):
    return [r.Feature for r in table.FeatureList.FeatureRecord if r.FeatureTag == tag]


def v_req_feature(font):
    """Every default language system's required feature: smcp."""
    t = font["GSUB"].table
    i = [k for k, r in enumerate(t.FeatureList.FeatureRecord) if r.FeatureTag == "smcp"][0]
    for sr in t.ScriptList.ScriptRecord:
        if sr.Script.DefaultLangSys:
            sr.Script.DefaultLangSys.ReqFeatureIndex = i
    return font


def v_kern_twice(font):
    """kern lists each of its lookups twice (HarfBuzz applies it once)."""
    for f in features(font["GPOS"].table, "kern"):
        f.LookupListIndex = list(f.LookupListIndex) * 2
        f.LookupCount = len(f.LookupListIndex)
    return font


def v_kern_dist(font):
    """dist has the lookups of kern (applied once in all)."""
    t = font["GPOS"].table
    add_feature(t, "dist", copy.deepcopy(features(t, "kern")[0]))
    return font


def v_gsub_order(font):
    """smcp's lookups listed last first: HarfBuzz applies them in lookup order."""
    merge(font, "GSUB", "lookup g1 { sub numbersign by at; } g1;\n"
                        "lookup g2 { sub at by V; } g2;\n"
                        "feature smcp { lookup g1; lookup g2; } smcp;")
    for f in features(font["GSUB"].table, "smcp"):
        f.LookupListIndex = sorted(f.LookupListIndex, reverse=True)
    return font


def v_many_lookups(font):
    """40 more kern lookups (past what a plan may cache)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    lk = ["lookup k%d { pos %s %s -%d; } k%d;" % (i, letters[i % 26], letters[(i + 1) % 26], 5 + i, i)
          for i in range(40)]
    return merge(font, "GPOS", "\n".join(lk) + "\nfeature kern { " +
                 " ".join("lookup k%d;" % i for i in range(40)) + " } kern;")


def v_gdef_classes(font):
    """GDEF calls n a mark, o a ligature, the tilde a base."""
    cd = font["GDEF"].table.GlyphClassDef.classDefs
    cd["n"], cd["o"], cd["tildecomb"] = 3, 2, 1
    return font


def v_mark_attach(font):
    """A kern lookup that skips marks of another attachment class."""
    merge(font, "GPOS", "lookup ma { pos x x -50; } ma;\nfeature kern { lookup ma; } kern;")
    g = font["GDEF"].table
    cd = ot.MarkAttachClassDef()
    cd.classDefs = {"tildecomb": 1, "acutecomb": 2}
    g.MarkAttachClassDef = cd
    font["GPOS"].table.LookupList.Lookup[-1].LookupFlag = 0x0100
    return font


def v_mark_set_no_sets(font):
    """UseMarkFilteringSet in a GDEF 1.0 (no mark glyph sets)."""
    merge(font, "GPOS", "@M = [tildecomb];\nlookup ms { lookupflag UseMarkFilteringSet @M; "
                        "pos x x -50; } ms;\nfeature kern { lookup ms; } kern;")
    g = font["GDEF"].table
    g.Version = 0x00010000
    g.MarkGlyphSetsDef = None
    return font


def v_kern_table_and_gpos(font):
    """GPOS without a kern feature, and a 'kern' table."""
    pairs = kern_pairs(font)
    v_no_kern_feature(font)
    k = newTable("kern")
    k.version = 0
    t = KernTable_format_0()
    t.version, t.format, t.coverage, t.tupleIndex = 0, 0, 1, 0
    pairs[("n", "n")] = -45
    t.kernTable = pairs
    k.kernTables = [t]
    font["kern"] = k
    return font


# Tables that lie within their bounds: HarfBuzz searches coverage, pair
# sets and script lists by bisection and checks class numbers; a fast path
# must give what HarfBuzz gives (or leave the face to it).

def kern_subtables(font, fmt):
    for lk in font["GPOS"].table.LookupList.Lookup:
        for st in lk.SubTable:
            if lk.LookupType == 2 and st.Format == fmt:
                yield st


def v_coverage_unsorted(font):
    """The glyph pairs' coverage (and pair sets) in reverse glyph order."""
    for st in kern_subtables(font, 1):
        st.Coverage.glyphs = st.Coverage.glyphs[::-1]
        st.PairSet = st.PairSet[::-1]
    return font


def v_pairset_unsorted(font):
    """Each pair set's second glyphs in reverse order."""
    for st in kern_subtables(font, 1):
        for ps in st.PairSet:
            ps.PairValueRecord = ps.PairValueRecord[::-1]
    return font


def v_class_overflow(font):
    """Class pairs: a second-glyph class past Class2Count, a first one past Class1Count."""
    for st in kern_subtables(font, 2):
        c2 = st.ClassDef2.classDefs
        for g in list(c2)[:len(c2) // 2]:
            c2[g] = st.Class2Count + 3
        c1 = st.ClassDef1.classDefs
        for g in list(c1)[:3]:
            c1[g] = st.Class1Count + 1
        break
    return font


def v_scripts_unsorted(font):
    for tt in ("GSUB", "GPOS"):
        sl = font[tt].table.ScriptList
        sl.ScriptRecord = sorted(sl.ScriptRecord, key=lambda r: r.ScriptTag, reverse=True)
    return font


def v_gdef_class7(font):
    cd = font["GDEF"].table.GlyphClassDef.classDefs
    cd["n"], cd["V"] = 7, 5
    return font


def v_mark_attach_no_classdef(font):
    merge(font, "GPOS", "lookup ma { pos x x -50; } ma;\nfeature kern { lookup ma; } kern;")
    font["GDEF"].table.MarkAttachClassDef = None
    font["GPOS"].table.LookupList.Lookup[-1].LookupFlag = 0x0300
    return font


def fea(tag, text):
    return lambda font: merge(font, tag, text)


# (name, how, a text it changes, whether vita's records for that text
# differ from the unedited copy's: "differ", "same" (features vita turns
# off), "any")
VARIANTS = [
    ("Base", lambda font: font, "AV", "same"),
    # kerning
    ("PairValue2", fea("GPOS", "feature kern { pos n <0 0 -30 0> n <12 0 5 0>; "
                               "pos T <0 0 -40 0> o <-20 0 0 0>; pos A <0 0 0 0> V <0 40 0 0>; } kern;"),
     "Anna To AV", "differ"),
    ("PairValue2Adv", fea("GPOS", "feature kern { pos e <0 0 0 0> r <0 0 -25 0>; } kern;"), "er", "differ"),
    ("PairClass", fea("GPOS", "@L = [a e o]; @R = [n m r s];\n"
                              "feature kern { pos @L @R -22; } kern;"), "an", "differ"),
    ("KernSingle", fea("GPOS", "feature kern { pos x <5 0 30 0>; pos r -20; } kern;"), "xr", "differ"),
    ("KernSingleY", fea("GPOS", "feature kern { pos u <0 12 0 0>; } kern;"), "uu", "differ"),
    ("KernChainPos", fea("GPOS", "feature kern { pos T o' -60; pos [V W] a' <0 0 -45 0>; } kern;"),
     "To Va", "differ"),
    ("KernExtension", fea("GPOS", "lookup ext useExtension { pos n n -40; pos o o 25; } ext;\n"
                                  "feature kern { lookup ext; } kern;"), "nn oo", "differ"),
    ("KernIgnoreBase", fea("GPOS", "lookup ib { lookupflag IgnoreBaseGlyphs; "
                                   "pos tildecomb uni0304 -80; pos n n -70; } ib;\n"
                                   "feature kern { lookup ib; } kern;"), "x\u0303\u0304", "any"),
    ("KernNoIgnoreMarks", fea("GPOS", "lookup nm { pos tildecomb V -70; pos n n -15; } nm;\n"
                                      "feature kern { lookup nm; } kern;"), "x\u0303V nn", "differ"),
    ("KernMarkSet", fea("GPOS", "@M = [tildecomb];\nlookup ms { lookupflag UseMarkFilteringSet @M; "
                                "pos x x -50; } ms;\nfeature kern { lookup ms; } kern;"), "xx", "differ"),
    ("KernRTL", fea("GPOS", "lookup rl { lookupflag RightToLeft; pos n n -33; } rl;\n"
                            "feature kern { lookup rl; } kern;"), "nn", "differ"),
    ("KernTable", v_kern_table, "nn", "differ"),
    ("NoGPOS", v_no_gpos, "AV", "differ"),
    ("NoKernFeature", v_no_kern_feature, "AV", "differ"),
    ("FeatVar", v_featvar, "nn", "any"),
    ("Dist", fea("GPOS", "feature dist { pos n n -40; } dist;"), "nn", "differ"),
    ("Curs", fea("GPOS", "feature curs { pos cursive n <anchor 0 0> <anchor 560 80>; } curs;"),
     "nnn", "differ"),
    ("MarkOnPlain", fea("GPOS", "markClass r <anchor 0 0> @R;\n"
                                "feature mark { pos base n <anchor 300 100> mark @R; } mark;"),
     "nr", "differ"),
    ("KernTwice", v_kern_twice, "AV To", "same"),
    ("KernDistSame", v_kern_dist, "AV To", "same"),
    ("ManyLookups", v_many_lookups, "abcdefghij", "differ"),
    ("GdefClasses", v_gdef_classes, "Anna To", "differ"),
    ("MarkAttach", v_mark_attach, "x\u0303x x\u0301x xx", "differ"),
    ("MarkSetNoSets", v_mark_set_no_sets, "x\u0303x xx", "any"),
    ("KernTableAndGpos", v_kern_table_and_gpos, "nn", "differ"),
    ("KernSpace", fea("GPOS", "feature kern { pos A space -50; pos space T -40; pos uni00A0 V -30; } kern;"),
     "A T A\u00a0V", "differ"),
    ("PairDevice", fea("GPOS", "feature kern { pos n n <-30 0 -30 0 <device NULL> <device NULL> "
                               "<device 1 -5, 2 -5, 3 -5, 4 -5, 5 -5, 6 -5, 7 -5, 8 -5, 9 -5, 10 -5, 11 -5, 12 -5> "
                               "<device NULL>>; } kern;"), "nn", "differ"),
    ("NoGrekCyrl", lambda font: v_drop_script("cyrl")(v_drop_script("grek")(font)), "ΑΥΤΟ ГА", "any"),
    ("CoverageUnsorted", v_coverage_unsorted, "AV To Ty", "any"),
    ("PairSetUnsorted", v_pairset_unsorted, "AV To Ty", "any"),
    ("ClassOverflow", v_class_overflow, "AV To Ty", "any"),
    ("ScriptsUnsorted", v_scripts_unsorted, "AV", "any"),
    ("GdefClass7", v_gdef_class7, "AVnn", "any"),
    ("MarkAttachNoClassDef", v_mark_attach_no_classdef, "x\u0303x xx", "any"),
    ("LatnOnly", v_drop_script("DFLT"), "AV", "any"),
    ("DfltOnly", v_drop_script("latn"), "AV", "any"),
    # substitutions on plain letters under features that are always on
    ("CcmpLiga", fea("GSUB", "feature ccmp { sub A V by W; } ccmp;"), "AV", "differ"),
    ("CcmpChain", fea("GSUB", "feature ccmp { sub A' V by a.sc; } ccmp;"), "AV", "differ"),
    ("CcmpSingle", fea("GSUB", "feature ccmp { sub V by v.sc; } ccmp;"), "AV", "differ"),
    ("CcmpMultiple", fea("GSUB", "feature ccmp { sub V by V V; } ccmp;"), "AVA", "differ"),
    ("CcmpExtension", fea("GSUB", "lookup cx useExtension { sub V by v.sc; } cx;\n"
                                  "feature ccmp { lookup cx; } ccmp;"), "AV", "differ"),
    ("Locl", fea("GSUB", "feature locl { script latn; language dflt; sub V by v.sc; "
                         "language TRK; sub i by i.sc; } locl;"), "AV i", "differ"),
    ("Rlig", fea("GSUB", "feature rlig { sub A V by W; } rlig;"), "AV", "differ"),
    ("Rclt", fea("GSUB", "feature rclt { sub A' V by a.sc; } rclt;"), "AV", "differ"),
    ("Rvrn", fea("GSUB", "feature rvrn { sub V by v.sc; } rvrn;"), "AV", "differ"),
    ("ReqFeature", v_req_feature, "To", "differ"),
    ("ReverseChain", fea("GSUB", "feature ccmp { rsub A n' by m; } ccmp;"), "An", "any"),
    ("GsubOrder", v_gsub_order, "A#", "differ"),
    ("SmcpDeltaNeg", fea("GSUB", "feature smcp { sub at by numbersign; } smcp;"), "A@", "differ"),
    ("Liga", fea("GSUB", "feature liga { sub A V by W; } liga;"), "AV", "same"),
    ("Calt", fea("GSUB", "feature calt { sub A' V by a.sc; } calt;"), "AV", "same"),
    ("Dlig", fea("GSUB", "feature dlig { sub A V by W; } dlig;"), "AV", "same"),
    # the features vita asks for, done otherwise than by single substitution
    ("SmcpMultiple", fea("GSUB", "feature smcp { sub numbersign by V V; } smcp;"), "A#", "differ"),
    ("SmcpLiga", fea("GSUB", "feature smcp { sub at at by V; } smcp;"), "A@@", "differ"),
    ("SmcpChain", fea("GSUB", "feature smcp { sub at' one by V; } smcp;"), "A@1", "differ"),
    ("SmcpAlternate", fea("GSUB", "feature smcp { sub numbersign from [V W]; } smcp;"), "A#", "differ"),
    ("OnumChain", fea("GSUB", "feature onum { sub ampersand' x by V; } onum;"), "1A&x", "differ"),
    ("C2scIgnoreMarks", fea("GSUB", "lookup cm { lookupflag IgnoreMarks; sub one' two by V; } cm;\n"
                                    "feature c2sc { lookup cm; } c2sc;"), "12", "differ"),
]


# Tables that lie so that HarfBuzz's sanitizer drops or neuters something
# (found by mutating bytes; tests/scripts/shape_trip.sh --lies): HarfBuzz's
# view of the font is then not the raw table.

def raw_table(font, tag):
    data = bytearray(font.reader[tag])
    t = DefaultTable(tag)
    return data, t


def v_lie_lookup_count(font):
    """GPOS LookupCount one too high: the extra offset is lookup 0's type;
    HarfBuzz neuters that bogus lookup by zeroing those bytes, so the kern
    lookup (lookup 0) gets type 0."""
    data, t = raw_table(font, "GPOS")
    ll = data[8] << 8 | data[9]
    n = (data[ll] << 8 | data[ll + 1]) + 1
    data[ll], data[ll + 1] = n >> 8, n & 0xFF
    t.data = bytes(data)
    font["GPOS"] = t
    return font


def v_lie_ligset(font):
    """A LigatureSet offset of the first ligature lookup moved 42 bytes back,
    into another set: HarfBuzz rejects the whole GSUB."""
    data, t = raw_table(font, "GSUB")
    u16 = lambda o: data[o] << 8 | data[o + 1]
    ll = u16(8)
    for k in range(u16(ll)):
        lk = ll + u16(ll + 2 + 2 * k)
        if u16(lk) == 4:
            st = lk + u16(lk + 6)
            cnt = u16(st + 4)
            e = st + 6 + 2 * (cnt - 2)
            v = u16(e) - 42
            data[e], data[e + 1] = v >> 8, v & 0xFF
            break
    t.data = bytes(data)
    font["GSUB"] = t
    return font


LIES = [
    ("LieLookupCount", v_lie_lookup_count, "AV", "differ"),
    ("LieLigset", v_lie_ligset, "AV", "any"),
]


def mutant(font, rnd):
    """Random changes to a few bytes of GSUB, GPOS or GDEF."""
    tag = rnd.choice(["GPOS", "GPOS", "GSUB", "GDEF"])
    data, t = raw_table(font, tag)
    for _ in range(rnd.choice([1, 1, 2, 4, 8])):
        i = rnd.randrange(len(data))
        kind = rnd.random()
        if kind < 0.4:
            data[i] = rnd.randrange(256)
        elif kind < 0.7:
            data[i] ^= 1 << rnd.randrange(8)
        elif i + 1 < len(data):
            v = ((data[i] << 8 | data[i + 1]) + rnd.choice([-2, -1, 1, 2])) & 0xFFFF
            data[i], data[i + 1] = v >> 8, v & 0xFF
    t.data = bytes(data)
    font[tag] = t
    return font


def rename(font, fam):
    psfam = fam.replace(" ", "")
    for rec in font["name"].names:
        if rec.nameID in (1, 16):
            rec.string = fam
        elif rec.nameID == 4:
            rec.string = fam + " Regular"
        elif rec.nameID == 6:
            rec.string = psfam + "-Regular"
        elif rec.nameID == 3:
            rec.string = psfam + ";trip"
    font["name"].names = [r for r in font["name"].names if r.nameID != 16 and r.nameID != 17]


def main():
    args = sys.argv[3:]
    variants = VARIANTS
    if args[:1] == ["--lies"]:
        variants, args = LIES, args[1:]
    if args[:1] == ["--mutants"]:
        n, seed = int(args[1]), int(args[2])
        rnd = random.Random(seed)
        for k in range(n):
            fam = "Mut %d" % (seed * 1000 + k)
            font = mutant(load(), rnd)
            rename(font, fam)
            font.save("%s/Mut%d-Regular.ttf" % (OUT, seed * 1000 + k))
            print("%s\t%s\t%s" % (fam, "AV", "any"))
        return
    only = set(args)
    for name, make, text, expect in variants:
        if only and name not in only:
            continue
        fam = "Trip " + name
        font = make(load())
        rename(font, fam)
        font.save("%s/Trip%s-Regular.ttf" % (OUT, name))
        print("%s\t%s\t%s" % (fam, text, expect))


main()

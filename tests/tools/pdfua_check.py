"""pdfua_check.py [--require] FILE...: the machine-checkable conditions of
PDF/UA-1 (the Matterhorn Protocol's) and PDF/A-2 that a CV from vita must
meet, checked with pikepdf (Debian's python3-pikepdf).

A file that claims neither (no pdfuaid/pdfaid in its XMP, no structure
tree: vita --pdf=plain) is skipped, unless --require is given. Prints
"FILE: pdfua: PROBLEM" for each problem; exit 1 if any. Used by
pdf_check.sh on every PDF the test suite makes, and by
tests/scripts/pdfua.sh, which also shows it failing on broken copies.

PDF/UA-1: /MarkInfo /Marked true; /Lang; XMP with pdfuaid:part 1 and a
dc:title; /ViewerPreferences /DisplayDocTitle true; a structure tree of
standard types (or role-mapped ones) whose /P links are consistent; every
painting operator (text, paths, images) inside a tagged or artifact
marked-content sequence, tagged content never inside an artifact; every
MCID of every page in the ParentTree, pointing at an element that has
that MCID on that page as a kid, and every element's MCIDs existing in
the content; headings that start at H1 and never skip a level; a Figure
with /Alt; every annotation with /Contents, a /StructParent that leads to
an element holding it as an OBJR, and its page with /Tabs /S; every font
embedded with a ToUnicode map and widths; /Lang values well formed.

PDF/A-2: header PDF 1.4..1.7 with a binary comment; trailer /ID; no
encryption; an output intent GTS_PDFA1 with an RGB ICC profile; XMP
well-formed, pdfaid:part 2 with a conformance level, the pdfuaid
extension schema, and Title/Author/Subject/Keywords/Creator/Producer/
dates equal to the Info dictionary's; annotations printable, not hidden;
no JavaScript, Launch or other non-archival actions; transparency only
with an output intent and standard blend modes.
"""
import re
import sys
import xml.etree.ElementTree as ET

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

STANDARD = {
    "Document", "Part", "Art", "Sect", "Div", "BlockQuote", "Caption", "TOC",
    "TOCI", "Index", "NonStruct", "Private", "P", "H", "H1", "H2", "H3", "H4",
    "H5", "H6", "L", "LI", "Lbl", "LBody", "Table", "TR", "TH", "TD", "THead",
    "TBody", "TFoot", "Span", "Quote", "Note", "Reference", "BibEntry", "Code",
    "Link", "Annot", "Ruby", "RB", "RT", "RP", "Warichu", "WT", "WP", "Figure",
    "Formula", "Form",
}
PAINT = {"Tj", "TJ", "'", '"', "f", "F", "f*", "S", "s", "B", "B*", "b", "b*",
         "Do", "sh", "EI", "BI", "INLINE IMAGE"}
NS = {
    "x": "adobe:ns:meta/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
    "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
    "pdfuaid": "http://www.aiim.org/pdfua/ns/id/",
    "pdfaSchema": "http://www.aiim.org/pdfa/ns/schema#",
}
LANG_RE = re.compile(r"^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$")


class Checker:
    def __init__(self, path):
        self.path = path
        self.problems = []

    def bad(self, msg):
        self.problems.append(msg)

    # ---- XMP ----
    def xmp(self, pdf):
        md = pdf.Root.get("/Metadata")
        if not isinstance(md, Stream):
            return None
        try:
            return ET.fromstring(md.read_bytes())
        except ET.ParseError as e:
            self.bad("XMP metadata is not well-formed XML: %s" % e)
            return None

    @staticmethod
    def xmp_values(root, tag):
        """Text of every element `tag` (prefix:name), or of its rdf:li."""
        pre, name = tag.split(":")
        out = []
        for el in root.iter("{%s}%s" % (NS[pre], name)):
            lis = list(el.iter("{%s}li" % NS["rdf"]))
            out.append(lis[0].text or "" if lis else el.text or "")
        for el in root.iter("{%s}Description" % NS["rdf"]):
            v = el.get("{%s}%s" % (NS[pre], name))
            if v is not None:
                out.append(v)
        return out

    # ---- the whole file ----
    def run(self, require):
        data = open(self.path, "rb").read(1024)
        try:
            pdf = pikepdf.open(self.path)
        except Exception as e:  # noqa: BLE001 (any reader failure is a finding)
            self.bad("cannot open: %s" % e)
            return self.problems
        with pdf:
            root = self.xmp(pdf)
            ua = root is not None and self.xmp_values(root, "pdfuaid:part")
            pa = root is not None and self.xmp_values(root, "pdfaid:part")
            tagged = "/StructTreeRoot" in pdf.Root
            if not (ua or pa or tagged):
                if require:
                    self.bad("neither tagged nor PDF/UA or PDF/A (an untagged PDF)")
                return self.problems
            self.check_ua(pdf, root)
            self.check_a(pdf, root, data)
        return self.problems

    # ---- PDF/UA-1 ----
    def check_ua(self, pdf, xmp):
        cat = pdf.Root
        mi = cat.get("/MarkInfo")
        if not isinstance(mi, Dictionary) or mi.get("/Marked") is not True:
            self.bad("catalog: /MarkInfo /Marked is not true")
        lang = cat.get("/Lang")
        if lang is None or not str(lang).strip():
            self.bad("catalog: no /Lang")
        elif not LANG_RE.match(str(lang)):
            self.bad("catalog: /Lang %r is not a language tag" % str(lang))
        if xmp is None:
            self.bad("no XMP metadata stream")
        else:
            if self.xmp_values(xmp, "pdfuaid:part") != ["1"]:
                self.bad("XMP: pdfuaid:part is not 1")
            if not any(v.strip() for v in self.xmp_values(xmp, "dc:title")):
                self.bad("XMP: no dc:title")
        vp = cat.get("/ViewerPreferences")
        if not isinstance(vp, Dictionary) or vp.get("/DisplayDocTitle") is not True:
            self.bad("catalog: /ViewerPreferences /DisplayDocTitle is not true")
        if "/Encrypt" in pdf.trailer:
            self.bad("the file is encrypted")
        self.check_fonts(pdf)
        st = cat.get("/StructTreeRoot")
        if not isinstance(st, Dictionary):
            self.bad("no structure tree (/StructTreeRoot)")
            return
        self.check_tree(pdf, st)

    def check_fonts(self, pdf):
        seen = set()
        for i, page in enumerate(pdf.pages, 1):
            res = page.obj.get("/Resources", Dictionary())
            for name, font in (res.get("/Font") or Dictionary()).items():
                if font.objgen in seen:
                    continue
                seen.add(font.objgen)
                base = str(font.get("/BaseFont", name))
                if "/ToUnicode" not in font:
                    self.bad("font %s has no ToUnicode map" % base)
                leaves = font.DescendantFonts if "/DescendantFonts" in font else [font]
                for leaf in leaves:
                    fd = leaf.get("/FontDescriptor")
                    if str(leaf.get("/Subtype")) == "/Type3":
                        # its glyphs are in the file (CharProcs: the colour
                        # emoji's images), no font program to embed (PDF/A-2
                        # 6.2.11.4.1 is about programs); a tagged PDF's has a
                        # descriptor (ISO 32000-1, Table 112)
                        if not isinstance(fd, Dictionary):
                            self.bad("Type 3 font %s has no font descriptor" % base)
                        if not isinstance(leaf.get("/CharProcs"), Dictionary):
                            self.bad("Type 3 font %s has no /CharProcs" % base)
                        continue
                    if not isinstance(fd, Dictionary) or not any(
                            k in fd for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                        self.bad("font %s is not embedded" % base)
                    if str(leaf.get("/Subtype")) in ("/CIDFontType0", "/CIDFontType2"):
                        if "/W" not in leaf and "/DW" not in leaf:
                            self.bad("font %s has no widths (/W, /DW)" % base)
                    elif "/Widths" not in leaf and str(leaf.get("/Subtype")) != "/Type3":
                        self.bad("font %s has no /Widths" % base)

    def check_tree(self, pdf, st):
        rolemap = st.get("/RoleMap", Dictionary())
        pages = {p.objgen: i for i, p in enumerate(pdf.pages)}
        # element kids: (page index, mcid) and OBJR annotations
        el_mcids = {}     # (page, mcid) -> element objgen
        el_annots = {}    # annot objgen -> element objgen
        headings = []
        stack = [(st.get("/K"), st, None)]
        visited = set()
        figures = []
        while stack:
            k, parent, pg = stack.pop()
            if isinstance(k, Array):
                for x in reversed(list(k)):
                    stack.append((x, parent, pg))
                continue
            if not isinstance(k, Dictionary):
                if isinstance(k, int) and not isinstance(k, bool):
                    if pg is None:
                        self.bad("element %s: MCID %d with no /Pg" % (parent.get("/S"), k))
                    else:
                        el_mcids[(pg, int(k))] = parent.objgen
                continue
            t = k.get("/Type")
            if t == Name.MCR:
                p = k.get("/Pg", None)
                p = pages.get(p.objgen) if p is not None else pg
                el_mcids[(p, int(k.get("/MCID", -1)))] = parent.objgen
                continue
            if t == Name.OBJR:
                el_annots[k.Obj.objgen] = parent.objgen
                continue
            if "/S" not in k:
                self.bad("a structure kid that is neither an element, MCR nor OBJR")
                continue
            if k.objgen in visited and k.objgen != (0, 0):
                self.bad("element %s is in the tree twice" % k.S)
                continue
            visited.add(k.objgen)
            role = str(k.S)[1:]
            std = role
            for _ in range(10):
                if std in STANDARD:
                    break
                m = rolemap.get("/" + std)
                if m is None:
                    break
                std = str(m)[1:]
            if std not in STANDARD:
                self.bad("element /%s is not a standard structure type nor role-mapped to one" % role)
            if k.get("/P") is None or k.P.objgen != parent.objgen:
                self.bad("element /%s: /P is not its parent" % role)
            lang = k.get("/Lang")
            if lang is not None and not LANG_RE.match(str(lang)):
                self.bad("element /%s: /Lang %r is not a language tag" % (role, str(lang)))
            if re.fullmatch(r"H[1-6]", std):
                headings.append(int(std[1]))
            elif std == "H":
                headings.append(None)
            if std == "Figure":
                figures.append(k)
            epg = k.get("/Pg")
            epg = pages.get(epg.objgen) if epg is not None else pg
            stack.append((k.get("/K"), k, epg))
        for f in figures:
            alt = f.get("/Alt", f.get("/ActualText"))
            if alt is None or not str(alt).strip():
                self.bad("a Figure has no /Alt")
        prev = 0
        for h in headings:
            if h is None:
                continue
            if h > prev + 1:
                self.bad("heading levels skip: H%d after %s" % (h, "H%d" % prev if prev else "no heading"))
            prev = h
        self.check_content(pdf, st, el_mcids, el_annots)

    def check_content(self, pdf, st, el_mcids, el_annots):
        ptree = st.get("/ParentTree")
        nums = {}
        if isinstance(ptree, Dictionary):
            todo = [ptree]
            while todo:
                n = todo.pop()
                a = n.get("/Nums", Array())
                for i in range(0, len(a) - 1, 2):
                    nums[int(a[i])] = a[i + 1]
                todo.extend(n.get("/Kids", Array()))
        else:
            self.bad("structure tree: no /ParentTree")
        used = set()
        for pi, page in enumerate(pdf.pages):
            self.check_page_content(pdf, page, pi, nums, el_mcids, used)
            annots = page.obj.get("/Annots", Array())
            if len(annots) and page.obj.get("/Tabs") != Name.S:
                self.bad("page %d has annotations but no /Tabs /S" % (pi + 1))
            for a in annots:
                sub = str(a.get("/Subtype"))
                if sub in ("/Popup",):
                    continue
                c = a.get("/Contents")
                if c is None or not str(c).strip():
                    self.bad("page %d: a %s annotation has no /Contents" % (pi + 1, sub[1:]))
                sp = a.get("/StructParent")
                if sub == "/Link" or sp is not None:
                    if sp is None:
                        self.bad("page %d: a %s annotation has no /StructParent" % (pi + 1, sub[1:]))
                    else:
                        el = nums.get(int(sp))
                        if not isinstance(el, Dictionary) or el_annots.get(a.objgen) != el.objgen:
                            self.bad("page %d: a %s annotation is not an OBJR of the element its "
                                     "/StructParent names" % (pi + 1, sub[1:]))
                        elif sub == "/Link" and str(el.get("/S")) != "/Link":
                            self.bad("page %d: a link annotation belongs to a /%s element, not "
                                     "/Link" % (pi + 1, str(el.get("/S"))[1:]))
        for (p, m) in el_mcids:
            if (p, m) not in used:
                self.bad("the structure tree names MCID %d on page %d, which its content "
                         "does not have" % (m, (p if p is not None else -1) + 1))

    def check_page_content(self, pdf, page, pi, nums, el_mcids, used):
        sp = page.obj.get("/StructParents")
        arr = nums.get(int(sp)) if sp is not None else None
        stack = []   # ("art"|"tag"|"other", mcid)
        try:
            ops = pikepdf.parse_content_stream(page)
        except Exception as e:  # noqa: BLE001
            self.bad("page %d: content cannot be parsed: %s" % (pi + 1, e))
            return
        untagged = 0
        for operands, op in ops:
            op = str(op)
            if op in ("BMC", "BDC"):
                tag = str(operands[0])
                mcid = None
                if op == "BDC" and isinstance(operands[1], Dictionary) and "/MCID" in operands[1]:
                    mcid = int(operands[1].MCID)
                kind = "art" if tag == "/Artifact" else "tag" if mcid is not None else "other"
                if kind == "tag" and any(k == "art" for k, _ in stack):
                    self.bad("page %d: tagged content (MCID %d) inside an artifact" % (pi + 1, mcid))
                if kind == "tag":
                    if any(k == "tag" for k, _ in stack):
                        self.bad("page %d: MCID %d nested in another MCID" % (pi + 1, mcid))
                    if (pi, mcid) in used:
                        self.bad("page %d: MCID %d used twice" % (pi + 1, mcid))
                    used.add((pi, mcid))
                    if sp is None:
                        self.bad("page %d has MCIDs but no /StructParents" % (pi + 1))
                    elif not isinstance(arr, Array) or mcid >= len(arr) or \
                            not isinstance(arr[mcid], Dictionary):
                        self.bad("page %d: MCID %d is not in the ParentTree" % (pi + 1, mcid))
                    elif el_mcids.get((pi, mcid)) != arr[mcid].objgen:
                        self.bad("page %d: MCID %d: the ParentTree's element does not hold it"
                                 % (pi + 1, mcid))
                stack.append((kind, mcid))
            elif op == "EMC":
                if not stack:
                    self.bad("page %d: EMC without BMC/BDC" % (pi + 1))
                else:
                    stack.pop()
            elif op in PAINT:
                if not any(k in ("art", "tag") for k, _ in stack):
                    untagged += 1
        if stack:
            self.bad("page %d: marked content left open" % (pi + 1))
        if untagged:
            self.bad("page %d: %d painting operators neither tagged nor artifacts" % (pi + 1, untagged))

    # ---- PDF/A-2 ----
    def check_a(self, pdf, xmp, head):
        m = re.match(rb"%PDF-1\.([0-9])\r?\n?%([\x80-\xff]{4})", head)
        if not m or not (4 <= int(m.group(1)) <= 7):
            self.bad("header is not %PDF-1.4..1.7 followed by a binary comment")
        ids = pdf.trailer.get("/ID")
        if not isinstance(ids, Array) or len(ids) != 2:
            self.bad("trailer: no /ID")
        if xmp is None:
            return
        part = self.xmp_values(xmp, "pdfaid:part")
        if part != ["2"]:
            self.bad("XMP: pdfaid:part is %s, not 2" % (part or "missing"))
        conf = self.xmp_values(xmp, "pdfaid:conformance")
        if conf not in (["A"], ["B"], ["U"]):
            self.bad("XMP: pdfaid:conformance is not A, B or U")
        if self.xmp_values(xmp, "pdfuaid:part") and not any(
                (el.text or "").strip() == NS["pdfuaid"]
                for el in xmp.iter("{%s}namespaceURI" % NS["pdfaSchema"])):
            self.bad("XMP: pdfuaid is used without its PDF/A extension schema")
        ois = pdf.Root.get("/OutputIntents", Array())
        good = False
        for oi in ois:
            if oi.get("/S") != Name.GTS_PDFA1:
                continue
            prof = oi.get("/DestOutputProfile")
            if isinstance(prof, Stream):
                icc = prof.read_bytes()
                good = len(icc) > 128 and icc[36:40] == b"acsp" and icc[16:20] == b"RGB " \
                    and int(prof.get("/N", 0)) == 3
        if not good:
            self.bad("no GTS_PDFA1 output intent with an RGB ICC profile")
        self.check_info(pdf, xmp)
        self.check_objects(pdf, good)

    def check_info(self, pdf, xmp):
        info = pdf.trailer.get("/Info")
        if not isinstance(info, Dictionary):
            return
        pairs = [("/Title", "dc:title"), ("/Author", "dc:creator"), ("/Subject", "dc:description"),
                 ("/Keywords", "pdf:Keywords"), ("/Creator", "xmp:CreatorTool"),
                 ("/Producer", "pdf:Producer")]
        for key, prop in pairs:
            v = info.get(key)
            x = self.xmp_values(xmp, prop)
            if v is not None and x != [str(v)]:
                self.bad("Info %s %r differs from XMP %s %r" % (key, str(v), prop, x))
        for key, prop in (("/CreationDate", "xmp:CreateDate"), ("/ModDate", "xmp:ModifyDate")):
            v = info.get(key)
            x = self.xmp_values(xmp, prop)
            if v is None:
                continue
            d = re.match(r"D:(\d{4})(\d\d)?(\d\d)?(\d\d)?(\d\d)?(\d\d)?", str(v))
            if not d or not x:
                self.bad("Info %s has no XMP %s" % (key, prop))
                continue
            want = "%s-%s-%sT%s:%s:%s" % tuple(g or "00" for g in d.groups())
            if not x[0].startswith(want):
                self.bad("Info %s %s differs from XMP %s %s" % (key, str(v), prop, x[0]))

    def check_objects(self, pdf, intent):
        for obj in pdf.objects:
            if not isinstance(obj, (Dictionary, Stream)):
                continue
            s = str(obj.get("/S", ""))
            if obj.get("/Type") == Name.Action or s in ("/JavaScript", "/Launch", "/ImportData",
                                                        "/ResetForm", "/Sound", "/Movie"):
                if s not in ("/URI", "/GoTo", "/GoToR", "/Named", ""):
                    self.bad("a %s action (not allowed in PDF/A)" % s[1:])
            if obj.get("/Type") == Name.Annot or "/Subtype" in obj and "/Rect" in obj:
                f = int(obj.get("/F", 0))
                if not f & 4 or f & 2 or f & 1:
                    self.bad("an annotation is not printable or is hidden (/F %d)" % f)
            sm = obj.get("/SMask")
            bm = obj.get("/BM")
            if (sm is not None and sm != Name("/None")) or (bm is not None and bm not in (
                    Name.Normal, Name.Compatible)):
                if not intent:
                    self.bad("transparency without an output intent")
                if bm is not None and bm not in (Name.Normal, Name.Compatible, Name.Multiply,
                                                 Name.Screen, Name.Darken, Name.Lighten):
                    self.bad("blend mode %s" % bm)
        names = pdf.Root.get("/Names", Dictionary())
        if "/JavaScript" in names:
            self.bad("document JavaScript")
        if "/EmbeddedFiles" in names:
            self.bad("embedded files")


def main(argv):
    require = "--require" in argv
    files = [a for a in argv if a != "--require"]
    bad = 0
    for f in files:
        for p in Checker(f).run(require):
            print("%s: pdfua: %s" % (f, p))
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

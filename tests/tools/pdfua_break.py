"""pdfua_break.py IN OUT CASE: write a copy of IN with one thing broken
that PDF/UA-1 or PDF/A-2 requires, so tests/scripts/pdfua.sh can show
that pdfua_check.py notices. CASE is one of the keys of CASES."""
import re
import sys

import pikepdf
from pikepdf import Array, Dictionary, Name


def elements(pdf):
    todo = [pdf.Root.StructTreeRoot.K]
    while todo:
        k = todo.pop()
        if isinstance(k, Array):
            todo.extend(reversed(list(k)))
        elif isinstance(k, Dictionary) and "/S" in k:
            yield k
            todo.append(k.get("/K"))


def first(pdf, role):
    return next(e for e in elements(pdf) if e.S == Name(role))


def set_xmp(pdf, fn):
    md = pdf.Root.Metadata
    md.write(fn(md.read_bytes()))


def untag_first(pdf):
    """Drop the first BDC ... EMC pair of page 1 (its text stays)."""
    page = pdf.pages[0]
    ops = pikepdf.parse_content_stream(page)
    out, depth, drop = [], 0, None
    for operands, op in ops:
        if str(op) == "BDC" and drop is None and isinstance(operands[1], Dictionary) \
                and "/MCID" in operands[1]:
            drop = depth
            depth += 1
            continue
        if str(op) in ("BDC", "BMC"):
            depth += 1
        if str(op) == "EMC":
            depth -= 1
            if drop is not None and depth == drop:
                drop = -1
                continue
        out.append((operands, op))
    page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(out))


def drop_mcid(pdf):
    """The ParentTree loses page 1's first MCID."""
    nums = pdf.Root.StructTreeRoot.ParentTree.Nums
    for i in range(0, len(nums), 2):
        if int(nums[i]) == int(pdf.pages[0].obj.StructParents):
            nums[i + 1][0] = None
            return


def first_link(pdf):
    for page in pdf.pages:
        for a in page.obj.get("/Annots", Array()):
            if a.get("/Subtype") == Name.Link:
                return page, a
    raise SystemExit("no link annotation")


CASES = {
    "lang": lambda p: p.Root.__delitem__("/Lang"),
    "marked": lambda p: p.Root.MarkInfo.__setitem__("/Marked", False),
    "uaid": lambda p: set_xmp(p, lambda x: re.sub(rb'<pdfuaid:part>1</pdfuaid:part>| pdfuaid:part="1"',
                                                  b"", x)),
    "title": lambda p: p.Root.ViewerPreferences.__delitem__("/DisplayDocTitle"),
    "alt": lambda p: first(p, "/Figure").__delitem__("/Alt"),
    "mcid": drop_mcid,
    "untagged": untag_first,
    "heading": lambda p: first(p, "/H2").__setitem__("/S", Name.H4),
    "contents": lambda p: first_link(p)[1].__delitem__("/Contents"),
    "tabs": lambda p: first_link(p)[0].obj.__delitem__("/Tabs"),
    "tounicode": lambda p: next(iter(dict(p.pages[0].Resources.Font.items()).values())).__delitem__("/ToUnicode"),
    "intent": lambda p: p.Root.__delitem__("/OutputIntents"),
    "info": lambda p: p.docinfo.__setitem__("/Title", "Something else"),
    "producer": lambda p: p.docinfo.__setitem__("/Producer", "Haru Free PDF Library 2.3.0"),
    "role": lambda p: first(p, "/LBody").__setitem__("/S", Name("/Entry")),
    "structtree": lambda p: p.Root.__delitem__("/StructTreeRoot"),
}


def main(src, dst, case):
    with pikepdf.open(src) as pdf:
        CASES[case](pdf)
        # keep the /ID (pikepdf would make a new one): the breakage is the
        # only difference that matters
        pdf.save(dst, static_id=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])

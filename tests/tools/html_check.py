#!/usr/bin/env python3
"""The HTML page of a CV (issue 11 item 6).

usage: html_check.py PAGE.html FRAGMENT.html MODEL.json PDF_TEXT.txt OWNER
 - PAGE parses as HTML5 without a single parse error (html5lib, strict);
   so does FRAGMENT (as a fragment);
 - no JavaScript: the only <script> is application/ld+json, no on*
   attributes, no javascript: URLs; no external requests: no <link>,
   <iframe>, <object>, <embed>, no src other than data:, no url(...) or
   @import in the style;
 - the JSON-LD is JSON with a Person named OWNER and one ScholarlyArticle
   per publication of MODEL.json, and OWNER appears in
   <strong class="vita-owner"> wherever the model marks the owner;
 - every word of the PDF's text (pdftotext, footer off) is in the HTML's
   text, compared without spaces, hyphens and case.
"""
import json, re, sys, unicodedata

try:
    import html5lib
except ImportError:
    print("skip: python3-html5lib not installed")
    sys.exit(77)

page, frag, model_json, pdf_txt, owner = sys.argv[1:6]
fails = []
raw = open(page, encoding="utf-8").read()
try:
    doc = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(raw)
except Exception as ex:
    fails.append("%s: HTML5 parse error: %s" % (page, ex))
    doc = html5lib.parse(raw, namespaceHTMLElements=False)
try:
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parseFragment(
        open(frag, encoding="utf-8").read())
except Exception as ex:
    fails.append("%s: HTML5 fragment parse error: %s" % (frag, ex))

for el in doc.iter():
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag == "script" and el.get("type") != "application/ld+json":
        fails.append("a script that is not JSON-LD")
    if tag in ("link", "iframe", "object", "embed", "base", "form"):
        fails.append("an element that loads or sends: <%s>" % tag)
    for k, v in el.attrib.items():
        if k.lower().startswith("on"):
            fails.append("an event handler attribute %s" % k)
        if k in ("src", "srcset", "poster", "data") and not v.startswith("data:"):
            fails.append("an external resource %s=%r" % (k, v[:60]))
        if k == "href" and v.lower().startswith(("javascript:", "vbscript:", "data:", "file:")):
            fails.append("a dangerous link %r" % v[:60])
    if tag == "style" and re.search(r"url\(|@import", el.text or ""):
        fails.append("the style loads something")

model = json.load(open(model_json, encoding="utf-8"))
npubs = sum(len(s.get("publications", [])) for s in model["sections"])
ld = [el for el in doc.iter() if el.tag == "script"]
if len(ld) != 1:
    fails.append("want one JSON-LD script, found %d" % len(ld))
else:
    data = json.loads(ld[0].text)
    graph = data.get("@graph", [])
    people = [g for g in graph if g.get("@type") == "Person"]
    arts = [g for g in graph if g.get("@type") == "ScholarlyArticle"]
    if not people or people[0].get("name") != owner:
        fails.append("JSON-LD: no Person named %r" % owner)
    if len(arts) != npubs:
        fails.append("JSON-LD: %d ScholarlyArticle, want %d" % (len(arts), npubs))
owned = sum(1 for s in model["sections"] for p in s.get("publications", [])
            for a in p["authors"] if a["owner"])
marked = [el for el in doc.iter() if el.tag == "strong" and el.get("class") == "vita-owner"]
if len(marked) != owned:
    fails.append("%d names marked as the owner's, want %d" % (len(marked), owned))

article = [el for el in doc.iter() if el.tag == "article"][0]


def norm(s):
    s = unicodedata.normalize("NFKC", s).lower()
    return re.sub(r"[\s\-\u00ad\u2010\u2011\u00a0]", "", s)


text = norm("".join(article.itertext()))
missing = []
for line in open(pdf_txt, encoding="utf-8"):
    for w in line.split():
        k = norm(w)
        if len(k) >= 2 and k not in text:
            missing.append(w)
if missing:
    fails.append("words of the PDF missing from the HTML: %s" % missing[:20])
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)

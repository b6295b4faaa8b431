"""Print, for one locale file, the strings cv.yaml must show: the dates in
the locale's patterns, "present", the footer and updated lines, the badge
prefix, the equal-contribution note, the Published heading and the
Scholar label. Usage: expect.py locales/de.yaml"""
import sys, yaml
L = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
# a locale with digits (my: ၀-၉) writes its dates and page numbers in them
D = str.maketrans("0123456789", "".join(L["digits"])) if "digits" in L else {}
def print(s, _print=print):
    _print(s.translate(D))
def fill(p, **kw):
    for k, v in kw.items():
        p = p.replace("{" + k + "}", str(v))
    return p
def date(y, m=None, d=None):
    mo = L.get("months_of", L["months"])
    if d:
        return fill(L["date"]["day"], year=y, yy="%02d" % (y % 100), month=L["months"][m - 1],
                    mon=L["months_short"][m - 1], month_of=mo[m - 1], m=m, mm="%02d" % m, d=d,
                    dd="%02d" % d)
    if m:
        return fill(L["date"]["month"], year=y, yy="%02d" % (y % 100), month=L["months"][m - 1],
                    mon=L["months_short"][m - 1], m=m, mm="%02d" % m)
    return fill(L["date"]["year"], year=y, yy="%02d" % (y % 100))
print(fill(L["range"], start=date(2021, 9), end=L["present"]))
print(fill(L["range"], start=date(2019), end=date(2020, 6, 15)))
print(date(2024, 5, 2))
print(fill(L["footer"], name="Mei Lin", page=1, pages=1))
if L["updated"]:
    print(fill(L["updated"], date=date(2026, 3)))
for k in ("badges", "equal", "published", "scholar"):
    print(L[k])

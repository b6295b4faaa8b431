"""maxp_check.py PDF...: every embedded TrueType font's maxp counts its
composite glyphs (maxCompositePoints and maxCompositeContours at least the
points and contours the largest composite draws, its components included):
vita builds a composite glyph for each shaped cluster (sfnt_compose), and
maxp must say how large they are. Exit 1 if one does not."""
import sys, pikepdf
from io import BytesIO
from fontTools.ttLib import TTFont
bad = 0
for path in sys.argv[1:]:
    pdf = pikepdf.open(path)
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and '/FontFile2' in obj:
            f = TTFont(BytesIO(obj.FontFile2.read_bytes()))
            m = f['maxp']; g = f['glyf']
            mp = mc = 0
            for name in f.getGlyphOrder():
                gl = g[name]
                if gl.isComposite():
                    coords, ends, flags = gl.getCoordinates(g)
                    mp = max(mp, len(coords)); mc = max(mc, len(ends))
            ok = m.maxCompositePoints >= mp and m.maxCompositeContours >= mc
            bad += not ok
            print(path, obj.FontName, 'points', m.maxCompositePoints, '>=', mp, 'contours', m.maxCompositeContours, '>=', mc, 'OK' if ok else 'BAD')
sys.exit(1 if bad else 0)

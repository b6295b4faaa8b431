"""covers_check.py CHAIN.yaml...: a face whose covers: say what it may draw
besides the chain's first face (Arabic, Hebrew, Armenian, Georgian: their
covers: are there so that characters of other scripts do not look them up,
not to take characters from them) must cover every code point it has and
the first face lacks in one of its styles, on this machine's fonts: with
it, the chain picks the same face for every character as without covers:.
Faces marked 'covers: exact' below are checked; the Indic and Thai ones
leave out on purpose what the first face draws (Latin, digits). Needs
fontTools and fc-match (fontconfig). Exit 1 on a code point left out."""
import subprocess, sys, yaml
from fontTools.ttLib import TTFont

EXACT = {'Noto Naskh Arabic', 'Noto Serif Hebrew', 'Noto Serif Armenian', 'Noto Serif Georgian',
         'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans Armenian', 'Noto Sans Georgian'}

def face_file(family, style):
    out = subprocess.run(['fc-match', '-f', '%{file}\\n%{family}', '%s:style=%s' % (family, style)],
                         capture_output=True, text=True).stdout.split('\n')
    return out[0] if len(out) > 1 and family in out[1].split(',') else None

def cmap(path):
    return set(TTFont(path, lazy=True).getBestCmap().keys()) if path else set()

def covers(s):
    r = []
    for part in str(s).replace(',', ' ').split():
        a, _, b = part.partition('-')
        r.append((int(a, 16), int(b or a, 16)))
    return r

bad = checked = 0
for path in sys.argv[1:]:
    chain = yaml.safe_load(open(path))
    faces = chain['faces']
    first = faces[0]['family']
    styles = ['Regular', 'Bold', 'Italic', 'Bold Italic']
    base = set.intersection(*[cmap(face_file(first, s)) for s in styles])
    for f in faces[1:]:
        if f['family'] not in EXACT:
            continue
        if 'covers' not in f:
            print('%s: %s has no covers:' % (path, f['family']))
            bad += 1
            continue
        have = cmap(face_file(f['family'], 'Regular')) | cmap(face_file(f['family'], 'Bold'))
        if not have:
            continue    # not installed here
        cov = covers(f['covers'])
        left = sorted(c for c in have - base if not any(a <= c <= b for a, b in cov))
        checked += 1
        if left:
            bad += 1
            print('%s: %s has %d code points %s lacks outside its covers: %s' %
                  (path, f['family'], len(left), first, ' '.join('U+%04X' % c for c in left[:12])))
print('covers_check: %d faces checked, %d bad' % (checked, bad))
sys.exit(1 if bad or not checked else 0)

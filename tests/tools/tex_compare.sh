#!/bin/sh
# Compare vita's justified paragraphs with XeTeX's for the same text, font
# (Noto Serif), size (9.8 pt on 12.446 pt) and measure (A4 less 2 x 54 pt):
# prints both line breakings side by side (diff). Needs texlive-xetex; not
# part of `make test` (TeX is a gigabyte). Usage: tests/tools/tex_compare.sh PROFILE
set -eu
VITA=${VITA:-build/vita}
p=${1:-profiles/zhanda-zhu.yaml}
W=$(mktemp -d)
python3 - "$p" "$W" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
s = " ".join(d["summary"].split()).replace("&", r"\&")
open(sys.argv[2] + "/c.tex", "w").write(r"""\documentclass{article}
\usepackage{fontspec}\setmainfont{Noto Serif}
\usepackage[paperwidth=595.276bp,paperheight=841.89bp,left=54bp,right=54bp,top=50bp,bottom=54bp]{geometry}
\pagestyle{empty}\parindent=0pt
\begin{document}\fontsize{9.8bp}{12.446bp}\selectfont
""" + s + "\n\n\\end{document}\n")
open(sys.argv[2] + "/p.yaml", "w").write("name: X\nsummary: " + repr(" ".join(d["summary"].split())) + "\nsections: []\n")
PY
(cd "$W" && xelatex -interaction=nonstopmode c.tex >/dev/null 2>&1)
"$VITA" render "$W/p.yaml" -o "$W/v.pdf" --set footer.show=false
pdftotext -layout "$W/c.pdf" - | sed '/^\s*$/d' | sed 's/  */ /g' > "$W/tex.txt"
pdftotext -layout "$W/v.pdf" - | sed '/^\s*$/d' | sed 's/  */ /g' | tail -n +2 > "$W/vita.txt"
if diff -u "$W/tex.txt" "$W/vita.txt"; then echo "same line breaks as XeTeX"; fi
rm -rf "$W"

#!/bin/sh
# Text strings outside the content streams (Info, outline titles, link
# /Contents) in PDFDocEncoding when every character has a code there,
# else UTF-16BE (pdf_obj.c, pdf_docenc): readers give back the same text
# either way, and the encoded form is the one chosen.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/pdf_text
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
export SOURCE_DATE_EPOCH=1767225600
name='Łukasz Žák-Šimon Œuvre'
t1='Éducation — “Prix” • ‘un’ … 5 € ™ ‰ ı ł œ š ž Ÿ ¡¿ ñ'
t2='Ťest 朱 – done'
cat > "$W/cv.yaml" <<Y
name: $name
sections:
  - {title: "$t1", type: text, text: hi}
  - {title: "$t2", type: text, text: there}
Y
"$VITA" render "$W/cv.yaml" -o "$W/cv.pdf" 2>/dev/null || no "render"
author=$(pdfinfo "$W/cv.pdf" 2>/dev/null | sed -n 's/^Author: *//p')
[ "$author" = "$name" ] || no "Author reads back as '$author', want '$name'"
mutool show "$W/cv.pdf" outline > "$W/outline.txt" 2>&1
grep -qF "\"$t1\"" "$W/outline.txt" || no "outline title 1 reads back wrong: $(cat "$W/outline.txt")"
grep -qF "\"$t2\"" "$W/outline.txt" || no "outline title 2 reads back wrong: $(cat "$W/outline.txt")"
# the form: title 1 and the author as PDFDocEncoding literals, title 2 (a
# character PDFDocEncoding lacks) as UTF-16BE
qpdf --qdf --object-streams=disable "$W/cv.pdf" "$W/qdf.pdf" 2>/dev/null
utf16() { grep -a "$1" "$W/qdf.pdf" | grep -aq -e '<feff' -e '(\\376\\377'; }
utf16 '/Author ' && no "the Author is UTF-16BE, not PDFDocEncoding"
grep -aq '/Title <c964\|/Title (\\311ducation' "$W/qdf.pdf" || no "outline title 1 is not in PDFDocEncoding"
grep -aq '/Title <feff0164' "$W/qdf.pdf" || no "outline title 2 is not UTF-16BE"
[ $fail = 0 ] && echo "pdf_text: ok"
exit $fail

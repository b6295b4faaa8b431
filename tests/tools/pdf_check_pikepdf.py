"""pdf_check_pikepdf.py FILE...: open each PDF with pikepdf (qpdf's C++
library, through Debian's python3-pikepdf), run its structural check,
decode every stream (JPEG too) and parse every page's content; print
"FILE: pikepdf: PROBLEM" for each problem or warning, exit 1 if any.
Used by pdf_check.sh."""
import logging
import sys
import warnings

import pikepdf

problems = []


class Collect(logging.Handler):
    def emit(self, record):
        problems.append(record.getMessage())


logging.getLogger("pikepdf").addHandler(Collect())
logging.getLogger("pikepdf").setLevel(logging.WARNING)
bad = 0
for f in sys.argv[1:]:
    problems.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with pikepdf.open(f) as pdf:
                problems.extend(str(p) for p in pdf.check())
                for obj in pdf.objects:
                    if isinstance(obj, pikepdf.Stream):
                        # "all": DCTDecode too (qpdf decodes it with libjpeg)
                        obj.read_bytes(decode_level=pikepdf.StreamDecodeLevel.all)
                for page in pdf.pages:
                    pikepdf.parse_content_stream(page)
        except Exception as e:  # a PDF pikepdf cannot read at all
            problems.append("%s: %s" % (type(e).__name__, e))
    problems.extend(str(w.message) for w in caught)
    for p in problems:
        print("%s: pikepdf: %s" % (f, p), file=sys.stderr)
        bad = 1
sys.exit(bad)

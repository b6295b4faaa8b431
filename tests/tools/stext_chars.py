"""Every character mutool draws, with its font: reads `mutool draw -F stext`
XML on stdin and prints one line per character: font, x, y, character
(tab-separated). Used by tests that check which face draws which script
and in which order glyphs lie on the page."""
import sys
import xml.etree.ElementTree as ET

root = ET.fromstring(sys.stdin.read())
for font in root.iter("font"):
    name = font.get("name", "?")
    name = name.split("+", 1)[-1]  # drop the subset tag
    for ch in font.iter("char"):
        print("%s\t%s\t%s\t%s" % (name, ch.get("x"), ch.get("y"), ch.get("c")))

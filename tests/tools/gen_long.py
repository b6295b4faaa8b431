#!/usr/bin/env python3
"""Write a synthetic long profile: N publications (default 250), plus
entries, awards and news, for `make bench` (cost must grow linearly)."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 250
words = ("efficient scalable robust distributed training inference serving "
         "memory parallelism pipeline sparse attention transformer compiler "
         "scheduling heterogeneous quantization kernels accelerators").split()
first = "Alice Bo Chen Dmitri Elena Fatima Gennady Hiro Ines Jun Kavya Luis".split()
last = "Smith Wang Ivanova Tanaka Müller García Kim Okafor Rossi Zhu Liu Novak".split()
out = ["name: Long Synthetic", "name_native: 朱展达",
       "headline: Professor of Computer Science", "affiliation: University of Somewhere",
       "location: Toronto, Canada", "contact:", "  email: long@example.org",
       "  website: example.org", "summary: >",
       "  " + " ".join(words * 4).capitalize() + ".", "sections:",
       "  - title: Publications", "    type: publications", "    entries:"]
for i in range(n):
    t = " ".join(words[(i * 7 + k) % len(words)] for k in range(8 + i % 6)).capitalize()
    authors = ", ".join("%s %s" % (first[(i + k) % 12], last[(i * 3 + k) % 12])
                        for k in range(3 + i % 7))
    out += ["      - title: \"%s\"" % t, "        authors: [Long Synthetic, %s]" % authors,
            "        venue: \"Conf '%02d\"" % (i % 25), "        venue_full: Proceedings of the Conference on Systems",
            "        year: %d" % (2000 + i % 25),
            "        links: [{label: Paper, url: \"https://example.org/p%d.pdf\"}, {label: Code, url: \"https://github.com/x/p%d\"}]" % (i, i)]
out += ["  - title: Experience", "    type: experience", "    entries:"]
for i in range(30):
    out += ["      - title: Research Scientist %d" % i, "        org: Lab %d" % i,
            "        location: City, Country", "        start: %d-0%d" % (1990 + i, 1 + i % 9),
            "        end: %d-1%d" % (1991 + i, i % 3),
            "        details: [\"%s.\", \"%s.\"]" % (" ".join(words[:10]).capitalize(), " ".join(words[5:14]).capitalize())]
print("\n".join(out))

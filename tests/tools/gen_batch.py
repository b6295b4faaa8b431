#!/usr/bin/env python3
"""Write N distinct synthetic CVs (default 100) into DIR as cv-000.yaml ...,
for `make bench` (the batch row) and tests/scripts/batch.sh. Deterministic:
a fixed linear congruential generator, no `random`, so every Python gives
the same files. The CVs differ in names, sections, lengths, layouts and
language: about a third have a summary long enough to hyphenate, one in
five a name in Chinese, Japanese or Korean script beside the Latin one,
some are German or French (another hyphenation dictionary and locale)."""
import os
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
out = sys.argv[2] if len(sys.argv) > 2 else "."
os.makedirs(out, exist_ok=True)

state = 20261201


def rnd(k):
    """0 .. k-1 from the generator."""
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return (state >> 33) % k


def pick(v):
    return v[rnd(len(v))]


first = ("Alice Bo Chen Dmitri Elena Fatima Gennady Hiro Ines Jun Kavya Luis Maria "
         "Nikolai Olga Priya Qiang Rosa Sven Tomasz Ulrike Victor Wen Xavier Yuki Zofia").split()
last = ("Smith Wang Ivanova Tanaka Müller García Kim Okafor Rossi Zhu Liu Novak Schmidt "
        "Dubois Kowalski Andersson Haddad Nakamura Fernández O'Brien Petrov Nguyen").split()
native = ["朱展达", "刘子鸣", "王小明", "李静怡", "陈思远", "山田太郎", "佐藤花子", "김민준", "이서연", "張家豪"]
short = ("systems learning inference training memory compiler sparse graphs kernels "
         "networks storage privacy robots vision speech proofs").split()
# long words: a summary made of these needs hyphenation in a narrow column
long_en = ("characterisation interdisciplinary neurophysiological probabilistic "
           "electrophysiological nonparametric reconstruction multidimensional "
           "spatiotemporal unsupervised dimensionality heterogeneous interpretable "
           "visualisations experimentalists responsibilities international "
           "collaborations interdepartmental reproducible infrastructure "
           "methodological contributions comprehensive documentation").split()
long_de = ("Forschungsschwerpunkte Datenverarbeitung Rechenzentrum Wissenschaftlerin "
           "Hochleistungsrechnen Programmiersprachen Betriebssysteme Zusammenarbeit "
           "Informationssicherheit Softwareentwicklung Verteilungsalgorithmen "
           "Übersetzerbau Lehrveranstaltungen Drittmittelprojekte").split()
long_fr = ("caractérisation interdisciplinaire neurophysiologiques probabiliste "
           "reconstruction multidimensionnelle spatiotemporelle hétérogènes "
           "interprétables collaborations internationales reproductibilité "
           "infrastructure méthodologiques contributions documentation").split()
layouts = ["academic", "classic", "modern", "compact", "sidebar"]
orgs = ("University of Toronto|ETH Zürich|Tsinghua University|MIT|Sorbonne Université|"
        "TU München|University of Tokyo|KAIST|Vector Institute|NVIDIA|Google Research|"
        "Microsoft Research|CNRS|Max Planck Institute").split("|")
cities = ["Toronto, Canada", "Zürich, Switzerland", "Beijing, China", "Paris, France",
          "Munich, Germany", "Tokyo, Japan", "Seoul, Korea", "Boston, USA"]
venues = ["EuroSys", "OSDI", "SOSP", "MLSys", "NeurIPS", "ICML", "ASPLOS", "ISCA", "PLDI", "VLDB"]


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def words(pool, k):
    return " ".join(pick(pool) for _ in range(k))


for i in range(n):
    lang = "de" if i % 9 == 4 else "fr" if i % 11 == 7 else "en"
    name = "%s %s" % (pick(first), pick(last))
    lines = ["vita: 1", "name: " + q(name)]
    if i % 5 == 2:
        lines.append("name_native: " + pick(native))
    lines += ["headline: " + q(pick(["Ph.D. Student", "Professor", "Research Scientist",
                                     "Postdoctoral Fellow", "Engineer"]) + " %d" % i),
              "affiliation: " + q(pick(orgs)), "location: " + q(pick(cities))]
    if lang != "en":
        lines.append("lang: " + lang)
    lines.append("layout: " + layouts[(i * 3 + i // 7) % len(layouts)])
    lines += ["contact:", "  email: person%d@example.org" % i]
    if rnd(2):
        lines.append("  github: person%d" % i)
    if i % 3 == 0:   # a summary that hyphenates
        pool = long_de if lang == "de" else long_fr if lang == "fr" else long_en
        lines.append("summary: " + q(words(pool, 40 + rnd(60)).capitalize() + "."))
    elif rnd(2):
        lines.append("summary: " + q(words(short, 10 + rnd(20)).capitalize() + "."))
    lines.append("sections:")
    lines += ["  - title: Education", "    type: education", "    entries:"]
    for k in range(1 + rnd(3)):
        y = 2000 + rnd(24)
        lines += ["      - title: " + q(pick(["Ph.D.", "M.Sc.", "B.Sc.", "M.Eng."]) + " in " +
                                      words(short, 2).title()),
                  "        org: " + q(pick(orgs)), "        start: %d-09" % y,
                  "        end: %d-06" % (y + 1 + rnd(5))]
    np = rnd(25)
    if np:
        lines += ["  - title: Publications", "    type: publications", "    entries:"]
        for k in range(np):
            au = [name] + ["%s %s" % (pick(first), pick(last)) for _ in range(1 + rnd(6))]
            lines += ["      - title: " + q(words(short, 4 + rnd(8)).capitalize()),
                      "        authors: [" + ", ".join(q(a) for a in au) + "]",
                      "        venue: \"%s '%02d\"" % (pick(venues), rnd(25)),
                      "        year: %d" % (2000 + rnd(26))]
            if rnd(3) == 0:
                lines.append("        links: [{label: Paper, url: \"https://example.org/%d/%d.pdf\"}]" % (i, k))
    lines += ["  - title: Experience", "    type: experience", "    entries:"]
    for k in range(1 + rnd(6)):
        y = 2005 + rnd(19)
        lines += ["      - title: " + q(words(short, 2).title() + " " + pick(["Engineer", "Intern", "Researcher"])),
                  "        org: " + q(pick(orgs)), "        location: " + q(pick(cities)),
                  "        start: %d-0%d" % (y, 1 + rnd(9)), "        end: %d-1%d" % (y + 1, rnd(3))]
        if rnd(2):
            lines.append("        details: [" + q(words(short, 6 + rnd(10)).capitalize() + ".") + "]")
    if rnd(2):
        lines += ["  - title: Skills", "    type: list", "    items: [" +
                  ", ".join(q(w.title()) for w in sorted(set(words(short, 5 + rnd(6)).split()))) + "]"]
    if rnd(3) == 0:
        lines += ["  - title: Awards", "    type: awards", "    entries:"]
        for k in range(1 + rnd(4)):
            lines += ["      - title: " + q(words(short, 3).title() + " Award"),
                      "        date: \"%d\"" % (2010 + rnd(15))]
    with open(os.path.join(out, "cv-%03d.yaml" % i), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

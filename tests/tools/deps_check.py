#!/usr/bin/env python3
"""The depfile lists exactly the files vita opens (issue 11 item 1).

usage: deps_check.py STRACE_LOG DEPFILE OUTPUT
Compares the files the traced process opened successfully (openat/open,
minus shared libraries, /etc, /proc, /dev, /sys, caches, directories, and
the outputs with their hidden temporaries) with the prerequisites of
OUTPUT's rule in DEPFILE. Both sides are compared as real paths.
"""
import os, re, sys

log, depfile, output = sys.argv[1:4]
out_dir = os.path.dirname(os.path.realpath(output))
outputs = {os.path.realpath(output), os.path.realpath(depfile)}

opened = set()
pat = re.compile(r'open(?:at)?\((?:AT_FDCWD, )?"((?:[^"\\]|\\.)*)".*= (\d+)')
for line in open(log, encoding="utf-8", errors="replace"):
    m = pat.search(line)
    if not m or "O_DIRECTORY" in line:
        continue
    p = m.group(1)
    # system libraries and fontconfig's own configuration and caches
    if re.match(r"/(lib|lib64|usr/lib|etc|proc|dev|sys|var/cache|usr/share/fontconfig)/", p):
        continue
    rp = os.path.realpath(p)
    # vita's caches (font families, compiled hyphenation patterns, the deflated
    # ICC profile) are not inputs: each is checked against what it was made from
    if os.path.isdir(rp) or "/.cache/" in rp or "/vita/families" in rp or re.search(r"/vita/hyph_[^/]*\.dic\.hyc(\.[0-9]+\.tmp)?$", rp) or re.search(r"/vita/deflate-const2?\.bin(\.[0-9]+\.tmp)?$", rp) or rp in outputs:
        continue
    base = os.path.basename(rp)
    if os.path.dirname(rp) in (out_dir, os.path.dirname(os.path.realpath(depfile))) and \
            any(base.startswith("." + os.path.basename(o) + ".") for o in outputs):
        continue
    opened.add(rp)

text = open(depfile, encoding="utf-8").read().replace("\\\n", " ")
rule = text.split("\n\n")[0]
target, _, prereqs = rule.partition(": ")
names = re.findall(r"(?:\\.|[^\s\\])+", prereqs)
listed = {os.path.realpath(re.sub(r"\\(.)", r"\1", n).replace("$$", "$")) for n in names}

ok = True
if os.path.realpath(target.replace("\\", "")) != os.path.realpath(output):
    print("FAIL: depfile target %r, want %r" % (target, output)); ok = False
for p in sorted(opened - listed):
    print("FAIL: opened but not in the depfile:", p); ok = False
for p in sorted(listed - opened):
    print("FAIL: in the depfile but not opened:", p); ok = False
print("%d files opened, %d listed" % (len(opened), len(listed)))
sys.exit(0 if ok else 1)

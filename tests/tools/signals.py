#!/usr/bin/env python3
"""Interrupted renders leave nothing behind (issue 15 item 19).

For SIGINT, SIGTERM, SIGHUP and SIGPIPE: start a render of a big profile,
wait until its hidden temporary (.NAME.pdf.XXXXXX) appears beside the
target, send the signal, and check that the process died of it, that no
temporary remains, that the target was not created and that $TMPDIR stays
empty. Then SIGKILL: the temporary stays, and the next render of the same
target removes it. Every wait has a deadline; nothing is timed.
usage: signals.py VITA WORKDIR
"""
import os, signal, subprocess, sys, time

# A Ctrl-C is what is tested: when this runs as a background job of a
# non-interactive shell (make test &), SIGINT arrives ignored, vita keeps
# an ignored signal ignored (nohup), and the renders would outlive it.
signal.signal(signal.SIGINT, signal.SIG_DFL)
# the same for a run under nohup (SIGHUP arrives ignored, and vita keeps
# it so: the render would finish and the test fail)
signal.signal(signal.SIGHUP, signal.SIG_DFL)

vita, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
tmpdir = os.path.join(work, "tmpdir")
os.makedirs(tmpdir, exist_ok=True)
env = dict(os.environ, TMPDIR=tmpdir)
fails = []


def big_profile(n):
    p = os.path.join(work, "big%d.yaml" % n)
    with open(p, "w") as f:
        f.write("name: Big Test\nsections:\n  - title: Items\n    type: list\n    items:\n")
        # at most PROFILE_MAX_ITEMS (10,000) items and 4 MB of text:
        # past 9,000 items the items grow longer instead
        rep = min(n // 9000 + 1, 16)
        for i in range(min(n, 9000)):
            f.write("      - %s\n" % " ".join(["Item %d of a long list" % i] * rep))
    return p


def temps(target):
    d, b = os.path.split(target)
    return [x for x in os.listdir(d) if x.startswith("." + b + ".")]


def interrupt(sig, target, n=20000):
    """Run until the temporary exists, then send sig. Returns (rc, seen)."""
    while n <= 320000:
        prof = big_profile(n)
        p = subprocess.Popen([vita, "render", prof, "-o", target], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            if temps(target):
                p.send_signal(sig)
                return p.wait(timeout=60), True
            time.sleep(0.001)
        if p.poll() is None:
            p.kill()
            p.wait()
            return None, False
        if os.path.exists(target):
            os.unlink(target)
        n *= 2  # finished before we saw it: a bigger input
    return None, False


for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
    target = os.path.join(work, "out-%s.pdf" % sig.name)
    rc, seen = interrupt(sig, target)
    if not seen:
        fails.append("%s: never saw the temporary file" % sig.name)
        continue
    if rc != -sig:
        fails.append("%s: exit %r, want death by the signal" % (sig.name, rc))
    if temps(target):
        fails.append("%s: temporaries left: %s" % (sig.name, temps(target)))
    if os.path.exists(target):
        fails.append("%s: the target exists after an interrupted render" % sig.name)
    print("ok  %s: died of it, nothing left" % sig.name)

# SIGKILL: nothing can run; the next render cleans up
target = os.path.join(work, "out-KILL.pdf")
rc, seen = interrupt(signal.SIGKILL, target)
left = temps(target)
if not seen or not left:
    fails.append("SIGKILL: expected a temporary left behind (seen=%s)" % seen)
else:
    for x in left:  # age it past the 2 s grace period
        t = time.time() - 60
        os.utime(os.path.join(work, x), (t, t))
    small = os.path.join(work, "small.yaml")
    with open(small, "w") as f:
        f.write("name: Small Test\nsections:\n  - title: T\n    type: text\n    text: hi\n")
    r = subprocess.run([vita, "render", small, "-o", target], env=env)
    if r.returncode != 0:
        fails.append("render after SIGKILL: exit %d" % r.returncode)
    if temps(target):
        fails.append("SIGKILL: the next render left the stale temporary: %s" % temps(target))
    print("ok  SIGKILL: the next render removed the stale temporary")

if os.listdir(tmpdir):
    fails.append("files in $TMPDIR: %s" % os.listdir(tmpdir))
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)

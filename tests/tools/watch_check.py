#!/usr/bin/env python3
"""vita watch (issue 11 item 2): three saves of the profile, one broken.

Starts `vita watch cv.yaml -o cv.pdf --exec CMD`, then saves the profile
three times: by rename (as vim and most editors do), broken (a located
error; the last good PDF stays as it was), and in place. Expects three
good PDFs in all (the first render and two good saves, each with the text
of its save), one located error, --exec run after each good render, a
change of the photo picked up, and Ctrl-C ending the process with no
temporary file left; a deleted profile is an error and its return a new
render. Every wait has a deadline; nothing is timed.
usage: watch_check.py VITA WORKDIR PROFILE_TEMPLATE PHOTO
"""
import os, re, shutil, signal, subprocess, sys, threading, time

# A Ctrl-C is what is tested: when this runs as a background job of a
# non-interactive shell (make test &), SIGINT arrives ignored, vita keeps
# an ignored signal ignored (nohup), and the renders would outlive it.
signal.signal(signal.SIGINT, signal.SIG_DFL)

vita, work, template, photo = sys.argv[1:5]
vita, work = os.path.abspath(vita), os.path.abspath(work)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
prof = os.path.join(work, "cv.yaml")
pdf = os.path.join(work, "cv.pdf")
base = open(template, encoding="utf-8").read()
fails = []


def save(text, rename):
    if rename:
        tmp = os.path.join(work, ".cv.yaml.swp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.rename(tmp, prof)
    else:
        with open(prof, "w", encoding="utf-8") as f:
            f.write(text)


def version(n):
    return base.replace("VERSION", "Version%d" % n)


save(version(0), False)
shutil.copy(photo, os.path.join(work, "photo.png"))
p = subprocess.Popen([vita, "watch", prof, "-o", pdf, "--exec", "echo ran >> ran.log"],
                     cwd=work, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
lines, lock = [], threading.Lock()


def reader():
    for line in p.stderr:
        with lock:
            lines.append(line.rstrip("\n"))


threading.Thread(target=reader, daemon=True).start()


def wait_for(pattern, count, what, secs=30):
    deadline = time.monotonic() + secs
    while time.monotonic() < deadline:
        with lock:
            n = sum(1 for l in lines if re.search(pattern, l))
        if n >= count:
            return True
        if p.poll() is not None:
            break
        time.sleep(0.01)
    fails.append("%s: no %r #%d in: %s" % (what, pattern, count, lines))
    return False


def pdf_text():
    return subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout


wrote = r"^vita: wrote .*cv\.pdf"
if wait_for(wrote, 1, "first render") and "Version0" not in pdf_text():
    fails.append("first PDF lacks Version0")
wait_for(r"^vita: watching", 1, "watch banner")
save(version(1), True)                          # 1: saved by rename
if wait_for(wrote, 2, "save by rename") and "Version1" not in pdf_text():
    fails.append("the PDF after the rename save lacks Version1")
good = open(pdf, "rb").read()
save(version(2).replace("sections:", "sections: [broken", 1), False)   # 2: broken
if wait_for(r"cv\.yaml:\d+:\d+: error:", 1, "broken save"):
    wait_for(r"not updated", 1, "broken save message")
    if open(pdf, "rb").read() != good:
        fails.append("the broken save changed the last good PDF")
save(version(3), False)                         # 3: in place
if wait_for(wrote, 3, "in-place save") and "Version3" not in pdf_text():
    fails.append("the PDF after the in-place save lacks Version3")
os.utime(os.path.join(work, "photo.png"))       # an input other than the profile
wait_for(wrote, 4, "a touched photo")
os.unlink(prof)                                  # the profile disappears ...
wait_for(r"cv\.yaml: error: cannot read the profile", 1, "a deleted profile")
save(version(5), True)                           # ... and comes back
if wait_for(wrote, 5, "the profile saved again") and "Version5" not in pdf_text():
    fails.append("the PDF after the profile came back lacks Version5")
with lock:
    errors = [l for l in lines if re.search(r":\d+:\d+: error:", l)]
if len(errors) != 1:
    fails.append("want exactly one located error, got %s" % errors)
ran = os.path.join(work, "ran.log")
n = len(open(ran).read().split()) if os.path.exists(ran) else 0
if n != 5:
    fails.append("--exec ran %d times, want 5 (after each good render)" % n)
p.send_signal(signal.SIGINT)
try:
    rc = p.wait(timeout=20)
    if rc not in (-signal.SIGINT, 130, 0):
        fails.append("Ctrl-C: exit %r" % rc)
except subprocess.TimeoutExpired:
    p.kill()
    fails.append("Ctrl-C did not end the watch")
left = [x for x in os.listdir(work) if x.startswith(".cv.pdf.")]
if left:
    fails.append("temporaries left: %s" % left)
for f in fails:
    print("FAIL:", f)
if not fails:
    print("ok: 5 good renders (3 saves, 1 broken; a photo change; a deleted profile that came back), "
          "one located error, clean exit")
sys.exit(1 if fails else 0)

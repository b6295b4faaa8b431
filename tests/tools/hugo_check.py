#!/usr/bin/env python3
"""A save while `hugo server` runs (issue 11 item 3).

usage: hugo_check.py VITA SITE PROFILE
Renders PROFILE into SITE (static/cv.pdf, the partial), starts hugo server
on a free local port, waits for /cv.pdf, then saves a new version of the
profile and re-renders while the server watches. Every answer for /cv.pdf
after that must be status 200 (never the 500 Hugo gave when it picked up
a visible temporary file), and the new PDF and page must be served.
Every wait has a deadline; hugo is always stopped.
"""
import os, re, signal, socket, subprocess, sys, tempfile, time, urllib.error, urllib.request

vita, site, profile = [os.path.abspath(a) for a in sys.argv[1:4]]
fails = []


def render():
    os.makedirs(os.path.join(site, "static"), exist_ok=True)
    os.makedirs(os.path.join(site, "layouts", "partials"), exist_ok=True)
    for args in (["-o", "static/cv.pdf"],
                 ["--format", "html-fragment", "-o", "layouts/partials/vita-cv.html"]):
        subprocess.run([vita, "render", profile] + args, cwd=site, check=True)


def get(path):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, b""
    except (urllib.error.URLError, ConnectionError, socket.timeout):
        return None, b""


def pdf_has(data, word):
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(data)
        f.flush()
        out = subprocess.run(["pdftotext", f.name, "-"], capture_output=True, text=True).stdout
    return word in out


text = open(profile, encoding="utf-8").read()
with open(profile, "w", encoding="utf-8") as f:
    f.write(text.replace("HEADLINE", "Version1"))
render()
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
log = open(os.path.join(site, "hugo.log"), "w")
h = subprocess.Popen(["hugo", "server", "--bind", "127.0.0.1", "--port", str(port),
                      "--baseURL", "http://127.0.0.1:%d/" % port, "--disableLiveReload",
                      "--poll", "50ms"],
                     cwd=site, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
try:
    deadline = time.monotonic() + 90
    st = None
    while time.monotonic() < deadline and h.poll() is None:
        st, body = get("/cv.pdf")
        if st == 200:
            break
        time.sleep(0.2)
    if st != 200:
        fails.append("hugo server never served /cv.pdf (last status %r)" % st)
    else:
        if not pdf_has(body, "Version1"):
            fails.append("the first PDF served is not Version1")
        with open(profile, "w", encoding="utf-8") as f:   # the save
            f.write(text.replace("HEADLINE", "Version2"))
        render()
        statuses, new_pdf, new_page = [], False, False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (new_pdf and new_page):
            st, body = get("/cv.pdf")
            statuses.append(st)
            new_pdf = new_pdf or (st == 200 and pdf_has(body, "Version2"))
            st2, page = get("/")
            new_page = new_page or (st2 == 200 and b"Version2" in page)
            time.sleep(0.1)
        if any(x != 200 for x in statuses):
            fails.append("/cv.pdf answered %s after the save" % sorted(set(map(str, statuses))))
        if not new_pdf:
            fails.append("hugo never served the new PDF")
        if not new_page:
            fails.append("hugo never served the page with the new fragment")
        print("ok: %d requests after the save, all 200" % len(statuses) if not fails else "")
finally:
    os.killpg(h.pid, signal.SIGTERM)
    try:
        h.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(h.pid, signal.SIGKILL)
        h.wait()
    log.close()
if fails:
    print(open(os.path.join(site, "hugo.log")).read()[-2000:])
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)

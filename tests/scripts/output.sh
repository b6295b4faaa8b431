#!/bin/sh
# Output safety (issue 15 items 18-21, issue 11 item 3): an output that is
# an input is refused; temporaries are hidden, fit NAME_MAX and never stay
# (signals: tests/tools/signals.py); the mode comes from the umask with no
# set-id bits; every write to stdout is checked; `render -` reads stdin;
# `-o -` refuses a terminal unless --force.
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/output
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
code() { "$@" >/dev/null 2>&1; echo $?; }
V=$(cd "$(dirname "$VITA")" && pwd)/$(basename "$VITA")

cp profiles/zhanda-zhu.yaml "$W/cv.yaml"
cp "$W/cv.yaml" "$W/cv.orig"
mkdir -p "$W/data.orig" && cp -r layouts fonts "$W/data.orig/"    # no git in a source tarball

# 18: -o INPUT is refused before anything is written, the input intact
for t in "$W/cv.yaml" "$W/./cv.yaml" layouts/academic.yaml fonts/serif.yaml; do
	c=$(code "$VITA" render "$W/cv.yaml" -o "$t")
	[ "$c" = 2 ] || no "-o $t (an input): exit $c, want 2"
done
cmp -s "$W/cv.yaml" "$W/cv.orig" || no "-o cv.yaml changed the profile"
mkdir -p "$W/ph"; cp tests/golden/photo.png "$W/ph/photo.png"; cp "$W/ph/photo.png" "$W/ph/photo.orig"
printf 'name: Photo Input\nphoto: photo.png\nsections:\n  - {title: T, type: text, text: hi}\n' > "$W/ph/p.yaml"
c=$(code "$VITA" render "$W/ph/p.yaml" -o "$W/ph/photo.png")
[ "$c" = 2 ] || no "-o photo.png (an input): exit $c, want 2"
cmp -s "$W/ph/photo.png" "$W/ph/photo.orig" || no "-o photo.png replaced the photo"
diff -r layouts "$W/data.orig/layouts" >/dev/null && diff -r fonts "$W/data.orig/fonts" >/dev/null ||
	no "-o replaced a layout or chain file"
"$VITA" render "$W/cv.yaml" -o "$W/cv.yaml" 2>&1 | grep -q "input of this CV" || no "-o INPUT message"
ln -sf cv.yaml "$W/link.pdf"
[ "$(code "$VITA" render "$W/cv.yaml" -o "$W/link.pdf")" = 2 ] || no "-o symlink-to-input not refused"
[ "$(code "$VITA" render "$W/cv.yaml" -o "$W/x.pdf" --deps "$W/cv.yaml")" = 2 ] || no "--deps INPUT not refused"
cmp -s "$W/cv.yaml" "$W/cv.orig" || no "--deps cv.yaml changed the profile"
rm -f "$W/link.pdf"

# 19: signals, SIGKILL, nothing in $TMPDIR
python3 tests/tools/signals.py "$VITA" "$W/sig" || no "signals"
"$VITA" render "$W/cv.yaml" -o "$W/ok.pdf" || no "render"
ls -A "$W" | grep -q '^\.ok\.pdf\.' && no "a temporary remains after a good render"
"$VITA" render "$W/cv.yaml" --set page.sise=a4 -o "$W/ok.pdf" 2>/dev/null
ls -A "$W" | grep -q '^\.ok\.pdf\.' && no "a temporary remains after a failed render"
# the temporary is hidden: strace shows its name
if command -v strace >/dev/null; then
	strace -f -e trace=openat -o "$W/st" "$VITA" render "$W/cv.yaml" -o "$W/ok.pdf" 2>/dev/null
	grep -q "\"$W/\.ok\.pdf\.[A-Za-z0-9]\{6\}\"" "$W/st" || no "the temporary is not .ok.pdf.XXXXXX"
else
	echo "skip: strace not installed (temporary name check)"
fi

# replacing an existing PDF puts a new file in its place (swapped with
# it, then the old one removed): a hard link to the old file keeps the
# old bytes, and no temporary remains
"$VITA" render "$W/cv.yaml" --pdf=plain -o "$W/re.pdf" || no "render re.pdf"
ln -f "$W/re.pdf" "$W/re.old"; cp "$W/re.pdf" "$W/re.copy"
"$VITA" render "$W/cv.yaml" -o "$W/re.pdf" || no "render over re.pdf"
cmp -s "$W/re.old" "$W/re.copy" || no "replacing a PDF wrote into the old file"
cmp -s "$W/re.pdf" "$W/re.old" && no "replacing a PDF left the old one"
[ "$(stat -c %h "$W/re.old")" = 1 ] || no "replacing a PDF: the old file still has another name"
ls -A "$W" | grep -q '^\.re\.pdf\.' && no "a temporary remains after replacing a PDF"
rm -f "$W/re.old" "$W/re.copy"

# 21: mode from the umask, never set-id bits; names up to NAME_MAX
touch "$W/suid"; chmod 4755 "$W/suid"; ln -s suid "$W/suid.pdf"
"$VITA" render "$W/cv.yaml" -o "$W/suid.pdf" || no "render over a symlink"
m=$(stat -c %a "$W/suid.pdf"); [ "$m" = 644 ] || no "mode through a symlink to a setuid file: $m, want 644"
[ "$(stat -c %a "$W/suid")" = 4755 ] || no "the setuid file was touched"
touch "$W/mode.pdf"; chmod 4640 "$W/mode.pdf"
"$VITA" render "$W/cv.yaml" -o "$W/mode.pdf" || no "render over a setuid file"
m=$(stat -c %a "$W/mode.pdf"); [ "$m" = 640 ] || no "replacing a 4640 file: mode $m, want 640"
(umask 077; "$VITA" render "$W/cv.yaml" -o "$W/umask.pdf") || no "render umask 077"
m=$(stat -c %a "$W/umask.pdf"); [ "$m" = 600 ] || no "umask 077: mode $m, want 600"
long=$(printf 'n%.0s' $(seq 251)).pdf   # 255 bytes: NAME_MAX
"$VITA" render "$W/cv.yaml" -o "$W/$long" || no "an output name of 255 bytes"
[ -s "$W/$long" ] || no "no PDF with a 255-byte name"
[ "$(ls -A "$W" | grep -c '^\.nnn')" = 0 ] || no "a temporary of the long name remains"

# 20: stdout errors are exit 3
if [ -w /dev/full ]; then
	[ "$(code "$VITA" new X)" = 0 ] || no "new"
	c=$("$VITA" new X >/dev/full 2>/dev/null; echo $?); [ "$c" = 3 ] || no "new > /dev/full: exit $c"
	c=$("$VITA" fonts >/dev/full 2>/dev/null; echo $?); [ "$c" = 3 ] || no "fonts > /dev/full: exit $c"
	c=$("$VITA" layouts >/dev/full 2>/dev/null; echo $?); [ "$c" = 3 ] || no "layouts > /dev/full: exit $c"
	c=$("$VITA" --help >/dev/full 2>/dev/null; echo $?); [ "$c" = 3 ] || no "--help > /dev/full: exit $c"
	for d in model layout; do
		c=$("$VITA" render "$W/cv.yaml" --dump=$d >/dev/full 2>/dev/null; echo $?)
		[ "$c" = 3 ] || no "--dump=$d > /dev/full: exit $c"
	done
	c=$("$VITA" render "$W/cv.yaml" -o - >/dev/full 2>/dev/null; echo $?)
	[ "$c" = 3 ] || no "-o - > /dev/full: exit $c"
else
	echo "skip: no /dev/full"
fi

# issue 11 item 4: stdin; -o - and a terminal
"$VITA" render - < "$W/cv.yaml" > "$W/stdin.pdf" || no "render - < cv.yaml"
head -c 5 "$W/stdin.pdf" | grep -q '%PDF-' || no "render - writes a PDF to stdout"
mkdir -p "$W/sub"; cp tests/golden/photo.png "$W/sub/"
printf 'name: Stdin Photo\nphoto: photo.png\nsections:\n  - title: T\n    type: text\n    text: hi\n' > "$W/sub/p.yaml"
(cd "$W/sub" && "$V" render - -o p.pdf < p.yaml) || no "stdin: a relative photo resolves against the working directory"
(cd "$W" && "$V" render - -o p.pdf < sub/p.yaml 2>/dev/null) && no "stdin: the photo resolved against something else than the working directory"
"$VITA" render - < /dev/null > /dev/null 2>&1; [ $? = 1 ] || no "render - with empty stdin: exit 1"
if script -qc true /dev/null >/dev/null 2>&1; then
	script -qc "$V render $W/cv.yaml -o - ; echo rc=\$?" /dev/null > "$W/tty.out" 2>&1
	grep -q 'rc=2' "$W/tty.out" || no "-o - on a terminal is not refused"
	grep -q 'PDF-' "$W/tty.out" && no "a PDF went to the terminal"
	script -qc "$V render $W/cv.yaml -o - --force" /dev/null > "$W/tty2.out" 2>&1
	grep -q '%PDF' "$W/tty2.out" || no "--force does not write to the terminal"
else
	echo "skip: no script(1) for the terminal test"
fi
exit $fail

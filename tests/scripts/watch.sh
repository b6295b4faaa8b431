#!/bin/sh
# vita watch (issue 11 item 2): saves by rename and in place re-render, a
# broken save prints one located error and keeps the last good PDF, a
# change of another input (the photo) is seen, --exec runs after each good
# render, Ctrl-C leaves nothing behind (tests/tools/watch_check.py).
set -u
VITA=${VITA:-build/vita}
W=${BUILD:-build}/watch
rm -rf "$W"; mkdir -p "$W"
fail=0
no() { echo "FAIL: $*"; fail=1; }
code() { "$@" >/dev/null 2>&1; echo $?; }

cat > "$W/template.yaml" <<'Y'
name: Watch Test
headline: VERSION
photo: photo.png
sections:
  - title: About
    type: text
    text: This is VERSION of the profile.
Y
python3 tests/tools/watch_check.py "$VITA" "$W/run" "$W/template.yaml" tests/golden/photo.png \
	|| no "watch"
[ "$(code "$VITA" watch)" = 2 ] || no "watch without a profile: exit 2"
[ "$(code "$VITA" watch - )" = 2 ] || no "watch -: exit 2"
[ "$(code "$VITA" watch "$W/template.yaml" -o -)" = 2 ] || no "watch -o -: exit 2"
exit $fail

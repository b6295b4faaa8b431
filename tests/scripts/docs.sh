#!/bin/sh
# The documentation is in the repository and true to the binary: every
# relative link in README.md and docs/*.md resolves inside the tree (none
# leaves it), docs/cli.md and the man page name every command and long
# option of `vita --help`. (docs/vita.schema.json and docs/profile.md are
# checked by schema.sh.) Env: VITA (the binary).
set -u
VITA=${VITA:-build/vita}
fail=0
no() { echo "FAIL: $*"; fail=1; }

# files other work is still writing may be listed here until they land
# (the list is empty at a release)
pending=""
root=$(pwd)
for f in README.md docs/*.md; do
	d=$(dirname "$f")
	# links outside `code spans`, without #anchors; URLs are not files
	for l in $(sed 's/`[^`]*`//g' "$f" | grep -o '](\([^)#]*\)' | sed 's/^](//' | grep -v '^[a-z]*:'); do
		p=$(realpath -m "$d/$l")
		case $p in
		"$root"/*) ;;
		*) no "$f links outside the repository: $l"; continue ;;
		esac
		[ -e "$p" ] && continue
		case " $pending " in *" ${p#$root/} "*) continue ;; esac
		no "$f links to $l, which does not exist"
	done
done
grep -n 'shared/spec' README.md docs/*.md && no "a document points at shared/spec"

cmds=$("$VITA" --help | awk '/^commands:/ {on = 1; next} /^$/ {on = 0} on {print $1}')
lopts=$("$VITA" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ -n "$cmds" ] && [ -n "$lopts" ] || no "cannot read commands and options from --help"
for c in $cmds; do
	grep -q "vita $c" docs/cli.md || no "docs/cli.md lacks the command $c"
	grep -q "^\.Cm $c\$" man/vita.1 || no "man/vita.1 lacks the command $c"
done
for o in $lopts; do
	grep -q -- "$o" docs/cli.md || no "docs/cli.md lacks $o"
	grep -q -- "^\.It Fl.* Fl ${o#--}\b\|^\.It Fl Fl ${o#--}\b" man/vita.1 || no "man/vita.1 lacks $o"
done

# one version everywhere: Makefile, CHANGELOG.md's first release, debian/changelog, --version
v=$(sed -n 's/^VERSION *= *//p' Makefile)
c=$(sed -n 's/^## \([0-9][0-9.]*\) .*/\1/p' CHANGELOG.md | head -1)
[ "$v" = "$c" ] || no "Makefile VERSION $v, CHANGELOG.md $c"
if [ -f debian/changelog ]; then
	dv=$(sed -n '1s/^vita (\([0-9.]*\)[-)].*/\1/p' debian/changelog)
	[ "$v" = "$dv" ] || no "Makefile VERSION $v, debian/changelog $dv"
fi
"$VITA" --version | grep -q "^vita $v " || no "vita --version is not $v"
exit $fail

#!/bin/sh
# debian/ agrees with the Makefile: every package the Makefile installs for
# building and rendering (DEB_BUILD, DEB_FONTS; gcc and make are
# build-essential) is a Build-Depends of debian/control; no package list
# names a versioned LLVM package (libclang-rt-14-dev is gone in Debian 13).
set -u
fail=0
no() { echo "FAIL: $*"; fail=1; }
bd=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed 's/^Build-Depends://; s/<[^>]*>//g; s/([^)]*)//g' | tr ',' '\n' | tr -d ' ' | grep .)
for p in $(MAKEFLAGS= make -s --no-print-directory print-DEB_BUILD) $(MAKEFLAGS= make -s --no-print-directory print-DEB_FONTS); do
	case $p in gcc|make) continue ;; esac
	echo "$bd" | grep -qx "$p" || no "debian/control Build-Depends lacks $p"
done
all=$(MAKEFLAGS= make -s --no-print-directory print-DEB_BUILD print-DEB_FONTS print-DEB_TEST)
echo "$all" | tr ' ' '\n' | grep -E -- '-[0-9]+(-dev)?$|clang-[0-9]|llvm-[0-9]' && no "a versioned LLVM package name"
grep -q 'make check' debian/rules || no "debian/rules does not run make check"
exit $fail

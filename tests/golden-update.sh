#!/bin/sh
# Rewrite every golden file from the current build; review `git diff`.
VITA=${1:-build/vita}
for s in tests/scripts/*golden*.sh; do UPDATE=1 VITA=$VITA sh "$s"; done
git status --short tests/golden

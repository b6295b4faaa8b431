#!/bin/sh
# make bench: ms per CV as a fresh process (median of 31), ms per CV when
# many are rendered in one process (batch -j 1), CVs per second in batch
# (-j all cores), peak RSS, pages and PDF bytes, for the bundled profiles
# and a synthetic 250-publication CV. Prints a table; timings are never
# asserted anywhere. With valgrind installed, M instr is one fresh render's
# instruction count (callgrind, caches warm): it repeats to 0.01%, where
# the timings move with the machine's load.
set -eu
VITA=${1:-build/vita}
W=${BUILD:-build}/bench
rm -rf "$W"; mkdir -p "$W"
python3 tests/tools/gen_long.py 250 > "$W/long-250.yaml"
python3 tests/tools/gen_long.py 50 > "$W/long-50.yaml"
export SOURCE_DATE_EPOCH=1767225600
ms() { echo "$1 $2" | awk '{printf "%.2f", ($2 - $1) / 1e6}'; }
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
printf '%-22s %9s %9s %9s %9s %8s %6s %9s\n' profile "M instr" "ms/CV" "ms/CV" "CVs/s" "RSS MB" pages "PDF bytes"
printf '%-22s %9s %9s %9s %9s %8s %6s %9s\n' "" "process" "process" "in-proc" "batch" "" "" ""
for p in profiles/*.yaml tests/bench/hyphen.yaml "$W/long-50.yaml" "$W/long-250.yaml"; do
	n=$(basename "$p" .yaml)
	"$VITA" render "$p" -o "$W/$n.pdf" 2>/dev/null
	instr=-
	if command -v valgrind >/dev/null; then
		valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" "$VITA" render "$p" -o "$W/$n.pdf" >/dev/null 2>&1 &&
			instr=$(awk '/^summary:/ {printf "%.1f", $2 / 1e6; exit}' "$W/cg.out")
		rm -f "$W/cg.out"
	fi
	if command -v hyperfine >/dev/null; then
		# hyperfine without a shell: the process's own cost, median of 31
		hyperfine -N -w 5 -r 31 --export-json "$W/h.json" "$VITA render $p -o $W/$n.pdf" >/dev/null 2>&1
		fresh=$(python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$W/h.json")
	else
		i=0; : > "$W/t"
		while [ $i -lt 31 ]; do
			a=$(date +%s%N); "$VITA" render "$p" -o "$W/$n.pdf" 2>/dev/null; b=$(date +%s%N)
			ms "$a" "$b" >> "$W/t"; echo >> "$W/t"; i=$((i + 1))
		done
		fresh=$(grep . "$W/t" | median)
	fi
	# in one process: 40 copies through batch -j 1
	mkdir -p "$W/in" "$W/out"; i=0; set --
	while [ $i -lt 40 ]; do cp "$p" "$W/in/$n-$i.yaml"; set -- "$@" "$W/in/$n-$i.yaml"; i=$((i + 1)); done
	a=$(date +%s%N); "$VITA" batch "$@" -d "$W/out" -j 1 2>/dev/null; b=$(date +%s%N)
	inproc=$(echo "$a $b" | awk '{printf "%.2f", ($2 - $1) / 1e6 / 40}')
	a=$(date +%s%N); "$VITA" batch "$@" -d "$W/out" 2>/dev/null; b=$(date +%s%N)
	rate=$(echo "$a $b" | awk '{printf "%.0f", 40 / (($2 - $1) / 1e9)}')
	rss=$(/usr/bin/time -f %M "$VITA" render "$p" -o "$W/$n.pdf" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1 / 1024}')
	pages=$(pdfinfo "$W/$n.pdf" | awk '/^Pages:/ {print $2}')
	bytes=$(stat -c %s "$W/$n.pdf")
	printf '%-22s %9s %9s %9s %9s %8s %6s %9s\n' "$n" "$instr" "$fresh" "$inproc" "$rate" "$rss" "$pages" "$bytes"
	rm -rf "$W/in" "$W/out"
done
# the cost of the tags: the default (tagged PDF/UA-1 + PDF/A-2) against
# --pdf=plain; "meta" is the XMP packet and the ICC profile, "tags" the
# rest of the difference (structure tree, marked content, link attributes)
echo
printf '%-22s %9s %9s %7s %7s %6s %9s %9s\n' profile "plain B" "tagged B" "meta B" "tags B" "tags%" "ms plain" "ms tagged"
for p in profiles/*.yaml "$W/long-250.yaml"; do
	n=$(basename "$p" .yaml)
	"$VITA" render "$p" -o "$W/$n.pdf" 2>/dev/null
	"$VITA" render "$p" --pdf=plain -o "$W/$n-plain.pdf" 2>/dev/null
	meta=$(/usr/bin/python3 -c 'import sys, pikepdf; r = pikepdf.open(sys.argv[1]).Root; print(len(r.Metadata.read_raw_bytes()) + len(r.OutputIntents[0].DestOutputProfile.read_raw_bytes()))' "$W/$n.pdf")
	t=$(stat -c %s "$W/$n.pdf"); u=$(stat -c %s "$W/$n-plain.pdf")
	tp="-"; tt="-"
	if command -v hyperfine >/dev/null; then
		hyperfine -N -w 3 -r 21 --export-json "$W/h.json" "$VITA render $p --pdf=plain -o $W/$n-plain.pdf" \
			"$VITA render $p -o $W/$n.pdf" >/dev/null 2>&1
		tp=$(python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$W/h.json")
		tt=$(python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][1]["median"] * 1000))' "$W/h.json")
	fi
	printf '%-22s %9s %9s %7s %7s %6s %9s %9s\n' "$n" "$u" "$t" "$meta" "$((t - u - meta))" \
		"$(echo "$t $u $meta" | awk '{printf "%.1f", 100 * ($1 - $2 - $3) / $1}')" "$tp" "$tt"
done
echo
echo "machine: $(nproc) cores, $(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo); $(date -u +%Y-%m-%d)"

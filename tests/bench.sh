#!/bin/sh
# make bench [BASE=rev]: for zhanda-zhu, ziming-liu, a hyphenating 2-page
# CV (tests/bench/hyphen.yaml), the costliest real 2-page CVs of
# tests/tools/sweep.sh (Chinese, Japanese, Korean: tests/cjk/zh-cv.yaml,
# ja-cv.yaml, ko-cv.yaml; one of many scripts: tests/shape/scripts.yaml;
# an Arabic and a Japanese CV from tests/tools/gen_scripts.py, the Japanese
# one also in the compact layout (its fit lays it out 11 times); zhanda-zhu
# in the compact layout, whose fit lays it out 5 times; a RenderCV import naming font
# families that are not installed: tests/import/rendercv/sb2nov-v2.3.yaml;
# zhanda-zhu's CV generated in Hindi and with four flag emoji, hi-gen and
# flag-gen),
# a 250-publication CV (tests/tools/
# gen_long.py) and a batch of 100 distinct CVs (tests/tools/gen_batch.py):
#
#   M instr  callgrind, one fresh render with the font cache warm (when
#            valgrind is installed); batch: every process of `vita batch
#            -j 1` (parent and worker) / 100. Repeats to 0.01%. The row
#            batch-warm: what one more CV costs a warm worker, (all of
#            batch-100 - a batch of its first 10) / 90 (no start-up, no
#            first loads of faces, layouts, locales and patterns).
#   ms       median wall time of a fresh render (hyperfine -N, 21 runs);
#            batch: `vita batch -j 1` / 100, median of 5
#   CVs/s    batch only: `vita batch` with one worker per core, median of 5
#   RSS MB   peak resident memory (GNU time; batch: the largest process)
#   PDF B    the file's bytes; batch: the mean
#
# BENCH_INPUTS="zhanda-zhu ja-gen" measures only those rows (the table in
# BENCHMARKS.md is then left alone unless BENCH_MD is set).
# BASE=rev builds that commit in a temporary worktree under $TMPDIR, runs
# the same inputs (made by this tree's generators) and prints both columns
# and the change. The table, the date, the commit and the machine (cores,
# CPU model, load average when the run started) replace the block between
# the bench markers in BENCHMARKS.md (BENCH_MD=file elsewhere, BENCH_MD=
# to leave it alone). Then the tagged vs --pdf=plain table. Timings are
# never asserted anywhere: the shared machine's load moves them, the
# instruction counts do not.
set -eu
VITA=${1:-build/vita}
BASE=${BASE:-}
MD=${BENCH_MD-BENCHMARKS.md}
[ -z "${BENCH_INPUTS:-}" ] || MD=${BENCH_MD:-}
W=$(pwd)/${BUILD:-build}/bench
rm -rf "$W"; mkdir -p "$W/in"
export SOURCE_DATE_EPOCH=1767225600
load=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
cpu=$(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo)

python3 tests/tools/gen_long.py 250 > "$W/in/long-250.yaml"
python3 tests/tools/gen_batch.py 100 "$W/in/batch"
cp profiles/zhanda-zhu.yaml profiles/ziming-liu.yaml tests/bench/hyphen.yaml "$W/in/"
# the sweep's worst real 2-page CVs (none reads a file next to it), an
# Arabic CV (tests/tools/gen_scripts.py) and zhanda-zhu in the compact
# layout (its fit lays the CV out again until the last page is not short)
cp tests/cjk/zh-cv.yaml tests/cjk/ja-cv.yaml tests/cjk/ko-cv.yaml "$W/in/"
cp tests/shape/scripts.yaml "$W/in/scripts.yaml"
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$W/in/scripts"
cp "$W/in/scripts/ar.yaml" "$W/in/ar-cv.yaml"
# the same CV in Japanese (2 pages: the CJK subsets and their deflate) and
# in the compact layout (the fit builds all 11 layouts: the costliest case
# of the sweep)
cp "$W/in/scripts/ja.yaml" "$W/in/ja-gen.yaml"
{ cat "$W/in/scripts/ja.yaml"; echo "layout: compact"; } > "$W/in/ja-compact.yaml"
{ cat profiles/zhanda-zhu.yaml; echo "layout: compact"; } > "$W/in/zhanda-compact.yaml"
cp tests/import/rendercv/sb2nov-v2.3.yaml "$W/in/rendercv-sb2nov.yaml"
# zhanda-zhu's CV in Hindi (HarfBuzz's Devanagari shaping, the costliest
# of the Brahmic scripts) and in English with four flag emoji (the colour
# font's bitmaps)
cp "$W/in/scripts/hi.yaml" "$W/in/hi-gen.yaml"
cp "$W/in/scripts/flag.yaml" "$W/in/flag-gen.yaml"
INPUTS=${BENCH_INPUTS:-zhanda-zhu ziming-liu hyphen zh-cv ja-cv ko-cv scripts ar-cv ja-gen ja-compact zhanda-compact rendercv-sb2nov hi-gen flag-gen long-250 batch-100}

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
now() { date +%s%N; }

# measure VITA TAG INPUT: "name instr ms rate rss bytes"
measure() {
	v=$1 tag=$2 n=$3
	o="$W/out-$tag"; mkdir -p "$o"
	instr=- ms=- rate=- rss=- bytes=-
	if [ "$n" = batch-100 ]; then
		set -- "$W"/in/batch/*.yaml
		"$v" batch "$@" -d "$o/b" -j 1 2>/dev/null   # warm the caches
		warm=-
		if command -v valgrind >/dev/null; then
			# all 100, then the first 10: the difference / 90 is what a CV
			# costs a worker that is already warm (no start-up, faces,
			# layouts and patterns already loaded)
			rm -f "$W"/cg.*
			valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$W/cg.%p" \
				"$v" batch "$@" -d "$o/b" -j 1 >/dev/null 2>&1 &&
				all=$(cat "$W"/cg.* | awk '/^summary:/ {s += $2} END {print s}') &&
				instr=$(echo "$all" | awk '{printf "%.2f", $1 / 1e6 / 100}')
			rm -f "$W"/cg.*
			ten=$(ls "$W"/in/batch/*.yaml | head -10)
			if [ "$instr" != - ] && valgrind --tool=callgrind --trace-children=yes \
				--callgrind-out-file="$W/cg.%p" "$v" batch $ten -d "$o/b" -j 1 >/dev/null 2>&1; then
				warm=$(cat "$W"/cg.* | awk -v all="$all" '/^summary:/ {s += $2} END {printf "%.2f", (all - s) / 1e6 / 90}')
			fi
			rm -f "$W"/cg.*
		fi
		i=0; : > "$W/t"; : > "$W/r"
		while [ $i -lt 5 ]; do
			a=$(now); "$v" batch "$@" -d "$o/b" -j 1 2>/dev/null; b=$(now)
			echo "$a $b" | awk '{printf "%.3f\n", ($2 - $1) / 1e6 / 100}' >> "$W/t"
			a=$(now); "$v" batch "$@" -d "$o/b" 2>/dev/null; b=$(now)
			echo "$a $b" | awk '{printf "%.0f\n", 100 / (($2 - $1) / 1e9)}' >> "$W/r"
			i=$((i + 1))
		done
		ms=$(median < "$W/t"); rate=$(median < "$W/r")
		rss=$(/usr/bin/time -f %M "$v" batch "$@" -d "$o/b" 2>&1 >/dev/null | tail -1 |
			awk '{printf "%.1f", $1 / 1024}')
		bytes=$(cat "$o"/b/*.pdf | wc -c | awk '{printf "%.0f", $1 / 100}')
		echo "$n $instr $ms $rate $rss $bytes"
		echo "batch-warm $warm - - - -"
		return
	else
		p="$W/in/$n.yaml"
		"$v" render "$p" -o "$o/$n.pdf" 2>/dev/null
		if command -v valgrind >/dev/null; then
			valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" "$v" render "$p" \
				-o "$o/$n.pdf" >/dev/null 2>&1 &&
				instr=$(awk '/^summary:/ {printf "%.2f", $2 / 1e6; exit}' "$W/cg.out")
			rm -f "$W/cg.out"
		fi
		if command -v hyperfine >/dev/null; then
			hyperfine -N -w 3 -r 21 --export-json "$W/h.json" "$v render $p -o $o/$n.pdf" >/dev/null 2>&1
			ms=$(python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$W/h.json")
		else
			i=0; : > "$W/t"
			while [ $i -lt 21 ]; do
				a=$(now); "$v" render "$p" -o "$o/$n.pdf" 2>/dev/null; b=$(now)
				echo "$a $b" | awk '{printf "%.2f\n", ($2 - $1) / 1e6}' >> "$W/t"; i=$((i + 1))
			done
			ms=$(median < "$W/t")
		fi
		rss=$(/usr/bin/time -f %M "$v" render "$p" -o "$o/$n.pdf" 2>&1 >/dev/null | tail -1 |
			awk '{printf "%.1f", $1 / 1024}')
		bytes=$(stat -c %s "$o/$n.pdf")
	fi
	echo "$n $instr $ms $rate $rss $bytes"
}

if [ -n "$BASE" ]; then
	T=$(mktemp -d "${TMPDIR:-/tmp}/vita-bench.XXXXXX")
	trap 'git worktree remove --force "$T/src" >/dev/null 2>&1; rm -rf "$T"' EXIT
	git worktree add --detach "$T/src" "$BASE" >/dev/null 2>&1
	base=$(git -C "$T/src" rev-parse --short=12 HEAD)
	echo "building $BASE ($base) in $T/src ..."
	make -C "$T/src" -j2 BUILD=build >/dev/null
fi
# base and new take turns, input by input, so that both see about the same
# load; the caches (fonts, hyphenation) are private and warm
export XDG_CACHE_HOME="$W/cache"
: > "$W/base.txt"; : > "$W/new.txt"
for n in $INPUTS; do
	[ -z "$BASE" ] || measure "$T/src/build/vita" base $n >> "$W/base.txt"
	measure "$VITA" new $n >> "$W/new.txt"
done

# the table: one column per figure, or base / new / change with BASE
table() {
	if [ -z "$BASE" ]; then
		printf '%-16s %9s %8s %7s %7s %9s\n' input "M instr" ms "CVs/s" "RSS MB" "PDF B"
		while read -r n i m r s b; do
			printf '%-16s %9s %8s %7s %7s %9s\n' "$n" "$i" "$m" "$r" "$s" "$b"
		done < "$W/new.txt"
		return
	fi
	printf '%-16s %27s %23s %19s %17s %23s\n' "" "M instr" "ms" "CVs/s" "RSS MB" "PDF B"
	printf '%-16s' input
	for k in 1 2 3 4 5; do printf ' %s' "  base    new    chg"; done
	echo
	paste -d' ' "$W/base.txt" "$W/new.txt" | awk '
	function chg(a, b) { return (a == "-" || b == "-" || a + 0 == 0) ? "-" : sprintf("%+.1f%%", 100 * (b - a) / a) }
	{
		printf "%-16s", $1
		for (k = 2; k <= 6; k++) printf " %6s %6s %6s", $k, $(k + 6), chg($k, $(k + 6))
		printf "\n"
	}'
}

table > "$W/table.txt"
{
	echo "make bench, $started: commit $commit${BASE:+ against $BASE ($base)}"
	echo "machine: $(nproc) cores, $cpu; load average at the start $load"
	echo
	cat "$W/table.txt"
} > "$W/report.txt"
cat "$W/report.txt"

if [ -n "$MD" ] && [ -f "$MD" ] && grep -q '^<!-- bench:begin -->' "$MD"; then
	{
		sed '/^<!-- bench:begin -->/q' "$MD"
		echo
		echo '```'
		cat "$W/report.txt"
		echo '```'
		echo
		sed -n '/^<!-- bench:end -->/,$p' "$MD"
	} > "$W/md"
	cp "$W/md" "$MD"
	echo "(written into $MD)"
fi

# the cost of the tags: the default (tagged PDF/UA-1 + PDF/A-2) against
# --pdf=plain; "meta" is the XMP packet and the ICC profile, "tags" the
# rest of the difference (structure tree, marked content, link attributes)
echo
printf '%-22s %9s %9s %7s %7s %6s\n' profile "plain B" "tagged B" "meta B" "tags B" "tags%"
for n in zhanda-zhu ziming-liu long-250; do
	p="$W/in/$n.yaml"
	"$VITA" render "$p" -o "$W/$n.pdf" 2>/dev/null
	"$VITA" render "$p" --pdf=plain -o "$W/$n-plain.pdf" 2>/dev/null
	meta=$(/usr/bin/python3 -c 'import sys, pikepdf; r = pikepdf.open(sys.argv[1]).Root; print(len(r.Metadata.read_raw_bytes()) + len(r.OutputIntents[0].DestOutputProfile.read_raw_bytes()))' "$W/$n.pdf" 2>/dev/null || echo 0)
	t=$(stat -c %s "$W/$n.pdf"); u=$(stat -c %s "$W/$n-plain.pdf")
	printf '%-22s %9s %9s %7s %7s %6s\n' "$n" "$u" "$t" "$meta" "$((t - u - meta))" \
		"$(echo "$t $u $meta" | awk '{printf "%.1f", 100 * ($1 - $2 - $3) / $1}')"
done

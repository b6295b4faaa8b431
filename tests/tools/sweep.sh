#!/bin/sh
# sweep.sh [VITA]: the cost of every real CV input of the tree and of
# generated ones, one fresh `vita render` each with warm caches (issue 13's
# item 1: any CV of 2 pages or fewer <= 20 M instructions, <= 10 MB peak
# RSS). Run from a vita tree; takes minutes (valgrind); not part of make test.
#
# Inputs, each as it is and with --set text.hyphenate=false:
#   - the real ones: profiles/, examples/cv.yaml, tests/** (profiles, not
#     the error cases), the imports in tests/import (RenderCV, JSON Resume,
#     BibTeX exports, al-folio, academicpages)
#   - the seed profiles in every layout (vita layouts) and every locale
#     (vita locales, as --lang)
#   - one CV per script from tests/tools/gen_scripts.py (Arabic, Hebrew,
#     Persian, Korean, Devanagari, Bengali, Tamil, Thai, Greek, Cyrillic, Vietnamese,
#     zh-Hans, zh-Hant, Japanese, flag emoji) in every layout
# For each: pages (pdfinfo), M instructions (callgrind, the whole process),
# peak RSS in MB (GNU time %M, the largest of 3 runs), and for the ones over
# the line the top inclusive and self costs (callgrind_annotate), leaving
# out the drivers (main, render_one, lay_build, ...), and how many layouts
# were built (1, or the fit's attempts: fit.pages, fit.no_short_last).
#
# Writes $SWEEP_DIR (default $TMPDIR/vita-sweep): results.tsv (every case)
# and report.md (the cases of <= 2 pages over SWEEP_MI M or SWEEP_MB MB,
# worst first). SWEEP_JOBS=N runs N cases at a time (instruction counts do
# not depend on it; RSS barely). SWEEP_ONLY=REGEX measures only the cases whose name matches;
# SWEEP_REPORT=1 only writes report.md again from results.tsv. SWEEP_QUICK=1:
# half the cases (hyphenation off only for the profiles, tests/bench and
# the academic and compact layouts; the script CVs in those two layouts).
# Two runs side by side (a base, and main re-measured with SWEEP_ONLY as it
# moves), by area: tests/tools/sweep_cmp.py BASE/results.tsv MAIN/results.tsv.
set -u
V=$(readlink -f "${1:-build/vita}")
W=${SWEEP_DIR:-${TMPDIR:-/tmp}/vita-sweep}
MI=${SWEEP_MI:-18}
MB=${SWEEP_MB:-9.5}
ONLY=${SWEEP_ONLY:-}
mkdir -p "$W/in" "$W/out"
export SOURCE_DATE_EPOCH=1767225600
export XDG_CACHE_HOME="$W/cache"   # private, warmed by the first render of each case
command -v valgrind >/dev/null || { echo "sweep.sh: valgrind is needed" >&2; exit 2; }

# the report: over the line, worst first (by instructions, then RSS)
report() {
	{
		echo "sweep of $("$V" --version 2>/dev/null | head -1) ($V), $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "cases: $(($(wc -l < "$R") - 1)); of <= 2 pages measured: $(awk -F'\t' 'NR > 1 && $5 != "-"' "$R" | wc -l);" \
			"over ${MI} M or ${MB} MB: $(awk -F'\t' -v mi="$MI" -v mb="$MB" 'NR > 1 && $5 != "-" && ($5 > mi || $6 > mb)' "$R" | wc -l)"
		echo
		echo "| input | pages | M instr | MB | layouts | area (a guess) | top inclusive (M) | top self (M) |"
		echo "|---|---|---|---|---|---|---|---|"
		awk -F'\t' -v mi="$MI" -v mb="$MB" 'NR > 1 && $5 != "-" && ($5 > mi || $6 > mb)' "$R" |
			sort -t'	' -k5,5gr -k6,6gr |
			awk -F'\t' -v mi="$MI" -v mb="$MB" '
			# the area a case belongs to, from its name and its costs
			function area(   a) {
				if ($8 ~ /font_family_suggest|FcInitLoadConfigAndFonts|suggest_distance/) a = "font-missing"
				else if ($10 > 1) a = "fit"
				else if ($1 ~ /cjk|script-(zh|ja|ko)|lang=(zh|ja|ko)/) a = "cjk"
				else if ($1 ~ /script|bidi|lang=(ar|fa|he)/) a = "complex-script"
				else if ($5 <= mi) a = "rss"
				else a = "writer/general"
				if ($6 > mb && a != "rss") a = a " + rss"
				return a
			}
			{printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $4, $5, $6, $10, area(), $8, $9}'
		echo
		echo "not measured (more than 2 pages or an error):"
		awk -F'\t' 'NR > 1 && $5 == "-" {printf "%s (rc %s, %s pages); ", $1, $3, $4}' "$R"
		echo
	} > "$W/report.md"
	cat "$W/report.md"
}

R="$W/results.tsv"
if [ "${SWEEP_REPORT:-}" = 1 ]; then report; exit 0; fi

# lang: only where this binary has the locale (an older one: lang: hi is an error)
python3 tests/tools/gen_scripts.py profiles/zhanda-zhu.yaml "$W/in/scripts" "$("$V" locales | awk '{print $1}')"

# the cases: "name<TAB>args"
C="$W/cases.tsv"; : > "$C"
add() { n=$1; shift; printf '%s\t%s\n' "$n" "$*" >> "$C"; }
QUICK=${SWEEP_QUICK:-}
both() {
	n=$1; shift; add "$n" "$@"
	# quick: without hyphenation only where a paragraph hyphenates
	case $QUICK:$n in 1:profiles/*|1:bench/*|1:*@academic|1:*@compact|:*) ;; *) return ;; esac
	add "$n+nohyph" "$@" --set text.hyphenate=false
}
real=$(ls profiles/*.yaml examples/cv.yaml tests/bench/*.yaml tests/cjk/*.yaml \
	tests/bidi/*.yaml tests/shape/*.yaml tests/locale/cv.yaml tests/locale/smart.yaml \
	tests/harden/*.yaml tests/deps/cv.yaml tests/golden/markup.yaml \
	tests/golden/layout/*.yaml tests/pathological/*.yaml \
	tests/import/*.yaml tests/import/*.json tests/import/*/*.yaml tests/import/*/*.json \
	tests/import/alfolio/_data/cv.yml tests/import/alfolio/assets/json/resume.json \
	tests/import/academicpages/_data/cv.json 2>/dev/null)
for p in $real; do both "$(echo "$p" | sed 's,^tests/,,; s,\.[a-z]*$,,')" "$p"; done
layouts=$("$V" layouts | awk '/^[a-z]/ {print $1}')
locales=$("$V" locales | awk '{print $1}')
for p in profiles/*.yaml; do
	b=$(basename "$p" .yaml)
	for l in $layouts; do both "$b@$l" "$p" -l "$l"; done
	for g in $locales; do add "$b--lang=$g" "$p" --lang "$g"; done
done
for p in "$W"/in/scripts/*.yaml; do
	b=script-$(basename "$p" .yaml)
	[ "$QUICK" = 1 ] || add "$b+nohyph" "$p" --set text.hyphenate=false
	for l in $layouts; do
		# quick: the default layout and the one that fits (compact)
		case $QUICK:$l in 1:academic|1:compact|:*) add "$b@$l" "$p" -l "$l" ;; esac
	done
done

# drivers: their inclusive cost is everything below them
drivers='^(0x[0-9a-f]+|\(below main\)|__libc_start_main.*|_start|main|vita_main|render_one|job_[a-z_]*|layout_render|lay_build|inline_set|v_flow|win_item|v_beside|lay_section|sec_[a-z_]*|entry|bullets|lay_paragraph|lay_header|shape_pieces|font_shape_pieces|pdf_write_opts|pw_build|_dl_start.*|_dl_start_final|_dl_sysdep_start|dl_main)$'
# top N FILE [--inclusive=yes]: "fn M, fn M, ..."
top() {
	k=$1; f=$2; shift 2
	callgrind_annotate "$@" "$f" 2>/dev/null | awk -v k="$k" -v drv="$drivers" '
	/^ *[0-9,]+ \([ 0-9.]+%\)  / && !/PROGRAM TOTALS/ {
		v = $1; gsub(",", "", v)
		fn = $0; sub(/^ *[0-9,]+ \([ 0-9.]+%\)  /, "", fn); sub(/ \[.*$/, "", fn)
		sub(/^.*:/, "", fn); sub(/\.(isra|part|constprop|cold)\..*$/, "", fn); sub(/@.*$/, "", fn)
		if (fn ~ drv || seen[fn]++) next
		printf "%s%s %.1f", (n++ ? ", " : ""), fn, v / 1e6
		if (n == k) exit
	}'
}

printf 'name\targs\trc\tpages\tMinstr\tMB\twarnings\ttop_inclusive\ttop_self\tlayouts\n' > "$R"
# part K: every SWEEP_JOBS-th case from the K-th, into $R.K, scratch files in $W/jK
part() {
	k=$1 P="$W/j$1" i=0
	mkdir -p "$P"; : > "$R.$k"
	while IFS='	' read -r n a; do
		i=$((i + 1))
		[ $((i % J)) = "$k" ] || continue
		if [ -n "$ONLY" ] && ! echo "$n" | grep -Eq "$ONLY"; then continue; fi
		o="$W/out/$(echo "$n" | tr '/@' '__').pdf"
		# shellcheck disable=SC2086
		"$V" render $a -o "$o" 2>"$P/err"; rc=$?
		warn=$(grep -c 'warning:' "$P/err")
		pages=$(pdfinfo "$o" 2>/dev/null | awk '/^Pages:/ {print $2}')
		instr=- rss=- ti=- ts=- nb=-
		if [ "$rc" = 0 ] && [ "${pages:-9}" -le 2 ]; then
			rm -f "$P/cg.out"
			# shellcheck disable=SC2086
			valgrind --tool=callgrind --callgrind-out-file="$P/cg.out" --log-file="$P/vg.log" \
				"$V" render $a -o "$o" >/dev/null 2>&1
			instr=$(awk '/^summary:/ {printf "%.2f", $2 / 1e6}' "$P/cg.out")
			# layouts built: 1, or the fit's attempts (fit.pages, fit.no_short_last)
			nb=$(awk -v F=lay_build '
				/^c?fn=\(/ {   # "(id) name" the first time, "(id)" after
					id = $0; sub(/^c?fn=/, "", id); nm = id
					sub(/\).*/, ")", id); sub(/^\([0-9]+\) ?/, "", nm)
					if (nm != "") name[id] = nm
					cur = /^cfn=/ ? name[id] : ""
					next
				}
				/^calls=/ {if (cur == F) {split($0, c, /[= ]/); n += c[2]} cur = ""}
				END {print n + 0}' "$P/cg.out")
			rss=0
			for t in 1 2 3; do
				# shellcheck disable=SC2086
				r=$(/usr/bin/time -f %M "$V" render $a -o "$o" 2>&1 >/dev/null | tail -1)
				[ "$r" -gt "$rss" ] && rss=$r
			done
			rss=$(echo "$rss" | awk '{printf "%.1f", $1 / 1024}')
			if awk -v i="$instr" -v r="$rss" -v mi="$MI" -v mb="$MB" 'BEGIN {exit !(i > mi || r > mb)}'; then
				ti=$(top 4 "$P/cg.out" --inclusive=yes); ts=$(top 3 "$P/cg.out")
			fi
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$a" "$rc" "${pages:--}" "$instr" "$rss" "$warn" "$ti" "$ts" "${nb:-1}" >> "$R.$k"
		printf '[%d/%d] %-40s pages %s  %s M  %s MB\n' "$i" "$total" "$n" "${pages:--}" "$instr" "$rss" >&2
	done < "$C"
	rm -rf "$P"
}
J=${SWEEP_JOBS:-1}
total=$(wc -l < "$C")
k=0
while [ $k -lt "$J" ]; do part $k & k=$((k + 1)); done
wait
# the parts' rows in the cases' order
k=0; while [ $k -lt "$J" ]; do cat "$R.$k"; rm -f "$R.$k"; k=$((k + 1)); done |
	awk -F'\t' 'NR == FNR {o[$1] = NR; next} {print o[$1] "\t" $0}' "$C" - | sort -n | cut -f2- >> "$R"

report

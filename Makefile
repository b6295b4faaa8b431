# vita: YAML profile -> academic CV PDF.
#
#   make            build build/vita (optimised)
#   make demo       install what building and rendering need, render profiles/*.yaml into out/
#   make test       install the test tools too, then `make check`
#   make check      every test, offline (no apt): optimised build, then ASan+UBSan
#   make check-tests  unit tests and script suites against one build (BUILD=...)
#   make unit | scripts   only the unit tests / only the script suites (BUILD=...)
#   make debug      build-debug/vita: -O0, ASan+UBSan, -Werror
#   make fuzz       libFuzzer on the profile loader (FUZZ_SECS=60)
#   make static     build/vita-static: the libraries Debian has as .a linked in
#                   (not the default; see STATIC_LIBS below)
#   make bench      instructions, ms, RSS, bytes per CV into BENCHMARKS.md
#                   (BASE=rev: beside another commit's)
#   make golden-update | lint | format | install | uninstall | deb | clean
#
# Packaging: honours CC, CPPFLAGS, CFLAGS, LDFLAGS, PREFIX, DESTDIR (and
# BINDIR, DATADIR, MANDIR). The data directory follows PREFIX; a change of
# flags or PREFIX rebuilds everything (build/config records them).
#
# Build flavours, one directory each: build/ (optimised), build-san/ (the
# sanitizer run of `make check`), build-debug/ (`make debug`), build-fuzz/.

VERSION  = 0.1.0
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/vita
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
# the commit the binary was built from (a source tarball has no .git: set it)
VITA_COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

PKGS     = fribidi yaml-0.1 freetype2 harfbuzz fontconfig libunibreak libpng libjpeg libdeflate
WARN     = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -Iinclude -DVITA_VERSION=\"$(VERSION)\" \
               -DVITA_DATADIR=\"$(DATADIR)\" $(PKG_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS = $(WARN) $(CFLAGS)
LIBS     = $(PKG_LIBS) -lhpdf -lhyphen -lm
# What build/vita links: LIBS but the libraries it loads when first called
# (include/dl.h: most renders never call them, and each library linked
# costs every process its pages and the dynamic linker's lookups), and
# libhyphen.
# debian/control names them, as dpkg-shlibdeps cannot see them.
DL_PKGS  = fontconfig fribidi libjpeg yaml-0.1
VITA_LIBS := $(shell pkg-config --libs $(filter-out $(DL_PKGS),$(PKGS)) 2>/dev/null) -lhpdf -lm

SAN       = -fsanitize=address,undefined -fno-omit-frame-pointer
SAN_FLAGS = -O1 -g $(SAN) -fno-sanitize-recover=all -Werror
# Leaks inside libraries we cannot fix (tests/lsan.supp says which and why).
export LSAN_OPTIONS = suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
DEBUG_FLAGS = -O0 -g3 $(SAN) -Werror

# Debian packages (names valid on Debian 12 and 13; no versioned names).
# Building and rendering:
DEB_BUILD = gcc make pkg-config libyaml-dev libfreetype-dev libharfbuzz-dev \
            libhpdf-dev libfontconfig-dev libunibreak-dev libfribidi-dev libhyphen-dev libthai-data hyphen-en-us \
            hyphen-de hyphen-fr hyphen-es hyphen-it hyphen-pt-pt hyphen-pt-br hyphen-ru hyphen-el hyphen-hi hyphen-bn hyphen-ta hyphen-ml hyphen-kn hyphen-te \
            hyphen-gu hyphen-or hyphen-pa libpng-dev \
            libjpeg62-turbo-dev libdeflate-dev libgs-common
# (libthai-data: Thai's word list, /usr/share/libthai/thbrk.tri, which
# src/thai.c reads itself: libthai is not linked or loaded.)
# (libgs-common: the sRGB ICC profile of a PDF/A output intent, read at run
# time from /usr/share/color/icc/ghostscript/srgb.icc; never copied here.)
# The fonts the bundled chains (fonts/*.yaml) name, each face's `package:`
# (README, "Fonts by script"); a CV needs only those of its scripts.
# (fonts-wqy-microhei: only for a unit test of glyph ids above 32767;
# fonts-noto-extra: the light faces, Noto Sans Light for modern's name;
# fonts-noto-color-emoji: emoji in colour, optional: without it they are
# monochrome, and flags are not drawn.)
DEB_FONTS = fonts-noto-core fonts-noto-extra fonts-noto-cjk fonts-font-awesome fonts-wqy-microhei fonts-dejavu-core \
            fonts-noto-color-emoji
# The tests (clang + libclang-rt-dev: the distribution's default clang and
# its sanitizer/fuzzer runtimes, whatever its version):
# (libthai0: the reference test_thai_lib compares thai.c's breaks with.)
DEB_TEST  = libthai0 poppler-utils mupdf-tools ghostscript qpdf valgrind clang libclang-rt-dev \
            python3 python3-yaml python3-jsonschema python3-html5lib python3-pikepdf mandoc \
            time hyperfine strace ninja-build fontconfig unicode-data bzip2 nodejs python3-fonttools \
            libharfbuzz-bin

SRC      = $(wildcard src/*.c)
OBJ      = $(SRC:src/%.c=$(BUILD)/%.o)
LIBOBJ   = $(filter-out $(BUILD)/main.o,$(OBJ))
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
SCRIPTS  = $(wildcard tests/scripts/*.sh)
PROFILES = $(wildcard profiles/*.yaml)
DATA     = $(wildcard layouts fonts locales)

.PHONY: all deps deps-build demo test check check-builds check-build check-build-san check-tests unit \
        scripts tests-run pdf-check test-times debug fuzz bench static \
        golden-update case-table layouts-doc gallery lint format format-check install uninstall deb clean FORCE

all: $(BUILD)/vita

# Install what is missing (as root, or through sudo). `make deps` is what
# `make demo` needs; `make deps-test` adds the test tools.
deps-build:
	@$(MAKE) --no-print-directory apt-install APT_PKGS='$(DEB_BUILD) $(DEB_FONTS)'
deps deps-test:
	@$(MAKE) --no-print-directory apt-install APT_PKGS='$(DEB_BUILD) $(DEB_FONTS) $(DEB_TEST)'
	@# npm: Debian's package, unless the installed nodejs carries its own
	@command -v npm >/dev/null || $(MAKE) --no-print-directory apt-install APT_PKGS=npm
apt-install:
	@ok=" $$(dpkg-query -W -f='$${Package}=$${Status}\n' $(APT_PKGS) 2>/dev/null | \
	   sed -n 's/=install ok installed$$//p' | tr '\n' ' ')"; \
	missing=$$(for p in $(APT_PKGS); do case "$$ok" in *" $$p "*) ;; *) echo $$p;; esac; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# build/config holds every flag that goes into an object; it is rewritten
# only when they change, and every object depends on it.
$(BUILD)/config: FORCE | $(BUILD)
	@printf '%s\n' '$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) $(BIND_FIRST) $(LIBS)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@
$(BUILD)/commit: FORCE | $(BUILD)
	@printf '%s\n' '$(VITA_COMMIT) $(VERSION_DEFS)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@

$(BUILD)/%.o: src/%.c $(BUILD)/config | $(BUILD)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# only version.o knows the commit, so a new commit relinks, not rebuilds
$(BUILD)/version.o: $(BUILD)/commit
$(BUILD)/version.o: ALL_CPPFLAGS += $(VERSION_DEFS)
VERSION_DEFS = -DVITA_COMMIT=\"$(VITA_COMMIT)\" \
	-DVITA_BUILT_WITH="\"$(foreach p,$(PKGS),$(p) $(shell pkg-config --modversion $(p) 2>/dev/null);)libhpdf $(HPDF_VERSION)\""
# libharu has no .pc file: its version is read from its header
HPDF_VERSION = $(shell echo HPDF_VERSION_TEXT | \
	$(CC) $(CPPFLAGS) -include hpdf_version.h -E -P -x c - 2>/dev/null | tail -1 | tr -d '"')

# BIND_FIRST: the libraries most symbols bind to, first in the binary's
# DT_NEEDED list (and so first in the dynamic linker's search scope).
# Debian builds its libraries with BIND_NOW, so at start-up ld.so looks up
# every symbol every library imports (about 1,700) by walking that scope
# in order; libc, libharu (which binds its own 370 symbols through it),
# HarfBuzz, libpng and FreeType take most of them. First in the list, a
# lookup stops after 2 to 6 objects instead of 10 to 20: ld.so does 1.72 M
# instructions instead of 2.26 M on every run. Only the order changes: the
# same libraries are loaded and no two of them define the same symbol.
# FreeType is kept in the list though vita no longer calls it (HarfBuzz
# loads it anyway; --as-needed would leave it 16th, its 120 symbols
# looked up through every library before it: 48 K more).
BIND_FIRST = -lc -lhpdf -lharfbuzz -lpng16 -Wl,--push-state,--no-as-needed -lfreetype \
             -Wl,--pop-state

$(BUILD)/vita: $(OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(BIND_FIRST) $(VITA_LIBS)

# make static: $(BUILD)/vita-static, the same objects with every library
# Debian ships as a .a file and the binary refers to linked in, and not
# the default. Debian 12 has no .a for libharu, HarfBuzz or libunibreak,
# and those load FreeType, libpng, zlib, glib, graphite2 and brotli as
# shared libraries anyway (a second, static copy of those would be two
# copies in one process), so only STATIC_LIBS are static: libdeflate. The
# libraries of DL_PKGS and libhyphen are loaded on first use in this build
# too (nothing refers to them). build/vita starts with 14 shared libraries
# (21 before they were loaded on first use), vita-static with 13 (README,
# "Building"; BENCHMARKS.md). A missing .a is linked dynamically.
STATIC_LIBS  = deflate
STATIC_FOUND = $(foreach l,$(STATIC_LIBS),$(if $(wildcard $(shell $(CC) -print-file-name=lib$(l).a)),$(l)))
STATIC_DYN   = $(filter-out $(STATIC_FOUND),$(STATIC_LIBS)) harfbuzz freetype unibreak \
               png16 hpdf z m

static: $(BUILD)/vita-static

$(BUILD)/vita-static: $(OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJ) -Wl,-Bstatic $(STATIC_FOUND:%=-l%) \
	  -Wl,-Bdynamic $(STATIC_DYN:%=-l%)
	@echo "static: $(STATIC_FOUND); shared: $(STATIC_DYN)"

$(BUILD)/tests/%: tests/unit/%.c $(LIBOBJ) | $(BUILD)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIBOBJ) $(LIBS)

$(BUILD) $(BUILD)/tests out:
	mkdir -p $@

demo: deps-build
	$(MAKE) all
	mkdir -p out
	@for p in $(PROFILES); do \
	  o=out/$$(basename $$p .yaml).pdf; \
	  $(BUILD)/vita render $$p -o $$o && echo "rendered $$p -> $$o" || exit 1; \
	done

# `make test` = the test tools, then `make check` (offline: what a package
# build runs).
test: deps-test
	@$(MAKE) --no-print-directory $(PDFJS)
	@PDFJS_REQUIRED=1 $(MAKE) --no-print-directory check

# pdf.js for tests/tools/pdf_check.sh, from the npm registry, pinned by
# the lock file (node_modules is not committed).
PDFJS = tests/tools/pdfjs/node_modules/pdfjs-dist/package.json
$(PDFJS): tests/tools/pdfjs/package.json tests/tools/pdfjs/package-lock.json
	cd tests/tools/pdfjs && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The tests. Each unit test program (tests/unit/test_*.c) and each script
# suite (tests/scripts/*.sh, run with VITA and BUILD set) is one test, and
# so is the pdf-check of a build's PDFs; a test is a target of its own,
# $(BUILD)/t/NAME.run, that leaves $(BUILD)/t/NAME.ok or NAME.fail (and
# NAME.time, its CPU seconds: `make test-times`) and its output in
# $(BUILD)/NAME.log (a unit test's beside its binary). They run
# TEST_JOBS at a time (unless make was given its own -j), the slowest
# first; each prints "ok   NAME (BUILD)" or "FAIL NAME (BUILD)" and the
# end of its log when it ends, and the closing line counts them: a test
# that did not run (its build failed) is a failure. A new test needs
# nothing here: the wildcards find it (a slow one may go in TESTS_FIRST).
# TESTS=NAME... runs only those (make check-tests TESTS="lint.sh test_pdf").
TEST_JOBS ?= 2
TEST_J     = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(TEST_JOBS)) -Otarget
UNIT_NAMES   = $(notdir $(UNIT_BIN))
SCRIPT_NAMES = $(notdir $(SCRIPTS))
# started first, so that the last to end is a short one
TESTS_FIRST = shape_trip.sh test_shape_diff lint.sh pdfua.sh layouts.sh test_hyph_lib install.sh \
              photos.sh new.sh test_hyph locales.sh shape_diff.sh test_fastot test_pdf hostile.sh
# Build-independent suites run once in `make check`, with the optimised
# build, not again with the sanitizer build: lint.sh (make lint on a copy
# of the tree: the rules are about the sources, and its faults recompile
# files: the same with either build's flags), install.sh (builds and
# installs its own -O1 tree whatever BUILD is), packaging.sh (reads
# debian/ and the Makefile).
TESTS_ONCE = lint.sh install.sh packaging.sh
TESTS ?= $(foreach t,$(TESTS_FIRST),$(filter $(t),$(UNIT_NAMES) $(SCRIPT_NAMES))) \
         $(filter-out $(TESTS_FIRST),$(UNIT_NAMES) $(SCRIPT_NAMES))
TESTS_RUN = $(filter-out $(if $(ONCE_DONE),$(TESTS_ONCE)),$(TESTS))

# make check: every test with the optimised build and with the ASan+UBSan
# build, the two side by side; then one pdf-check of both builds' PDFs
# (a file with the same bytes in both is read once); one closing line.
check:
	@rm -rf build/t build-san/t
	+@$(MAKE) --no-print-directory $(TEST_J) check-builds; \
	$(MAKE) --no-print-directory pdf-check PDF_BUILDS="build build-san"; \
	sh tests/tools/test_summary.sh build build-san
check-builds: check-build check-build-san
check-build:
	+@$(MAKE) --no-print-directory -k tests-run || true
check-build-san:
	+@$(MAKE) --no-print-directory -k BUILD=build-san CFLAGS='$(SAN_FLAGS)' ONCE_DONE=1 tests-run || true

# make check-tests: the tests of one build (BUILD=...; make unit, make
# scripts: only the unit tests, only the suites)
check-tests:
	@rm -rf $(BUILD)/t
	+@$(MAKE) --no-print-directory $(TEST_J) -k tests-run || true; \
	$(if $(NO_PDF_CHECK),,$(MAKE) --no-print-directory pdf-check;) \
	sh tests/tools/test_summary.sh $(BUILD)
unit:
	+@$(MAKE) --no-print-directory check-tests TESTS='$(UNIT_NAMES)' NO_PDF_CHECK=1
scripts:
	+@$(MAKE) --no-print-directory check-tests TESTS='$(SCRIPT_NAMES)' NO_PDF_CHECK=1

# (internal) the tests of $(BUILD), each leaving its result in $(BUILD)/t
tests-run: $(BUILD)/t/expected $(TESTS_RUN:%=$(BUILD)/t/%.run)
$(BUILD)/t/expected: FORCE | $(BUILD)/t
	@printf '%s\n' $(TESTS_RUN) $(if $(NO_PDF_CHECK),,pdf_check) > $@
$(BUILD)/t/test_%.run: $(BUILD)/tests/test_% FORCE | $(BUILD)/t
	@sh tests/tools/run_test.sh $(BUILD)/t/test_$* $<.log all "$< ($(BUILD))" $<
# (+: a suite that runs make itself shares the job slots)
$(BUILD)/t/%.sh.run: tests/scripts/%.sh $(BUILD)/vita $(UNIT_BIN) FORCE | $(BUILD)/t
	+@VITA=$(BUILD)/vita BUILD=$(BUILD) sh tests/tools/run_test.sh $(BUILD)/t/$*.sh \
	  $(BUILD)/$*.sh.log 40 "$< ($(BUILD))" sh $<
$(BUILD)/t:
	mkdir -p $@
# (the unit test programs are prerequisites of pattern rules only: keep them)
.SECONDARY: $(UNIT_BIN)

# Last, every PDF the tests left in the builds of PDF_BUILDS goes through
# tests/tools/pdf_check.sh (six readers, not one warning), TEST_JOBS
# shares side by side; one test per build (its log in BUILD/pdf_check.log).
PDF_BUILDS ?= $(BUILD)
pdf-check:
	@PDF_CHECK_JOBS=$(TEST_JOBS) sh tests/tools/pdf_check_builds.sh $(PDF_BUILDS)

# every test's CPU seconds (user + system) in the last run, the most first
test-times:
	@for f in build/t/*.time build-san/t/*.time; do [ -f "$$f" ] && \
	  echo "$$(cut -d' ' -f1 $$f) $$(basename $$f .time) ($${f%%/*})"; done | sort -rn

debug:
	$(MAKE) BUILD=build-debug CFLAGS='$(DEBUG_FLAGS)' all

FUZZ_SECS ?= 60
FUZZ_CC   ?= clang
# libFuzzer: each tests/fuzz/fuzz_*.c in turn, FUZZ_SECS seconds each
# (FUZZ_TARGETS="style inline" for some); see tests/fuzz/run.sh.
fuzz:
	FUZZ_CC="$(FUZZ_CC)" FUZZ_CFLAGS="$(ALL_CPPFLAGS)" FUZZ_LIBS="$(LIBS)" \
	  sh tests/fuzz/run.sh $(FUZZ_SECS) $(FUZZ_TARGETS)

# BASE=rev: the same figures for another commit, side by side
bench: all $(BUILD)/tests/bench_text
	BASE="$(BASE)" BUILD="$(BUILD)" sh tests/bench.sh $(BUILD)/vita
	$(BUILD)/tests/bench_text

$(BUILD)/tests/bench_text: tests/bench/bench_text.c $(LIBOBJ) | $(BUILD)/tests
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBOBJ) $(LIBS)

golden-update: all
	sh tests/golden-update.sh $(BUILD)/vita

# docs/gallery/LAYOUT.png: page 1 of the first seed profile in every
# bundled layout, small (60 dpi), for the README.
GALLERY_CV ?= profiles/zhanda-zhu.yaml
gallery: all
	mkdir -p docs/gallery
	@for l in layouts/*.yaml; do n=$$(basename $$l .yaml); \
	  SOURCE_DATE_EPOCH=1767225600 $(BUILD)/vita render $(GALLERY_CV) -l $$n -o $(BUILD)/gallery-$$n.pdf 2>/dev/null && \
	  pdftoppm -r 60 -f 1 -l 1 -singlefile $(BUILD)/gallery-$$n.pdf $(BUILD)/gallery-$$n && \
	  python3 tests/tools/png8.py $(BUILD)/gallery-$$n.ppm docs/gallery/$$n.png && \
	  echo "docs/gallery/$$n.png" || exit 1; \
	done

# src/unicode_casetab.h: the case tables, from Debian's unicode-data
# (tests/unit/test_case.c checks them against the files, and that this
# target would not change them).
case-table:
	python3 tests/tools/gen_case.py /usr/share/unicode > src/unicode_casetab.h.new
	mv src/unicode_casetab.h.new src/unicode_casetab.h

# docs/layouts.md: the prose above its marker, then `vita layouts --keys`.
layouts-doc: all
	sed -n '1,/^<!-- Everything below this line is generated/p' docs/layouts.md > docs/layouts.md.new
	$(BUILD)/vita layouts --keys >> docs/layouts.md.new
	mv docs/layouts.md.new docs/layouts.md

# Architecture rules (tests/tools/deps_graph.py says them in full): each
# file's stage rank, includes only of the same or an earlier stage, each
# library's headers only in the files that wrap it, and a call graph
# between the .c files (from nm of the objects) that only goes downward
# and has no cycle. The graph is left in $(BUILD)/deps_graph.txt.
lint: $(OBJ)
	@python3 tests/tools/deps_graph.py --print $(OBJ) > $(BUILD)/deps_graph.txt
	@echo "lint: ok"

# .clang-format describes the house style. The tree is formatted by hand
# (manual line breaks, short statements sharing a line), which clang-format
# would rewrite, so format and format-check touch only the lines changed
# since FORMAT_BASE (git clang-format): on a clean tree `make format` is a
# no-op. A commit, a branch (FORMAT_BASE=main) or HEAD.
FORMAT_BASE ?= HEAD
format:
	git clang-format --extensions c,h $(FORMAT_BASE) -- src include
format-check:
	@out=$$(git clang-format --diff --extensions c,h $(FORMAT_BASE) -- src include); \
	case "$$out" in ""|*"no modified files"*|*"did not modify"*) echo "format: ok";; \
	  *) printf '%s\n' "$$out"; exit 1;; esac

# The binary; layouts, font chains, locales and the schema in DATADIR; the
# man page; completions for bash, zsh and fish.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(BUILD)/vita $(DESTDIR)$(BINDIR)/vita
	for d in $(DATA); do \
	  install -d $(DESTDIR)$(DATADIR)/$$d && \
	  install -m 644 $$d/*.yaml $(DESTDIR)$(DATADIR)/$$d/ || exit 1; \
	done
	install -m 644 docs/vita.schema.json $(DESTDIR)$(DATADIR)/vita.schema.json
	install -m 644 man/vita.1 $(DESTDIR)$(MANDIR)/man1/vita.1
	install -m 644 completions/vita.bash $(DESTDIR)$(BASHCOMPDIR)/vita
	install -m 644 completions/_vita $(DESTDIR)$(ZSHCOMPDIR)/_vita
	install -m 644 completions/vita.fish $(DESTDIR)$(FISHCOMPDIR)/vita.fish

# A .deb, built from the tracked files in a copy outside the tree (debian/).
DEB_DIR ?= $(or $(TMPDIR),/tmp)/vita-deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/vita-$(VERSION)
	git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C $(DEB_DIR)/vita-$(VERSION)
	cd $(DEB_DIR)/vita-$(VERSION) && VITA_COMMIT=$(VITA_COMMIT) dpkg-buildpackage -us -uc -b
	lintian --pedantic $(DEB_DIR)/vita_$(VERSION)_*.changes

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/vita $(DESTDIR)$(MANDIR)/man1/vita.1 \
	  $(DESTDIR)$(BASHCOMPDIR)/vita $(DESTDIR)$(ZSHCOMPDIR)/_vita $(DESTDIR)$(FISHCOMPDIR)/vita.fish
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-san build-debug build-fuzz out

# `make print-VAR` prints a variable (tests/scripts/packaging.sh reads the
# package lists this way)
print-%:
	@echo $($*)

-include $(OBJ:.o=.d)

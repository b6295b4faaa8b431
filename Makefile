# vita: YAML profile -> academic CV PDF.
# make demo | test | debug | fuzz | bench | golden-update | lint | install | clean

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
BUILD   ?= build

PKGS     = yaml-0.1 freetype2 harfbuzz harfbuzz-subset fontconfig libunibreak libpng
WARN     = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(WARN) $(CFLAGS) -D_POSIX_C_SOURCE=200809L -Iinclude -DVITA_DATADIR=\"$(PREFIX)/share/vita\" \
             $(shell pkg-config --cflags $(PKGS) 2>/dev/null) -MMD -MP
LIBS     = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lhpdf -lhyphen -lm

# Debian packages the build, the demo and the tests need.
DEB_BUILD = gcc make pkg-config libyaml-dev libfreetype-dev libharfbuzz-dev \
            libhpdf-dev libfontconfig-dev libunibreak-dev libhyphen-dev hyphen-en-us libpng-dev
DEB_FONTS = fonts-noto-core fonts-lxgw-wenkai fonts-wqy-microhei fonts-dejavu-core \
            fonts-ipafont-mincho fonts-nanum
DEB_TEST  = poppler-utils mupdf-tools ghostscript qpdf valgrind clang libclang-rt-14-dev \
            python3 python3-yaml time hyperfine
DEB_ALL   = $(DEB_BUILD) $(DEB_FONTS) $(DEB_TEST)

SRC      = $(wildcard src/*.c)
OBJ      = $(SRC:src/%.c=$(BUILD)/%.o)
LIBOBJ   = $(filter-out $(BUILD)/main.o,$(OBJ))
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
PROFILES = $(wildcard profiles/*.yaml)

.PHONY: all deps demo test check-tests unit scripts debug fuzz bench \
        golden-update lint format install clean

all: $(BUILD)/vita

# Install what is missing (as root, or through sudo).
deps:
	@missing=$$(for p in $(DEB_ALL); do \
	   dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	 done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

$(BUILD)/%.o: src/%.c | $(BUILD)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/vita: $(OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $(OBJ) $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIBOBJ) | $(BUILD)/tests
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(LIBOBJ) $(LIBS)

$(BUILD) $(BUILD)/tests out:
	mkdir -p $@

demo: deps
	$(MAKE) all
	mkdir -p out
	@for p in $(PROFILES); do \
	  o=out/$$(basename $$p .yaml).pdf; \
	  $(BUILD)/vita render $$p -o $$o && echo "rendered $$p -> $$o" || exit 1; \
	done

# Unit tests, then the script suites (tests/scripts/*.sh) against the
# optimised build, then the same again under ASan+UBSan.
test: deps
	$(MAKE) check-tests
	$(MAKE) BUILD=build-debug CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -Werror' check-tests

check-tests: $(BUILD)/vita $(UNIT_BIN)
	@fail=0; for t in $(UNIT_BIN); do \
	  $$t >$$t.log 2>&1 && echo "ok   $$t" || { echo "FAIL $$t"; cat $$t.log; fail=1; }; \
	done; \
	for s in tests/scripts/*.sh; do \
	  VITA=$(BUILD)/vita BUILD=$(BUILD) sh $$s >$(BUILD)/$$(basename $$s).log 2>&1 \
	    && echo "ok   $$s" || { echo "FAIL $$s ($(BUILD))"; tail -40 $(BUILD)/$$(basename $$s).log; fail=1; }; \
	done; exit $$fail

debug:
	$(MAKE) BUILD=build-debug CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Werror' all

FUZZ_SECS ?= 60
fuzz: deps
	mkdir -p build-fuzz/corpus
	clang $(WARN) -O1 -g -fsanitize=fuzzer,address,undefined -D_POSIX_C_SOURCE=200809L -Iinclude \
	  $$(pkg-config --cflags $(PKGS)) -o build-fuzz/fuzz_profile tests/fuzz/fuzz_profile.c \
	  $(filter-out src/main.c,$(SRC)) $(LIBS)
	cp profiles/*.yaml tests/errors/*.yaml tests/import/* tests/golden/*.yaml tests/golden/layout/*.yaml build-fuzz/corpus/ 2>/dev/null || true
	build-fuzz/fuzz_profile -max_total_time=$(FUZZ_SECS) -timeout=5 -rss_limit_mb=2048 \
	  -dict=tests/fuzz/profile.dict build-fuzz/corpus

bench: all
	sh tests/bench.sh $(BUILD)/vita

golden-update: all
	sh tests/golden-update.sh $(BUILD)/vita

# Architecture rules: each library header is included by exactly one file.
lint:
	@test "$$(grep -l '<yaml.h>' src/*.c)" = "src/ydoc.c"
	@test "$$(grep -l '<hpdf.h>' src/*.c)" = "src/pdf.c"
	@test "$$(grep -l '<png.h>' src/*.c)" = "src/image.c"
	@test -z "$$(grep -l -e '<ft2build.h>' -e '<hb.h>' -e '<hb-subset.h>' -e '<fontconfig' src/*.c | grep -v '^src/font')"
	@echo "lint: ok"

format:
	clang-format -i src/*.c include/*.h

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/vita/layouts $(DESTDIR)$(PREFIX)/share/vita/fonts
	install -m 755 $(BUILD)/vita $(DESTDIR)$(PREFIX)/bin/vita
	install -m 644 layouts/*.yaml $(DESTDIR)$(PREFIX)/share/vita/layouts/
	install -m 644 fonts/*.yaml $(DESTDIR)$(PREFIX)/share/vita/fonts/

clean:
	rm -rf build build-debug build-fuzz out

-include $(OBJ:.o=.d)

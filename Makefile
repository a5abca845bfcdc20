# Kontor - build, test, benchmark, install.
#
#   make            build build/kontor
#   make test       C unit tests, Lua specs under ASan+UBSan, and a short
#                   pass of each fuzzer, side by side (JOBS=N at a time);
#                   ends with "N passed, N failed, N skipped"
#   make check      the quick pass: the same suites on the plain build, no
#                   sanitizers, no fuzzing, no docs/balance.md walkthrough
#   make bench      the start-up and the engine against plain Lua loops
#                   (docs/performance.md)
#   make module     build/lua/kontor/core.so: `require "kontor"` from stock
#                   lua5.4 (docs/module.md)
#   make install    PREFIX=/usr/local DESTDIR=  (the program and the module)
#   make clean

CC      ?= cc
PREFIX  ?= /usr/local
PKGS    := lua5.4 jansson libedit
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CFLAGS  ?= -O2 -g
ALL_CFLAGS := $(WARN) $(CFLAGS) -Icore -Ilua $(PKG_CFLAGS)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

CORE_SRC := $(wildcard core/*.c)
BIND_SRC := $(wildcard lua/*.c lua/engine/*.c)
REPL_SRC := $(wildcard repl/*.c)
SRC      := $(CORE_SRC) $(BIND_SRC) $(REPL_SRC)
HDR      := $(wildcard core/*.h lua/*.h lua/engine/*.h)

OBJ      := $(SRC:%.c=build/obj/%.o)
ASAN_OBJ := $(SRC:%.c=build/asan/obj/%.o)
CORE_ASAN_OBJ := $(CORE_SRC:%.c=build/asan/obj/%.o)

CTESTS   := $(patsubst tests/core/%.c,build/asan/tests/%,$(wildcard tests/core/test_*.c))

.PHONY: all test check bench install install-module uninstall clean check-deps fuzz module
all: build/kontor build/lua/kontor/core.so
module: build/lua/kontor/core.so

# The program links liblua5.4.a (Debian's liblua5.4-dev ships it) as
# Debian's own lua5.4 interpreter does: the shared library is built
# position-independent, which costs a game 7-9% of its time
# (docs/performance.md). -rdynamic gives the Lua API to the C modules the
# program loads (busted's lfs, system and term). Without the archive, the
# shared library.
LUA_STATIC := $(wildcard $(shell pkg-config --variable=libdir lua5.4)/liblua5.4.a)
PROG_LIBS  := $(if $(LUA_STATIC),-rdynamic $(LUA_STATIC) $(shell pkg-config --libs jansson libedit) -ldl,$(PKG_LIBS))

# The engine's modules compiled at build time (repl/chunks.h): every .lua
# file under lua/kontor/ and repl/ (found anew each run), compiled by
# repl/gen/lua_chunks.c, which links the program's Lua, into data linked
# into the program, which loads them without compiling them at each start
# (a file changed since is loaded as text until the next build). The
# shipped rule scripts (variants/) are compiled too: sandbox.load still
# scans their text, and takes the chunk only for exactly the text it was
# compiled from (repl/main.c, compiled_rules), any other text is compiled.
LUA_MODS   := $(sort $(shell find lua/kontor -name '*.lua')) $(sort $(wildcard repl/*.lua)) \
              $(sort $(wildcard variants/*.lua))
LUA_LIBS   := $(if $(LUA_STATIC),$(LUA_STATIC) -ldl,$(shell pkg-config --libs lua5.4))
CHUNKS_OBJ := build/obj/gen/chunks.o

build/kontor: $(OBJ) $(CHUNKS_OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(CHUNKS_OBJ) $(PROG_LIBS) -lm

build/asan/kontor: $(ASAN_OBJ) $(CHUNKS_OBJ)
	$(CC) $(CFLAGS) $(SAN) -o $@ $(ASAN_OBJ) $(CHUNKS_OBJ) $(PROG_LIBS) -lm

# ---- the engine's modules compiled at build time (repl/chunks.h) ----------
build/gen/lua_chunks: repl/gen/lua_chunks.c repl/chunks.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LUA_LIBS) -lm

build/gen/chunks.c: build/gen/lua_chunks $(LUA_MODS)
	build/gen/lua_chunks $(LUA_MODS) >$@.tmp
	@mv $@.tmp $@

$(CHUNKS_OBJ): build/gen/chunks.c repl/chunks.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Irepl -c $< -o $@

build/obj/repl/main.o build/asan/obj/repl/main.o: repl/chunks.h

build/obj/%.o: %.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

build/asan/obj/%.o: %.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -c $< -o $@

# The Lua module (docs/module.md): the core and the binding without the
# program's terminal (libedit), position-independent, in build/pic/. Its
# Lua symbols come from the interpreter that loads it. DATADIR, if given,
# is where it looks for variants/ (else next to where it is installed).
MOD_SRC  := $(CORE_SRC) $(filter-out lua/l_term.c,$(BIND_SRC))
PIC_OBJ  := $(MOD_SRC:%.c=build/pic/obj/%.o)
MOD_DEFS := -DKONTOR_MODULE $(if $(DATADIR),-DKONTOR_DATADIR='"$(DATADIR)"')
LUA_MODDIR := $(PREFIX)/lib/lua/5.4
LUA_SHAREDIR := $(PREFIX)/share/lua/5.4

build/lua/kontor/core.so: $(PIC_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -o $@ $(PIC_OBJ) $$(pkg-config --libs jansson) -lm

build/pic/obj/%.o: %.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC $(MOD_DEFS) -c $< -o $@

build/asan/tests/%: tests/core/%.c $(CORE_ASAN_OBJ) $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) $< $(CORE_ASAN_OBJ) -o $@ $$(pkg-config --cflags --libs cmocka)

# ---- make test, make check (tests/run) ------------------------------------
# The suites run side by side, JOBS at a time (default: the number of
# cores); what they need is built with as many jobs unless make was given -j.
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
TEST_J    = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(JOBS))
CORE_OBJ := $(CORE_SRC:%.c=build/obj/%.o)
PLAIN_CTESTS := $(patsubst tests/core/%.c,build/tests/%,$(wildcard tests/core/test_*.c))

test:
	@$(MAKE) --no-print-directory $(TEST_J) build/kontor build/asan/kontor \
	    build/lua/kontor/core.so $(CTESTS) fuzz-build
	@JOBS=$(JOBS) KONTOR=build/asan/kontor KONTOR_PLAIN=build/kontor FUZZ_BINS="$(FUZZ_BIN)" \
	    sh tests/run $(CTESTS)

# The quick pass for developers: the same suites on the plain build, without
# the sanitizers, the fuzzers and the walkthrough of docs/balance.md. One
# suite more than cores at a time: many wait on the programs they start
# (2 cores: 63.4 s with 2 at a time, 58.7 to 59.5 s with 3, 59.0 s with 4).
CHECK_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 1 )))
check:
	@$(MAKE) --no-print-directory $(TEST_J) build/kontor build/lua/kontor/core.so $(PLAIN_CTESTS)
	@JOBS=$(CHECK_JOBS) CHECK=1 KONTOR=build/kontor KONTOR_PLAIN=build/kontor FUZZ_BINS= \
	    sh tests/run $(PLAIN_CTESTS)

build/tests/%: tests/core/%.c $(CORE_OBJ) $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(CORE_OBJ) -o $@ $$(pkg-config --cflags --libs cmocka)

bench: build/kontor build/fixed_time.so
	@sh tests/bench/startup.sh
	@sh tests/bench/run
	@sh tests/balance/bench.sh
	@echo "== bots: mcts (1,000 iterations) for seat 1 of 4-player Sea Merchants, CPU time a decision (issue 15: median under 0.5 s)"
	@build/kontor run tests/bots/speed.lua mcts 30

# A time() that gives the same second every call, preloaded to count
# instructions without the noise of Lua's hash seed (tests/bench).
build/fixed_time.so: tests/bench/fixed_time.c
	@mkdir -p build
	$(CC) $(WARN) -shared -fPIC -O2 -o $@ $<

install: build/kontor build/lua/kontor/core.so
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/kontor/lua/kontor/bots \
	    $(DESTDIR)$(PREFIX)/share/kontor/lua/kontor/game \
	    $(DESTDIR)$(PREFIX)/share/kontor/lua/kontor/balance \
	    $(DESTDIR)$(PREFIX)/share/kontor/repl $(DESTDIR)$(PREFIX)/share/kontor/variants
	install -m 755 build/kontor $(DESTDIR)$(PREFIX)/bin/kontor
	install -m 644 lua/kontor/*.lua $(DESTDIR)$(PREFIX)/share/kontor/lua/kontor/
	install -m 644 lua/kontor/bots/*.lua $(DESTDIR)$(PREFIX)/share/kontor/lua/kontor/bots/
	install -m 644 lua/kontor/game/*.lua $(DESTDIR)$(PREFIX)/share/kontor/lua/kontor/game/
	install -m 644 lua/kontor/balance/*.lua $(DESTDIR)$(PREFIX)/share/kontor/lua/kontor/balance/
	install -m 644 repl/*.lua $(DESTDIR)$(PREFIX)/share/kontor/repl/
	install -m 644 variants/*.lua $(DESTDIR)$(PREFIX)/share/kontor/variants/
	install -d $(DESTDIR)$(LUA_MODDIR)/kontor
	install -m 644 build/lua/kontor/core.so $(DESTDIR)$(LUA_MODDIR)/kontor/core.so
	cd lua && find kontor -name '*.lua' | while read -r f; do \
	    install -D -m 644 "$$f" "$(DESTDIR)$(LUA_SHAREDIR)/$$f" || exit 1; done

# luarocks make (kontor-dev-1.rockspec, docs/module.md): the module alone,
# the rule sets under PREFIX/share/kontor (the rockspec builds with DATADIR).
install-module: build/lua/kontor/core.so
	install -d $(DESTDIR)$(LUA_MODDIR)/kontor $(DESTDIR)$(PREFIX)/share/kontor/variants
	install -m 644 build/lua/kontor/core.so $(DESTDIR)$(LUA_MODDIR)/kontor/core.so
	install -m 644 variants/*.lua $(DESTDIR)$(PREFIX)/share/kontor/variants/
	cd lua && find kontor -name '*.lua' | while read -r f; do \
	    install -D -m 644 "$$f" "$(DESTDIR)$(LUA_SHAREDIR)/$$f" || exit 1; done

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/kontor $(DESTDIR)$(PREFIX)/share/kontor \
	    $(DESTDIR)$(LUA_MODDIR)/kontor $(DESTDIR)$(LUA_SHAREDIR)/kontor

clean:
	rm -rf build

# ---- fuzzing (tests/fuzz/README.md) ----------------------------------------
#   make fuzz FUZZ_SECONDS=600   each libFuzzer harness for that many seconds
#   make fuzz-build              just build build/fuzz/fuzz_{actions,save,rules}
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_NAMES   := actions save rules
# Seeds besides tests/fuzz/corpus/HARNESS: the rules harness starts from the
# project's own rule scripts.
FUZZ_SEEDS_rules := tests/rulesets tests/hostile variants
FUZZ_BIN     := $(FUZZ_NAMES:%=build/fuzz/fuzz_%)
FUZZ_OBJ     := $(CORE_SRC:%.c=build/fuzz/obj/%.o) $(BIND_SRC:%.c=build/fuzz/obj/%.o)

build/fuzz/obj/%.o: %.c $(HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CFLAGS) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@

build/fuzz/fuzz_%: tests/fuzz/fuzz_main.c $(FUZZ_OBJ) $(HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CFLAGS) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer -DHARNESS='"$*"' \
	    $< $(FUZZ_OBJ) -o $@ $(PKG_LIBS) -lm

.PHONY: fuzz-build
.SECONDARY: $(FUZZ_OBJ)
fuzz-build: $(FUZZ_BIN)

fuzz: $(FUZZ_BIN)
	@for h in $(FUZZ_NAMES); do \
	    mkdir -p build/fuzz/corpus/$$h build/fuzz/artifacts/$$h; \
	    echo "fuzz_$$h: $(FUZZ_SECONDS) s"; \
	    KONTOR_HOME=$(CURDIR) ASAN_OPTIONS=detect_leaks=0 build/fuzz/fuzz_$$h \
	        -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
	        -artifact_prefix=build/fuzz/artifacts/$$h/ \
	        -dict=tests/fuzz/$$h.dict \
	        build/fuzz/corpus/$$h tests/fuzz/corpus/$$h \
	        $$([ $$h = rules ] && echo "$(FUZZ_SEEDS_rules)") || exit 1; \
	done

# A short pass of each harness (20 s); `make test` runs one of 10 s, one
# suite a harness (tests/run).
.PHONY: fuzz-ci
fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20

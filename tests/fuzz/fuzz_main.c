/*
 * fuzz_main.c - one libFuzzer harness per Lua driver (tests/fuzz/NAME.lua).
 *
 * Built by `make fuzz` with -DHARNESS="actions" (or "save", "rules"). It
 * embeds the interpreter the way repl/main.c does (the sandbox's allocator
 * and hook, kontor.core preloaded, package.path at $KONTOR_HOME/lua), runs
 * tests/fuzz/HARNESS.lua once, and then hands every input to the function
 * that file returns. A Lua error is an expected outcome (bad input gets a
 * message); a crash, a sanitizer report, an unprotected error (abort) or an
 * unbalanced stack is a finding.
 *
 * The Lua interpreter (Debian's liblua5.4) is not instrumented, so a line
 * hook on the main thread feeds (chunk, line) pairs into libFuzzer's extra
 * counters: the engine's own Lua (the action parser, the save checker) then
 * guides the fuzzer as C code does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

#include "binding.h"

#ifndef HARNESS
#error "build with -DHARNESS=\"name\""
#endif

lua_State *kn_newstate(void);

__attribute__((section("__libfuzzer_extra_counters")))
static uint8_t lua_lines[1 << 16];

static void line_hook(lua_State *L, lua_Debug *ar) {
    if (!lua_getinfo(L, "S", ar)) return;
    uintptr_t h = (uintptr_t)ar->source * 31u + (uintptr_t)ar->currentline * 2654435761u;
    uint8_t *c = &lua_lines[(h >> 3) & 0xffff];
    if (*c < 255) (*c)++;
}

static lua_State *L;
static int fuzz_ref = LUA_NOREF;

static void die(const char *what) {
    fprintf(stderr, "fuzz_%s: %s: %s\n", HARNESS, what,
            L && lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc; (void)argv;
    const char *home = getenv("KONTOR_HOME");
    if (!home || !*home) home = ".";
    L = kn_newstate();
    if (!L) die("cannot create the interpreter");
    luaL_openlibs(L);
    kn_preload_core(L);
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua", home, home);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
    lua_pushstring(L, home);
    lua_setglobal(L, "KONTOR_HOME");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/%s.lua", home, HARNESS);
    if (luaL_loadfile(L, path) != LUA_OK) die("cannot load the driver");
    if (lua_pcall(L, 0, 1, 0) != LUA_OK) die("the driver failed");
    if (!lua_isfunction(L, -1)) die("the driver must return a function");
    fuzz_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (!getenv("FUZZ_NO_LINES")) lua_sethook(L, line_hook, LUA_MASKLINE, 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, fuzz_ref);
    lua_pushlstring(L, (const char *)data, size);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        /* The driver catches the errors bad input may raise: one escaping
         * is a finding (an engine function raised instead of returning). */
        die("the driver raised");
    }
    if (lua_gettop(L) != top) die("unbalanced stack");
    lua_gc(L, LUA_GCSTEP, 0);
    return 0;
}

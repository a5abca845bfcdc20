/*
 * l_core.c - the `kontor.core` module: every exposed type's constructors,
 * the json, fs, term and sandbox tables, and the engine's C (lua/engine/:
 * options, random_bot), gathered in one table. It calls every open
 * function; nothing calls into it.
 */
#ifdef KONTOR_MODULE
#define _GNU_SOURCE   /* dladdr */
#include <dlfcn.h>
#include <string.h>
#endif
#include "binding.h"
#include "engine/engine.h"
#include "kn_alloc.h"

#define KONTOR_VERSION "0.1.0"

#ifdef KONTOR_MODULE
/* Pushes the folder holding the installed rule sets (variants/), or nil:
 * KONTOR_DATADIR when the module was built with one (make DATADIR=...);
 * else found from where this module was loaded:
 * PREFIX/lib[/ARCH]/lua/5.4/kontor/core.so -> PREFIX/share/kontor. */
static void push_datadir(lua_State *L) {
#ifdef KONTOR_DATADIR
    lua_pushliteral(L, KONTOR_DATADIR);
#else
    Dl_info info;
    static const char tail[] = "/lua/5.4/kontor/core.so";
    if (dladdr((void *)luaopen_kontor_core, &info) && info.dli_fname) {
        const char *f = info.dli_fname;
        size_t n = strlen(f), t = sizeof tail - 1;
        if (n > t && strcmp(f + n - t, tail) == 0) {
            /* the last "/lib" path component before the tail */
            for (size_t i = n - t; i >= 4; i--) {
                if (f[i] == '/' && strncmp(f + i - 4, "/lib", 4) == 0) {
                    lua_pushlstring(L, f, i - 4);
                    lua_pushliteral(L, "/share/kontor");
                    lua_concat(L, 2);
                    return;
                }
            }
        }
    }
    lua_pushnil(L);
#endif
}
#endif

int luaopen_kontor_core(lua_State *L) {
    /* Under stock lua5.4 the interpreter is not kn_newstate's: put the
     * sandbox's counting allocator in front of its own first. */
    kn_sandbox_attach(L);
    /* The core's piles, counters and logs allocate through the
     * interpreter's allocator, so the sandbox's memory cap counts them. */
    void *ud;
    lua_Alloc f = lua_getallocf(L, &ud);
    kn_set_allocator(f, ud);
    lua_newtable(L);
    kn_open_rng(L);
    kn_open_pile(L);
    kn_open_counter(L);
    kn_open_log(L);
    kn_open_steps(L);
    kn_open_json(L);
    kn_open_fs(L);
#ifndef KONTOR_MODULE   /* the program's terminal (libedit) stays out of the module */
    kn_open_term(L);
#endif
    kn_open_sandbox(L);
    kn_open_playout(L);
    kn_open_options(L);
    kn_open_fork(L);
    lua_pushliteral(L, KONTOR_VERSION);
    lua_setfield(L, -2, "version");
#ifdef KONTOR_MODULE
    push_datadir(L);
    lua_setfield(L, -2, "datadir");
#endif
    return 1;
}

void kn_preload_core(lua_State *L) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_kontor_core);
    lua_setfield(L, -2, "kontor.core");
    lua_pop(L, 1);
}

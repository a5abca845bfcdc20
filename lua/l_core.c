/*
 * l_core.c - the `kontor.core` module: every exposed type's constructors
 * and the json, fs, term and sandbox tables, gathered in one table.
 */
#include "binding.h"
#include "kn_alloc.h"

#define KONTOR_VERSION "0.1.0"

const void *kn_newtype(lua_State *L, const char *tname, const luaL_Reg *meta,
                       const luaL_Reg *methods) {
    luaL_newmetatable(L, tname);
    luaL_setfuncs(L, meta, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    const void *mt = lua_topointer(L, -1);
    lua_pop(L, 1);
    return mt;
}

int luaopen_kontor_core(lua_State *L) {
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
    kn_open_json(L);
    kn_open_fs(L);
    kn_open_term(L);
    kn_open_sandbox(L);
    kn_open_bot(L);
    kn_open_options(L);
    lua_pushliteral(L, KONTOR_VERSION);
    lua_setfield(L, -2, "version");
    return 1;
}

void kn_preload_core(lua_State *L) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_kontor_core);
    lua_setfield(L, -2, "kontor.core");
    lua_pop(L, 1);
}

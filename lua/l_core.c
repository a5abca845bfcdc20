/*
 * l_core.c - the `kontor.core` module: every exposed type's constructors
 * and the json, fs, term and sandbox tables, gathered in one table.
 */
#include "binding.h"

#define KONTOR_VERSION "0.1.0"

int luaopen_kontor_core(lua_State *L) {
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
    lua_pushliteral(L, KONTOR_VERSION);
    lua_setfield(L, -2, "version");
    return 1;
}

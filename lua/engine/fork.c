/*
 * fork.c - what lua/kontor/fork.lua's copies for search do in C.
 *
 * kontor.core (the engine's, not a rule script's kontor table):
 *   rng_same(a, b) -> boolean   two kontor.Rng in the same state
 *   rng_assign(a, b)            a takes b's state (no text made or read,
 *                               as r:set_state(b:state()) does)
 *   fork_fields(g, skip, methods) -> fields   g's rule fields, as fork.lua's
 *                               rule_fields reads them
 *   fork_reach(root, skip, methods, pile_mt, strings) -> seen, piles
 *       the fail-closed checks' walk of a game's rule fields (fork.lua's
 *       reach, unordered): every table reachable from the values of
 *       `root` other than its engine fields (a key of `skip`, or a value
 *       that is methods[key]), through keys, values and metatables, at
 *       any depth, each once. `seen`: every table and userdata reached
 *       (as keys, value true); `piles`: the userdata with metatable
 *       pile_mt reached, in the order reached; every string found as a
 *       value of a table reached is appended to the list `strings`.
 *       The order is Lua's next order, depth first, as fork.lua's walk.
 *       A state nested deeper than MAX_DEPTH gives nothing (the strings
 *       found so far appended): fork.lua then walks it in Lua.
 */
#include <string.h>

#include "binding.h"
#include "engine/engine.h"
#include "rng.h"

static int l_rng_same(lua_State *L) {
    const kn_rng *a = kn_check_rng(L, 1), *b = kn_check_rng(L, 2);
    lua_pushboolean(L, memcmp(a->s, b->s, sizeof a->s) == 0);
    return 1;
}

static int l_rng_assign(lua_State *L) {
    kn_rng *a = kn_check_rng(L, 1);
    const kn_rng *b = kn_check_rng(L, 2);
    *a = *b;
    return 0;
}

/* Stack slots of fork_reach. */
enum { R_ROOT = 1, R_SKIP, R_METHODS, R_PILE_MT, R_STRINGS, R_SEEN, R_PILES };

/* Deeper than this, the walk gives up (fork_reach returns nil) and
 * fork.lua walks in Lua: the C stack holds a few frames of walk per level. */
#define MAX_DEPTH 160

struct walk {
    lua_State *L;
    lua_Integer nstr, npiles;
};

static int mark(lua_State *L, int v) {
    lua_pushvalue(L, v);
    if (lua_rawget(L, R_SEEN) != LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, v);
    lua_pushboolean(L, 1);
    lua_rawset(L, R_SEEN);
    return 1;
}

/* Walks the value at the top of the stack (left there), as fork.lua's
 * walk: a pile is listed, a table's keys and values are walked in next
 * order, then its metatable. 0 when it went deeper than MAX_DEPTH. */
static int walk(struct walk *w, int depth) {
    lua_State *L = w->L;
    int v = lua_gettop(L);
    int t = lua_type(L, v);
    if (t == LUA_TUSERDATA) {
        int pile = 0;
        lua_pushvalue(L, v);
        int seen = lua_rawget(L, R_SEEN) != LUA_TNIL;
        lua_pop(L, 1);
        if (seen) return 1;
        if (lua_getmetatable(L, v)) {
            pile = lua_rawequal(L, -1, R_PILE_MT);
            lua_pop(L, 1);
        }
        if (pile) {
            mark(L, v);
            lua_pushvalue(L, v);
            lua_rawseti(L, R_PILES, ++w->npiles);
        }
        return 1;
    }
    if (t != LUA_TTABLE || !mark(L, v)) return 1;
    if (depth > MAX_DEPTH) return 0;
    luaL_checkstack(L, 8, "fork_reach");
    lua_pushnil(L);
    while (lua_next(L, v)) {
        int kt = lua_type(L, -2), xt = lua_type(L, -1);
        if (kt == LUA_TTABLE || kt == LUA_TUSERDATA) {
            lua_pushvalue(L, -2);
            if (!walk(w, depth + 1)) return 0;
            lua_pop(L, 1);
        }
        if (xt == LUA_TTABLE || xt == LUA_TUSERDATA) {
            if (!walk(w, depth + 1)) return 0;
            lua_pop(L, 1);
        } else if (xt == LUA_TSTRING) {
            lua_rawseti(L, R_STRINGS, ++w->nstr);
        } else {
            lua_pop(L, 1);
        }
    }
    if (lua_getmetatable(L, v)) {
        if (lua_type(L, -1) == LUA_TTABLE && !walk(w, depth + 1)) return 0;
        lua_pop(L, 1);
    }
    return 1;
}

/* g's rule fields (those fork.lua's rule_fields reads: not a key of
 * skip, not methods[key]), each walked; g itself is not marked (a field
 * that holds g is walked as any table). */
static int l_fork_reach(lua_State *L) {
    struct walk w;
    luaL_checktype(L, R_ROOT, LUA_TTABLE);
    luaL_checktype(L, R_SKIP, LUA_TTABLE);
    luaL_checktype(L, R_METHODS, LUA_TTABLE);
    luaL_checktype(L, R_PILE_MT, LUA_TTABLE);
    luaL_checktype(L, R_STRINGS, LUA_TTABLE);
    lua_settop(L, R_STRINGS);
    lua_createtable(L, 0, 64);       /* R_SEEN (room for most states: no rehash) */
    lua_newtable(L);                 /* R_PILES */
    w.L = L;
    w.nstr = (lua_Integer)lua_rawlen(L, R_STRINGS);
    w.npiles = 0;
    lua_pushnil(L);
    while (lua_next(L, R_ROOT)) {
        lua_pushvalue(L, -2);
        int engine = lua_rawget(L, R_SKIP) != LUA_TNIL;
        lua_pop(L, 1);
        if (!engine) {
            lua_pushvalue(L, -2);
            lua_rawget(L, R_METHODS);
            engine = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
        }
        int kt = lua_type(L, -2), xt = lua_type(L, -1);
        if (engine) {
            lua_pop(L, 1);
            continue;
        }
        if (kt == LUA_TTABLE || kt == LUA_TUSERDATA) {
            lua_pushvalue(L, -2);
            if (!walk(&w, 1)) return 0;
            lua_pop(L, 1);
        }
        if (xt == LUA_TTABLE || xt == LUA_TUSERDATA) {
            if (!walk(&w, 1)) return 0;
            lua_pop(L, 1);
        } else if (xt == LUA_TSTRING) {
            lua_rawseti(L, R_STRINGS, ++w.nstr);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_pushvalue(L, R_SEEN);
    lua_pushvalue(L, R_PILES);
    return 2;
}

/* fork_fields(g, skip, methods) -> table: g's rule fields (every entry
 * whose key is not in skip and whose value is not methods[key]), read
 * raw in next order into a new table with room for 32. */
static int l_fork_fields(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    lua_createtable(L, 0, 32);       /* 4 */
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pushvalue(L, -2);
        int engine = lua_rawget(L, 2) != LUA_TNIL;
        lua_pop(L, 1);
        if (!engine) {
            lua_pushvalue(L, -2);
            lua_rawget(L, 3);
            engine = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
        }
        if (engine) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);           /* key, key, value */
        lua_rawset(L, 4);
    }
    return 1;
}

void kn_open_fork(lua_State *L) {
    lua_pushcfunction(L, l_fork_fields);
    lua_setfield(L, -2, "fork_fields");
    lua_pushcfunction(L, l_rng_same);
    lua_setfield(L, -2, "rng_same");
    lua_pushcfunction(L, l_rng_assign);
    lua_setfield(L, -2, "rng_assign");
    lua_pushcfunction(L, l_fork_reach);
    lua_setfield(L, -2, "fork_reach");
}

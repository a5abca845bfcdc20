/*
 * fork.c - what lua/kontor/fork.lua's copies for search do in C, and the
 * engine's deep copy of plain data.
 *
 * kontor.core (the engine's, not a rule script's kontor table):
 *   copy(v) -> v, or a deep copy of v if it is a table (raw keys, no
 *                               metatable, each table made at its size):
 *                               a new game's names, options and scenario
 *   rng_same(a, b) -> boolean   two kontor.Rng in the same state
 *   rng_assign(a, b)            a takes b's state (no text made or read,
 *                               as r:set_state(b:state()) does)
 *   fork_fields(g, skip, methods) -> fields   g's rule fields, as fork.lua's
 *                               rule_fields reads them
 *   fork_plan_like(root, order, ents, kinds, tmts, n, pile_mt, counter_mt,
 *                  rng_mt [, nvals]) -> objs, index, mts, vals, or nothing
 *       plan_like's walk of a live state against a plan of its shape
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

/* Stack slots of fork_plan_like. */
enum { P_ROOT = 1, P_ORDER, P_ENTS, P_KINDS, P_TMTS, P_N, P_PILE_MT, P_COUNTER_MT, P_RNG_MT,
       P_NVALS, P_OBJS, P_INDEX, P_MTS, P_VALS, P_E };

/* The kind of the value at idx as fork.lua's object_kind gives it: 1 a
 * table, 2 a pile, 3 a counter, 4 an RNG (by their metatables), 0 else. */
static int object_kind(lua_State *L, int idx) {
    int t = lua_type(L, idx), kind = 0;
    if (t == LUA_TTABLE) return 1;
    if (t != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return 0;
    if (lua_rawequal(L, -1, P_PILE_MT)) kind = 2;
    else if (lua_rawequal(L, -1, P_COUNTER_MT)) kind = 3;
    else if (lua_rawequal(L, -1, P_RNG_MT)) kind = 4;
    lua_pop(L, 1);
    return kind;
}

static lua_Integer count_entries(lua_State *L, int t) {
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        n++;
    }
    return n;
}

/* fork_plan_like(root, order, ents, kinds, tmts, n, pile_mt, counter_mt,
 * rng_mt [, nvals]) -> objs, index, mts, vals, or nothing (nvals: how
 * many values, the list made at that size): fork.lua's plan_like
 * (which reads the rest), its walk of the live state against the plan
 * of a state of the same shape, in C. */
static int l_fork_plan_like(lua_State *L) {
    lua_Integer norder, n, nvals, t, i, j;
    luaL_checktype(L, P_ROOT, LUA_TTABLE);
    luaL_checktype(L, P_ORDER, LUA_TTABLE);
    luaL_checktype(L, P_ENTS, LUA_TTABLE);
    luaL_checktype(L, P_KINDS, LUA_TTABLE);
    luaL_checktype(L, P_TMTS, LUA_TTABLE);
    n = luaL_checkinteger(L, P_N);
    luaL_checktype(L, P_PILE_MT, LUA_TTABLE);
    luaL_checktype(L, P_COUNTER_MT, LUA_TTABLE);
    luaL_checktype(L, P_RNG_MT, LUA_TTABLE);
    nvals = luaL_optinteger(L, P_NVALS, 0);
    lua_settop(L, P_NVALS);
    lua_createtable(L, (int)(n > 0 && n < 4096 ? n : 0), 0);   /* P_OBJS */
    lua_createtable(L, 0, (int)(n > 0 && n < 4096 ? n : 0));   /* P_INDEX */
    lua_newtable(L);                                           /* P_MTS */
    lua_createtable(L, (int)(nvals > 0 && nvals < 65536 ? nvals : 0), 0);   /* P_VALS */
    lua_pushvalue(L, P_ROOT);
    lua_rawseti(L, P_OBJS, 1);
    lua_pushvalue(L, P_ROOT);
    lua_pushinteger(L, 1);
    lua_rawset(L, P_INDEX);
    norder = (lua_Integer)lua_rawlen(L, P_ORDER);
    for (t = 1; t <= norder; t++) {
        int v, has_mt, plain;
        lua_settop(L, P_VALS);
        lua_rawgeti(L, P_ORDER, t);
        i = lua_tointeger(L, -1);
        lua_pop(L, 1);
        lua_rawgeti(L, P_ENTS, i);                             /* P_E */
        if (lua_type(L, P_E) != LUA_TTABLE) return 0;
        lua_rawgeti(L, P_OBJS, i);                             /* v */
        v = lua_gettop(L);
        if (lua_type(L, v) != LUA_TTABLE) return 0;
        has_mt = lua_getmetatable(L, v);                       /* (mt) */
        lua_rawgeti(L, P_TMTS, i);
        if (has_mt != (lua_type(L, -1) != LUA_TNIL)) return 0;
        lua_pop(L, 1);
        if (has_mt) lua_rawseti(L, P_MTS, i);
        luaL_checkstack(L, 12, "fork_plan_like");
        lua_getfield(L, P_E, "plain");
        plain = lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (plain) {                 /* a list of plain values, of any length, no hole */
            lua_Integer cnt = count_entries(L, v), k;
            for (k = 1; k <= cnt; k++) {
                int bad;
                if (lua_rawgeti(L, v, k) == LUA_TNIL) return 0;
                bad = object_kind(L, -1) != 0;
                lua_pop(L, 1);
                if (bad) return 0;
            }
            continue;
        }
        {
            lua_Integer cnt = count_entries(L, v), npk, nrk;
            int pk, rk, rv, vslot;
            lua_getfield(L, P_E, "pk");
            pk = lua_gettop(L);
            lua_getfield(L, P_E, "rk");
            rk = lua_gettop(L);
            lua_getfield(L, P_E, "rv");
            rv = lua_gettop(L);
            lua_getfield(L, P_E, "vslot");
            vslot = lua_gettop(L);
            if (lua_type(L, pk) != LUA_TTABLE || lua_type(L, rk) != LUA_TTABLE
                || lua_type(L, rv) != LUA_TTABLE || lua_type(L, vslot) != LUA_TTABLE) return 0;
            npk = (lua_Integer)lua_rawlen(L, pk);
            nrk = (lua_Integer)lua_rawlen(L, rk);
            if (cnt != npk + nrk) return 0;
            for (j = 1; j <= npk; j++) {
                lua_rawgeti(L, pk, j);
                if (lua_rawget(L, v) == LUA_TNIL || object_kind(L, -1) != 0) return 0;
                {
                    int isint;
                    lua_Integer slot;
                    lua_rawgeti(L, vslot, j);
                    slot = lua_tointegerx(L, -1, &isint);
                    lua_pop(L, 1);
                    if (!isint) return 0;
                    lua_rawseti(L, P_VALS, slot);              /* pops x */
                }
            }
            for (j = 1; j <= nrk; j++) {
                lua_Integer r;
                int x;
                lua_rawgeti(L, rk, j);
                lua_rawget(L, v);                              /* x */
                x = lua_gettop(L);
                lua_rawgeti(L, rv, j);
                r = lua_tointeger(L, -1);
                lua_pop(L, 1);
                if (lua_rawgeti(L, P_OBJS, r) == LUA_TNIL) {   /* have */
                    int known;
                    lua_pop(L, 1);
                    if (lua_type(L, x) == LUA_TNIL) return 0;
                    lua_pushvalue(L, x);
                    known = lua_rawget(L, P_INDEX) != LUA_TNIL;
                    lua_pop(L, 1);
                    if (known) return 0;
                    lua_rawgeti(L, P_KINDS, r);
                    if (object_kind(L, x) != lua_tointeger(L, -1)) return 0;
                    lua_pop(L, 1);
                    lua_pushvalue(L, x);
                    lua_rawseti(L, P_OBJS, r);
                    lua_pushvalue(L, x);
                    lua_pushinteger(L, r);
                    lua_rawset(L, P_INDEX);
                } else {
                    int same = lua_compare(L, -1, x, LUA_OPEQ);   /* have == x, as Lua's == */
                    lua_pop(L, 1);
                    if (!same) return 0;
                }
                lua_settop(L, x - 1);
            }
        }
    }
    for (i = 1; i <= n; i++) {
        int missing = lua_rawgeti(L, P_OBJS, i) == LUA_TNIL;
        lua_pop(L, 1);
        if (missing) return 0;
    }
    lua_settop(L, P_VALS);
    return 4;
}

/* How deep copy() follows tables in tables: as deep as Lua's own
 * recursion (LUAI_MAXCCALLS) took the Lua copy it replaces. */
#define COPY_DEPTH 200

/* Pushes a copy of the table at idx: its keys as they are, read raw, each
 * value that is a table copied the same way; no metatable. The new table
 * is made at its size (a table that grows as it fills is rehashed at each
 * power of 2). */
static void copy_table(lua_State *L, int idx, int depth) {
    if (depth > COPY_DEPTH) luaL_error(L, "copy: tables nested more than %d deep", COPY_DEPTH);
    luaL_checkstack(L, 4, "copy");
    int narr = 0, nrec = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_isinteger(L, -1) && lua_tointeger(L, -1) == narr + 1) narr++;
        else nrec++;
    }
    lua_createtable(L, narr, nrec);
    int dst = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {                      /* key value */
        if (lua_type(L, -1) == LUA_TTABLE) {
            int v = lua_gettop(L);
            copy_table(L, v, depth + 1);
            lua_replace(L, v);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);                          /* key key value */
        lua_rawset(L, dst);                         /* key */
    }
}

/* copy(v) -> a deep copy of v, if it is a table (copy_table); else v. */
static int l_copy(lua_State *L) {
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TTABLE) copy_table(L, 1, 1);
    return 1;
}

static const luaL_Reg fork_funcs[] = {
    {"copy", l_copy},
    {"rng_same", l_rng_same},
    {"rng_assign", l_rng_assign},
    {"fork_fields", l_fork_fields},
    {"fork_plan_like", l_fork_plan_like},
    {"fork_reach", l_fork_reach},
    {NULL, NULL}
};

void kn_open_fork(lua_State *L) {
    luaL_setfuncs(L, fork_funcs, 0);
}

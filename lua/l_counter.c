/*
 * l_counter.c - the kontor.Counter userdata: a kn_counter (core/counter.h).
 *
 *   core.counter{ n = k, min = lo, max = hi, init = v }
 *
 * n (>= 1) is required; min and max default to no bound; init defaults to 0,
 * moved into min..max when 0 lies outside them. Indexes are 1..n.
 *
 * The values live inside the counter's userdata (kn_counter_init_in), in
 * memory Lua manages and the sandbox's limit counts: a counter needs no
 * finalizer (__gc), which cost the collector a pass over the objects that
 * have one every cycle and a call for each counter that died.
 */
#include <stdint.h>

#include "binding.h"

/* This type's tag (kn_newudata, kn_checkudata): its address. */
static char counter_tag;
#include "../core/counter.h"
#include "../core/kn_error.h"

#define MAX_COUNTERS 0x1000000   /* 16M values: a sanity limit */

static kn_counter *check_counter(lua_State *L, int arg)
{
    return (kn_counter *)kn_checkudata(L, arg, &counter_tag, KONTOR_COUNTER);
}

/* A 1-based index at arg that must lie in 1..n, as a 0-based index. */
static inline uint32_t check_index(lua_State *L, kn_counter *c, int arg)
{
    lua_Integer i = kn_checkinteger(L, arg);
    if (__builtin_expect(i < 1 || i > c->n, 0))
        luaL_argerror(L, arg, lua_pushfstring(L,
            "index %I out of range 1..%I", i, (lua_Integer)c->n));
    return (uint32_t)(i - 1);
}

/* Raises "counter 2: 6 is above the maximum 5" if v leaves the bounds. */
static void bounds_error(lua_State *L, kn_counter *c, uint32_t i, lua_Integer v)
{
    if (v > c->max)
        luaL_error(L, "counter %I: %I is above the maximum %I",
                   (lua_Integer)i + 1, v, (lua_Integer)c->max);
    if (v < c->min)
        luaL_error(L, "counter %I: %I is below the minimum %I",
                   (lua_Integer)i + 1, v, (lua_Integer)c->min);
}

static inline void check_bounds(lua_State *L, kn_counter *c, uint32_t i, lua_Integer v)
{
    if (__builtin_expect(v > c->max || v < c->min, 0))
        bounds_error(L, c, i, v);
}

/* Field `name` of the options table at arg: an integer, or def when nil. */
static lua_Integer opt_int_field(lua_State *L, int arg, const char *name,
                                 lua_Integer def, int *present)
{
    int isint;
    lua_Integer v;
    if (lua_getfield(L, arg, name) == LUA_TNIL) {
        lua_pop(L, 1);
        if (present)
            *present = 0;
        return def;
    }
    v = lua_tointegerx(L, -1, &isint);
    if (!isint)
        luaL_argerror(L, arg, lua_pushfstring(L,
            "field '%s' must be an integer, got %s", name, luaL_typename(L, -1)));
    lua_pop(L, 1);
    if (present)
        *present = 1;
    return v;
}

/* The userdata of a new counter of n values (room for them inside it),
 * on top of the stack, with its metatable; its values are not set. */
static kn_counter *new_counter(lua_State *L, uint32_t n)
{
    kn_counter *c = (kn_counter *)kn_newudata(L, sizeof(kn_counter) + (size_t)n * sizeof(int64_t),
                                              0, &counter_tag);
    kn_counter_init_in(c, (int64_t *)(c + 1), 0, INT64_MIN, INT64_MAX, 0);   /* empty */
    luaL_setmetatable(L, KONTOR_COUNTER);
    return c;
}

static int l_new(lua_State *L)
{
    lua_Integer n, min, max, init;
    int has_init, rc;
    kn_counter *c;
    luaL_checktype(L, 1, LUA_TTABLE);
    n = opt_int_field(L, 1, "n", 0, NULL);
    luaL_argcheck(L, n >= 1, 1, "field 'n' must be an integer >= 1");
    luaL_argcheck(L, n <= MAX_COUNTERS, 1, "field 'n' is too large");
    kn_sandbox_charge(L, (double)n);
    min = opt_int_field(L, 1, "min", INT64_MIN, NULL);
    max = opt_int_field(L, 1, "max", INT64_MAX, NULL);
    init = opt_int_field(L, 1, "init", 0, &has_init);
    if (min > max)
        luaL_argerror(L, 1, lua_pushfstring(L,
            "min %I is above max %I", min, max));
    if (!has_init)
        init = init < min ? min : init > max ? max : init;
    else if (init < min || init > max)
        luaL_argerror(L, 1, lua_pushfstring(L,
            "init %I is outside %I..%I", init, min, max));
    c = new_counter(L, (uint32_t)n);
    rc = kn_counter_init_in(c, (int64_t *)(c + 1), (uint32_t)n, min, max, init);
    if (rc < 0)
        return luaL_error(L, "%s", kn_strerror(rc));
    return 1;
}

static int l_get(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    lua_pushinteger(L, c->v[check_index(L, c, 2)]);
    return 1;
}

static int l_set(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    kn_may_change(L, c, "counter:set");
    uint32_t i = check_index(L, c, 2);
    lua_Integer v = kn_checkinteger(L, 3);
    check_bounds(L, c, i, v);
    c->v[i] = v;                          /* kn_counter_set, its checks done */
    return 0;
}

static int l_add(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    kn_may_change(L, c, "counter:add");
    uint32_t i = check_index(L, c, 2);
    lua_Integer d = kn_checkinteger(L, 3);
    lua_Integer cur = c->v[i], sum;
    if (__builtin_expect(__builtin_add_overflow(cur, d, &sum), 0))
        return luaL_error(L, "counter %I: %I + %I overflows",
                          (lua_Integer)i + 1, cur, d);
    check_bounds(L, c, i, sum);
    c->v[i] = sum;                        /* kn_counter_add, its checks done */
    lua_pushinteger(L, sum);
    return 1;
}

/* values([into]): the values as a list: a new one, or `into` (a table the
 * caller keeps, its entries 1..n written raw) returned again, a read that
 * makes no table. Charges n. */
static int l_values(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    int into = !lua_isnoneornil(L, 2);
    if (into)
        luaL_checktype(L, 2, LUA_TTABLE);
    kn_sandbox_charge(L, (double)c->n);
    if (into)
        lua_settop(L, 2);
    else
        lua_createtable(L, (int)c->n, 0);
    for (uint32_t i = 0; i < c->n; i++) {
        lua_pushinteger(L, c->v[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int l_sum(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    int64_t sum;
    kn_sandbox_charge(L, (double)c->n);
    if (kn_counter_sum(c, &sum) != KN_OK)
        return luaL_error(L, "counter: the sum of its values overflows");
    lua_pushinteger(L, sum);
    return 1;
}

static int l_count(lua_State *L)
{
    lua_pushinteger(L, check_counter(L, 1)->n);
    return 1;
}

static int l_min(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    if (c->min == INT64_MIN)
        lua_pushnil(L);
    else
        lua_pushinteger(L, c->min);
    return 1;
}

static int l_max(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    if (c->max == INT64_MAX)
        lua_pushnil(L);
    else
        lua_pushinteger(L, c->max);
    return 1;
}

static int l_tostring(lua_State *L)
{
    kn_counter *c = check_counter(L, 1);
    kn_sandbox_charge(L, (double)c->n);   /* every value written: charged before */
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, KONTOR_COUNTER "(");
    for (uint32_t i = 0; i < c->n; i++) {
        if (i > 0)
            luaL_addchar(&b, ' ');
        lua_pushfstring(L, "%I", (lua_Integer)c->v[i]);
        luaL_addvalue(&b);
    }
    if (c->min != INT64_MIN) {
        lua_pushfstring(L, "; min %I", (lua_Integer)c->min);
        luaL_addvalue(&b);
    }
    if (c->max != INT64_MAX) {
        lua_pushfstring(L, "; max %I", (lua_Integer)c->max);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, ')');
    luaL_pushresult(&b);
    return 1;
}

static const luaL_Reg counter_methods[] = {
    {"get", l_get},
    {"set", l_set},
    {"add", l_add},
    {"values", l_values},
    {"sum", l_sum},
    {"count", l_count},
    {"min", l_min},
    {"max", l_max},
    {NULL, NULL}
};

static const luaL_Reg counter_meta[] = {
    {"__len", l_count},
    {"__tostring", l_tostring},
    {NULL, NULL}
};

/* core.counter_copy(c): a new counter with c's values and range (the
 * engine's copies of a game for search, lua/kontor/fork.lua). Not in a
 * rule script's kontor table. */
static int l_copy(lua_State *L)
{
    kn_counter *src = check_counter(L, 1);
    kn_counter *c = new_counter(L, src->n);
    int rc = kn_counter_init_in(c, (int64_t *)(c + 1), src->n, src->min, src->max, src->min);
    if (rc < 0)
        return luaL_error(L, "%s", kn_strerror(rc));
    if (src->n > 0)
        memcpy(c->v, src->v, (size_t)src->n * sizeof *src->v);
    return 1;
}

static const luaL_Reg counter_funcs[] = {
    {"counter", l_new},
    {"counter_copy", l_copy},
    {NULL, NULL}
};

void kn_open_counter(lua_State *L)
{
    kn_newtype(L, KONTOR_COUNTER, counter_meta, counter_methods);
    luaL_setfuncs(L, counter_funcs, 0);
}

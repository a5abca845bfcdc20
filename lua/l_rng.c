/*
 * l_rng.c - the kontor.Rng userdata: a kn_rng (core/rng.h) for Lua.
 *
 *   core.rng(seed)          seed: an integer, or a 64-hex-digit state
 *   core.derive_seed(seed, i)
 *   r:below(n) r:int(lo, hi) r:float() r:shuffle(t) r:state()
 *   r:set_state(hex) r:clone() tostring(r)
 */
#include <string.h>

#include "binding.h"

/* This type's tag (kn_newudata, kn_checkudata): its address. */
static char rng_tag;
#include "../core/rng.h"
#include "../core/kn_error.h"

#define BAD_STATE "bad rng state: expected 64 hex digits"

struct kn_rng *kn_check_rng(lua_State *L, int arg)
{
    return (struct kn_rng *)kn_checkudata(L, arg, &rng_tag, KONTOR_RNG);
}

/* A new rng userdata holding a copy of *src, on top of the stack. */
static kn_rng *new_rng(lua_State *L, const kn_rng *src)
{
    kn_rng *r = (kn_rng *)kn_newudata(L, sizeof(kn_rng), 0, &rng_tag);
    *r = *src;
    luaL_setmetatable(L, KONTOR_RNG);
    return r;
}

/* Sets r from the hex string at arg, or raises an argument error. */
static void set_from_hex(lua_State *L, kn_rng *r, int arg)
{
    size_t len;
    const char *hex = luaL_checklstring(L, arg, &len);
    if (len != 64 || kn_rng_set_hex(r, hex) != KN_OK)
        luaL_argerror(L, arg, BAD_STATE);
}

static int l_new(lua_State *L)
{
    kn_rng r;
    if (lua_type(L, 1) == LUA_TSTRING && !lua_isnumber(L, 1))
        set_from_hex(L, &r, 1);
    else
        kn_rng_seed(&r, (uint64_t)luaL_checkinteger(L, 1));
    new_rng(L, &r);
    return 1;
}

static int l_derive_seed(lua_State *L)
{
    uint64_t seed = (uint64_t)luaL_checkinteger(L, 1);
    uint64_t index = (uint64_t)luaL_checkinteger(L, 2);
    lua_pushinteger(L, (lua_Integer)kn_seed_derive(seed, index));
    return 1;
}

static int l_below(lua_State *L)
{
    kn_rng *r = kn_check_rng(L, 1);
    kn_may_change(L, r, "rng:below");
    lua_Integer n = kn_checkinteger(L, 2);
    luaL_argcheck(L, n >= 1, 2, "must be at least 1");
    lua_pushinteger(L, (lua_Integer)kn_rng_below(r, (uint64_t)n));
    return 1;
}

static int l_int(lua_State *L)
{
    kn_rng *r = kn_check_rng(L, 1);
    kn_may_change(L, r, "rng:int");
    lua_Integer lo = kn_checkinteger(L, 2);
    lua_Integer hi = kn_checkinteger(L, 3);
    uint64_t span;
    luaL_argcheck(L, lo <= hi, 3, "interval is empty");
    span = (uint64_t)hi - (uint64_t)lo + 1;   /* 0: the whole int64 range */
    if (span == 0)
        lua_pushinteger(L, (lua_Integer)kn_rng_next(r));
    else
        lua_pushinteger(L, (lua_Integer)((uint64_t)lo + kn_rng_below(r, span)));
    return 1;
}

static int l_float(lua_State *L)
{
    kn_rng *r = kn_check_rng(L, 1);
    kn_may_change(L, r, "rng:float");
    lua_pushnumber(L, (lua_Number)kn_rng_float(r));
    return 1;
}

/* Fisher-Yates from the end, drawing exactly as kn_rng_shuffle_i32 does:
 * for i = n down to 2 (1-based), j = below(i) + 1, swap t[i] and t[j]. */
static int l_shuffle(lua_State *L)
{
    kn_rng *r = kn_check_rng(L, 1);
    kn_may_change(L, r, "rng:shuffle");
    lua_Integer i, n;
    luaL_checktype(L, 2, LUA_TTABLE);
    /* The raw length, read once: a __len could claim 2^40 (and the loop
     * below runs in C). The work is charged to the armed call. */
    if (luaL_getmetafield(L, 2, "__len") != LUA_TNIL)
        return luaL_argerror(L, 2, "a table with a __len metamethod cannot be shuffled");
    n = (lua_Integer)lua_rawlen(L, 2);
    kn_sandbox_charge(L, (double)n);
    for (i = n; i > 1; i--) {
        lua_Integer j = (lua_Integer)kn_rng_below(r, (uint64_t)i) + 1;
        if (j == i)
            continue;
        lua_geti(L, 2, i);
        lua_geti(L, 2, j);
        lua_seti(L, 2, i);   /* t[i] = old t[j] */
        lua_seti(L, 2, j);   /* t[j] = old t[i] */
    }
    lua_settop(L, 2);
    return 1;
}

static int l_state(lua_State *L)
{
    char hex[65];
    kn_rng_state_hex(kn_check_rng(L, 1), hex);
    lua_pushlstring(L, hex, 64);
    return 1;
}

static int l_set_state(lua_State *L)
{
    kn_rng *r = kn_check_rng(L, 1);
    kn_may_change(L, r, "rng:set_state");
    set_from_hex(L, r, 2);
    return 0;
}

static int l_clone(lua_State *L)
{
    new_rng(L, kn_check_rng(L, 1));
    return 1;
}

static int l_tostring(lua_State *L)
{
    char hex[65];
    kn_rng_state_hex(kn_check_rng(L, 1), hex);
    lua_pushfstring(L, "%s(%s)", KONTOR_RNG, hex);
    return 1;
}

static const luaL_Reg rng_methods[] = {
    {"below", l_below},
    {"int", l_int},
    {"float", l_float},
    {"shuffle", l_shuffle},
    {"state", l_state},
    {"set_state", l_set_state},
    {"clone", l_clone},
    {NULL, NULL}
};

static const luaL_Reg rng_meta[] = {
    {"__tostring", l_tostring},
    {NULL, NULL}
};

static const luaL_Reg rng_funcs[] = {
    {"rng", l_new},
    {"derive_seed", l_derive_seed},
    {NULL, NULL}
};

void kn_open_rng(lua_State *L)
{
    kn_newtype(L, KONTOR_RNG, rng_meta, rng_methods);
    luaL_setfuncs(L, rng_funcs, 0);
}

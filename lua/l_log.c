/*
 * l_log.c - the kontor.Log userdata: a kn_log (core/log.h) for Lua.
 *
 *   core.log()
 *   l:add(s) l:count() l:get(i) l:truncate(n) l:lines([from]) #l
 */
#include <stdint.h>

#include "binding.h"

/* This type's tag (kn_newudata, kn_checkudata): its address. */
static char log_tag;
#include "../core/log.h"
#include "../core/kn_error.h"

static kn_log *check_log(lua_State *L, int arg)
{
    return (kn_log *)kn_checkudata(L, arg, &log_tag, KONTOR_LOG);
}

static int l_new(lua_State *L)
{
    kn_log *g = (kn_log *)kn_newudata(L, sizeof(kn_log), 0, &log_tag);
    kn_log_init(g);
    luaL_setmetatable(L, KONTOR_LOG);
    return 1;
}

static int l_add(lua_State *L)
{
    kn_log *g = check_log(L, 1);
    kn_may_change(L, g, "log:add");
    size_t len;
    const char *s = luaL_checklstring(L, 2, &len);
    int rc = kn_log_add(g, s, len);
    if (rc < 0)
        return luaL_error(L, "%s", kn_strerror(rc));
    return 0;
}

static int l_count(lua_State *L)
{
    lua_pushinteger(L, kn_log_count(check_log(L, 1)));
    return 1;
}

/* Pushes line i (0-based, must exist). */
static void push_line(lua_State *L, const kn_log *g, uint32_t i)
{
    size_t len;
    const char *s = kn_log_get(g, i, &len);
    lua_pushlstring(L, s, len);
}

static int l_get(lua_State *L)
{
    kn_log *g = check_log(L, 1);
    lua_Integer i = luaL_checkinteger(L, 2);
    if (i >= 1 && i <= kn_log_count(g))
        push_line(L, g, (uint32_t)(i - 1));
    else
        lua_pushnil(L);
    return 1;
}

static int l_truncate(lua_State *L)
{
    kn_log *g = check_log(L, 1);
    kn_may_change(L, g, "log:truncate");
    lua_Integer n = luaL_checkinteger(L, 2);
    lua_Integer count = kn_log_count(g);
    if (n < 0 || n > count)
        luaL_argerror(L, 2, lua_pushfstring(L,
            "%I out of range 0..%I", n, count));
    kn_log_truncate(g, (uint32_t)n);
    return 0;
}

static int l_lines(lua_State *L)
{
    kn_log *g = check_log(L, 1);
    lua_Integer from = luaL_optinteger(L, 2, 1);
    lua_Integer count = kn_log_count(g);
    lua_Integer k = 0, size;
    luaL_argcheck(L, from >= 1, 2, "must be at least 1");
    size = from <= count ? count - from + 1 : 0;
    lua_createtable(L, size < INT32_MAX ? (int)size : INT32_MAX, 0);
    for (lua_Integer i = from; i <= count; i++) {
        push_line(L, g, (uint32_t)(i - 1));
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

static int l_tostring(lua_State *L)
{
    uint32_t n = kn_log_count(check_log(L, 1));
    lua_pushfstring(L, "%s(%I line%s)", KONTOR_LOG, (lua_Integer)n,
                    n == 1 ? "" : "s");
    return 1;
}

static int l_gc(lua_State *L)
{
    kn_log_free(check_log(L, 1));
    return 0;
}

static const luaL_Reg log_methods[] = {
    {"add", l_add},
    {"count", l_count},
    {"get", l_get},
    {"truncate", l_truncate},
    {"lines", l_lines},
    {NULL, NULL}
};

static const luaL_Reg log_meta[] = {
    {"__len", l_count},
    {"__tostring", l_tostring},
    {"__gc", l_gc},
    {NULL, NULL}
};

static const luaL_Reg log_funcs[] = {
    {"log", l_new},
    {NULL, NULL}
};

void kn_open_log(lua_State *L)
{
    kn_newtype(L, KONTOR_LOG, log_meta, log_methods);
    luaL_setfuncs(L, log_funcs, 0);
}

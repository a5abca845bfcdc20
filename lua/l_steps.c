/*
 * l_steps.c - kontor.Steps, a game's step record (core/steps.c) as
 * userdata.
 *
 *   kontor.core.steps([cap]) -> a new, empty record
 *   rec:push(seat, option [, stop [, rank [, first]]])
 *                       appends a step: stop true marks a "stop here";
 *                       a rank marks a secret step (its seat's place in
 *                       the block), first true the first of a block
 *   #rec                the number of steps
 *   rec:seat(i), rec:option(i), rec:stop(i)    step i (1-based)
 *   rec:secret(i)       whether step i is one of a block of secret steps,
 *                       and whether it begins its block
 *   rec:truncate(n)     keeps the first n steps
 *   rec:order()         the indexes in the order the record is read back
 *                       (secret blocks by rank), or nil if that is the
 *                       order taken
 *
 * The game driver (lua/kontor/game/driver.lua) and the simulation's bot
 * (lua/engine/playout.c, through kn_check_steps) record into it; fork.lua
 * and save files read it. Option texts are not in it: the driver makes
 * them from it when asked.
 */
#include "binding.h"
#include "../core/steps.h"
#include "../core/kn_error.h"

/* This type's tag (kn_newudata, kn_checkudata): its address. */
static char steps_tag;

kn_steps *kn_check_steps(lua_State *L, int arg)
{
    return (kn_steps *)kn_checkudata(L, arg, &steps_tag, KONTOR_STEPS);
}

void kn_steps_add(lua_State *L, kn_steps *s, lua_Integer seat, lua_Integer option)
{
    int rc = kn_steps_push(s, (int32_t)seat, (int32_t)option, 0, 0);
    if (rc < 0)
        luaL_error(L, "%s", kn_strerror(rc));
}

/* Step i (argument 2, 1-based) of the record at 1. */
static const kn_step *check_step(lua_State *L, kn_steps *s)
{
    lua_Integer i = kn_checkinteger(L, 2);
    luaL_argcheck(L, i >= 1 && (size_t)i <= s->n, 2, "no such step");
    return kn_steps_at(s, (size_t)i - 1);
}

static int l_new(lua_State *L)
{
    lua_Integer cap = luaL_optinteger(L, 1, 0);
    luaL_argcheck(L, cap >= 0 && cap <= 1 << 24, 1, "a capacity 0..16777216 expected");
    kn_steps *s = (kn_steps *)kn_newudata(L, sizeof(kn_steps), 0, &steps_tag);
    kn_steps_init(s, 0);                               /* safe for __gc */
    luaL_setmetatable(L, KONTOR_STEPS);
    int rc = kn_steps_init(s, (size_t)cap);
    if (rc < 0)
        return luaL_error(L, "%s", kn_strerror(rc));
    return 1;
}

static int l_push(lua_State *L)
{
    kn_steps *s = kn_check_steps(L, 1);
    lua_Integer seat = kn_checkinteger(L, 2);
    lua_Integer option = kn_checkinteger(L, 3);
    luaL_argcheck(L, seat >= 0 && seat <= INT32_MAX, 2, "a seat 0.. expected");
    luaL_argcheck(L, option >= 1 && option <= INT32_MAX, 3, "an option number 1.. expected");
    uint16_t flags = lua_toboolean(L, 4) ? KN_STEP_STOP : 0, rank = 0;
    if (!lua_isnoneornil(L, 5)) {
        lua_Integer r = luaL_checkinteger(L, 5);
        luaL_argcheck(L, r >= 0 && r <= KN_STEP_MAX_RANK, 5, "a rank 0..65535 expected");
        flags |= KN_STEP_SECRET;
        rank = (uint16_t)r;
        if (lua_toboolean(L, 6)) flags |= KN_STEP_FIRST;
    }
    int rc = kn_steps_push(s, (int32_t)seat, (int32_t)option, flags, rank);
    if (rc < 0)
        return luaL_error(L, "%s", kn_strerror(rc));
    return 0;
}

static int l_len(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)kn_check_steps(L, 1)->n);
    return 1;
}

static int l_seat(lua_State *L)
{
    lua_pushinteger(L, check_step(L, kn_check_steps(L, 1))->seat);
    return 1;
}

static int l_option(lua_State *L)
{
    lua_pushinteger(L, check_step(L, kn_check_steps(L, 1))->option);
    return 1;
}

static int l_stop(lua_State *L)
{
    lua_pushboolean(L, check_step(L, kn_check_steps(L, 1))->flags & KN_STEP_STOP);
    return 1;
}

static int l_secret(lua_State *L)
{
    uint16_t flags = check_step(L, kn_check_steps(L, 1))->flags;
    lua_pushboolean(L, flags & KN_STEP_SECRET);
    lua_pushboolean(L, flags & KN_STEP_FIRST);
    return 2;
}

static int l_truncate(lua_State *L)
{
    kn_steps *s = kn_check_steps(L, 1);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_argcheck(L, n >= 0 && (size_t)n <= s->n, 2, "more steps than the record holds");
    kn_steps_truncate(s, (size_t)n);
    return 0;
}

static int l_order(lua_State *L)
{
    kn_steps *s = kn_check_steps(L, 1);
    if (s->n == 0) return 0;
    luaL_argcheck(L, s->n <= (size_t)INT32_MAX, 1, "too many steps");
    size_t *out = (size_t *)lua_newuserdatauv(L, s->n * sizeof *out, 0);
    if (!kn_steps_order(s, out)) return 0;
    lua_createtable(L, (int)s->n, 0);
    for (size_t i = 0; i < s->n; i++) {
        lua_pushinteger(L, (lua_Integer)out[i] + 1);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int l_tostring(lua_State *L)
{
    lua_pushfstring(L, "kontor.Steps(%d)", (int)kn_check_steps(L, 1)->n);
    return 1;
}

static int l_gc(lua_State *L)
{
    kn_steps_free(kn_check_steps(L, 1));
    return 0;
}

static const luaL_Reg steps_methods[] = {
    {"push", l_push},
    {"seat", l_seat},
    {"option", l_option},
    {"stop", l_stop},
    {"secret", l_secret},
    {"truncate", l_truncate},
    {"order", l_order},
    {NULL, NULL}
};

static const luaL_Reg steps_meta[] = {
    {"__len", l_len},
    {"__tostring", l_tostring},
    {"__gc", l_gc},
    {"__close", l_gc},
    {NULL, NULL}
};

static const luaL_Reg steps_funcs[] = {
    {"steps", l_new},
    {NULL, NULL}
};

void kn_open_steps(lua_State *L)
{
    kn_newtype(L, KONTOR_STEPS, steps_meta, steps_methods);
    luaL_setfuncs(L, steps_funcs, 0);
}

/*
 * playout.c - the random bot of simulations, as one C function.
 *
 * kontor.core.random_bot(rng, rec, max_steps) returns a function
 * bot(seat, options) -> k that picks k uniformly with `rng`, appends the
 * step (seat, k) to the game's step record `rec` (a kontor.Steps, the one
 * the game driver records into: lua/l_steps.c), and gives the next step a
 * fresh budget. Rule code calls it from inside the game's coroutine: a
 * decision costs one C call and no coroutine switch, and no text is made
 * (the driver makes the texts from the record when they are asked for).
 */
#include "binding.h"
#include "engine/engine.h"
#include "rng.h"

#include <stdint.h>

enum { UP_STATE = 1, UP_RNG, UP_REC, UP_N = UP_REC };

/* The bot's own numbers, in a userdata only its closure holds. */
struct bot_state {
    struct kn_rng *rng;      /* UP_RNG's, which keeps it alive */
    struct kn_steps *rec;    /* UP_REC's, which keeps it alive */
    lua_Integer max;         /* the most steps it takes */
    lua_Integer count;       /* steps taken */
};

/* What the bot returns for option k: k, or the choices of a family's
 * option k (2: the family, checked, with its shape). */
static int chosen(lua_State *L, lua_Integer k, const struct kn_family *shape) {
    if (shape == NULL) {
        lua_pushinteger(L, k);
        return 1;
    }
    lua_Integer pick[64 + 1];
    int lists = 0;
    kn_family_picks(shape, k, pick);
    luaL_checkstack(L, shape->n + 1, "a family's choices");
    for (int i = 1; i <= shape->n; i++) {
        if (shape->size[i] == 0) continue;
        lua_rawgeti(L, 2, i);
        lua_rawgeti(L, -1, pick[i]);
        lua_remove(L, -2);
        lists++;
    }
    return lists;
}

/* bot(seat, options [, name, players [, family]]): with a name, options are
 * checked as g:choose checks them (lua/engine/options.c); with `family` true,
 * `options` is a family (g:choose_from), checked as such, and the bot
 * returns the entries the chosen option takes from its lists instead of k. */
static int bot_choose(lua_State *L) {
    lua_Integer nopts;
    struct kn_family shape;
    int family = lua_toboolean(L, 5);
    if (family) {
        nopts = kn_family_check(L, 2, 1, 3, lua_tointeger(L, 4), "g:choose_from", &shape);
        lua_settop(L, 2);
    } else if (lua_gettop(L) >= 4) {
        nopts = kn_options_check(L, 2, 1, 3, lua_tointeger(L, 4), "g:choose");
        lua_settop(L, 2);
    } else {
        luaL_checktype(L, 2, LUA_TTABLE);
        nopts = (lua_Integer)lua_rawlen(L, 2);
        luaL_argcheck(L, nopts > 0, 2, "no options");
    }
    lua_Integer seat = luaL_checkinteger(L, 1);
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, lua_upvalueindex(UP_STATE));
    lua_Integer count = b->count + 1;
    if (count > b->max)
        return luaL_error(L, "the game did not end within %d steps", (int)b->max);
    b->count = count;

    lua_Integer k = (lua_Integer)kn_rng_below(b->rng, (uint64_t)nopts) + 1;
    kn_steps_add(L, b->rec, seat, k);
    kn_sandbox_rearm();
    return chosen(L, k, family ? &shape : NULL);
}

static int l_random_bot(lua_State *L) {
    struct kn_rng *rng = kn_check_rng(L, 1);
    struct kn_steps *rec = kn_check_steps(L, 2);
    lua_Integer max = luaL_checkinteger(L, 3);
    lua_settop(L, 2);
    struct bot_state *b = (struct bot_state *)lua_newuserdatauv(L, sizeof *b, 0);
    b->rng = rng;
    b->rec = rec;
    b->max = max;
    b->count = 0;
    lua_insert(L, 1);                                      /* state rng rec */
    lua_pushcclosure(L, bot_choose, UP_N);
    return 1;
}

void kn_open_playout(lua_State *L) {
    lua_pushcfunction(L, l_random_bot);
    lua_setfield(L, -2, "random_bot");
}

/*
 * l_bot.c - the random bot of simulations, as one C function.
 *
 * kontor.core.random_bot(rng, hist, hseat, hidx, hstop, max_steps [, texts])
 * returns a function bot(seat, options) -> k that picks k uniformly with
 * `rng`, appends the step to the game's step lists exactly as the Lua
 * driver does (lua/kontor/game.lua, record: the chosen option's text, built
 * from the family or the list without making the option; with texts false,
 * only the seat and the option's number), and gives the next step a fresh
 * budget. Rule code calls it from inside the game's coroutine: a decision
 * costs one C call and no coroutine switch.
 *
 * With the four step lists given as false (and texts false), the bot keeps
 * its steps in a buffer of its own, 8 bytes a step, and writes no Lua
 * table; kontor.core.bot_lists(bot) makes the lists from it when Lua first
 * reads them (lua/kontor/game.lua, Game.__index), and the bot writes to
 * them from then on. kontor.core.bot_steps(bot) counts its steps.
 */
#include "binding.h"
#include "rng.h"

#include <stdint.h>
#include <string.h>

enum { UP_STATE = 1, UP_RNG, UP_HIST, UP_HSEAT, UP_HIDX, UP_HSTOP, UP_BUF, UP_N = UP_BUF };

/* A step kept in the buffer: the seat and the option's number. */
struct bot_step {
    int32_t seat, k;
};

#define BUF_FIRST 256            /* steps the buffer holds at first */

/* The bot's own numbers, in a userdata only its closure holds. */
struct bot_state {
    struct kn_rng *rng;      /* UP_RNG's, which keeps it alive */
    lua_Integer max;         /* the most steps it takes */
    lua_Integer base;        /* steps before (see bot_choose) */
    lua_Integer count;       /* steps taken */
    int texts;               /* record each step's text (else false) */
    int buffered;            /* steps go to `buf`, not to the step lists */
    lua_Integer cap;         /* steps `buf` holds */
    struct bot_step *buf;    /* UP_BUF's memory, which keeps it alive */
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

/* A step recorded without its text: the seat, the option's number and
 * false for the text, which Lua makes by replaying the numbers if someone
 * asks (lua/kontor/game.lua, hist_texts). Returns k, or the choices of a
 * family's option k (2: the family, checked, with its shape). */
static int record_number(lua_State *L, lua_Integer n, lua_Integer seat, lua_Integer k,
                         const struct kn_family *shape) {
    lua_pushboolean(L, 0);
    lua_rawseti(L, lua_upvalueindex(UP_HIST), n);
    lua_pushinteger(L, seat);
    lua_rawseti(L, lua_upvalueindex(UP_HSEAT), n);
    lua_pushinteger(L, k);
    lua_rawseti(L, lua_upvalueindex(UP_HIDX), n);
    kn_sandbox_rearm();
    return chosen(L, k, shape);
}

/* Makes room in the buffer for step n (a new userdata twice the size, the
 * steps copied: its memory counts against the game's limit like any other). */
static void buffer_room(lua_State *L, struct bot_state *b, lua_Integer n) {
    if (n <= b->cap) return;
    lua_Integer cap = b->cap * 2;
    struct bot_step *buf = (struct bot_step *)lua_newuserdatauv(L, (size_t)cap * sizeof *buf, 0);
    memcpy(buf, b->buf, (size_t)b->cap * sizeof *buf);
    lua_replace(L, lua_upvalueindex(UP_BUF));
    b->buf = buf;
    b->cap = cap;
}

/* A step kept in the buffer: no Lua table is written. The step lists are
 * made from the buffer when Lua first reads them (bot_lists). */
static int buffer_step(lua_State *L, struct bot_state *b, lua_Integer n, lua_Integer seat,
                       lua_Integer k, const struct kn_family *shape) {
    buffer_room(L, b, n);
    b->buf[n - 1].seat = (int32_t)seat;
    b->buf[n - 1].k = (int32_t)k;
    kn_sandbox_rearm();
    return chosen(L, k, shape);
}

/* bot(seat, options [, name, players [, family]]): with a name, options are
 * checked as g:choose checks them (lua/l_options.c); with `family` true,
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
    /* The step's number: the bot's own count after those recorded before
     * (the first decision is answered from outside), found again with the
     * step list's length only when a step was recorded from outside since
     * (a rare manual chance): the length of a preallocated list is a search. */
    lua_Integer n = b->base + count;
    if (b->buffered) return buffer_step(L, b, n, seat, k, family ? &shape : NULL);
    if (lua_rawgeti(L, lua_upvalueindex(UP_HIST), n) != LUA_TNIL) {
        n = (lua_Integer)lua_rawlen(L, lua_upvalueindex(UP_HIST)) + 1;
        b->base = n - count;
    }
    lua_pop(L, 1);
    if (!b->texts) return record_number(L, n, seat, k, family ? &shape : NULL);
    /* 3..: the chosen option's entries (a family's words and choices), or
     * the option; then its text, which the step list keeps */
    lua_Integer pick[64 + 1];
    if (family) {
        kn_family_picks(&shape, k, pick);
        kn_family_push_entries(L, 2, &shape, pick);
        kn_push_text_of(L, 3, shape.n);
    } else {
        lua_rawgeti(L, 2, k);
        kn_option_push_text(L, 3);
    }
    int text = lua_gettop(L);
    lua_pushvalue(L, text);
    lua_rawseti(L, lua_upvalueindex(UP_HIST), n);
    lua_pushinteger(L, seat);
    lua_rawseti(L, lua_upvalueindex(UP_HSEAT), n);
    lua_pushinteger(L, k);
    lua_rawseti(L, lua_upvalueindex(UP_HIDX), n);
    if (n > 1) {                                           /* a repeated text? */
        lua_rawgeti(L, lua_upvalueindex(UP_HIST), n - 1);
        lua_rawgeti(L, lua_upvalueindex(UP_HSEAT), n - 1);
        if (lua_tointeger(L, -1) == seat && kn_option_same(L, -2, text)) {
            lua_pop(L, 2);
            if (family) {                                  /* rare: the options made */
                luaL_checkstack(L, 8, "a family's options");
                lua_createtable(L, (int)nopts, 0);
                for (lua_Integer i = 1; i <= nopts; i++) {
                    kn_family_push_option(L, 2, i, &shape);
                    lua_rawseti(L, -2, i);
                }
                lua_pushboolean(L, kn_option_extends_any(L, -1, nopts, text));
                lua_remove(L, -2);
            } else {
                lua_pushboolean(L, kn_option_extends_any(L, 2, nopts, text));
            }
            lua_rawseti(L, lua_upvalueindex(UP_HSTOP), n);
        } else {
            lua_pop(L, 2);
        }
    }
    kn_sandbox_rearm();
    if (!family) {
        lua_pushinteger(L, k);
        return 1;
    }
    int lists = 0;                                         /* the choices, in order */
    luaL_checkstack(L, shape.n, "a family's choices");    /* 64 entries: 3 + 2 * 64 slots */
    for (int i = 1; i <= shape.n; i++) {
        if (shape.size[i] == 0) continue;
        lua_pushvalue(L, 2 + i);
        lists++;
    }
    return lists;
}

/* The step lists given as false: the bot keeps its steps in a buffer. */
static int is_false(lua_State *L, int i) {
    return lua_type(L, i) == LUA_TBOOLEAN && !lua_toboolean(L, i);
}

static int l_random_bot(lua_State *L) {
    struct kn_rng *rng = kn_check_rng(L, 1);
    int buffered = is_false(L, 2);
    for (int i = 2; i <= 5; i++) {
        if (buffered) luaL_argexpected(L, is_false(L, i), i, "false, as the step lists before it");
        else luaL_checktype(L, i, LUA_TTABLE);
    }
    lua_Integer max = luaL_checkinteger(L, 6);
    int texts = lua_isnoneornil(L, 7) || lua_toboolean(L, 7);
    luaL_argcheck(L, !(buffered && texts), 7, "a bot that keeps its steps in a buffer makes no texts");
    lua_settop(L, 5);
    struct bot_state *b = (struct bot_state *)lua_newuserdatauv(L, sizeof *b, 0);
    b->rng = rng;
    b->max = max;
    b->texts = texts;
    b->base = 0;
    b->count = 0;
    b->buffered = buffered;
    b->cap = 0;
    b->buf = NULL;
    lua_insert(L, 1);                                      /* state rng hist hseat hidx hstop */
    if (buffered) {
        b->buf = (struct bot_step *)lua_newuserdatauv(L, BUF_FIRST * sizeof *b->buf, 0);
        b->cap = BUF_FIRST;
    } else {
        lua_pushboolean(L, 0);
    }
    lua_pushcclosure(L, bot_choose, UP_N);
    return 1;
}

static struct bot_state *check_bot(lua_State *L, int arg) {
    if (lua_tocfunction(L, arg) != bot_choose) luaL_typeerror(L, arg, "random bot");
    lua_getupvalue(L, arg, UP_STATE);
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return b;
}

/* bot_lists(bot) -> hist, hseat, hidx, hstop: the bot's step lists. A bot
 * that kept its steps in a buffer makes them now (texts false, as
 * record_number writes them) and writes every later step to them. */
static int l_bot_lists(lua_State *L) {
    struct bot_state *b = check_bot(L, 1);
    if (b->buffered) {
        lua_Integer n = b->count;                          /* base is 0 in a buffer */
        int room = n < 200 ? 200 : (int)n + 64;
        lua_createtable(L, room, 0);
        lua_createtable(L, room, 0);
        lua_createtable(L, room, 0);
        lua_createtable(L, 0, 0);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_pushboolean(L, 0);
            lua_rawseti(L, 2, i);
            lua_pushinteger(L, b->buf[i - 1].seat);
            lua_rawseti(L, 3, i);
            lua_pushinteger(L, b->buf[i - 1].k);
            lua_rawseti(L, 4, i);
        }
        for (int j = 0; j < 4; j++) {
            lua_pushvalue(L, 2 + j);
            lua_setupvalue(L, 1, UP_HIST + j);
        }
        b->buffered = 0;
        b->buf = NULL;
        b->cap = 0;
        lua_pushboolean(L, 0);                             /* the buffer is garbage now */
        lua_setupvalue(L, 1, UP_BUF);
        return 4;
    }
    for (int j = 0; j < 4; j++) lua_getupvalue(L, 1, UP_HIST + j);
    return 4;
}

/* bot_steps(bot) -> the steps it has taken. */
static int l_bot_steps(lua_State *L) {
    struct bot_state *b = check_bot(L, 1);
    lua_pushinteger(L, b->base + b->count);
    return 1;
}

void kn_open_bot(lua_State *L) {
    lua_pushcfunction(L, l_random_bot);
    lua_setfield(L, -2, "random_bot");
    lua_pushcfunction(L, l_bot_lists);
    lua_setfield(L, -2, "bot_lists");
    lua_pushcfunction(L, l_bot_steps);
    lua_setfield(L, -2, "bot_steps");
}

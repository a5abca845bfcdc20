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
 *
 * kontor.core.bot_method(bot, g, players, choose [, choose_all
 * [, choose_from]]) makes g:choose (and g:choose_all, the runner of an
 * order entry, and g:choose_from) for the time the bot plays g's game
 * inside: the rule script's g:choose then reaches the bot with no Lua
 * function between them (below, bot_method, bot_all, bot_entry, bot_from).
 *
 * kontor.core.tally(players, roots, miss) makes a kontor.Tally: the count
 * of each kind of move a game's seats made (the balance lab's "what do
 * players do", lua/kontor/balance/moves.lua). Given to random_bot as its
 * fourth argument, the bot counts each step it takes as it takes it:
 * the kind is a lookup in `roots`, a trie of the decisions' option words
 * that moves.lua keeps (roots[name] is the node of a decision; a node's
 * [word or entry] is the node after it, or the kind's id when the entry
 * holds a number; [1] the id when a number comes next, [2] when the
 * option ends there; a decision's [3] maps whole option texts to ids).
 * What the trie does not know yet, miss(name, options, family, k) works
 * out and adds (once per new entry). No text is made.
 */
#include "binding.h"
#include "engine/engine.h"
#include "rng.h"
#include "steps.h"

#include <stdint.h>
#include <string.h>

#define KONTOR_TALLY "kontor.Tally"

enum { UP_STATE = 1, UP_RNG, UP_REC, UP_TALLY, UP_N = UP_TALLY };
/* The tally's user values. */
enum { TV_ROOTS = 1, TV_MISS, TV_COUNT, TV_TOUCHED, TV_N = TV_TOUCHED };

/* Counts by (kind id, seat) of one game, and its decisions. */
struct tally {
    lua_Integer players;
    lua_Integer decisions, options, single;   /* decisions, their options, those with one */
    uint32_t *count;         /* [id * (players + 1) + seat]: TV_COUNT's block */
    lua_Integer ids;         /* ids 0..ids-1 have room in count */
    lua_Integer *touched;    /* the cells counted this game, in order: TV_TOUCHED's block */
    lua_Integer ntouched, cap;
    lua_Integer kinds;       /* the kinds among them */
};

/* The bot's own numbers, in a userdata only its closure holds. */
struct bot_state {
    struct kn_rng *rng;      /* UP_RNG's, which keeps it alive */
    struct kn_steps *rec;    /* UP_REC's, which keeps it alive */
    struct tally *tally;     /* UP_TALLY's, or NULL */
    lua_Integer max;         /* the most steps it takes */
    lua_Integer count;       /* steps taken */
    lua_Integer players;     /* the game's seats (bot_method's; 0 before) */
    lua_Integer entering;    /* the seat whose order entry runs, or 0 (bot_method's) */
    const void *ctx;         /* g while bot_method's functions are g's (MUP_CTX), else NULL */
};

/* ---- the tally ------------------------------------------------------------ */

static struct tally *check_tally(lua_State *L, int i) {
    return (struct tally *)luaL_checkudata(L, i, KONTOR_TALLY);
}

/* A new block of n bytes as the tally's user value uv (the old one, if
 * any, copied in and left to the collector); returns it. */
static void *regrow(lua_State *L, int tally, int uv, const void *old, size_t oldn, size_t n) {
    void *p = lua_newuserdatauv(L, n, 0);
    memset(p, 0, n);
    if (old != NULL) memcpy(p, old, oldn);
    lua_setiuservalue(L, tally, uv);
    return p;
}

/* Counts one decision of `seat` with `nopts` options, answered by an
 * option of kind `id`. */
static void tally_add(lua_State *L, int tally, struct tally *t, lua_Integer id, lua_Integer seat,
                      lua_Integer nopts) {
    if (seat < 1 || seat > t->players || id < 0) return;
    lua_Integer stride = t->players + 1;
    if (id >= t->ids) {
        lua_Integer ids = t->ids * 2 > id + 16 ? t->ids * 2 : id + 16;
        t->count = (uint32_t *)regrow(L, tally, TV_COUNT, t->count, (size_t)(t->ids * stride) * sizeof *t->count,
                                      (size_t)(ids * stride) * sizeof *t->count);
        t->ids = ids;
    }
    lua_Integer cell = id * stride + seat;
    if (t->count[cell]++ == 0) {
        int seen = 0;
        for (lua_Integer s = 1; s <= t->players && !seen; s++) seen = s != seat && t->count[id * stride + s] > 0;
        if (!seen) t->kinds++;
        if (t->ntouched == t->cap) {
            lua_Integer cap = t->cap * 2 + 32;
            t->touched = (lua_Integer *)regrow(L, tally, TV_TOUCHED, t->touched,
                                               (size_t)t->cap * sizeof *t->touched, (size_t)cap * sizeof *t->touched);
            t->cap = cap;
        }
        t->touched[t->ntouched++] = cell;
    }
    t->decisions++;
    t->options += nopts;
    if (nopts == 1) t->single++;
}

/* One step of the trie from the node at `node` over the entry on top of
 * the stack (popped): 1 and the node replaced by the next one, 0 and *id
 * set when the kind ends there, -1 when the trie does not know. */
static int trie_step(lua_State *L, int node, lua_Integer *id) {
    int t;
    if (lua_type(L, -1) == LUA_TNUMBER) {
        lua_pop(L, 1);
        t = lua_rawgeti(L, node, 1);
    } else {
        t = lua_rawget(L, node);
    }
    if (t == LUA_TTABLE) {
        lua_replace(L, node);
        return 1;
    }
    if (t == LUA_TNUMBER) {
        *id = lua_tointeger(L, -1);
        lua_pop(L, 1);
        return 0;
    }
    lua_pop(L, 1);
    return -1;
}

/* The kind id of option k of the decision `name` (at its index) whose
 * options are at `options`: a list, or with `shape` a family, `pick` the
 * choices of option k. -1 when the trie does not know it. */
static lua_Integer trie_kind(lua_State *L, int tally, int name, int options, lua_Integer k,
                             const struct kn_family *shape, const lua_Integer *pick) {
    lua_Integer id = -1;
    int top = lua_gettop(L);
    lua_getiuservalue(L, tally, TV_ROOTS);
    lua_pushvalue(L, name);
    if (lua_rawget(L, -2) != LUA_TTABLE) goto done;
    int node = lua_gettop(L);
    int list, n;
    if (shape == NULL) {
        int t = lua_rawgeti(L, options, k);
        if (t == LUA_TSTRING) {                 /* the most common option: one lookup */
            if (lua_rawgeti(L, node, 3) == LUA_TTABLE) {
                lua_pushvalue(L, -2);
                if (lua_rawget(L, -2) == LUA_TNUMBER) id = lua_tointeger(L, -1);
            }
            goto done;
        }
        if (t != LUA_TTABLE) goto done;
        list = lua_gettop(L);
        n = (int)lua_rawlen(L, list);
    } else {
        list = options;
        n = shape->n;
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        if (shape != NULL && shape->size[i] > 0) {
            lua_rawgeti(L, -1, pick[i]);
            lua_remove(L, -2);
        }
        int r = trie_step(L, node, &id);
        if (r == 0) goto done;
        if (r < 0) { id = -1; goto done; }
    }
    if (lua_rawgeti(L, node, 2) == LUA_TNUMBER) id = lua_tointeger(L, -1);
done:
    lua_settop(L, top);
    return id;
}

/* Counts option k of the decision (name, options [, shape, pick]) for
 * `seat`: its kind from the trie, or from miss() the first time. */
static void tally_count(lua_State *L, int tally, struct tally *t, lua_Integer seat, int name, int options,
                        lua_Integer k, lua_Integer nopts, const struct kn_family *shape, const lua_Integer *pick) {
    lua_Integer id = trie_kind(L, tally, name, options, k, shape, pick);
    if (id < 0) {
        luaL_checkstack(L, 6, "the tally");
        lua_getiuservalue(L, tally, TV_MISS);
        lua_pushvalue(L, name);
        lua_pushvalue(L, options);
        lua_pushboolean(L, shape != NULL);
        lua_pushinteger(L, k);
        lua_call(L, 4, 1);
        id = lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    tally_add(L, tally, t, id, seat, nopts);
}

/* tally(players, roots, miss) -> a new kontor.Tally. */
static int l_tally(lua_State *L) {
    lua_Integer players = luaL_checkinteger(L, 1);
    luaL_argcheck(L, players >= 1 && players <= 1000, 1, "players 1..1000 expected");
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    struct tally *t = (struct tally *)lua_newuserdatauv(L, sizeof *t, TV_N);
    memset(t, 0, sizeof *t);
    t->players = players;
    luaL_setmetatable(L, KONTOR_TALLY);
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, -2, TV_ROOTS);
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, -2, TV_MISS);
    return 1;
}

/* tally:add(seat, name, options, k [, family]): counts option k of a
 * decision answered outside random_bot (the driver's steps: bots). */
static int tally_m_add(lua_State *L) {
    struct tally *t = check_tally(L, 1);
    lua_Integer seat = luaL_checkinteger(L, 2);
    luaL_checktype(L, 3, LUA_TSTRING);
    luaL_checktype(L, 4, LUA_TTABLE);
    lua_Integer k = luaL_checkinteger(L, 5);
    int family = lua_toboolean(L, 6);
    struct kn_family shape;
    lua_Integer pick[64 + 1];
    lua_Integer nopts;
    if (family) {
        nopts = kn_family_check(L, 4, 2, 3, 0, "tally:add", &shape);
        kn_family_picks(&shape, k, pick);
    } else {
        nopts = (lua_Integer)lua_rawlen(L, 4);
    }
    luaL_argcheck(L, k >= 1 && k <= nopts, 5, "not an option of the decision");
    tally_count(L, 1, t, seat, 3, 4, k, nopts, family ? &shape : NULL, pick);
    return 0;
}

/* tally:take([more]) -> decisions, options, single, { id, seat, n, ... },
 * and an empty table with room for a key per cell, two per kind and
 * `more` (a game's measure values: balance.play_game; sized to what it
 * will hold, not more: a table a size too big each game grew the resident
 * set of a long run by 2 MB): the counts since the last take (or reset),
 * which start again from 0. */
static int tally_m_take(lua_State *L) {
    struct tally *t = check_tally(L, 1);
    lua_pushinteger(L, t->decisions);
    lua_pushinteger(L, t->options);
    lua_pushinteger(L, t->single);
    lua_createtable(L, (int)(t->ntouched * 3), 0);
    lua_Integer stride = t->players + 1;
    for (lua_Integer i = 0; i < t->ntouched; i++) {
        lua_Integer cell = t->touched[i];
        lua_pushinteger(L, cell / stride);
        lua_rawseti(L, -2, i * 3 + 1);
        lua_pushinteger(L, cell % stride);
        lua_rawseti(L, -2, i * 3 + 2);
        lua_pushinteger(L, (lua_Integer)t->count[cell]);
        lua_rawseti(L, -2, i * 3 + 3);
        t->count[cell] = 0;
    }
    lua_Integer more = luaL_optinteger(L, 2, 0);
    lua_Integer room = t->ntouched + 2 * t->kinds + (more > 0 && more < 1024 ? more : 0);
    lua_createtable(L, 0, (int)(room < 4096 ? room : 4096));
    t->ntouched = t->kinds = 0;
    t->decisions = t->options = t->single = 0;
    return 5;
}

static void tally_clear(struct tally *t) {
    for (lua_Integer i = 0; i < t->ntouched; i++) t->count[t->touched[i]] = 0;
    t->ntouched = t->kinds = 0;
    t->decisions = t->options = t->single = 0;
}

/* tally:reset(): forgets the counts so far. */
static int tally_m_reset(lua_State *L) {
    tally_clear(check_tally(L, 1));
    return 0;
}

static const luaL_Reg tally_meta[] = { { NULL, NULL } };
static const luaL_Reg tally_methods[] = {
    { "add", tally_m_add }, { "take", tally_m_take }, { "reset", tally_m_reset }, { NULL, NULL },
};

/* ---- the bot ---------------------------------------------------------------- */

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

/* One step of `seat` among nopts options: drawn, recorded, and the next
 * step given a fresh budget; returns the option. */
static lua_Integer take_step(lua_State *L, struct bot_state *b, lua_Integer seat, lua_Integer nopts) {
    lua_Integer count = b->count + 1;
    if (count > b->max)
        return luaL_error(L, "the game did not end within %d steps", (int)b->max);
    b->count = count;
    lua_Integer k = (lua_Integer)kn_rng_below(b->rng, (uint64_t)nopts) + 1;
    kn_steps *rec = b->rec;
    if (rec->n < rec->cap) {               /* room: written in place, as kn_steps_push writes it */
        kn_step *st = &rec->v[rec->n++];
        st->seat = (int32_t)seat;
        st->option = (int32_t)k;
        st->flags = 0;
        st->rank = 0;
    } else {
        kn_steps_add(L, rec, seat, k);
    }
    kn_sandbox_rearm();
    return k;
}

/* bot(seat, options [, name [, players [, family]]]): with players, options
 * are checked as g:choose checks them (lua/engine/options.c); with `family`
 * true, `options` is a family (g:choose_from), checked as such, and the bot
 * returns the entries the chosen option takes from its lists instead of k;
 * `family` a string instead names the g: method the check's messages
 * name (g:choose_all).
 * The name (a string) is the decision's, which a tally counts under. */
static int bot_choose(lua_State *L) {
    lua_Integer nopts;
    struct kn_family shape;
    /* the 5th argument: true for a family, or the name of the g: method
     * whose options these are (its messages name it) */
    int top = lua_gettop(L);
    int t5 = top >= 5 ? lua_type(L, 5) : LUA_TNONE;
    int family = t5 == LUA_TBOOLEAN && lua_toboolean(L, 5);
    const char *what = t5 == LUA_TSTRING ? lua_tostring(L, 5) : "g:choose";
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, lua_upvalueindex(UP_STATE));
    if (family && b->tally == NULL) {
        /* a constant family: checked when made, its choices its own */
        lua_Integer players = lua_tointeger(L, 4);
        const struct kn_const *c = kn_family_const(L, 2, 1, 3, players, "g:choose_from", &nopts);
        if (c != NULL) {
            /* the seat: checked 1..players (the bot is always given them) */
            lua_Integer k = take_step(L, b, players > 0 ? lua_tointeger(L, 1) : luaL_checkinteger(L, 1), nopts);
            return kn_family_push_choices(L, 2, c, k);
        }
    }
    if (family) {
        nopts = kn_family_check(L, 2, 1, 3, lua_tointeger(L, 4), "g:choose_from", &shape);
        lua_settop(L, 3);
    } else if (top >= 4) {
        lua_Integer players = lua_tointeger(L, 4), seat;
        nopts = kn_options_check_seat(L, 2, 1, 3, players, what, &seat);
        if (players > 0 && b->tally == NULL) {     /* the seat is checked 1..players */
            lua_pushinteger(L, take_step(L, b, seat, nopts));
            return 1;                               /* k, on top */
        }
        lua_settop(L, 3);
    } else {
        luaL_checktype(L, 2, LUA_TTABLE);
        nopts = (lua_Integer)lua_rawlen(L, 2);
        luaL_argcheck(L, nopts > 0, 2, "no options");
        lua_settop(L, 3);
    }
    lua_Integer seat = luaL_checkinteger(L, 1);
    lua_Integer k = take_step(L, b, seat, nopts);
    if (b->tally != NULL && lua_type(L, 3) == LUA_TSTRING) {
        lua_Integer pick[64 + 1];
        if (!family && lua_type(L, 2) == LUA_TUSERDATA) {
            /* a constant list (kontor.options), which the check took as it
             * is: the tally reads its plain list (the constant's user value) */
            lua_getiuservalue(L, 2, 1);
            lua_replace(L, 2);
        }
        if (family) kn_family_picks(&shape, k, pick);
        lua_pushvalue(L, lua_upvalueindex(UP_TALLY));
        tally_count(L, 4, b->tally, seat, 3, 2, k, nopts, family ? &shape : NULL, pick);
        lua_settop(L, 3);
    }
    return chosen(L, k, family ? &shape : NULL);
}

/* ---- g:choose as the bot ------------------------------------------------ *
 *
 * bot_method(bot, g, players, choose) -> a function that is g:choose while
 * the bot plays g's game inside (game/playout.lua puts it in g.choose and
 * takes it out again): the rule script's call reaches the bot with no Lua
 * function between them. Its upvalues: */
enum { MUP_STATE = 1, MUP_CTX, MUP_BOT, MUP_CHOOSE, MUP_N = MUP_CHOOSE };

/* The end of a call of Ctx.choose or Ctx.choose_all (upvalue MUP_CHOOSE)
 * by a bot's g:choose or g:choose_all that is not its game's any more (a
 * kept one, called on another g or after the playout): its results, or
 * its error. Ctx's messages are located at its caller (error level 2),
 * here this C function, which has no line: a string error that does not
 * start with the script's place gets it (luaL_where(L, 1), the script's
 * line), so it reads as Ctx's from the script would. */
static int ctx_done(lua_State *L, int status, lua_KContext base) {
    if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L) - (int)base;
    if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        size_t wn, mn;
        const char *w = lua_tolstring(L, -1, &wn), *m = lua_tolstring(L, -2, &mn);
        if (wn > 0 && (mn < wn || memcmp(m, w, wn) != 0)) {
            lua_rotate(L, -2, 1);
            lua_concat(L, 2);
        } else {
            lua_pop(L, 1);
        }
    }
    return lua_error(L);
}

/* Calls Ctx's function (upvalue MUP_CHOOSE) with the call's arguments, as
 * a Lua function would: it may yield (the driver's g:choose waits for the
 * decision), and its errors are located at the script's line (ctx_done). */
static int call_ctx(lua_State *L) {
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(MUP_CHOOSE));
    lua_insert(L, 1);
    return ctx_done(L, lua_pcallk(L, n, LUA_MULTRET, 0, 0, ctx_done), 0);
}

/* While an order entry runs (b->entering), a choice for another seat (the
 * seat at 2) raises Ctx.choose's message at the script's line; else
 * nothing happens. */
static void refuse_other_seat(lua_State *L, const struct bot_state *b) {
    lua_pushinteger(L, b->entering);
    int other = b->entering != 0 && !lua_rawequal(L, 2, -1);    /* as seat ~= entering_seat */
    lua_pop(L, 1);
    if (!other) return;
    luaL_where(L, 1);
    lua_pushfstring(L, "g:choose: seat %I's order entry chose for seat %s (an entry chooses only for its own seat)",
                    (LUAI_UACINT)b->entering, luaL_tolstring(L, 2, NULL));
    lua_remove(L, -2);
    lua_concat(L, 2);
    lua_error(L);
}

/* g:choose(seat, name, options), as Ctx.choose's way for the simulation
 * (lua/kontor/game/context.lua) takes it: a constant list (kontor.options)
 * or a plain one (checked here as the bot checks it) of a string name for
 * a seat 1..players is answered here, as the bot answers it; any other
 * options (or a wrong seat or name) go to the bot
 * itself, whose checks give their messages at the script's line as they
 * do from Ctx.choose; an order entry's choice for another seat raises
 * Ctx.choose's message. Called on another table, or once the playout is
 * over (bot_method_close), it is Ctx.choose. */
static int bot_method(lua_State *L) {
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, lua_upvalueindex(MUP_STATE));
    if (lua_topointer(L, 1) != b->ctx || b->ctx == NULL)    /* not g (a table's own address) */
        return call_ctx(L);
    if (lua_gettop(L) != 4) lua_settop(L, 4);             /* g, seat, name, options */
    if (lua_isinteger(L, 2)) {
        lua_Integer seat = lua_tointeger(L, 2), nopts;
        if (seat >= 1 && seat <= b->players && (b->entering == 0 || seat == b->entering)
            && lua_type(L, 3) == LUA_TSTRING) {
            /* a plain list: checked here as the bot checks it, its
             * messages at the script's line (level 1, bot_method's caller) */
            nopts = kn_options_const_count(L, 4);
            if (nopts == 0 && lua_type(L, 4) == LUA_TTABLE)
                nopts = kn_options_check_plain(L, 4, 2, 3, "g:choose", 1);
            if (nopts > 0) {
                lua_pushinteger(L, take_step(L, b, seat, nopts));
                return 1;
            }
        }
    }
    refuse_other_seat(L, b);
    lua_pushvalue(L, lua_upvalueindex(MUP_BOT));
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 3);
    lua_pushinteger(L, b->players);
    lua_call(L, 4, 1);
    return 1;
}

/* g:choose_all(seats, name, by_seat), as Ctx.choose_all's way for the
 * simulation takes it (lua/kontor/game/context.lua): checked as it checks
 * them, its messages at the script's line; then each seat's options, in
 * the order of `seats`, a constant list answered here as the bot answers
 * it, any other given to the bot (whose checks give their messages at the
 * script's line, as from Ctx.choose_all); returns the choices by seat.
 * Called on another table, or once the playout is over, it is
 * Ctx.choose_all (upvalue MUP_CHOOSE). */
static int bot_all(lua_State *L) {
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, lua_upvalueindex(MUP_STATE));
    int entering = 0;
    if (lua_topointer(L, 1) == b->ctx && b->ctx != NULL) {
        lua_getfield(L, 1, "_entering");
        entering = lua_toboolean(L, -1) ? (lua_isinteger(L, -1) ? 1 : -1) : 0;
        if (entering > 0) {
            luaL_where(L, 1);
            lua_pushfstring(L, "g:choose_all inside seat %I's order entry: an entry only chooses (g:choose) "
                               "for its own seat and works on its own copy of the state; do that when the "
                               "orders are revealed", (LUAI_UACINT)lua_tointeger(L, -2));
            lua_concat(L, 2);
            return lua_error(L);
        }
        lua_pop(L, 1);
    } else {
        entering = -1;
    }
    if (entering != 0) return call_ctx(L);                /* Ctx.choose_all's to say */
    lua_settop(L, 4);                                     /* g, seats, name, by_seat */
    lua_Integer nseats = kn_options_seats(L, 2, b->players, "g:choose_all", 1);
    if (lua_type(L, 4) != LUA_TTABLE || lua_getmetatable(L, 4)) {
        luaL_where(L, 1);
        lua_pushliteral(L, "g:choose_all: the options by seat must be a plain table");
        lua_concat(L, 2);
        return lua_error(L);
    }
    if (lua_type(L, 3) != LUA_TSTRING) {                  /* as the bot's check of the first seat */
        luaL_where(L, 1);
        lua_pushfstring(L, "g:choose_all: the decision's name must be a string, not %s", luaL_typename(L, 3));
        lua_concat(L, 2);
        return lua_error(L);
    }
    lua_newtable(L);                                      /* 5: chosen, filled as Lua fills {} */
    for (lua_Integer i = 1; i <= nseats; i++) {
        lua_rawgeti(L, 2, i);
        lua_Integer seat = lua_tointeger(L, -1), nopts;
        lua_pop(L, 1);
        lua_rawgeti(L, 4, seat);                          /* 6: the seat's options */
        if ((nopts = kn_options_const_count(L, 6)) > 0) {
            lua_pushinteger(L, take_step(L, b, seat, nopts));
        } else {
            lua_pushvalue(L, lua_upvalueindex(MUP_BOT));
            lua_pushinteger(L, seat);
            lua_pushvalue(L, 6);
            lua_pushvalue(L, 3);
            lua_pushinteger(L, b->players);
            lua_pushliteral(L, "g:choose_all");
            lua_call(L, 5, 1);
        }
        lua_rawseti(L, 5, seat);
        lua_pop(L, 1);
    }
    return 1;
}

/* g:choose_from(seat, name, family), as Ctx.choose_from's way for the
 * simulation takes it (lua/kontor/game/context.lua): a constant family
 * (kontor.family) of a string name for a seat 1..players is answered here,
 * as the bot answers it (the same draw, the same choices returned); any
 * other family (or a wrong seat or name) goes to the bot itself, whose
 * checks give their messages at the script's line as they do from
 * Ctx.choose_from; an order entry's choice for another seat raises
 * Ctx.choose_from's message. Called on another table, or once the playout
 * is over, it is Ctx.choose_from (upvalue MUP_CHOOSE). */
static int bot_from(lua_State *L) {
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, lua_upvalueindex(MUP_STATE));
    if (lua_topointer(L, 1) != b->ctx || b->ctx == NULL)    /* not g (a table's own address) */
        return call_ctx(L);
    if (lua_gettop(L) != 4) lua_settop(L, 4);             /* g, seat, name, family */
    if (lua_isinteger(L, 2) && b->tally == NULL) {
        lua_Integer seat = lua_tointeger(L, 2), nopts;
        if (seat >= 1 && seat <= b->players && (b->entering == 0 || seat == b->entering)
            && lua_type(L, 3) == LUA_TSTRING) {
            /* the seat and the name are checked: kn_family_const raises nothing */
            const struct kn_const *c = kn_family_const(L, 4, 2, 3, b->players, "g:choose_from", &nopts);
            if (c != NULL) return kn_family_push_choices(L, 4, c, take_step(L, b, seat, nopts));
        }
    }
    refuse_other_seat(L, b);
    lua_pushvalue(L, lua_upvalueindex(MUP_BOT));           /* bot(seat, family, name, players, true) */
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 3);
    lua_pushinteger(L, b->players);
    lua_pushboolean(L, 1);
    lua_call(L, 5, LUA_MULTRET);
    return lua_gettop(L) - 4;
}

static struct bot_state *method_state(lua_State *L) {
    lua_CFunction f = lua_tocfunction(L, 1);
    luaL_argcheck(L, f == bot_method || f == bot_all || f == bot_from, 1, "a bot's g:choose expected");
    lua_getupvalue(L, 1, MUP_STATE);
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return b;
}

/* entry(enter, g, seat, draft) -> order: seat's order entry, run while
 * the bot plays g's game inside (Ctx.choose_orders): bot_method's g:choose
 * chooses only for that seat while it runs. The third result of
 * bot_method, its upvalue the bot's state. */
static int bot_entry(lua_State *L) {
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, lua_upvalueindex(1));
    lua_Integer seat = luaL_checkinteger(L, 3);
    lua_settop(L, 4);
    b->entering = seat;
    lua_call(L, 3, 1);
    b->entering = 0;
    return 1;
}

/* bot_method(bot, g, players, choose [, choose_all [, choose_from]]): see
 * above; with choose_all (Ctx.choose_all), g:choose_all as the bot too
 * (bot_all) and the order entries' runner (bot_entry), the second and third
 * results; with choose_from (Ctx.choose_from), g:choose_from as the bot
 * (bot_from), the fourth. */
static int l_bot_method(lua_State *L) {
    luaL_argcheck(L, lua_tocfunction(L, 1) == bot_choose, 1, "a random_bot expected");
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Integer players = luaL_checkinteger(L, 3);
    luaL_argcheck(L, players >= 1, 3, "players >= 1 expected");
    luaL_checktype(L, 4, LUA_TFUNCTION);
    int all = !lua_isnoneornil(L, 5), from = !lua_isnoneornil(L, 6);
    if (all) luaL_checktype(L, 5, LUA_TFUNCTION);
    if (from) luaL_checktype(L, 6, LUA_TFUNCTION);
    lua_settop(L, 6);
    lua_getupvalue(L, 1, UP_STATE);                       /* 7: the bot's state */
    struct bot_state *b = (struct bot_state *)lua_touserdata(L, -1);
    b->players = players;
    b->entering = 0;
    b->ctx = lua_topointer(L, 2);                         /* g, kept alive by MUP_CTX */
    lua_pushvalue(L, -1);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 4);
    lua_pushcclosure(L, bot_method, MUP_N);
    lua_rotate(L, -2, 1);                                 /* method, state */
    if (all) {
        lua_pushvalue(L, -1);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 5);
        lua_pushcclosure(L, bot_all, MUP_N);
    } else {
        lua_pushnil(L);
    }
    lua_rotate(L, -2, 1);                                 /* method, all, state */
    if (from) {
        lua_pushvalue(L, -1);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 6);
        lua_pushcclosure(L, bot_from, MUP_N);
    } else {
        lua_pushnil(L);
    }
    lua_rotate(L, -2, 1);                                 /* method, all, from, state */
    lua_pushcclosure(L, bot_entry, 1);
    lua_rotate(L, -2, 1);                                 /* method, all, entry, from */
    return 4;
}

/* bot_method_close(method [, all [, from]]): the playout is over; from now
 * on the method is Ctx.choose (`all`, bot_method's second result,
 * Ctx.choose_all, and `from`, its fourth, Ctx.choose_from). */
static int l_bot_method_close(lua_State *L) {
    struct bot_state *b = method_state(L);
    b->entering = 0;
    b->ctx = NULL;
    lua_pushnil(L);
    lua_setupvalue(L, 1, MUP_CTX);
    if (!lua_isnoneornil(L, 2)) {
        luaL_argcheck(L, lua_tocfunction(L, 2) == bot_all, 2, "a bot's g:choose_all expected");
        lua_pushnil(L);
        lua_setupvalue(L, 2, MUP_CTX);
    }
    if (!lua_isnoneornil(L, 3)) {
        luaL_argcheck(L, lua_tocfunction(L, 3) == bot_from, 3, "a bot's g:choose_from expected");
        lua_pushnil(L);
        lua_setupvalue(L, 3, MUP_CTX);
    }
    return 0;
}

/* random_bot(rng, rec, max_steps [, tally]): with a tally, each step is
 * counted in it as it is taken (the tally is reset first). */
static int l_random_bot(lua_State *L) {
    struct kn_rng *rng = kn_check_rng(L, 1);
    struct kn_steps *rec = kn_check_steps(L, 2);
    lua_Integer max = luaL_checkinteger(L, 3);
    struct tally *t = lua_isnoneornil(L, 4) ? NULL : check_tally(L, 4);
    if (t != NULL) tally_clear(t);
    lua_settop(L, 4);
    lua_rotate(L, 3, 1);                                   /* rng rec nil|tally max */
    lua_settop(L, 3);                                      /* rng rec tally */
    struct bot_state *b = (struct bot_state *)lua_newuserdatauv(L, sizeof *b, 0);
    b->rng = rng;
    b->rec = rec;
    b->tally = t;
    b->max = max;
    b->count = 0;
    b->players = 0;
    b->entering = 0;
    b->ctx = NULL;
    lua_insert(L, 1);                                      /* state rng rec tally */
    lua_pushcclosure(L, bot_choose, UP_N);
    return 1;
}

void kn_open_playout(lua_State *L) {
    kn_newtype(L, KONTOR_TALLY, tally_meta, tally_methods);
    lua_pushcfunction(L, l_random_bot);
    lua_setfield(L, -2, "random_bot");
    lua_pushcfunction(L, l_tally);
    lua_setfield(L, -2, "tally");
    lua_pushcfunction(L, l_bot_method);
    lua_setfield(L, -2, "bot_method");
    lua_pushcfunction(L, l_bot_method_close);
    lua_setfield(L, -2, "bot_method_close");
}

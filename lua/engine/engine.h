/*
 * engine.h - the engine's own C (lua/engine/): what the game driver needs
 * done in C that is not a type binding (those are lua/l_*.c).
 *
 *   options.c   kontor.core.options: a decision's options as data, the
 *               boundary check of g:choose, texts made on demand
 *   playout.c   kontor.core.random_bot: the simulation's bot, answering
 *               inside the game's coroutine
 *   fork.c      what lua/kontor/fork.lua's copies for search do in C
 *   sandbox.c   kontor.core.sandbox: the limits every rule-script call runs
 *               under (with guards.c and inspect.c; sandbox.h)
 *
 * Each open function expects the kontor.core module table at the top of
 * the stack and leaves the stack as it found it (lua/l_core.c calls them).
 */
#ifndef KONTOR_ENGINE_H
#define KONTOR_ENGINE_H

#include <lua.h>

void kn_open_options(lua_State *L);
void kn_open_playout(lua_State *L);
void kn_open_fork(lua_State *L);
void kn_open_sandbox(lua_State *L);

/* The boundary check of g:choose: n, or raises at the rule script's line
 * (players > 0: the seat must be 1..players). A constant list
 * (kontor.options) is taken as checked when it was made. */
lua_Integer kn_options_check(lua_State *L, int list, int seat, int name, lua_Integer players,
                             const char *what);
/* The same, giving the seat it checked in *seatp (players > 0; 0 else). */
lua_Integer kn_options_check_seat(lua_State *L, int list, int seat, int name, lua_Integer players,
                                  const char *what, lua_Integer *seatp);
/* The check of a plain table of options (not a constant) at list, its
 * seat and name checked before: n, or raises as kn_options_check does,
 * its message located at `level` (luaL_where; kn_options_check's is 2). */
lua_Integer kn_options_check_plain(lua_State *L, int list, int seat, int name, const char *what, int level);
/* The seats of g:choose_all and g:choose_orders at idx: n, or raises as
 * kontor.core.options.seats does, its message located at `level`. */
lua_Integer kn_options_seats(lua_State *L, int idx, lua_Integer players, const char *what, int level);
/* The number of options of the constant list (kontor.options) at idx, or
 * 0 for any other value (nothing is read or checked). */
lua_Integer kn_options_const_count(lua_State *L, int idx);

/* A family of options (g:choose_from). Its check returns the number of
 * options, or raises at the rule script's line, and gives its shape: n
 * entries, size[i] the choices of entry i if it is a list, 0 if it is a
 * word or a number. A constant family (kontor.family) is taken as checked
 * when it was made, and replaced on the stack by its plain list. */
struct kn_family {
    int n;
    lua_Integer size[64 + 1];
};
lua_Integer kn_family_check(lua_State *L, int family, int seat, int name, lua_Integer players,
                            const char *what, struct kn_family *shape);
/* The choice option k takes from each list of the family: pick[i] for
 * each entry i with shape->size[i] > 0. */
void kn_family_picks(const struct kn_family *shape, lua_Integer k, lua_Integer *pick);

/* The simulation's bot's way with a constant family (kontor.family) whose
 * choices its userdata keeps (most do): kn_family_const checks the seat
 * and the name as kn_family_check does and gives the count of options
 * (NULL, nothing checked, for any other value); kn_family_push_choices
 * pushes the choices option k takes, in order, and returns how many. */
struct kn_const;
const struct kn_const *kn_family_const(lua_State *L, int idx, int seat, int name, lua_Integer players,
                                       const char *what, lua_Integer *count);
int kn_family_push_choices(lua_State *L, int idx, const struct kn_const *c, lua_Integer k);

#endif

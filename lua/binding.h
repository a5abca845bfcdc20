/*
 * binding.h - conventions shared by the Lua binding files (lua/l_*.c) and
 * the engine's C (lua/engine/).
 *
 * Each exposed type lives in its own file, with one luaL_Reg table of
 * methods, a metatable named by a KONTOR_* constant, and one open function
 * that adds the type's constructors to the `kontor.core` table on top of the
 * stack. The core (core/) never includes Lua; only these files do.
 */
#ifndef KONTOR_BINDING_H
#define KONTOR_BINDING_H

#include <stdint.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>

#define KONTOR_RNG     "kontor.Rng"
#define KONTOR_PILE    "kontor.Pile"
#define KONTOR_COUNTER "kontor.Counter"
#define KONTOR_LOG     "kontor.Log"
#define KONTOR_STEPS   "kontor.Steps"

/* Each expects the kontor.core module table at the top of the stack and
 * leaves the stack as it found it. */
void kn_open_rng(lua_State *L);
void kn_open_pile(lua_State *L);
void kn_open_counter(lua_State *L);
void kn_open_log(lua_State *L);
void kn_open_steps(lua_State *L);
void kn_open_json(lua_State *L);
void kn_open_fs(lua_State *L);
void kn_open_term(lua_State *L);

/* Puts the sandbox's counting allocator in front of the allocator of a
 * state made elsewhere (stock lua5.4 loading the module); nothing when the
 * state is kn_newstate's. Raises if another state has it. */
void kn_sandbox_attach(lua_State *L);

/* A fresh instruction budget for the next step of an armed call. */
void kn_sandbox_rearm(void);
/* Charges `work` units to the armed call's work counter (raises at the limit). */
void kn_sandbox_charge(lua_State *L, double work);
/* malloc and free counted against the memory cap, for a library that
 * allocates outside the interpreter (jansson: lua/l_json.c). */
void *kn_sandbox_malloc(size_t size);
void kn_sandbox_free(void *ptr);

/* A call that only reads the game (sandbox.inspect: R.view, R.board,
 * R.scores, R.estimate ...) is running while kn_inspect.on: the piles,
 * counters, RNGs and logs older than the call (serial < from) refuse
 * every change then (kn_may_change). */
struct kn_inspect_state {
    int on;
    uint64_t from;
};
extern struct kn_inspect_state kn_inspect;
extern uint64_t kn_ud_serial;       /* the serial the next engine userdata gets */
/* Raises "<hook> cannot change the game: it called <what> (...)" when
 * `obj` (a kn_newudata object) is older than the inspecting call. */
void kn_refuse_change(lua_State *L, const void *obj, const char *what);

/* The check at the top of every method that changes a pile, counter, RNG
 * or log: one load and a branch when no view runs. */
static inline void kn_may_change(lua_State *L, const void *obj, const char *what) {
    if (__builtin_expect(kn_inspect.on, 0)) kn_refuse_change(L, obj, what);
}

/* Creates the metatable `tname` once: the `meta` metamethods, __index =
 * a table of `methods`, and __metatable = false so that getmetatable() in a
 * rule script cannot reach (and replace) the methods. (Here, not in
 * l_core.c: a type's file needs nothing of the module that gathers them.) */
static inline void kn_newtype(lua_State *L, const char *tname, const luaL_Reg *meta,
                              const luaL_Reg *methods) {
    luaL_newmetatable(L, tname);
    luaL_setfuncs(L, meta, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

/* The engine's userdata (piles, counters, logs, RNGs) start with their
 * type's tag, the address of a static object of its binding, then their
 * serial (kn_ud_serial when made): KN_UD_HEAD bytes (the alignment Lua
 * gives a userdata's memory), then the object.
 * kn_newudata writes the tag before the caller sets the metatable, so the
 * userdata is safe from the start. */
#define KN_UD_HEAD 16

static inline void *kn_newudata(lua_State *L, size_t size, int nuv, const void *tag) {
    char *p = (char *)lua_newuserdatauv(L, KN_UD_HEAD + size, nuv);
    memcpy(p, &tag, sizeof tag);
    uint64_t serial = kn_ud_serial++;   /* its age, for kn_may_change */
    memcpy(p + sizeof tag, &serial, sizeof serial);
    return p + KN_UD_HEAD;
}

/* The userdata check on every method call: the value is a full userdata
 * (lua_rawlen is 0 for a light one) large enough to hold a tag, and its
 * tag is this type's. No Lua code can write a userdata's bytes, so no
 * other userdata holds the tag; the check pushes nothing and looks up
 * nothing (the metatable's address, compared before, cost a push, a
 * lookup and a pop: 2% of a simulated game). The error reads like
 * luaL_checkudata's. */
static inline void *kn_checkudata(lua_State *L, int arg, const void *tag,
                                  const char *tname) {
    char *p = (char *)lua_touserdata(L, arg);
    if (p != NULL && lua_rawlen(L, arg) >= KN_UD_HEAD) {
        const void *got;
        memcpy(&got, p, sizeof got);
        if (got == tag) return p + KN_UD_HEAD;
    }
    luaL_typeerror(L, arg, tname);
    return NULL;
}

/* luaL_checkinteger's value and error, one API call on the common path
 * (luaL_checkinteger is a call around lua_tointegerx): the methods rule
 * scripts call most read their integers so. */
static inline lua_Integer kn_checkinteger(lua_State *L, int arg) {
    int isint;
    lua_Integer v = lua_tointegerx(L, arg, &isint);
    if (__builtin_expect(isint, 1)) return v;
    return luaL_checkinteger(L, arg);   /* raises luaL_checkinteger's error */
}

/* A game's step record (lua/l_steps.c): the simulation's bot records into
 * it. kn_steps_add raises on a failed allocation. */
struct kn_steps;
struct kn_steps *kn_check_steps(lua_State *L, int arg);
void kn_steps_add(lua_State *L, struct kn_steps *s, lua_Integer seat, lua_Integer option);

/* The rng userdata is needed by the pile binding (shuffle). */
struct kn_rng;
struct kn_rng *kn_check_rng(lua_State *L, int arg);

/* luaopen for the whole core table: { rng = ..., pile = ..., json = {...}, ... } */
int luaopen_kontor_core(lua_State *L);

/* Makes `require "kontor.core"` work in L (package.preload). */
void kn_preload_core(lua_State *L);

#endif

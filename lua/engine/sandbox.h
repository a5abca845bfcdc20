/*
 * sandbox.h - what the sandbox's three files share:
 *   lua/engine/sandbox.c  the limits (memory, time, work), the watchdog and
 *                         every armed call into a rule script
 *   lua/engine/guards.c   the library functions that loop in C, charged to
 *                         the work counter or refused while a call is armed
 *   lua/engine/inspect.c  calls that only read the game (sandbox.inspect)
 * Bindings use binding.h's kn_sandbox_* functions, not this.
 */
#ifndef KONTOR_ENGINE_SANDBOX_H
#define KONTOR_ENGINE_SANDBOX_H

#include <signal.h>
#include <stddef.h>

#include <lua.h>

enum { WHY_NONE, WHY_TIME, WHY_WORK };

/* The limits and the armed call's state (sandbox.c owns it). */
struct kn_limits {
    size_t used, limit;
    double time, replay_time;
    long work, left;
    int killed, why, finishing, replaying, ticking;
    volatile sig_atomic_t armed, interrupted, expired, ticks_left;  /* read by on_tick */
    lua_State *volatile running;
    sig_atomic_t ticks, replay_ticks;   /* time and replay_time in ticks; 0: not counted yet */
    /* An allocation was refused (the cap, or the C library) and neither
     * retried with success (Lua's emergency collection) nor caught by the
     * script's pcall: the error now unwinding is a memory error. The
     * allocator says so, not the error's text. */
    int oom;
    void *oom_ptr;
    size_t oom_size;
};
/* (hidden: the module's own, reached without the GOT in core.so, as a
 * static would be) */
extern struct kn_limits kn_lim __attribute__((visibility("hidden")));

/* sandbox.c */
/* The memory cap now: an eighth lower while a call is armed. */
size_t kn_sandbox_cap(void);
/* Sets the hook that raises the limit error on co, when the armed call
 * is over a limit. */
void kn_hook_if_over(lua_State *co);
/* sandbox.finish: ends the game at once (raises the finish token). */
int kn_sb_finish(lua_State *L);
/* Kills the armed call and raises its limit error (time or work). */
void kn_limit_error(lua_State *L);
/* Whether the value at idx is a game's own thread (sandbox.thread). */
int kn_is_game_thread(lua_State *L, int idx);
/* Calls the function at base with the values above it, armed: leaves true
 * and its results, or false and the message, from base on; their number. */
int kn_call_at(lua_State *L, int base);

/* guards.c */
/* Replaces the looping library functions by their guards. */
void kn_open_guards(lua_State *L);

/* A program that carries the shipped rule scripts compiled at build time
 * (repl/main.c) sets this: f loads the chunk compiled from exactly the
 * text src[0, len) under the file name `file` and returns LUA_OK, or
 * returns another code and leaves the stack as it was. sandbox.load
 * tries it after the source scan, before compiling the text. */
typedef int (*kn_compiled_fn)(lua_State *L, const char *src, size_t len, const char *file);
void kn_sandbox_compiled(kn_compiled_fn f);
int kn_sb_ordered(lua_State *L);        /* sandbox.ordered */

/* inspect.c */
int kn_sb_inspect(lua_State *L);        /* sandbox.inspect */
int kn_sb_inspecting(lua_State *L);     /* sandbox.inspecting */

#endif

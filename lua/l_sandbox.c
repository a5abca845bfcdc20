/*
 * l_sandbox.c - the limits every rule-script call runs under.
 *
 * One interpreter per process. Its allocator counts bytes and refuses to go
 * over the memory cap. A count hook spends the instruction budget while a
 * call is armed and turns SIGINT into an error. It sits only where rule code
 * runs: on every game thread (sandbox.thread, inherited by the coroutines a
 * script makes) and on the caller for the length of an armed call, so the
 * engine's own Lua runs at full speed. Every call into a rule script goes
 * through sb_call or sb_resume, which arm the limits, run the call with a
 * traceback handler, and disarm them: there is no other way in.
 *
 * A limit error is "sticky": once the budget is spent the armed call is
 * killed, and the sandbox's own pcall, xpcall and coroutine.resume rethrow
 * instead of returning, so a script cannot swallow it.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

#define HOOK_STEP 1000                      /* VM instructions per hook call */
#define DEFAULT_BUDGET 10000000L            /* instructions per armed call */
#define DEFAULT_MEMORY ((size_t)256 << 20)  /* bytes, whole interpreter */

static struct {
    size_t used, limit;
    long budget, left;
    int armed, killed, oom, finishing;
    volatile sig_atomic_t interrupted;
} lim = { 0, DEFAULT_MEMORY, DEFAULT_BUDGET, 0, 0, 0, 0, 0, 0 };

/* The address is the token: g:finish() raises it to end a game at once. */
static char finish_token;

static const char *const LIMIT_MSG = "instruction limit reached";

/* ---- allocator ---------------------------------------------------------- */

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    if (ptr == NULL) osize = 0;  /* osize is a type tag then */
    if (nsize == 0) {
        free(ptr);
        lim.used -= osize;
        return NULL;
    }
    if (nsize > osize && lim.used - osize + nsize > lim.limit) {
        lim.oom = 1;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) return NULL;
    lim.used = lim.used - osize + nsize;
    return p;
}

/* ---- hook --------------------------------------------------------------- */

static void sb_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    if (lim.interrupted) {
        lim.interrupted = 0;
        luaL_error(L, "interrupted");
    }
    if (!lim.armed) return;
    if (lim.killed || (lim.left -= HOOK_STEP) <= 0) {
        lim.killed = 1;
        lua_pushstring(L, LIMIT_MSG);
        lua_error(L);
    }
}

static lua_State *main_thread;

/* lua.c's way: the handler only sets a flag and a hook (lua_sethook is
 * safe to call from a signal handler). Game threads carry the hook already. */
static void on_sigint(int sig) {
    (void)sig;
    lim.interrupted = 1;
    lua_sethook(main_thread, sb_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

static int sb_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "kontor: unprotected Lua error: %s\n", msg ? msg : "?");
    return 0;  /* abort */
}

lua_State *kn_newstate(void) {
    lua_State *L = lua_newstate(sb_alloc, NULL);
    if (L == NULL) return NULL;
    lua_atpanic(L, sb_panic);
    main_thread = L;
    return L;
}

/* ---- arming ------------------------------------------------------------- */

static void arm(void) {
    lim.armed = 1;
    lim.killed = 0;
    lim.oom = 0;
    lim.finishing = 0;
    lim.left = lim.budget;
}

static void disarm(void) {
    lim.armed = 0;
}

/* Turns the error object at the top of `from` into the value returned to
 * the engine, pushed on L: the finish token as is; anything else as one
 * string with the script's file:line and a traceback of `co`. */
static void push_error(lua_State *L, lua_State *co, int status) {
    if (lim.finishing || lua_touserdata(co, -1) == &finish_token) {
        lua_pushlightuserdata(L, &finish_token);
        return;
    }
    const char *msg;
    char buf[160];
    if (lim.killed) {
        snprintf(buf, sizeof buf, "%s (%ld instructions per step)", LIMIT_MSG,
                 lim.budget);
        msg = buf;
    } else if (status == LUA_ERRMEM || lim.oom) {
        snprintf(buf, sizeof buf, "memory limit reached (%zu MiB)",
                 lim.limit >> 20);
        msg = buf;
    } else if (lua_type(co, -1) == LUA_TSTRING || lua_type(co, -1) == LUA_TNUMBER) {
        msg = lua_tostring(co, -1);
    } else {
        snprintf(buf, sizeof buf, "(error object is a %s value)",
                 luaL_typename(co, -1));
        msg = buf;
    }
    if (co == L) {
        luaL_traceback(L, L, msg, 1);
    } else {
        luaL_traceback(L, co, msg, 0);
    }
}

static int msgh(lua_State *L) {
    push_error(L, L, LUA_ERRRUN);
    return 1;
}

/* sandbox.call(f, ...) -> true, ... | false, message | false, finish_token */
static int sb_call(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int was_armed = lim.armed;
    int n = lua_gettop(L) - 1;
    lua_pushcfunction(L, msgh);
    lua_insert(L, 1);
    lua_Hook old_hook = lua_gethook(L);
    int old_mask = lua_gethookmask(L), old_count = lua_gethookcount(L);
    if (!was_armed) arm();
    lua_sethook(L, sb_hook, LUA_MASKCOUNT, HOOK_STEP);
    int status = lua_pcall(L, n, LUA_MULTRET, 1);
    lua_sethook(L, old_hook, old_mask, old_count);
    if (!was_armed) disarm();
    if (status != LUA_OK) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_replace(L, 1);
    return lua_gettop(L);
}

/* sandbox.resume(co, ...) -> true, yielded... | false, message | false, finish_token
 * The coroutine's own traceback is attached to an error. */
static int sb_resume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "coroutine");
    int n = lua_gettop(L) - 1;
    if (!lua_checkstack(co, n)) return luaL_error(L, "too many arguments to resume");
    lua_xmove(L, co, n);
    int nres, was_armed = lim.armed;
    if (!was_armed) arm();
    int status = lua_resume(co, L, n, &nres);
    if (!was_armed) disarm();
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            return luaL_error(L, "too many results to resume");
        }
        lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return nres + 1;
    }
    lua_pushboolean(L, 0);
    push_error(L, co, status);
    lua_settop(co, 0);
    return 2;
}

/* sandbox.rearm(): a fresh instruction budget for the next step, for bots
 * that choose inside the armed call (a killed call stays killed). */
void kn_sandbox_rearm(void) {
    if (lim.armed && !lim.killed) lim.left = lim.budget;
}

static int sb_rearm(lua_State *L) {
    (void)L;
    kn_sandbox_rearm();
    return 0;
}

/* sandbox.thread(f) -> a coroutine for rule code, carrying the hook. */
static int sb_thread(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    if (!getenv("KN_NOHOOK")) lua_sethook(co, sb_hook, LUA_MASKCOUNT, HOOK_STEP);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    return 1;
}

/* The sandbox's pcall: like pcall, but a limit or a finish cannot be caught. */
static int must_rethrow(lua_State *L) {
    if (lim.finishing) {  /* whatever an xpcall handler made of it */
        lua_pushlightuserdata(L, &finish_token);
        return 1;
    }
    return lim.killed;
}

/* sandbox.finish(): ends the game at once; g:finish() calls it. */
static int sb_finish(lua_State *L) {
    lim.finishing = 1;
    lua_pushlightuserdata(L, &finish_token);
    return lua_error(L);
}

static int finish_pcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        if (must_rethrow(L)) return lua_error(L);
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int sb_pcall(lua_State *L) {
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
    return finish_pcall(L, status, 0);
}

static int sb_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
    return finish_pcall(L, status, 2);
}

/* The sandbox's coroutine.resume: a limit or finish raised inside the
 * coroutine propagates to the caller instead of being returned. */
static int sb_coresume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "coroutine");
    int n = lua_gettop(L) - 1;
    if (lua_status(co) == LUA_OK && lua_gettop(co) == 0) {
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "cannot resume dead coroutine");
        return 2;
    }
    if (!lua_checkstack(co, n)) return luaL_error(L, "too many arguments to resume");
    lua_xmove(L, co, n);
    int nres;
    int status = lua_resume(co, L, n, &nres);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) return luaL_error(L, "too many results to resume");
        lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return nres + 1;
    }
    lua_xmove(co, L, 1);
    if (must_rethrow(L)) return lua_error(L);
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* sandbox.load(source, chunkname, env) -> function | nil, message
 * Text only: a binary chunk is refused whatever it claims to be. */
static int sb_load(lua_State *L) {
    size_t len;
    const char *src = luaL_checklstring(L, 1, &len);
    const char *name = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    if (luaL_loadbufferx(L, src, len, name, "t") != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushvalue(L, 3);
    if (lua_setupvalue(L, -2, 1) == NULL) lua_pop(L, 1);
    return 1;
}

/* sandbox.limits([t]) -> {instructions = n, memory = bytes, used = bytes}
 * With a table, sets the fields it has first. */
static int sb_limits(lua_State *L) {
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        if (lua_getfield(L, 1, "instructions") != LUA_TNIL) {
            lua_Integer n = luaL_checkinteger(L, -1);
            luaL_argcheck(L, n >= HOOK_STEP, 1, "instructions must be at least 1000");
            lim.budget = (long)n;
        }
        if (lua_getfield(L, 1, "memory") != LUA_TNIL) {
            lua_Integer n = luaL_checkinteger(L, -1);
            luaL_argcheck(L, n >= ((lua_Integer)1 << 20), 1, "memory must be at least 1 MiB");
            lim.limit = (size_t)n;
        }
        lua_pop(L, 2);
    }
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, lim.budget);
    lua_setfield(L, -2, "instructions");
    lua_pushinteger(L, (lua_Integer)lim.limit);
    lua_setfield(L, -2, "memory");
    lua_pushinteger(L, (lua_Integer)lim.used);
    lua_setfield(L, -2, "used");
    return 1;
}

/* sandbox.catch_sigint(on): while on, Ctrl-C raises "interrupted" in
 * whatever Lua code runs (lua.c's approach: the handler only sets a flag). */
static int sb_catch_sigint(lua_State *L) {
    int on = lua_toboolean(L, 1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_sigint : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    lim.interrupted = 0;
    if (!on && !lim.armed) lua_sethook(L, NULL, 0, 0);
    return 0;
}

static const luaL_Reg sandbox_funcs[] = {
    {"call", sb_call},
    {"resume", sb_resume},
    {"pcall", sb_pcall},
    {"xpcall", sb_xpcall},
    {"coresume", sb_coresume},
    {"load", sb_load},
    {"limits", sb_limits},
    {"catch_sigint", sb_catch_sigint},
    {"finish", sb_finish},
    {"thread", sb_thread},
    {"rearm", sb_rearm},
    {NULL, NULL}
};

void kn_open_sandbox(lua_State *L) {
    luaL_newlib(L, sandbox_funcs);
    lua_pushlightuserdata(L, &finish_token);
    lua_setfield(L, -2, "FINISH");
    lua_setfield(L, -2, "sandbox");
}

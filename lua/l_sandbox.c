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
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

#define HOOK_STEP 1000                      /* VM instructions per hook call */
#define DEFAULT_BUDGET 10000000L            /* instructions per armed call */
#define DEFAULT_MEMORY ((size_t)256 << 20)  /* bytes, whole interpreter */
#define MAX_SOURCE ((size_t)1 << 20)        /* bytes of one rule script */
#define MAX_LINE ((size_t)64 << 10)         /* bytes of one source line */
#define MAX_PATTERN_WORK 1e8                /* est. matcher steps per call */
#define MAX_CLOSE_DEPTH 100                 /* coroutine.close in __close */
#define MAX_MESSAGE 4000                    /* bytes of an error message */

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

/* The allocator the interpreter had before kn_sandbox_attach (stock
 * lua5.4's, when Kontor is loaded as a module); NULL: the C library's. */
static lua_Alloc host_alloc;
static void *host_ud;

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    size_t tag = osize;
    if (ptr == NULL) osize = 0;  /* osize is a type tag then */
    if (nsize == 0) {
        if (host_alloc) host_alloc(host_ud, ptr, tag, 0); else free(ptr);
        lim.used -= osize;
        return NULL;
    }
    if (nsize > osize && lim.used - osize + nsize > lim.limit) {
        lim.oom = 1;
        return NULL;
    }
    void *p = host_alloc ? host_alloc(host_ud, ptr, tag, nsize) : realloc(ptr, nsize);
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

/* The module's way in (lua5.4 -e 'require "kontor"'): the interpreter was
 * made by someone else, so the counting allocator goes in front of theirs,
 * counting from what the interpreter holds already. Closing the interpreter
 * gives it back its own allocator (see attach_gc). One interpreter per
 * process, as with kn_newstate. */
static int attach_gc(lua_State *L) {
    /* Runs at lua_close before the C modules are unloaded (finalizers run in
     * the reverse order of their objects' creation), so what lua_close frees
     * afterwards never calls into an unloaded sb_alloc. */
    lua_setallocf(L, host_alloc, host_ud);
    host_alloc = NULL;
    host_ud = NULL;
    main_thread = NULL;
    return 0;
}

void kn_sandbox_attach(lua_State *L) {
    void *ud;
    if (lua_getallocf(L, &ud) == sb_alloc) return;  /* kn_newstate made it */
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    lua_State *main = lua_tothread(L, -1);
    lua_pop(L, 1);
    if (main_thread != NULL && main_thread != main) {
        luaL_error(L, "kontor.core is open in another Lua state of this process "
                      "(one interpreter per process)");
    }
    lua_newuserdatauv(L, 0, 0);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, attach_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, "kontor.sandbox.attached");
    host_alloc = lua_getallocf(L, &host_ud);
    lim.used = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB);
    lua_setallocf(L, sb_alloc, NULL);
    main_thread = main;
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
        size_t len;
        msg = lua_tolstring(co, -1, &len);
        if (len > MAX_MESSAGE && lua_checkstack(co, 4)) {
            /* A huge message would be copied again and again on its way. */
            char tail[64];
            snprintf(tail, sizeof tail, "... (%zu bytes)", len);
            luaL_Buffer b;
            luaL_buffinit(co, &b);
            luaL_addlstring(&b, msg, MAX_MESSAGE);
            luaL_addstring(&b, tail);
            luaL_pushresult(&b);
            lua_replace(co, -2);
            msg = lua_tostring(co, -1);
        }
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
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!was_armed) disarm();
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            return luaL_error(L, "too many results to resume");
        }
        lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return nres + 1;
    }
    if ((status == LUA_ERRMEM || lim.oom) && !lim.finishing
        && lua_touserdata(co, -1) != &finish_token) {
        /* Memory is full, and the dead coroutine's frames still hold what
         * filled it (until the engine drops the thread). Let go of it first
         * (still armed: pending __close handlers run under the limits), or
         * neither the message nor the engine's rollback would fit. */
        lua_resetthread(co);
        lua_gc(L, LUA_GCCOLLECT);
        lim.oom = 1;
        lua_pushnil(co);
    }
    if (!was_armed) disarm();
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

/* The handler runs after the stack has unwound, with the hook on. Run as a
 * real message handler it would run with hooks off whenever the error came
 * from the hook itself (the budget running out), and an endless handler
 * could then never be stopped. Scripts have no debug library, so nothing
 * is lost by not running it at the point of the error. */
static int finish_xpcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        if (must_rethrow(L)) return lua_error(L);
        lua_pushvalue(L, 2);
        lua_insert(L, -2);
        if (lua_pcall(L, 1, 1, 0) != LUA_OK && must_rethrow(L)) return lua_error(L);
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int sb_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 0, 2, finish_xpcall);
    return finish_xpcall(L, status, 2);
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

static const char *check_source(const char *src, size_t len) {
    static char buf[96];
    if (len > MAX_SOURCE) {
        snprintf(buf, sizeof buf, "source too large (%zu bytes; the limit is %zu)", len,
                 MAX_SOURCE);
        return buf;
    }
    size_t line = 1, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || src[i] == '\n') {
            if (i - start > MAX_LINE) {
                snprintf(buf, sizeof buf, "line %zu too long (%zu bytes; the limit is %zu)",
                         line, i - start, MAX_LINE);
                return buf;
            }
            line++;
            start = i + 1;
        }
    }
    return NULL;
}

/* sandbox.load(source, chunkname, env) -> function | nil, message
 * Text only: a binary chunk is refused whatever it claims to be. */
static int sb_load(lua_State *L) {
    size_t len;
    const char *src = luaL_checklstring(L, 1, &len);
    const char *name = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    /* Refused before the compiler sees them: it runs in C, out of the
     * hook's reach, and Lua 5.4.4 has known crashes on huge expressions. */
    const char *why = check_source(src, len);
    if (why != NULL) {
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: %s", name[0] == '@' || name[0] == '=' ? name + 1 : name, why);
        return 2;
    }
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

/* ---- C functions that loop ---------------------------------------------- */
/* The count hook sees VM instructions only: a library function looping in C
 * (a backtracking pattern, string.rep of an empty string, table.move over
 * 2^40 indices) would run unchecked. While a call is armed these wrappers
 * charge the work to the instruction budget or refuse it; unarmed (the
 * engine's own code) they only forward. They replace the functions in the
 * real string and table libraries, so method calls ("s"):find(...) through
 * the shared string metatable are covered too. */

static void charge(lua_State *L, double work) {
    if (!lim.armed || work <= 0) return;
    if (lim.killed || work >= (double)lim.left) {
        lim.killed = 1;
        lua_pushstring(L, LIMIT_MSG);
        lua_error(L);
    }
    lim.left -= (long)work;
}

static int forward(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Only ')' and a final '$' from i to the end of the pattern. */
static int only_tail(const char *p, size_t i, size_t lp) {
    for (; i < lp; i++) {
        if (p[i] == ')') continue;
        if (p[i] == '$' && i == lp - 1) continue;
        return 0;
    }
    return 1;
}

/* A worst-case estimate of the steps Lua's backtracking matcher may take
 * for pattern p on a subject of n bytes: each quantifier (* + -) or %b that
 * something follows can try every length, so q of them cost about
 * n^q / q! per start position (n + 1 starts unless anchored); an optional
 * item (?) doubles it. A quantifier at the very end is linear. */
static double pattern_work(const char *p, size_t lp, double n) {
    int anchored = lp > 0 && p[0] == '^';
    double work = anchored ? 1 : n + 1;
    int q = 0;
    size_t i = (size_t)anchored;
    while (i < lp) {
        char c = p[i];
        if (c == '(' || c == ')') { i++; continue; }
        if (c == '%' && i + 1 < lp && p[i + 1] == 'b') { q++; i += 4; continue; }
        if (c == '%' && i + 1 < lp && p[i + 1] == 'f') { i += 2; c = '['; }
        if (c == '%') {
            i += 2;
        } else if (c == '[') {
            i++;
            if (i < lp && p[i] == '^') i++;
            do {
                if (i >= lp) break;
                i += p[i] == '%' ? 2 : 1;
            } while (i < lp && p[i] != ']');
            i++;
        } else {
            i++;
        }
        if (i < lp && (p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?')) {
            char op = p[i++];
            if (op == '?') work *= 2;
            else if (!only_tail(p, i, lp)) q++;
        }
    }
    for (int k = 1; k <= q && work < 1e300; k++) work = work * n / k;
    return work;
}

static int guard_pattern(lua_State *L) {
    if (lim.armed && lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING
        && !(lua_tointeger(L, lua_upvalueindex(2)) && lua_toboolean(L, 4))) {
        size_t ls, lp;
        lua_tolstring(L, 1, &ls);
        const char *p = lua_tolstring(L, 2, &lp);
        double work = pattern_work(p, lp, (double)ls);
        if (work > MAX_PATTERN_WORK) {
            return luaL_error(L, "pattern too complex for a subject of %I bytes "
                              "(about %f matching steps; the limit is %f)",
                              (lua_Integer)ls, (lua_Number)work, (lua_Number)MAX_PATTERN_WORK);
        }
        charge(L, work / 16);
    }
    return forward(L);
}

/* string.rep(s, n, sep): a result of zero bytes takes n empty copies. */
static int guard_rep(lua_State *L) {
    int isnum;
    lua_Integer n = lua_tointegerx(L, 2, &isnum);
    if (lim.armed && lua_type(L, 1) == LUA_TSTRING && isnum) {
        size_t l, lsep = 0;
        lua_tolstring(L, 1, &l);
        if (lua_type(L, 3) == LUA_TSTRING) lua_tolstring(L, 3, &lsep);
        if (n > 0 && l + lsep == 0) {
            lua_pushliteral(L, "");
            return 1;
        }
    }
    return forward(L);
}

/* Refuses a table whose # calls a __len metamethod: the library would
 * call it again and a script could answer 2^40 the second time. */
static lua_Integer plain_len(lua_State *L, int idx) {
    if (lua_getmetatable(L, idx)) {
        int has = lua_getfield(L, -1, "__len") != LUA_TNIL;
        lua_pop(L, 2);
        if (has) luaL_error(L, "tables with a __len metamethod cannot be used here in rule scripts");
    }
    return (lua_Integer)lua_rawlen(L, idx);
}

/* table.concat(t, sep, i, j), table.unpack(t, i, j): j - i + 1 elements.
 * The range is passed on explicitly, computed once. */
static int guard_range(lua_State *L) {
    if (lim.armed && lua_type(L, 1) == LUA_TTABLE) {
        int first = (int)lua_tointeger(L, lua_upvalueindex(2));  /* index of i */
        lua_settop(L, first + 1);
        lua_Integer i = luaL_optinteger(L, first, 1);
        lua_Integer j = lua_isnoneornil(L, first + 1) ? plain_len(L, 1)
                                                       : luaL_checkinteger(L, first + 1);
        lua_pushinteger(L, i);
        lua_replace(L, first);
        lua_pushinteger(L, j);
        lua_replace(L, first + 1);
        if (j >= i) charge(L, (double)j - (double)i + 1);
    }
    return forward(L);
}

/* table.move(a1, f, e, t, a2): e - f + 1 elements. */
static int guard_move(lua_State *L) {
    int isf, ise;
    lua_Integer f = lua_tointegerx(L, 2, &isf), e = lua_tointegerx(L, 3, &ise);
    if (lim.armed && isf && ise && e >= f) {
        charge(L, (double)e - (double)f + 1);
    }
    return forward(L);
}

/* table.insert, table.remove (shift up to #t elements), table.sort
 * (about n log n comparisons). */
static int guard_shift(lua_State *L) {
    if (lim.armed && lua_type(L, 1) == LUA_TTABLE) {
        double n = (double)plain_len(L, 1);
        int sort = (int)lua_tointeger(L, lua_upvalueindex(2));
        charge(L, sort ? n * (1 + log2(n + 1)) : n);
    }
    return forward(L);
}

/* coroutine.close runs the coroutine's pending __close handlers and returns
 * their error: a limit or a finish raised there is raised again. */
static int guard_close(lua_State *L) {
    /* Lua 5.4.4 does not count a close inside a __close handler against
     * its C-stack limit: 10000 nested closes overflow the C stack. */
    static int depth = 0;
    if (lim.armed && depth >= MAX_CLOSE_DEPTH) {
        return luaL_error(L, "coroutine.close: nested more than %d deep", MAX_CLOSE_DEPTH);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    depth++;
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    depth--;
    if (status != LUA_OK) return lua_error(L);
    int n = lua_gettop(L);
    if (lim.killed && lim.armed) {
        lua_pushstring(L, LIMIT_MSG);
        return lua_error(L);
    }
    if (lim.finishing) return sb_finish(L);
    return n;
}

/* Replaces lib[name] by the guard, with the original (and `extra`) as its
 * upvalues. */
static void guard(lua_State *L, const char *lib, const char *name, lua_CFunction g,
                  int extra) {
    if (lua_getglobal(L, lib) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    if (lua_getfield(L, -1, name) == LUA_TFUNCTION) {
        lua_pushinteger(L, extra);
        lua_pushcclosure(L, g, 2);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
    } else {
        lua_pop(L, 2);
    }
}

static void open_guards(lua_State *L) {
    guard(L, "string", "find", guard_pattern, 1);   /* 1: a plain flag counts */
    guard(L, "string", "match", guard_pattern, 0);
    guard(L, "string", "gmatch", guard_pattern, 0);
    guard(L, "string", "gsub", guard_pattern, 0);
    guard(L, "string", "rep", guard_rep, 0);
    guard(L, "table", "concat", guard_range, 3);
    guard(L, "table", "unpack", guard_range, 2);
    guard(L, "table", "move", guard_move, 0);
    guard(L, "table", "insert", guard_shift, 0);
    guard(L, "table", "remove", guard_shift, 0);
    guard(L, "table", "sort", guard_shift, 1);
    guard(L, "coroutine", "close", guard_close, 0);
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
    open_guards(L);
    luaL_newlib(L, sandbox_funcs);
    lua_pushlightuserdata(L, &finish_token);
    lua_setfield(L, -2, "FINISH");
    lua_setfield(L, -2, "sandbox");
}

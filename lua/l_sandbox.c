/*
 * l_sandbox.c - the limits every rule-script call runs under.
 *
 * One interpreter per process. Its allocator counts bytes and refuses to go
 * over the memory cap (a lower, soft cap while a rule script runs, so that
 * the VM's own bookkeeping keeps headroom). Every call into a rule script
 * goes through sb_call or sb_resume, which arm the limits, run the call with
 * a traceback handler, and disarm them: there is no other way in.
 *
 * Two limits bound an armed call:
 * - time, by a watchdog: while armed, a CPU-time interval timer (SIGPROF)
 *   ticks every 10 ms; when the call has used its time, the handler sets a
 *   count hook on the thread that is running (lua_sethook is safe in a
 *   signal handler: lua.c does the same for SIGINT), and the hook raises the
 *   error at the next VM instruction. No hook runs otherwise, so rule code
 *   pays nothing per instruction. The running thread is tracked across the
 *   sandbox's coroutine.resume, wrap and close.
 * - work, deterministic: the library functions a rule script may call
 *   that loop in C (pattern matching, passes over a string's bytes,
 *   table.concat, rng:shuffle, pile:count_of ...) charge a work counter
 *   for their worst case before they run (docs/security.md, "Work
 *   charges"; tests/hostile/costs.lua measures what a unit stands for).
 * Recorded steps replayed (undo, rollback, load) get a much larger time
 * (sandbox.replay) and the same work limit: see docs/security.md.
 *
 * A limit error is "sticky": once a limit is reached the armed call is
 * killed, and the sandbox's own pcall, xpcall and coroutine.resume rethrow
 * instead of returning, so a script cannot swallow it.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "binding.h"
#include "kn_alloc.h"
#include "kn_pool.h"
#include "engine/scan.h"

#define TICK_USEC 10000                     /* watchdog tick, CPU time */
#define DEFAULT_TIME 0.5                    /* CPU seconds per armed call */
#define DEFAULT_REPLAY_TIME 10.0            /* the same, replaying a step */
#define DEFAULT_WORK 10000000L              /* work units per armed call */
#define DEFAULT_MEMORY ((size_t)256 << 20)  /* bytes, whole interpreter */
#define MAX_PATTERN_WORK 1e8                /* est. matcher steps per call */
#define MAX_CLOSE_DEPTH 100                 /* coroutine.close in __close */
#define MAX_MESSAGE 4000                    /* bytes of an error message */

enum { WHY_NONE, WHY_TIME, WHY_WORK };

static struct {
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
} lim = { 0, DEFAULT_MEMORY, DEFAULT_TIME, DEFAULT_REPLAY_TIME, DEFAULT_WORK, 0,
          0, WHY_NONE, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, 0 };

/* The address is the token: g:finish() raises it to end a game at once. */
static char finish_token;

/* ---- allocator ---------------------------------------------------------- */

/* While armed, allocations stop an eighth below the cap: what is left is
 * for the engine's rollback and for the VM's own bookkeeping. */
static size_t cap(void) {
    return lim.armed ? lim.limit - lim.limit / 8 : lim.limit;
}

/* The allocator the interpreter had before kn_sandbox_attach (stock
 * lua5.4's, when Kontor is loaded as a module); NULL: the C library's. */
static lua_Alloc host_alloc;
static void *host_ud;

/* The program's interpreter (kn_newstate) takes its small blocks from a
 * pool (core/kn_pool.h): most of what a rule script allocates is small
 * and short-lived, and the pool needs no header and no search a block.
 * Larger blocks, and all of them when the pool's region is full, come
 * from the C library. Not under AddressSanitizer, which must see every
 * block to find a use after free; not for a host's interpreter
 * (kn_sandbox_attach), which gets its own allocator back at lua_close. */
#if defined(__SANITIZE_ADDRESS__)
#define KN_POOLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KN_POOLED 0
#endif
#endif
#ifndef KN_POOLED
#define KN_POOLED 1
#endif
#define POOL_RESERVE ((size_t)256 << 20)

static struct kn_pool pool;
static int pooled;

static void *pool_realloc(void *ptr, size_t osize, size_t nsize) {
    if (ptr == NULL) {
        void *b = kn_pool_alloc(&pool, nsize);
        return b != NULL ? b : malloc(nsize);
    }
    if (!kn_pool_owns(&pool, ptr)) return realloc(ptr, nsize);
    void *b = kn_pool_realloc(&pool, ptr, osize, nsize);
    if (b != NULL) return b;
    b = malloc(nsize);                       /* too large for the pool now */
    if (b == NULL) return NULL;
    memcpy(b, ptr, osize);                   /* osize < nsize here */
    kn_pool_free(&pool, ptr, osize);
    return b;
}

/* Where the running script was when memory first ran out: the frames of
 * lim.running as luaL_traceback writes them ("\n\tfile:line: in ..."),
 * kept here, in a static buffer, for the message. Lua's own memory error
 * (LUA_ERRMEM) reaches no message handler, and the frames are gone when
 * the call returns; the allocator is the last to see them. The walk only
 * reads the frames (lua_getinfo "Sl" allocates nothing). From Lua 5.4.5 on
 * a stack being reallocated holds offsets, not pointers, while its block
 * is asked for: then only a new block (ptr NULL) is looked from. */
#define OOM_FRAMES 12
static char oom_trace[1024];

static void note_frames(lua_State *L, void *ptr) {
    oom_trace[0] = '\0';
#if LUA_VERSION_RELEASE_NUM >= 50405
    if (ptr != NULL) return;
#else
    (void)ptr;
#endif
    size_t n = 0;
    lua_Debug ar;
    for (int level = 0; level < OOM_FRAMES && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar)) break;
        int k;
        if (ar.currentline <= 0)
            k = snprintf(oom_trace + n, sizeof oom_trace - n, "\n\t%s: in ?", ar.short_src);
        else if (*ar.what == 'm')
            k = snprintf(oom_trace + n, sizeof oom_trace - n, "\n\t%s:%d: in main chunk", ar.short_src,
                         ar.currentline);
        else
            k = snprintf(oom_trace + n, sizeof oom_trace - n, "\n\t%s:%d: in function <%s:%d>", ar.short_src,
                         ar.currentline, ar.short_src, ar.linedefined);
        if (k < 0 || (size_t)k >= sizeof oom_trace - n) {
            oom_trace[n] = '\0';                /* no half frame */
            break;
        }
        n += (size_t)k;
    }
}

/* A refused block: what kind of error follows is known here (lim.oom). */
static void *refuse(void *ptr, size_t nsize) {
    if (!lim.oom) {
        if (lim.armed && lim.running != NULL) note_frames(lim.running, ptr);
        else oom_trace[0] = '\0';
    }
    lim.oom = 1;
    lim.oom_ptr = ptr;
    lim.oom_size = nsize;
    return NULL;
}

/* Every allocation but the two below: resizes, large blocks, the C
 * library's, a host's allocator, a refusal. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void *sb_alloc_slow(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    size_t tag = osize;
    if (ptr == NULL) osize = 0;  /* osize is a type tag then */
    if (nsize == 0) {
        if (pooled && kn_pool_owns(&pool, ptr)) kn_pool_free(&pool, ptr, osize);
        else if (host_alloc) host_alloc(host_ud, ptr, tag, 0);
        else free(ptr);
        lim.used -= osize;
        return NULL;
    }
    if (nsize > osize && lim.used - osize + nsize > cap()) return refuse(ptr, nsize);
    void *p = pooled ? pool_realloc(ptr, osize, nsize)
            : host_alloc ? host_alloc(host_ud, ptr, tag, nsize) : realloc(ptr, nsize);
    if (p == NULL) return refuse(ptr, nsize);
    /* Lua retries a refused block after an emergency collection: no error */
    if (lim.oom && ptr == lim.oom_ptr && nsize == lim.oom_size) lim.oom = 0;
    lim.used = lim.used - osize + nsize;
    return p;
}

/* The interpreter's allocator. Most calls are a new small block or a
 * pooled block given back: those two are done here, with nothing else in
 * the function, so that it saves no registers (the whole allocator in one
 * function spent a third of its instructions on its prologue and
 * epilogue); the rest is sb_alloc_slow. */
static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    if (pooled) {
        if (ptr == NULL) {                  /* osize is a type tag */
            if (!lim.oom && lim.used + nsize <= cap()) {
                void *b = kn_pool_alloc(&pool, nsize);
                if (b != NULL) {
                    lim.used += nsize;
                    return b;
                }
            }
        } else if (nsize == 0 && kn_pool_owns(&pool, ptr)) {
            kn_pool_free(&pool, ptr, osize);
            lim.used -= osize;
            return NULL;
        }
    }
    return sb_alloc_slow(ud, ptr, osize, nsize);
}

/* A library that allocates with malloc (jansson builds a tree and a text
 * of the JSON it encodes: a 60 MB view of control characters took 866 MB
 * that the cap did not see) allocates here instead: counted in lim.used
 * and refused over the cap, as the interpreter's blocks are. Each block
 * keeps its size in a header. */
typedef union { size_t size; max_align_t align; } block_head;

void *kn_sandbox_malloc(size_t size) {
    if (size > (size_t)-1 / 2 || lim.used + size + sizeof(block_head) > cap()) return NULL;
    block_head *b = malloc(sizeof *b + size);
    if (b == NULL) return NULL;
    b->size = sizeof *b + size;
    lim.used += b->size;
    return b + 1;
}

void kn_sandbox_free(void *ptr) {
    if (ptr == NULL) return;
    block_head *b = (block_head *)ptr - 1;
    lim.used -= b->size;
    free(b);
}

/* ---- hook and watchdog -------------------------------------------------- */

static void limit_error(lua_State *L) {
    lim.killed = 1;
    if (lim.why == WHY_NONE) lim.why = lim.expired ? WHY_TIME : WHY_WORK;
    lua_pushstring(L, lim.why == WHY_TIME ? "time limit reached" : "work limit reached");
    lua_error(L);
}

/* The registry key of what Ctrl-C raises: catch_sigint's second argument
 * (the engine's error value of kind "interrupt"), or nil. */
static const char interrupt_key = 'i';

/* Whether the error object at the top of `co` is what Ctrl-C raised. */
static int is_interrupt(lua_State *co) {
    if (!lua_checkstack(co, 1)) return 0;
    lua_rawgetp(co, LUA_REGISTRYINDEX, &interrupt_key);
    int yes = !lua_isnil(co, -1) && lua_rawequal(co, -1, -2);
    lua_pop(co, 1);
    return yes;
}

static void sb_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    if (lim.interrupted) {
        lim.interrupted = 0;
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &interrupt_key) != LUA_TNIL) lua_error(L);
        luaL_error(L, "interrupted");
    }
    if (lim.armed && (lim.killed || lim.expired)) limit_error(L);
    /* Set by the watchdog or for SIGINT, and no longer needed. */
    lua_sethook(L, NULL, 0, 0);
}

/* Sets the hook on `co` if the armed call is over its limits already: a
 * coroutine resumed (or closed) after that must stop at once too. */
static void hook_if_over(lua_State *co) {
    if (lim.armed && (lim.killed || lim.expired))
        lua_sethook(co, sb_hook, LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET, 1);
}

static void on_tick(int sig) {
    (void)sig;
    if (!lim.armed || lim.expired) return;
    if (--lim.ticks_left > 0) return;
    lim.expired = 1;
    lua_State *L = lim.running;
    if (L != NULL) lua_sethook(L, sb_hook, LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET, 1);
}

/* Starts the watchdog's timer (once: see disarm). */
static void start_ticking(void) {
    if (lim.ticking) return;
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_interval.tv_usec = TICK_USEC;
    it.it_value.tv_usec = TICK_USEC;
    setitimer(ITIMER_PROF, &it, NULL);
    lim.ticking = 1;
}

static lua_State *main_thread;

/* lua.c's way: the handler only sets a flag and a hook. */
static void on_sigint(int sig) {
    (void)sig;
    lim.interrupted = 1;
    lua_State *L = lim.armed && lim.running ? lim.running : main_thread;
    lua_sethook(L, sb_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

static int sb_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "kontor: unprotected Lua error: %s\n", msg ? msg : "?");
    return 0;  /* abort */
}

/* The watchdog's tick (SIGPROF), for the program's interpreter and for a
 * host's (kn_sandbox_attach): without it, the first tick would end the
 * process. */
static struct sigaction host_prof;          /* SIGPROF's action before ours */

static void install_watchdog(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, &host_prof);
}

/* Stops the timer and gives SIGPROF back: the module is about to be
 * unloaded, and a tick after that would call a handler that is gone. */
static void remove_watchdog(void) {
    struct itimerval it;
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_PROF, &it, NULL);
    lim.ticking = 0;
    sigaction(SIGPROF, &host_prof, NULL);
}

lua_State *kn_newstate(void) {
    pooled = KN_POOLED && kn_pool_init(&pool, POOL_RESERVE) == 0;
    lua_State *L = lua_newstate(sb_alloc, NULL);
    if (L == NULL) return NULL;
    lua_atpanic(L, sb_panic);
    /* A collection cycle when the heap is twice what the last one kept
     * (Lua's default). It was 4 times, half as many cycles, which saved
     * about 1.5% of a Sea Merchants game while piles and counters had a
     * finalizer; without them (issue 25) the smaller heap is the faster:
     * Sea Merchants 4p 10,481 games/s against 10,183, best of 10
     * alternating runs, Caribbean 2p 5,915 against 5,748, Old World 4p
     * and the house preset the same (docs/performance.md). Near the
     * memory limit nothing changes: an allocation the limit refuses makes
     * Lua collect in full first. */
    lua_gc(L, LUA_GCINC, 200, 0, 0);
    main_thread = L;
    install_watchdog();
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
    remove_watchdog();
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
    install_watchdog();
}

/* ---- arming ------------------------------------------------------------- */

static sig_atomic_t ticks_of(double seconds) {
    double n = ceil(seconds * 1e6 / TICK_USEC);
    return n < 1 ? 1 : (sig_atomic_t)n;
}

/* The limits by time, in seconds and in the watchdog's ticks, counted once
 * here and not at every step (a division and a rounding: 1% of a
 * simulated game's time). */
static void set_times(double t, double rt) {
    lim.time = t;
    lim.replay_time = rt;
    lim.ticks = ticks_of(t);
    lim.replay_ticks = ticks_of(rt);
}

static void reset_clock(void) {
    if (lim.ticks == 0) set_times(lim.time, lim.replay_time);   /* the defaults */
    lim.ticks_left = lim.replaying ? lim.replay_ticks : lim.ticks;
}

static void arm(lua_State *running) {
    lim.killed = 0;
    lim.oom = 0;
    lim.why = WHY_NONE;
    lim.finishing = 0;
    lim.expired = 0;
    lim.left = lim.work;
    reset_clock();
    lim.running = running;
    lim.armed = 1;
    start_ticking();
}

/* The timer keeps ticking once started: a tick while disarmed does
 * nothing, and ITIMER_PROF counts only the CPU time the process uses, so an
 * idle prompt gets no tick at all. Stopping and starting it around every
 * armed call cost two system calls a step. (A child made by fork() has no
 * timer; Kontor starts its jobs as new programs.) */
static void disarm(void) {
    lim.armed = 0;
    lim.running = NULL;
}

/* Lua's own memory error, or a library's that ran out (lauxlib's buffers
 * raise a runtime error): the allocator refused a block and nothing took
 * the error since (lim.oom). Not the message: a memory error caught by a
 * script's pcall does not make later errors read as one, and no text a
 * script raises reads as a memory error. */
static int is_memory_error(lua_State *co, int status) {
    (void)co;
    return status == LUA_ERRMEM || lim.oom;
}

/* The registry key of the engine's maker of limit errors:
 * sandbox.limit_errors(f), f(limit, message) -> the error value (kind
 * "limit", lua/kontor/errors.lua), limit "time", "work" or "memory". */
static const char limit_key = 'l';

/* Replaces the message at the top of L by the engine's error value of the
 * limit `which`, where the limit is known: here, not by its text. Keeps
 * the message when no maker is set (a host's own use of kontor.core) or
 * the maker fails (no memory left for a table). */
static void make_limit_error(lua_State *L, const char *which) {
    if (!lua_checkstack(L, 4)) return;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &limit_key) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return;
    }
    lua_pushstring(L, which);
    lua_pushvalue(L, -3);
    /* the engine's maker runs unarmed: the limit reached is not its */
    int was_armed = lim.armed;
    lim.armed = 0;
    int status = lua_pcall(L, 2, 1, 0);
    lim.armed = was_armed;
    if (status != LUA_OK || lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_replace(L, -2);
}

/* The limit an armed call's error reached: "time", "work", "memory", or
 * NULL (the script's own error). */
static const char *limit_of(int memory) {
    if (lim.killed) return lim.why == WHY_TIME ? "time" : "work";
    return memory ? "memory" : NULL;
}

/* Turns the error object at the top of `co` into the value returned to
 * the engine, pushed on L: the finish token and Ctrl-C's value as they
 * are; anything else as one string with the script's file:line and a
 * traceback of `co`. */
static void push_error(lua_State *L, lua_State *co, int memory) {
    if (lim.finishing || lua_touserdata(co, -1) == &finish_token) {
        lua_pushlightuserdata(L, &finish_token);
        return;
    }
    if (!memory && is_interrupt(co)) {
        lua_pushvalue(co, -1);
        lua_xmove(co, L, 1);
        return;
    }
    const char *msg;
    char buf[160];
    if (lim.killed && lim.why == WHY_TIME) {
        snprintf(buf, sizeof buf, "time limit reached (%g s of CPU per step%s)",
                 lim.replaying ? lim.replay_time : lim.time,
                 lim.replaying ? ", replaying" : "");
        msg = buf;
    } else if (lim.killed) {
        snprintf(buf, sizeof buf, "work limit reached (%ld units per step)", lim.work);
        msg = buf;
    } else if (memory) {
        snprintf(buf, sizeof buf, "memory limit reached (%zu MiB)", lim.limit >> 20);
        msg = buf;
        lua_Debug ar;
        if (oom_trace[0] != '\0' && !lua_getstack(co, 0, &ar)) {
            /* the coroutine's frames were let go (sb_resume): the ones
             * the allocator saw (note_frames) */
            lua_pushfstring(L, "%s\nstack traceback:%s", msg, oom_trace);
            make_limit_error(L, "memory");
            return;
        }
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
    const char *which = limit_of(memory);
    if (which != NULL) make_limit_error(L, which);
}

static int msgh(lua_State *L) {
    push_error(L, L, is_memory_error(L, LUA_ERRRUN));
    return 1;
}

/* Lua's own memory error as the limit's message, with the frames the
 * allocator saw: run protected (the text needs memory). */
static int memory_message(lua_State *L) {
    lua_pushfstring(L, "memory limit reached (%d MiB)%s%s", (int)(lim.limit >> 20),
                    oom_trace[0] != '\0' ? "\nstack traceback:" : "", oom_trace);
    return 1;
}

/* Calls the function at base with the values above it as arguments,
 * armed (sandbox.call): leaves true and its results, or false and the
 * message (or the finish token), from base on; their number. */
static int call_at(lua_State *L, int base) {
    int was_armed = lim.armed;
    lua_State *was_running = lim.running;
    int n = lua_gettop(L) - base;
    lua_pushcfunction(L, msgh);
    lua_insert(L, base);
    /* The caller's own hook (a debugger's, the fuzz harness's line hook)
     * is put back if the watchdog replaced it. */
    lua_Hook old_hook = lua_gethook(L);
    int old_mask = lua_gethookmask(L), old_count = lua_gethookcount(L);
    if (!was_armed) arm(L);
    else lim.running = L;
    int status = lua_pcall(L, n, LUA_MULTRET, base);
    if (!was_armed) disarm();
    else lim.running = was_running;
    if (!was_armed && lua_gethook(L) == sb_hook && old_hook != sb_hook)
        lua_sethook(L, old_hook, old_mask, old_count);
    if (status != LUA_OK) {
        /* a memory error (LUA_ERRMEM) reaches no message handler: its
         * message is Lua's, its kind the allocator's (msgh made the rest) */
        if (status == LUA_ERRMEM && !lim.finishing) {
            if (lua_checkstack(L, 2)) {
                lua_pushcfunction(L, memory_message);
                if (lua_pcall(L, 0, 1, 0) == LUA_OK) lua_replace(L, -2);
                else lua_pop(L, 1);
            }
            make_limit_error(L, "memory");
        }
        if (!was_armed) lim.oom = 0;
        lua_pushboolean(L, 0);
        lua_replace(L, base);
        lua_settop(L, base + 1);
        return 2;
    }
    luaL_checkstack(L, 1, NULL);           /* the results may fill the frame */
    lua_pushboolean(L, 1);
    lua_replace(L, base);
    return lua_gettop(L) - base + 1;
}

/* sandbox.call(f, ...) -> true, ... | false, message | false, finish_token */
static int sb_call(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    return call_at(L, 1);
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
    lua_State *was_running = lim.running;
    if (!was_armed) arm(co);
    else lim.running = co;
    hook_if_over(co);
    int status = lua_resume(co, L, n, &nres);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!was_armed) disarm();
        else lim.running = was_running;
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            return luaL_error(L, "too many results to resume");
        }
        lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return nres + 1;
    }
    int memory = is_memory_error(co, status);
    if (memory && !lim.finishing && lua_touserdata(co, -1) != &finish_token) {
        /* Memory is full, and the dead coroutine's frames still hold what
         * filled it (until the engine drops the thread). Let go of it first
         * (still armed: pending __close handlers run under the limits), or
         * neither the message nor the engine's rollback would fit. */
        lua_resetthread(co);
        lua_gc(L, LUA_GCCOLLECT);
        lua_pushnil(co);
        if (!was_armed) disarm();
        else lim.running = was_running;
        lua_pushboolean(L, 0);
        push_error(L, co, 1);
    } else {
        /* The message is built unarmed (under the full cap: it may raise
         * a memory error, and must not leave the limits armed), then the
         * frames that raised run their pending __close handlers, armed
         * again, under what is left of the limits. */
        int armed_now = lim.armed;
        lim.armed = was_armed;
        lua_pushboolean(L, 0);
        push_error(L, co, memory);
        lim.armed = armed_now;
        lua_resetthread(co);
        if (!was_armed) disarm();
        else lim.running = was_running;
    }
    if (!was_armed) lim.oom = 0;             /* told in the error returned */
    lua_settop(co, 0);
    return 2;
}

/* sandbox.rearm(): a fresh time and work budget for the next step, for
 * bots that choose inside the armed call (a killed call stays killed). */
void kn_sandbox_rearm(void) {
    if (lim.armed && !lim.killed && !lim.expired) {
        lim.left = lim.work;
        reset_clock();
    }
}

static int sb_rearm(lua_State *L) {
    (void)L;
    kn_sandbox_rearm();
    return 0;
}

/* The game threads, which rule code must not resume or close itself. */
static const char GAME_THREADS = 'g';

static int is_game_thread(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &GAME_THREADS) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushvalue(L, idx);
    int yes = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    return yes;
}

/* sandbox.thread(f) -> a coroutine for rule code (the game's own). */
static int sb_thread(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &GAME_THREADS) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &GAME_THREADS);
    }
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, -1);
    lua_pushboolean(L, 1);
    lua_rawset(L, -4);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    return 1;
}

/* sandbox.replay(f, ...) -> f(...), with the replay time limit for every
 * armed call it makes: recorded steps that passed the play limit. */
static int sb_replay(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int was = lim.replaying;
    lim.replaying = 1;
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    lim.replaying = was;
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

/* A memory error a script must not catch: the block refused would fit
 * under the cap, so it was refused for what the interpreter held besides
 * (other games, the REPL's values, garbage not collected yet), which
 * differs from one process and one moment to the next. A script that
 * caught it and went on would play another game in a replay of the same
 * moves (principle 1: a probe that filled memory in a pcall logged 117
 * MiB, and 0 MiB after an undo). A block larger than the cap fails in
 * every run: that error may be caught. */
static int sticky_memory_error(void) {
    return lim.armed && lim.oom && lim.oom_size <= cap();
}

/* The sandbox's pcall: like pcall, but a limit, a finish or a memory
 * error that depends on the process cannot be caught. */
static int must_rethrow(lua_State *L) {
    if (lim.finishing) {  /* whatever an xpcall handler made of it */
        lua_pushlightuserdata(L, &finish_token);
        return 1;
    }
    return lim.killed || sticky_memory_error();
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
        lim.oom = 0;                         /* the script took it */
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
        lim.oom = 0;                         /* the script took it */
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
    if (is_game_thread(L, 1))
        return luaL_error(L, "the game's own thread cannot be resumed by a rule script");
    int n = lua_gettop(L) - 1;
    if (lua_status(co) == LUA_OK && lua_gettop(co) == 0) {
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "cannot resume dead coroutine");
        return 2;
    }
    if (!lua_checkstack(co, n)) return luaL_error(L, "too many arguments to resume");
    lua_xmove(L, co, n);
    int nres;
    lua_State *was_running = lim.running;
    if (lim.armed) lim.running = co;
    hook_if_over(co);
    int status = lua_resume(co, L, n, &nres);
    if (lim.armed) lim.running = was_running;
    hook_if_over(L);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) return luaL_error(L, "too many results to resume");
        lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return nres + 1;
    }
    lua_xmove(co, L, 1);
    if (must_rethrow(L)) return lua_error(L);
    lim.oom = 0;                             /* the script took it */
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
    /* Refused before the compiler sees them: it runs in C, out of the
     * hook's reach, and Lua 5.4.4 has known crashes on huge expressions. */
    size_t line;
    const char *why = kn_check_source(src, len, &line);
    if (why != NULL) {
        const char *file = name[0] == '@' || name[0] == '=' ? name + 1 : name;
        luaL_pushfail(L);
        if (line > 0) lua_pushfstring(L, "%s:%I: %s", file, (lua_Integer)line, why);
        else lua_pushfstring(L, "%s: %s", file, why);
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

/* sandbox.limits([t]) -> {time =, replay_time =, work =, memory =, used =}
 * With a table, sets the fields it has first. */
static double opt_seconds(lua_State *L, const char *name, double cur) {
    if (lua_getfield(L, 1, name) == LUA_TNIL) {
        lua_pop(L, 1);
        return cur;
    }
    int isnum;
    double t = (double)lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || !(t >= 0.01 && t <= 3600))
        luaL_error(L, "bad argument #1 to 'limits' (%s must be a number of seconds "
                   "from 0.01 to 3600)", name);
    return t;
}

/* An integer field of limits' table, at least `min`; cur when absent. */
static lua_Integer opt_count(lua_State *L, const char *name, lua_Integer min,
                             const char *least, lua_Integer cur) {
    int t = lua_getfield(L, 1, name), isint;
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return cur;
    }
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    lua_pop(L, 1);
    if (!isint)
        luaL_error(L, "bad argument #1 to 'limits' (%s must be an integer, got %s)",
                   name, t == LUA_TNUMBER ? "a fraction" : lua_typename(L, t));
    if (v < min)
        luaL_error(L, "bad argument #1 to 'limits' (%s must be at least %s)", name, least);
    return v;
}

static int sb_limits(lua_State *L) {
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        if (lua_getfield(L, 1, "instructions") != LUA_TNIL)
            return luaL_error(L, "bad argument #1 to 'limits' (there is no instruction "
                              "limit any more: use time = seconds and work = units)");
        lua_pop(L, 1);
        /* every key one of the limits: a misspelt one is not ignored */
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            lua_pop(L, 1);
            const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            if (k == NULL || (strcmp(k, "time") && strcmp(k, "replay_time") &&
                              strcmp(k, "work") && strcmp(k, "memory"))) {
                if (k == NULL) lua_pushfstring(L, "a %s key", luaL_typename(L, -1));
                else lua_pushfstring(L, "no limit '%s'", k);
                return luaL_error(L, "bad argument #1 to 'limits' (%s: the limits are "
                                  "memory, replay_time, time, work)", lua_tostring(L, -1));
            }
        }
        double t = opt_seconds(L, "time", lim.time);
        double rt = opt_seconds(L, "replay_time", lim.replay_time);
        lua_Integer work = opt_count(L, "work", 1000, "1000", lim.work);
        lua_Integer mem = opt_count(L, "memory", (lua_Integer)1 << 20, "1 MiB",
                                    (lua_Integer)lim.limit);
        if (rt < t) rt = t;
        set_times(t, rt);
        lim.work = (long)work;
        lim.limit = (size_t)mem;
    }
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, lim.time);
    lua_setfield(L, -2, "time");
    lua_pushnumber(L, lim.replay_time);
    lua_setfield(L, -2, "replay_time");
    lua_pushinteger(L, lim.work);
    lua_setfield(L, -2, "work");
    lua_pushinteger(L, (lua_Integer)lim.limit);
    lua_setfield(L, -2, "memory");
    lua_pushinteger(L, (lua_Integer)lim.used);
    lua_setfield(L, -2, "used");
    return 1;
}

/* sandbox.catch_sigint(on [, err]): while on, Ctrl-C raises err (the
 * engine's error value of kind "interrupt"; without it, the message
 * "interrupted") in whatever Lua code runs (lua.c's approach: the handler
 * only sets a flag), and a rule script's call gives err back as it is. */
static int sb_catch_sigint(lua_State *L) {
    int on = lua_toboolean(L, 1);
    lua_settop(L, 2);
    if (!on) lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &interrupt_key);
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
/* No hook watches C code: a library function looping in C (a backtracking
 * pattern, string.rep of an empty string, table.move over 2^40 indices)
 * would run until the call returns. While a call is armed these wrappers
 * charge the work to the call's work counter or refuse it; unarmed (the
 * engine's own code) they only forward. They replace the functions in the
 * real string, table and utf8 libraries (and tonumber), so method calls
 * ("s"):find(...) through the shared string metatable are covered too;
 * every function of the allow list (lua/kontor/sandbox.lua) is either
 * guarded here or bounded otherwise (docs/security.md lists each). The piles, counters and RNGs
 * charge through kn_sandbox_charge. The charges depend only on the
 * arguments, so the work limit is deterministic. */

static void charge(lua_State *L, double work) {
    if (!lim.armed || work <= 0) return;
    if (lim.killed || work >= (double)lim.left) {
        if (!lim.killed) lim.why = WHY_WORK;
        limit_error(L);
    }
    lim.left -= (long)work;
}

void kn_sandbox_charge(lua_State *L, double work) {
    charge(L, work);
}

/* Calls the library function (upvalue 1) with the guard's arguments.
 * Called from C, it has no name of its own: its "bad argument #2 to '?'
 * (...)" is raised again by luaL_argerror from the guard, which has the
 * caller's name for it (and counts self in a method call), as Lua would. */
static int forward(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0) != LUA_OK) {
        static const char head[] = "bad argument #", mid[] = " to '?' (";
        size_t len;
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (msg != NULL && strncmp(msg, head, sizeof head - 1) == 0 && msg[len - 1] == ')') {
            char *end;
            long arg = strtol(msg + sizeof head - 1, &end, 10);
            if (arg > 0 && arg < 256 && strncmp(end, mid, sizeof mid - 1) == 0) {
                const char *extra = end + sizeof mid - 1;
                lua_pushlstring(L, extra, (size_t)(msg + len - 1 - extra));
                return luaL_argerror(L, (int)arg, lua_tostring(L, -1));
            }
        }
        return lua_error(L);
    }
    return lua_gettop(L);
}

/* ---- pattern matching ----
 * Lua's matcher (lstrlib.c) backtracks and runs in C: its worst case is
 * counted here from the lengths and the pattern, before it runs, and
 * charged (or refused). The count is an upper bound, not a guess: for one
 * start position, the matcher visits item k of the pattern once per way
 * the quantifiers before it (q of * + -, r of ?) can split the subject, at
 * most C(n + q, q) * 2^r ways for n bytes; a visit costs the item's
 * length + 1 steps (finding its end, matching one byte), n + 1 times that
 * for a quantified item (the expansion loop), n + 1 for %b and a back
 * reference %1-%9 (a scan, a comparison of up to n bytes), and 1 + the
 * captures open for a ')'. find and match try up to n + 1 start positions
 * (1 when anchored by ^), gmatch and gsub up to 2 (n + 1) (an empty match
 * tries its position twice). One exception keeps s:gsub("%s+", " ") linear:
 * a quantified item that ends the pattern (but for ')') ends the match at
 * its first visit, so its expansion loop runs once per match, over bytes
 * the match then takes: n + 1 steps per byte of the item in all, counted
 * once (`tail`), not per start. */

#define STEPS_PER_UNIT 16                  /* matcher steps per work unit */
#define BYTES_PER_UNIT 256                 /* bytes compared per work unit */
#define BYTES_PER_UNIT_COPY 16             /* bytes read or written, one by one */

/* The end of the class that starts at p[i] (after a '['), as classEnd
 * finds it; lp if it has none (Lua raises "malformed pattern"). */
static size_t class_end(const char *p, size_t i, size_t lp) {
    if (i < lp && p[i] == '^') i++;
    do {
        if (i >= lp) return lp;
        i += p[i] == '%' ? 2 : 1;
    } while (i < lp && p[i] != ']');
    return i < lp ? i + 1 : lp;
}

/* Only ')' from i to the end of the pattern. */
static int only_closes(const char *p, size_t i, size_t lp) {
    for (; i < lp; i++)
        if (p[i] != ')') return 0;
    return 1;
}

/* Steps for one start position of pattern p (anchor already skipped) on
 * a subject of n bytes; *tail: the steps of an ending quantifier's
 * expansion, for all start positions together. */
static double match_steps(const char *p, size_t lp, double n, double *tail) {
    double ways = 1, steps = 0;
    int q = 0, captures = 0;
    size_t i = 0;
    *tail = 0;
    while (i < lp && steps < 1e300) {
        size_t item = i;
        char c = p[i];
        if (c == '(') {
            captures++;
            steps += ways;
            i++;
            continue;
        }
        if (c == ')') {
            steps += ways * (1 + captures);
            i++;
            continue;
        }
        if (c == '%' && i + 1 < lp && (p[i + 1] == 'b' || (p[i + 1] >= '0' && p[i + 1] <= '9'))) {
            steps += ways * (n + 1);                     /* %bxy, %1: a scan */
            i += p[i + 1] == 'b' ? 4 : 2;
            continue;
        }
        if (c == '%' && i + 1 < lp && p[i + 1] == 'f') {  /* %f[set]: one byte */
            i = i + 2 < lp && p[i + 2] == '[' ? class_end(p, i + 3, lp) : i + 2;
            steps += ways * 2 * (double)(i - item + 1);  /* the bytes before and at */
            continue;
        }
        if (c == '%') i += 2;
        else if (c == '[') i = class_end(p, i + 1, lp);
        else i++;
        if (i > lp) i = lp;
        double visit = (double)(i - item + 1);
        if (i < lp && (p[i] == '*' || p[i] == '+' || p[i] == '-')) {
            i++;
            if (only_closes(p, i, lp)) {      /* the match ends here */
                *tail = (n + 1) * visit;
                steps += ways * visit;
                continue;
            }
            steps += ways * (n + 1) * visit;
            q++;
            ways = ways * (n + q) / q;
        } else if (i < lp && p[i] == '?') {
            i++;
            steps += ways * visit;
            ways *= 2;
        } else {
            steps += ways * visit;
        }
    }
    return steps;
}

/* The subject's length from the start position: the init argument at
 * `init` (0: none), as str_find_aux reads it. */
static double subject_from(lua_State *L, size_t ls, int init) {
    lua_Integer i = init ? luaL_optinteger(L, init, 1) : 1;
    if (i < 0) i = (lua_Integer)ls + i + 1 < 1 ? 1 : (lua_Integer)ls + i + 1;
    else if (i == 0) i = 1;
    return i > (lua_Integer)ls + 1 ? 0 : (double)ls - (double)(i - 1);
}

/* Nothing special in p: find compares bytes (lmemfind) instead. */
static int no_specials(const char *p, size_t lp) {
    for (size_t i = 0; i < lp; i++)
        if (p[i] != '\0' && strchr("^$*+?.([%-", p[i]) != NULL) return 0;
    return 1;
}

static void refuse_pattern(lua_State *L, size_t ls, double steps) {
    luaL_error(L, "pattern too complex for a subject of %I bytes "
               "(about %f matching steps; the limit is %f)",
               (lua_Integer)ls, (lua_Number)steps, (lua_Number)MAX_PATTERN_WORK);
}

/* Charges steps of matching (or refuses them). */
static void charge_steps(lua_State *L, size_t ls, double steps) {
    if (steps > MAX_PATTERN_WORK) refuse_pattern(L, ls, steps);
    charge(L, steps / STEPS_PER_UNIT);
}

enum { PAT_FIND, PAT_MATCH, PAT_GMATCH, PAT_GSUB };

/* string.find, match, gmatch, gsub: upvalue 2 says which. */
static int guard_pattern(lua_State *L) {
    if (lim.armed && lua_isstring(L, 1) && lua_isstring(L, 2)) {
        int which = (int)lua_tointeger(L, lua_upvalueindex(2));
        size_t ls, lp;
        lua_tolstring(L, 1, &ls);
        const char *p = lua_tolstring(L, 2, &lp);
        double n = subject_from(L, ls, which == PAT_GSUB ? 0 : 3);
        charge(L, (double)lp / BYTES_PER_UNIT_COPY);   /* reading the pattern, here */
        if (which == PAT_FIND && (lua_toboolean(L, 4) || no_specials(p, lp))) {
            /* lmemfind: a byte search, then up to lp bytes compared at each
             * of the n - lp + 1 places. */
            double places = n - (double)lp + 1;
            if (lp > 0 && places > 0) charge(L, places * (double)lp / BYTES_PER_UNIT);
            return forward(L);
        }
        int anchored = which != PAT_GMATCH && lp > 0 && p[0] == '^';
        double tail;
        double one = match_steps(p + anchored, lp - (size_t)anchored, n, &tail);
        double starts = anchored ? 1 : (which >= PAT_GMATCH ? 2 : 1) * (n + 1);
        double steps = starts * one + tail;
        if (which == PAT_GSUB) {
            /* Each match adds its replacement: a string is read whole,
             * two steps a byte (each %1 a capture: 38 ns a unit at one
             * step a byte), a table or function is one look-up. */
            size_t lr = 0;
            if (lua_type(L, 3) == LUA_TSTRING || lua_type(L, 3) == LUA_TNUMBER)
                lua_tolstring(L, 3, &lr);
            double matches = anchored ? 1 : n + 1;
            lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
            if (max_s >= 0 && (double)max_s < matches) matches = (double)max_s;
            steps += matches * (2 * (double)lr + 1);
        }
        charge_steps(L, ls, steps);
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
        /* The bytes written; a result over the memory cap fails at once
         * (its buffer is allocated first), with the memory error. */
        double bytes = (double)n * (double)(l + lsep);
        if (n > 0 && bytes <= (double)cap()) charge(L, bytes / BYTES_PER_UNIT_COPY);
    }
    return forward(L);
}

/* string.sub(s, i, j): the bytes copied, from i and j as str_sub reads
 * them (a few bytes cost nothing; a copy of 200 MiB took 0.140 s). */
static int guard_sub(lua_State *L) {
    int isi, isj = 1;
    lua_Integer i = lua_tointegerx(L, 2, &isi), j = -1;
    if (!lua_isnoneornil(L, 3)) j = lua_tointegerx(L, 3, &isj);
    if (lim.armed && lua_type(L, 1) == LUA_TSTRING && isi && isj) {
        lua_Integer l = (lua_Integer)lua_rawlen(L, 1);
        if (i < 0) i = i < -l ? 1 : l + i + 1;
        else if (i == 0) i = 1;
        if (j > l) j = l;
        else if (j < 0) j = j < -l ? 0 : l + j + 1;
        if (i <= j) charge(L, ((double)j - (double)i + 1) / BYTES_PER_UNIT_COPY);
    }
    return forward(L);
}

/* ---- addresses ----
 * tostring and string.format's %s show a table, function, thread or
 * userdata without __tostring as "table: 0x55d0c2a4b1e0": its address,
 * which ASLR makes a new number in every process. A rule script that logs
 * one, or decides by one (a key of tostring(t), sorted), is no longer a
 * function of its seed and moves (principle 1). While armed they show the
 * name alone (the __name of its metatable, if a string, else its type),
 * and %p, which prints nothing else, is refused. */

/* Whether tostring would show the value at idx by its address. */
static int shows_address(lua_State *L, int idx) {
    switch (lua_type(L, idx)) {
    case LUA_TTABLE: case LUA_TFUNCTION: case LUA_TUSERDATA:
    case LUA_TTHREAD: case LUA_TLIGHTUSERDATA:
        break;
    default:
        return 0;
    }
    if (luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) return 1;
    lua_pop(L, 1);
    return 0;
}

/* Pushes the name the value at idx is shown by instead of its address. */
static void push_name(lua_State *L, int idx) {
    int t = luaL_getmetafield(L, idx, "__name");    /* pushes nothing if nil */
    if (t == LUA_TSTRING) return;
    if (t != LUA_TNIL) lua_pop(L, 1);
    lua_pushstring(L, luaL_typename(L, idx));
}

/* tostring(v): the library's (luaL_tolstring), but the name alone for a
 * value shown by its address while armed. */
static int guard_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    if (lim.armed && shows_address(L, 1)) push_name(L, 1);
    else luaL_tolstring(L, 1, NULL);
    return 1;
}

static void refuse_address(lua_State *L) {
    luaL_where(L, 1);
    lua_pushliteral(L, "bad argument #1 to 'format' (%p is not allowed in rule scripts: "
                       "an address differs from run to run)");
    lua_concat(L, 2);
    lua_error(L);
}

/* string.format(f, ...): the bytes of f and of the string arguments / 8
 * (%q writes up to 4 bytes a byte), and each conversion by its kind: a
 * number printed with %f takes a digit for each power of ten (7.2 us for
 * %f of 1e308, 123 ns for %.2f of 3.14), %e and %g a digit for each of
 * the precision (2.5 us for %.99e), the others 16 units (249 ns for
 * %99d). A value %s would show by its address is replaced by its name;
 * %p is refused (above, "addresses"). */
static int guard_format(lua_State *L) {
    size_t lf;
    const char *f = lua_tolstring(L, 1, &lf);
    if (lim.armed && f != NULL) {
        double units = 0, bytes = 0;
        int top = lua_gettop(L), arg = 1;
        for (int k = 1; k <= top; k++)
            if (lua_type(L, k) == LUA_TSTRING) bytes += (double)lua_rawlen(L, k);
        charge(L, bytes / 8);                   /* before f is read here */
        for (size_t i = 0; i < lf; i++) {
            if (f[i] != '%') continue;
            if (++i < lf && f[i] == '%') continue;
            while (i < lf && strchr("-+ #0", f[i]) != NULL) i++;
            while (i < lf && f[i] >= '0' && f[i] <= '9') i++;
            double precision = 6;
            if (i < lf && f[i] == '.') {
                precision = 0;
                while (++i < lf && f[i] >= '0' && f[i] <= '9') precision = precision * 10 + (f[i] - '0');
            }
            if (i >= lf) break;
            arg++;
            char c = f[i];
            if (c == 'f' || c == 'F') {
                double x = fabs((double)lua_tonumber(L, arg));
                units += 1 + (x >= 10 && x <= HUGE_VAL / 2 ? log10(x) : 0) + precision / 8;
            } else if (strchr("eEgGaA", c) != NULL) {
                units += 1 + precision;
            } else if (c == 'p') {
                refuse_address(L);
            } else if (c == 's' && arg <= top && shows_address(L, arg)) {
                push_name(L, arg);
                lua_replace(L, arg);
                units += 16;
            } else {
                units += 16;
            }
        }
        charge(L, units);
    }
    return forward(L);
}

/* Functions that read each byte of some string arguments once (and write
 * at most a few bytes for each): upvalue 2 is divisor * 256 + mask, where
 * bit k of mask is argument k, and bit 0 all arguments. They charge the
 * bytes / divisor: a pass over a string near the memory cap would take
 * longer than a step's time. */
static int guard_bytes(lua_State *L) {
    if (lim.armed) {
        lua_Integer extra = lua_tointeger(L, lua_upvalueindex(2));
        int mask = (int)(extra & 255), top = lua_gettop(L);
        double bytes = 0;
        for (int k = 1; k <= top; k++) {
            if (!((mask & 1) || (k < 8 && (mask >> k) & 1))) continue;
            if (lua_type(L, k) == LUA_TSTRING) bytes += (double)lua_rawlen(L, k);
        }
        charge(L, bytes / (double)(extra >> 8));
    }
    return forward(L);
}

/* string.pack(f, ...): as guard_bytes (upvalue 2), and "cN" writes N
 * bytes, the string given and then one byte of padding at a time (0.16 s
 * for 200 MB): N / 16 more. */
static int guard_pack(lua_State *L) {
    size_t lf;
    const char *f = lua_tolstring(L, 1, &lf);
    if (lim.armed && f != NULL) {
        double padding = 0;
        for (size_t i = 0; i < lf; i++) {
            if (f[i] != 'c') continue;
            double size = 0;
            while (i + 1 < lf && f[i + 1] >= '0' && f[i + 1] <= '9' && size < 1e12)
                size = size * 10 + (f[++i] - '0');
            padding += size;
        }
        charge(L, padding / BYTES_PER_UNIT_COPY);
    }
    return guard_bytes(L);
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

/* The units a comparison of string s with another may take. Lua compares
 * strings with strcoll (l_strcmp), BYTES_PER_UNIT bytes a unit, but calls
 * it once for each stretch between zero bytes: 6.4 ns a zero byte
 * (1,024 strings of 64 KiB of zeros took 4.7 s to sort), a unit each. */
static double compare_units(const char *s, size_t len) {
    double zeros = 0;
    const char *end = s + len, *z = memchr(s, '\0', len);
    while (z != NULL) {
        zeros++;
        z = memchr(z + 1, '\0', (size_t)(end - z - 1));
    }
    return (double)len / BYTES_PER_UNIT + zeros;
}

/* A long string is read here to count its zero bytes: charged, so that
 * the same long string a million times over is not read for nothing. */
#define SCANNED_FROM 1024

/* The most units a comparison of the strings among t[1..n] (raw) may
 * take: table.sort without a comparison function. */
static double most_compare_units(lua_State *L, lua_Integer n) {
    double most = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, 1, i) == LUA_TSTRING) {
            size_t len;
            const char *s = lua_tolstring(L, -1, &len);
            if (len >= SCANNED_FROM) charge(L, (double)len / BYTES_PER_UNIT);
            double u = compare_units(s, len);
            if (u > most) most = u;
        }
        lua_pop(L, 1);
    }
    return most;
}

/* ---- table.sort in a fixed order ----
 * Lua's table.sort takes a random pivot (from clock() and time()) once a
 * partition comes out lopsided. A comparison function can make every one
 * come out so (McIlroy's adversary), and then the order of equal elements,
 * and the comparisons the function is called with, differ from run to
 * run: a 3,000-element sort gave three orders in three runs, a source of
 * chance outside the game's RNG. While armed, table.sort is this merge
 * sort instead: stable (equal elements keep their order), at most n log2 n
 * comparisons whatever the function answers, the table read and written
 * raw (no __index or __newindex runs; __len is refused already). */

/* Whether the value at a is less than the one at b: comp(a, b) with the
 * comparison function at 2, or a < b. */
static int sort_less(lua_State *L, int a, int b, int has_comp) {
    if (!has_comp) return lua_compare(L, a, b, LUA_OPLT);
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

/* Merges the runs src[lo..mid] and src[mid + 1..hi] into dst[lo..hi]
 * (src and dst: stack indexes of tables); of two equal elements the left
 * run's comes first. */
static void merge_runs(lua_State *L, int src, int dst, lua_Integer lo, lua_Integer mid,
                       lua_Integer hi, int has_comp) {
    lua_Integer i = lo, j = mid + 1, k = lo;
    while (i <= mid && j <= hi) {
        lua_rawgeti(L, src, i);
        lua_rawgeti(L, src, j);
        if (sort_less(L, -1, -2, has_comp)) {   /* the right one first */
            lua_rawseti(L, dst, k++);
            lua_pop(L, 1);
            j++;
        } else {
            lua_pop(L, 1);
            lua_rawseti(L, dst, k++);
            i++;
        }
    }
    for (; i <= mid; i++) {
        lua_rawgeti(L, src, i);
        lua_rawseti(L, dst, k++);
    }
    for (; j <= hi; j++) {
        lua_rawgeti(L, src, j);
        lua_rawseti(L, dst, k++);
    }
}

/* table.sort(t [, comp]) of the n elements of table t, bottom up: runs of
 * 1, 2, 4 ... merged between two tables of n. */
static int merge_sort(lua_State *L, lua_Integer n) {
    if (n < 2) return 0;
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    int has_comp = !lua_isnoneornil(L, 2);
    if (has_comp) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_createtable(L, (int)n, 0);                  /* 3 */
    lua_createtable(L, (int)n, 0);                  /* 4 */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        lua_rawseti(L, 3, i);
    }
    int src = 3, dst = 4;
    for (lua_Integer width = 1; width < n; width *= 2) {
        for (lua_Integer lo = 1; lo <= n; lo += 2 * width) {
            lua_Integer mid = lo + width - 1, hi = lo + 2 * width - 1;
            merge_runs(L, src, dst, lo, mid < n ? mid : n, hi < n ? hi : n, has_comp);
        }
        int t = src;
        src = dst;
        dst = t;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, src, i);
        lua_rawseti(L, 1, i);
    }
    return 0;
}

/* table.insert, table.remove (shift up to #t elements), table.sort
 * (about n log n comparisons, each of up to the longest string's bytes,
 * and a unit a zero byte, without a comparison function). */
static int guard_shift(lua_State *L) {
    if (lim.armed && lua_type(L, 1) == LUA_TTABLE) {
        lua_Integer len = plain_len(L, 1);
        double n = (double)len;
        int sort = (int)lua_tointeger(L, lua_upvalueindex(2));
        if (!sort) {
            charge(L, n);
        } else {
            charge(L, n);                       /* the scan for strings */
            double cmp = lua_isnoneornil(L, 2) ? 1 + most_compare_units(L, len) : 1;
            charge(L, n * (1 + log2(n + 1)) * cmp);
            return merge_sort(L, len);
        }
    }
    return forward(L);
}

/* coroutine.close runs the coroutine's pending __close handlers and returns
 * their error: a limit or a finish raised there is raised again. */
static int guard_close(lua_State *L) {
    /* Lua 5.4.4 does not count a close inside a __close handler against
     * its C-stack limit: 10000 nested closes overflow the C stack. */
    static int depth = 0;
    lua_State *co = lua_tothread(L, 1);
    if (lim.armed && depth >= MAX_CLOSE_DEPTH) {
        return luaL_error(L, "coroutine.close: nested more than %d deep", MAX_CLOSE_DEPTH);
    }
    if (lim.armed && co != NULL && is_game_thread(L, 1))
        return luaL_error(L, "the game's own thread cannot be closed by a rule script");
    lua_State *was_running = lim.running;
    if (lim.armed && co != NULL) {   /* the __close handlers run on co */
        lim.running = co;
        hook_if_over(co);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    depth++;
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    depth--;
    if (lim.armed) lim.running = was_running;
    if (status != LUA_OK) return lua_error(L);
    int n = lua_gettop(L);
    if (lim.armed && (lim.killed || lim.expired)) limit_error(L);
    if (lim.finishing) return sb_finish(L);
    return n;
}

/* ---- pairs and next in a fixed order ------------------------------------ */

/* The sandbox's pairs and next (lua/kontor/sandbox.lua) visit keys
 * booleans first (false, true), then numbers ascending, then strings
 * (docs/security.md, "Determinism and pairs"). The keys are gathered
 * here, in C, and sorted only when they do not come in order already (a
 * list's 1..n do: its array part comes first); the sort is the
 * sandbox's table.sort (upvalue 1, charged as table.sort is), with the
 * Lua comparison of mixed keys (upvalue 2). The walk is charged a unit a
 * key, 256 at a time. */

enum { KEY_NONE, KEY_BOOLEAN, KEY_NUMBER, KEY_STRING, KEY_MIXED };

#define KEYS_PER_CHARGE 256

/* Pushes the list of the keys of the table at 1, in order; returns how
 * many. A key that is not a boolean, a number or a string raises
 * "<fname>: a table key has no fixed order ..." at the script's line
 * (level 2: the sandbox's pairs or next called this, the script them). */
static lua_Integer ordered_keys(lua_State *L, const char *fname) {
    lua_createtable(L, 8, 0);                        /* 2: the keys */
    int keys = lua_gettop(L), kind = KEY_NONE, ascending = 1;
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);                               /* the value */
        int t = lua_type(L, -1);
        int k = t == LUA_TBOOLEAN ? KEY_BOOLEAN : t == LUA_TNUMBER ? KEY_NUMBER
              : t == LUA_TSTRING ? KEY_STRING : KEY_NONE;
        if (k == KEY_NONE) {
            luaL_where(L, 2);
            lua_pushfstring(L, "%s: a %s key has no fixed order (keys must be booleans, numbers or strings)",
                            fname, lua_typename(L, t));
            lua_concat(L, 2);
            return lua_error(L);
        }
        if (kind == KEY_NONE) {
            kind = k;
        } else if (k != kind) {
            kind = KEY_MIXED;
        } else if (ascending && kind != KEY_BOOLEAN) {
            if (k == KEY_STRING && lua_rawlen(L, -1) > 16) {   /* strcoll: see compare_units */
                size_t len;
                const char *s = lua_tolstring(L, -1, &len);
                charge(L, compare_units(s, len));
            }
            lua_rawgeti(L, keys, n);                 /* the key before: ascending if it is less */
            ascending = lua_compare(L, -1, -2, LUA_OPLT);
            lua_pop(L, 1);
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++n);
        if (n % KEYS_PER_CHARGE == 0) charge(L, KEYS_PER_CHARGE);
    }
    charge(L, (double)(n % KEYS_PER_CHARGE));
    if (n > 1 && !(ascending && (kind == KEY_NUMBER || kind == KEY_STRING))) {
        /* numbers or strings alone sort by sort's own `<`, as the comparison
         * of upvalue 2 orders them */
        int with_less = kind == KEY_MIXED || kind == KEY_BOOLEAN;
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, keys);
        if (with_less) lua_pushvalue(L, lua_upvalueindex(2));
        lua_call(L, 1 + with_less, 0);
    }
    return n;
}

/* The iterator of ordered_pairs: upvalues the table, its keys in order
 * and the place reached. */
static int ordered_step(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3)) + 1;
    if (lua_rawgeti(L, lua_upvalueindex(2), i) == LUA_TNIL) return 0;
    lua_pushinteger(L, i);
    lua_replace(L, lua_upvalueindex(3));
    lua_pushvalue(L, -1);
    lua_rawget(L, lua_upvalueindex(1));
    return 2;
}

/* pairs(t) for a table t (the sandbox's pairs checked the rest) ->
 * iterator, t, nil. */
static int ordered_pairs(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    ordered_keys(L, "pairs");
    lua_pushvalue(L, 1);
    lua_insert(L, 2);                                /* t keys */
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, ordered_step, 3);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* keys(t, fname) -> the list of t's keys in order, and their number. */
static int ordered_list(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *fname = luaL_checkstring(L, 2);
    lua_settop(L, 2);
    lua_pushinteger(L, ordered_keys(L, fname));
    return 2;
}

/* sandbox.ordered(sort, less) -> pairs, keys: the C side of the sandbox's
 * pairs and next, with its table.sort and its comparison of mixed keys. */
static int sb_ordered(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, ordered_pairs, 2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, ordered_list, 2);
    return 2;
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
    guard(L, "string", "find", guard_pattern, PAT_FIND);
    guard(L, "string", "match", guard_pattern, PAT_MATCH);
    guard(L, "string", "gmatch", guard_pattern, PAT_GMATCH);
    guard(L, "string", "gsub", guard_pattern, PAT_GSUB);
    guard(L, "string", "rep", guard_rep, 0);
    guard(L, "table", "concat", guard_range, 3);
    guard(L, "table", "unpack", guard_range, 2);
    guard(L, "table", "move", guard_move, 0);
    guard(L, "table", "insert", guard_shift, 0);
    guard(L, "table", "remove", guard_shift, 0);
    guard(L, "table", "sort", guard_shift, 1);
    guard(L, "coroutine", "close", guard_close, 0);
    /* A pass over the bytes: divisor * 256 + mask (bit k: argument k,
     * bit 0: all), from the times in docs/security.md. */
    guard(L, "string", "sub", guard_sub, 0);
    guard(L, "string", "upper", guard_bytes, 16 * 256 + 2);
    guard(L, "string", "lower", guard_bytes, 16 * 256 + 2);
    guard(L, "string", "reverse", guard_bytes, 16 * 256 + 2);
    guard(L, "string", "format", guard_format, 0);
    guard(L, "string", "pack", guard_pack, 2 * 256 + 1);
    guard(L, "string", "packsize", guard_bytes, 2 * 256 + 2);
    guard(L, "string", "unpack", guard_bytes, 2 * 256 + 2);
    guard(L, "utf8", "len", guard_bytes, 16 * 256 + 2);
    guard(L, "utf8", "offset", guard_bytes, 16 * 256 + 2);
    guard(L, "utf8", "codes", guard_bytes, 16 * 256 + 2);
    guard(L, "_G", "tonumber", guard_bytes, 16 * 256 + 2);
    guard(L, "_G", "tostring", guard_tostring, 0);
}

/* ---- calls that read the game (sandbox.inspect) ------------------------ */
/* R.view, R.board, R.scores, R.card_text, R.estimate ... get the game's own
 * `g` but run outside a step: a change they made would be in no step
 * record, and an undo or a reload would give another game (principle 1).
 * sandbox.inspect(name, g, f, ...) runs f(...) as sandbox.call does, and
 * - while it runs, every pile, counter, RNG and log made before the call
 *   refuses to change (kn_may_change: a flag and the object's serial);
 * - g's tables (every table reached from g through keys, values and
 *   metatables, read raw) are walked before the call, their entries kept
 *   (the values anchored in a table, so none is collected), and compared
 *   after it in the same order: one pass, no allocation. When something
 *   differs, an exact comparison says whether it really does (a key added
 *   and removed again may leave another order), the tables that differ
 *   get their entries and metatables back, the call is run once more
 *   under a line hook to find the script's line of the change
 *   (find_change), and it fails with "file:line: <name> cannot change the
 *   game: it set g.x (...)". A rule set's scratch (is_scratch) is put
 *   back without a word.
 * The walk is for the games people play; a quiet game's calls (kontor
 * sim, a bot's copies) pass g = false and get the flag alone. */

struct kn_inspect_state kn_inspect;
uint64_t kn_ud_serial = 1;

static const char *inspect_name = "a view";

#define INSPECT_WHY "(a display function reads the game; a change belongs in a step)"

/* An entry of the walk: a table's head (kt == HEAD: kid its address, vid
 * its metatable's, ka its anchor, parent the entry that led to it and
 * how), or one of its entries (key and value by type and identity, ka and
 * va their anchors, 0 for a number or boolean; via 1: a scratch entry). */
enum { HEAD = -2, VIA_VALUE = 0, VIA_KEY = 1, VIA_META = 2 };
struct ventry {
    uint64_t kid, vid;
    int kt, vt, ka, va, parent, via;
};

struct vqueued { int a, parent, via; };
static struct {
    struct ventry *e;
    size_t n, cap;
    const void **seen;          /* open addressing; NULL: empty */
    size_t seen_cap;
    struct vqueued *queue;      /* tables to walk: their anchors */
    size_t qn, qcap;
    int na;                     /* anchors used */
} vw;

static void *vw_grow(void *p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return p;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = kn_realloc(p, *cap * size, c * size);   /* under the memory cap */
    if (q == NULL) return NULL;
    *cap = c;
    return q;
}

static int ident(lua_State *L, int idx, uint64_t *id) {
    int t = lua_type(L, idx);
    switch (t) {
    case LUA_TNIL: *id = 0; return t;
    case LUA_TBOOLEAN: *id = (uint64_t)lua_toboolean(L, idx); return t;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            lua_Integer i = lua_tointeger(L, idx);
            memcpy(id, &i, sizeof i);
            return t + 16;
        } else {
            lua_Number x = lua_tonumber(L, idx);
            memcpy(id, &x, sizeof x);
            return t;
        }
    case LUA_TLIGHTUSERDATA: *id = (uint64_t)(uintptr_t)lua_touserdata(L, idx); return t;
    default: *id = (uint64_t)(uintptr_t)lua_topointer(L, idx); return t;
    }
}

static int collectable(int t) {
    return t == LUA_TSTRING || t == LUA_TTABLE || t == LUA_TFUNCTION ||
           t == LUA_TUSERDATA || t == LUA_TTHREAD;
}

/* Whether p was seen already; marks it. */
static int seen_mark(const void *p) {
    size_t mask = vw.seen_cap - 1;
    size_t i = (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull) & mask;
    while (vw.seen[i] != NULL) {
        if (vw.seen[i] == p) return 1;
        i = (i + 1) & mask;
    }
    vw.seen[i] = p;
    return 0;
}

static void vw_nomem(lua_State *L) {
    luaL_error(L, "out of memory (inspecting a view)");
}

/* Anchors the value at idx in A; its anchor. */
static int anchor(lua_State *L, int A, int idx) {
    lua_pushvalue(L, idx);
    lua_rawseti(L, A, ++vw.na);
    return vw.na;
}

/* Queues the table at idx (anchored as `a`) unless seen. */
static void discover(lua_State *L, int idx, int a, int parent, int via) {
    if (seen_mark(lua_topointer(L, idx))) return;
    if ((vw.qn + 1) * 2 > vw.seen_cap) {
        /* rehash the seen set larger */
        size_t old = vw.seen_cap;
        const void **s = vw.seen;
        size_t c = old * 2;
        vw.seen = kn_realloc(NULL, 0, c * sizeof *vw.seen);
        if (vw.seen == NULL) { vw.seen = s; vw_nomem(L); }
        memset(vw.seen, 0, c * sizeof *vw.seen);
        vw.seen_cap = c;
        for (size_t i = 0; i < old; i++) if (s[i]) seen_mark(s[i]);
        kn_free(s, old * sizeof *s);
    }
    struct vqueued *q = vw_grow(vw.queue, &vw.qcap, vw.qn + 1, sizeof *q);
    if (q == NULL) vw_nomem(L);
    vw.queue = q;
    q[vw.qn].a = a;
    q[vw.qn].parent = parent;
    q[vw.qn].via = via;
    vw.qn++;
}

static struct ventry *vw_add(lua_State *L) {
    struct ventry *e = vw_grow(vw.e, &vw.cap, vw.n + 1, sizeof *e);
    if (e == NULL) vw_nomem(L);
    vw.e = e;
    return &vw.e[vw.n++];
}

/* A rule set's scratch: an entry below g's own whose key starts with "_"
 * (card._fx, a memo: not state, docs/api.md). A view may fill it; it is
 * put back after the call without a word, and what it holds is not
 * walked. (g's own "_" fields are the engine's: g._log, g._quiet ...) */
static int is_scratch(lua_State *L, int idx) {
    const char *k = lua_tostring(L, idx);
    return k[0] == '_';
}

/* The walk before the call: every table reached from the one at g, its
 * entries kept in vw.e, every collectable key and value anchored in A. */
static void snapshot(lua_State *L, int g, int A) {
    vw.n = 0;
    vw.qn = 0;
    vw.na = 0;
    if (vw.seen_cap == 0) {
        vw.seen = kn_realloc(NULL, 0, 256 * sizeof *vw.seen);
        if (vw.seen == NULL) vw_nomem(L);
        memset(vw.seen, 0, 256 * sizeof *vw.seen);
        vw.seen_cap = 256;
    } else {
        memset(vw.seen, 0, vw.seen_cap * sizeof *vw.seen);
    }
    luaL_checkstack(L, 6, NULL);
    discover(L, g, anchor(L, A, g), -1, VIA_VALUE);
    for (size_t q = 0; q < vw.qn; q++) {
        lua_rawgeti(L, A, vw.queue[q].a);
        int t = lua_gettop(L);
        int head = (int)vw.n;
        struct ventry *h = vw_add(L);
        h->kt = HEAD;
        h->kid = (uint64_t)(uintptr_t)lua_topointer(L, t);
        h->ka = vw.queue[q].a;
        h->parent = vw.queue[q].parent;
        h->via = vw.queue[q].via;
        h->vid = 0;
        h->va = 0;
        h->vt = LUA_TNIL;
        if (lua_getmetatable(L, t)) {
            int a = anchor(L, A, -1);
            h = &vw.e[head];
            h->vid = (uint64_t)(uintptr_t)lua_topointer(L, -1);
            h->va = a;
            h->vt = LUA_TTABLE;
            discover(L, -1, a, head, VIA_META);
            lua_pop(L, 1);
        }
        lua_pushnil(L);
        while (lua_next(L, t)) {
            struct ventry *e = vw_add(L);
            int i = (int)vw.n - 1;
            e->kt = ident(L, -2, &e->kid);
            e->vt = ident(L, -1, &e->vid);
            e->parent = head;
            e->via = head > 0 && e->kt == LUA_TSTRING && is_scratch(L, -2);
            e->ka = collectable(e->kt) ? anchor(L, A, -2) : 0;
            e->va = collectable(e->vt) ? anchor(L, A, -1) : 0;
            e = &vw.e[i];
            if (e->kt == LUA_TTABLE) discover(L, -2, e->ka, i, VIA_KEY);
            if (e->vt == LUA_TTABLE && !e->via) discover(L, -1, e->va, i, VIA_VALUE);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

/* The walk after the call, in the same order: whether every entry is as
 * it was (1), or something differs (0). */
static int same_walk(lua_State *L, int A) {
    size_t i = 0;
    luaL_checkstack(L, 6, NULL);
    while (i < vw.n) {
        const struct ventry *h = &vw.e[i++];
        lua_rawgeti(L, A, h->ka);
        int t = lua_gettop(L);
        if (lua_getmetatable(L, t)) {
            int same = h->vt == LUA_TTABLE &&
                       (uint64_t)(uintptr_t)lua_topointer(L, -1) == h->vid;
            lua_pop(L, 1);
            if (!same) { lua_pop(L, 1); return 0; }
        } else if (h->vt != LUA_TNIL) {
            lua_pop(L, 1);
            return 0;
        }
        lua_pushnil(L);
        while (lua_next(L, t)) {
            uint64_t kid, vid;
            if (i >= vw.n || vw.e[i].kt == HEAD || ident(L, -2, &kid) != vw.e[i].kt ||
                kid != vw.e[i].kid || ident(L, -1, &vid) != vw.e[i].vt || vid != vw.e[i].vid) {
                lua_pop(L, 3);
                return 0;
            }
            i++;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (i < vw.n && vw.e[i].kt != HEAD) return 0;
    }
    return 1;
}

/* Pushes the key or value of entry e as it was (which: 0 key, 1 value). */
static void push_old(lua_State *L, int A, const struct ventry *e, int which) {
    int t = which ? e->vt : e->kt, a = which ? e->va : e->ka;
    uint64_t id = which ? e->vid : e->kid;
    if (a) { lua_rawgeti(L, A, a); return; }
    if (t == LUA_TBOOLEAN) lua_pushboolean(L, (int)id);
    else if (t == LUA_TNUMBER + 16) { lua_Integer x; memcpy(&x, &id, sizeof x); lua_pushinteger(L, x); }
    else if (t == LUA_TNUMBER) { lua_Number x; memcpy(&x, &id, sizeof x); lua_pushnumber(L, x); }
    else if (t == LUA_TLIGHTUSERDATA) lua_pushlightuserdata(L, (void *)(uintptr_t)id);
    else lua_pushnil(L);
}

/* The first entry of the table whose head is entry h (the table at t)
 * that differs now: an index of vw.e (h itself: its metatable), -1 when
 * none does, or -2 when a key was added (the key pushed). */
static long table_differs(lua_State *L, int A, size_t h, int t, int *scratch) {
    const struct ventry *hd = &vw.e[h];
    if (lua_getmetatable(L, t)) {
        int same = hd->vt == LUA_TTABLE && (uint64_t)(uintptr_t)lua_topointer(L, -1) == hd->vid;
        lua_pop(L, 1);
        if (!same) return (long)h;
    } else if (hd->vt != LUA_TNIL) {
        return (long)h;
    }
    size_t i = h + 1, old = 0;
    for (; i < vw.n && vw.e[i].kt != HEAD; i++, old++) {
        push_old(L, A, &vw.e[i], 0);
        lua_rawget(L, t);
        push_old(L, A, &vw.e[i], 1);
        int same = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (!same && vw.e[i].via) *scratch = 1;
        else if (!same) return (long)i;
    }
    size_t now = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        now++;
    }
    if (now == old) return -1;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        int found = 0;
        for (size_t j = h + 1; j < i && !found; j++) {
            push_old(L, A, &vw.e[j], 0);
            found = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
        }
        if (!found && h > 0 && lua_type(L, -1) == LUA_TSTRING && is_scratch(L, -1)) *scratch = 1;
        else if (!found) return -2;  /* the key stays pushed */
    }
    return -1;
}

/* Pushes the key at idx as a step of a path: ".name", "[3]", "[a table key]". */
static void push_step(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int kt = lua_type(L, idx);
    if (kt == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        int name = len > 0 && len <= 40 && !(s[0] >= '0' && s[0] <= '9');
        for (size_t j = 0; j < len && name; j++)
            name = (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') ||
                   (s[j] >= '0' && s[j] <= '9') || s[j] == '_';
        if (name) lua_pushfstring(L, ".%s", s);
        else lua_pushliteral(L, "[a string key]");
    } else if (kt == LUA_TNUMBER || kt == LUA_TBOOLEAN) {
        luaL_tolstring(L, idx, NULL);
        lua_pushfstring(L, "[%s]", lua_tostring(L, -1));
        lua_remove(L, -2);
    } else {
        lua_pushfstring(L, "[a %s key]", luaL_typename(L, idx));
    }
}

/* Pushes the path from g to entry i ("g.hands[1][2]"). */
static void push_path(lua_State *L, int A, long i) {
    long chain[64];
    int n = 0, parts = 1;
    long h = vw.e[i].kt == HEAD ? i : vw.e[i].parent;
    while (h >= 0 && n < 64) {
        chain[n++] = h;
        long p = vw.e[h].parent;
        h = p < 0 ? -1 : (vw.e[p].kt == HEAD ? p : vw.e[p].parent);
    }
    luaL_checkstack(L, n + 8, NULL);
    lua_pushliteral(L, "g");
    if (h >= 0) { lua_pushliteral(L, "..."); parts++; }
    for (int k = n - 1; k >= 0; k--) {
        const struct ventry *hd = &vw.e[chain[k]];
        if (hd->parent < 0) continue;
        if (hd->via == VIA_META) lua_pushliteral(L, "<metatable>");
        else if (hd->via == VIA_KEY) lua_pushliteral(L, "<a table key>");
        else {
            push_old(L, A, &vw.e[hd->parent], 0);
            push_step(L, -1);
            lua_remove(L, -2);
        }
        parts++;
    }
    if (vw.e[i].kt != HEAD) {
        push_old(L, A, &vw.e[i], 0);
        push_step(L, -1);
        lua_remove(L, -2);
        parts++;
    }
    lua_concat(L, parts);
}

/* Puts back the entries and metatable of the table whose head is h (at t). */
static void restore_table(lua_State *L, int A, size_t h, int t) {
    const struct ventry *hd = &vw.e[h];
    lua_newtable(L);                      /* the keys there now */
    int keys = lua_gettop(L);
    lua_Integer nk = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++nk);
    }
    for (lua_Integer j = 1; j <= nk; j++) {
        lua_rawgeti(L, keys, j);
        lua_pushnil(L);
        lua_rawset(L, t);
    }
    lua_pop(L, 1);
    for (size_t i = h + 1; i < vw.n && vw.e[i].kt != HEAD; i++) {
        push_old(L, A, &vw.e[i], 0);
        push_old(L, A, &vw.e[i], 1);
        lua_rawset(L, t);
    }
    if (hd->vt == LUA_TTABLE) lua_rawgeti(L, A, hd->va);
    else lua_pushnil(L);
    lua_setmetatable(L, t);
}

static size_t changed_head;           /* put_back: the first table that differed */

/* After a call that changed g: every table back as it was. Pushes the
 * change found first (in the walk's order) as a path ("g.x") and returns
 * 1, or pushes nothing and returns 0 when nothing really differs but a
 * rule set's scratch (is_scratch). */
static int put_back(lua_State *L, int A) {
    int found = 0;
    luaL_checkstack(L, 10, NULL);
    for (size_t h = 0; h < vw.n; h++) {
        if (vw.e[h].kt != HEAD) continue;
        lua_rawgeti(L, A, vw.e[h].ka);
        int t = lua_gettop(L);
        int scratch = 0;
        long d = table_differs(L, A, h, t, &scratch);
        if (d == -1 && !scratch) {
            lua_pop(L, 1);
            continue;
        }
        if (d == -1) {                    /* only its scratch changed */
            restore_table(L, A, h, t);
            lua_pop(L, 1);
            continue;
        }
        if (!found) {
            if (d == -2) {                /* the added key, on top */
                push_path(L, A, (long)h);
                push_step(L, -2);
                lua_concat(L, 2);
                lua_remove(L, -2);
            } else if (d == (long)h) {
                lua_pushliteral(L, "the metatable of ");
                push_path(L, A, d);
                lua_concat(L, 2);
            } else {
                push_path(L, A, d);
            }
            lua_insert(L, t);             /* the path below the table */
            t++;
            found = 1;
            changed_head = h;
        } else if (d == -2) {
            lua_pop(L, 1);
        }
        restore_table(L, A, h, t);
        lua_pop(L, 1);
    }
    return found;
}

/* Whether a chunk is the engine's Lua that a rule script calls: g's
 * methods (lua/kontor/game/context.lua) and the sandbox's own functions
 * (lua/kontor/sandbox.lua: setmetatable, pairs ...). */
static int engine_source(const char *src) {
    static const char *const engine[] = { "kontor/game/context.lua", "kontor/sandbox.lua" };
    size_t n = strlen(src);
    for (size_t i = 0; i < sizeof engine / sizeof engine[0]; i++) {
        size_t m = strlen(engine[i]);
        if (n >= m && strcmp(src + n - m, engine[i]) == 0) return 1;
    }
    return 0;
}

/* "file:line:" of the rule script's code that called a method of g's
 * objects, and the method as the script called it: levels of the engine's
 * g methods (lua/kontor/game/context.lua: g:log, g:chance) are skipped,
 * and the script's call named by the outermost of them. */
static const char *script_level(lua_State *L, const char *what, char *buf, size_t size) {
    lua_Debug ar;
    int level = 1;
    const char *skipped = NULL;
    while (lua_getstack(L, level, &ar) && lua_getinfo(L, "Sn", &ar)) {
        if (!engine_source(ar.source)) break;
        if (ar.name != NULL) skipped = ar.name;
        level++;
    }
    luaL_where(L, level);
    if (skipped != NULL) {
        snprintf(buf, size, "g:%s", skipped);
        return buf;
    }
    return what;
}

void kn_refuse_change(lua_State *L, const void *obj, const char *what) {
    uint64_t serial;
    memcpy(&serial, (const char *)obj - KN_UD_HEAD + sizeof(void *), sizeof serial);
    if (serial >= kn_inspect.from) return;      /* made by the call itself */
    char buf[64];
    what = script_level(L, what, buf, sizeof buf);
    lua_pushfstring(L, "%s cannot change the game: it called %s " INSPECT_WHY,
                    inspect_name, what);
    lua_concat(L, 2);
    lua_error(L);
}

static int last_anchors = 64;        /* the anchor table's size, from the last call */

/* Where a table of g changed: the call is run again (the game is as it
 * was before it) with a line hook that compares the table that differed
 * with what it held at every new line; the line before the one where it
 * first differs made the change. Only after a change was refused. */
static const char watch_key = 'w';
static char watch_last[LUA_IDSIZE + 24], watch_found[LUA_IDSIZE + 24];

static void watch_hook(lua_State *L, lua_Debug *ar) {
    int top = lua_gettop(L);
    if (!lua_checkstack(L, 8)) return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &watch_key);
    int A = lua_gettop(L);
    lua_rawgeti(L, A, vw.e[changed_head].ka);
    int scratch = 0;
    long d = table_differs(L, A, changed_head, lua_gettop(L), &scratch);
    lua_settop(L, top);
    if (d != -1 && watch_found[0] == 0 && watch_last[0] != 0) {
        memcpy(watch_found, watch_last, sizeof watch_found);
        luaL_error(L, "found");              /* stops the call */
    }
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0 && !engine_source(ar->source))
        snprintf(watch_last, sizeof watch_last, "%s:%d:", ar->short_src, ar->currentline);
}

/* Runs f (at base, its arguments above it) again under watch_hook;
 * pushes "file:line:" of the change, or "" when it is not seen again. */
static void find_change(lua_State *L, int A, int base) {
    lua_pushvalue(L, A);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &watch_key);
    watch_last[0] = watch_found[0] = 0;
    lua_Hook old_hook = lua_gethook(L);
    int old_mask = lua_gethookmask(L), old_count = lua_gethookcount(L);
    lua_sethook(L, watch_hook, LUA_MASKLINE, 0);
    kn_inspect.from = kn_ud_serial;
    kn_inspect.on = 1;
    call_at(L, base);
    kn_inspect.on = 0;
    lua_sethook(L, old_hook, old_mask, old_count);
    lua_settop(L, base - 1);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &watch_key);
    if (!same_walk(L, A)) {
        if (watch_found[0] == 0 && watch_last[0] != 0)      /* on its last line */
            memcpy(watch_found, watch_last, sizeof watch_found);
        if (put_back(L, A)) lua_pop(L, 1);                   /* as it was, again */
    }
    if (watch_found[0]) lua_pushfstring(L, "%s ", watch_found);
    else lua_pushliteral(L, "");
}

/* sandbox.inspect(name, g, f, ...) -> as sandbox.call(f, ...), with g
 * and all it holds as they were before the call (above); name ("R.board")
 * is what the messages call f. With g false, only the piles, counters,
 * RNGs and logs are watched: for the calls of games played for
 * simulation and search, which are thrown away (the walk of a Sea
 * Merchants `g`, about 130 entries, costs some 100,000 instructions, and
 * a greedy bot asks 1,380 estimates a game). */
static int sb_inspect(lua_State *L) {
    luaL_checkstring(L, 1);
    if (lua_type(L, 2) != LUA_TBOOLEAN || lua_toboolean(L, 2))
        luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    if (kn_inspect.on) return call_at(L, 3);   /* inside another: that one watches */
    if (!lua_toboolean(L, 2)) {
        const char *was = inspect_name;
        inspect_name = lua_tostring(L, 1);
        kn_inspect.from = kn_ud_serial;
        kn_inspect.on = 1;
        int n = call_at(L, 3);
        kn_inspect.on = 0;
        inspect_name = was;
        return n;
    }
    lua_createtable(L, last_anchors, 0);
    lua_insert(L, 3);                            /* name, g, anchors, f, ... */
    snapshot(L, 2, 3);
    last_anchors = vw.na;
    /* f and its arguments again, for find_change */
    int nargs = lua_gettop(L) - 4, base = lua_gettop(L) + 1;
    luaL_checkstack(L, nargs + 2, NULL);
    for (int i = 4; i < base; i++) lua_pushvalue(L, i);
    const char *was_name = inspect_name;
    inspect_name = lua_tostring(L, 1);
    kn_inspect.from = kn_ud_serial;
    kn_inspect.on = 1;
    int n = call_at(L, base);
    kn_inspect.on = 0;
    int same = same_walk(L, 3);
    if (same || !put_back(L, 3)) {
        inspect_name = was_name;
        return n;
    }
    lua_copy(L, -1, base);
    lua_settop(L, base);
    lua_insert(L, 4);                            /* name, g, anchors, path, f, ... */
    find_change(L, 3, 5);                        /* name, g, anchors, path, "file:line: " */
    lua_pushfstring(L, "%s%s cannot change the game: it set %s " INSPECT_WHY,
                    lua_tostring(L, 5), inspect_name, lua_tostring(L, 4));
    inspect_name = was_name;
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* sandbox.inspecting() -> the name of the call that reads the game now
 * (sandbox.inspect), or nil: g's own methods that keep a memo (g:text,
 * g:turn_order) keep nothing then, and g:stat and g:skip refuse. */
static int sb_inspecting(lua_State *L) {
    if (kn_inspect.on) lua_pushstring(L, inspect_name);
    else lua_pushnil(L);
    return 1;
}

/* sandbox.limit_errors(f): f(limit, message) makes the error value a
 * limit's error is returned as (limit "time", "work" or "memory"); nil:
 * the message alone. */
static int sb_limit_errors(lua_State *L) {
    if (!lua_isnil(L, 1)) luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &limit_key);
    return 0;
}

/* sandbox.out_of_memory() -> whether an allocation was refused since the
 * last armed call began (or the last time this was asked) and no script
 * took the error: a memory error outside a rule script's call (the REPL's
 * Lua line) is told by the allocator, not by Lua's message. Clears it. */
static int sb_out_of_memory(lua_State *L) {
    lua_pushboolean(L, lim.oom);
    lim.oom = 0;
    return 1;
}

static const luaL_Reg sandbox_funcs[] = {
    {"limit_errors", sb_limit_errors},
    {"out_of_memory", sb_out_of_memory},
    {"call", sb_call},
    {"inspect", sb_inspect},
    {"inspecting", sb_inspecting},
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
    {"replay", sb_replay},
    {"ordered", sb_ordered},
    {NULL, NULL}
};

void kn_open_sandbox(lua_State *L) {
    open_guards(L);
    luaL_newlib(L, sandbox_funcs);
    lua_pushlightuserdata(L, &finish_token);
    lua_setfield(L, -2, "FINISH");
    lua_setfield(L, -2, "sandbox");
}

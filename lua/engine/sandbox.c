/*
 * sandbox.c - the limits every rule-script call runs under (the library
 * functions that loop in C: guards.c; calls that only read the game:
 * inspect.c; what they share: sandbox.h).
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
#include "engine/sandbox.h"
#include "engine/scan.h"

#define TICK_USEC 10000                     /* watchdog tick, CPU time */
#define DEFAULT_TIME 0.5                    /* CPU seconds per armed call */
#define DEFAULT_REPLAY_TIME 10.0            /* the same, replaying a step */
#define DEFAULT_WORK 10000000L              /* work units per armed call */
#define DEFAULT_MEMORY ((size_t)256 << 20)  /* bytes, whole interpreter */
#define MAX_MESSAGE 4000                    /* bytes of an error message */

struct kn_limits kn_lim = { 0, DEFAULT_MEMORY, DEFAULT_TIME, DEFAULT_REPLAY_TIME, DEFAULT_WORK, 0,
          0, WHY_NONE, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, 0 };

/* The address is the token: g:finish() raises it to end a game at once. */
static char finish_token;

/* ---- allocator ---------------------------------------------------------- */

/* While armed, allocations stop an eighth below the cap: what is left is
 * for the engine's rollback and for the VM's own bookkeeping. */
size_t kn_sandbox_cap(void) {
    return kn_lim.armed ? kn_lim.limit - kn_lim.limit / 8 : kn_lim.limit;
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
 * kn_lim.running as luaL_traceback writes them ("\n\tfile:line: in ..."),
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

/* A refused block: what kind of error follows is known here (kn_lim.oom). */
static void *refuse(void *ptr, size_t nsize) {
    if (!kn_lim.oom) {
        if (kn_lim.armed && kn_lim.running != NULL) note_frames(kn_lim.running, ptr);
        else oom_trace[0] = '\0';
    }
    kn_lim.oom = 1;
    kn_lim.oom_ptr = ptr;
    kn_lim.oom_size = nsize;
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
        kn_lim.used -= osize;
        return NULL;
    }
    if (nsize > osize && kn_lim.used - osize + nsize > kn_sandbox_cap()) return refuse(ptr, nsize);
    void *p = pooled ? pool_realloc(ptr, osize, nsize)
            : host_alloc ? host_alloc(host_ud, ptr, tag, nsize) : realloc(ptr, nsize);
    if (p == NULL) return refuse(ptr, nsize);
    /* Lua retries a refused block after an emergency collection: no error */
    if (kn_lim.oom && ptr == kn_lim.oom_ptr && nsize == kn_lim.oom_size) kn_lim.oom = 0;
    kn_lim.used = kn_lim.used - osize + nsize;
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
            if (!kn_lim.oom && kn_lim.used + nsize <= kn_sandbox_cap()) {
                void *b = kn_pool_alloc(&pool, nsize);
                if (b != NULL) {
                    kn_lim.used += nsize;
                    return b;
                }
            }
        } else if (nsize == 0 && kn_pool_owns(&pool, ptr)) {
            kn_pool_free(&pool, ptr, osize);
            kn_lim.used -= osize;
            return NULL;
        }
    }
    return sb_alloc_slow(ud, ptr, osize, nsize);
}

/* A library that allocates with malloc (jansson builds a tree and a text
 * of the JSON it encodes: a 60 MB view of control characters took 866 MB
 * that the cap did not see) allocates here instead: counted in kn_lim.used
 * and refused over the cap, as the interpreter's blocks are. Each block
 * keeps its size in a header. */
typedef union { size_t size; max_align_t align; } block_head;

void *kn_sandbox_malloc(size_t size) {
    if (size > (size_t)-1 / 2 || kn_lim.used + size + sizeof(block_head) > kn_sandbox_cap()) return NULL;
    block_head *b = malloc(sizeof *b + size);
    if (b == NULL) return NULL;
    b->size = sizeof *b + size;
    kn_lim.used += b->size;
    return b + 1;
}

void kn_sandbox_free(void *ptr) {
    if (ptr == NULL) return;
    block_head *b = (block_head *)ptr - 1;
    kn_lim.used -= b->size;
    free(b);
}

/* ---- hook and watchdog -------------------------------------------------- */

void kn_limit_error(lua_State *L) {
    kn_lim.killed = 1;
    if (kn_lim.why == WHY_NONE) kn_lim.why = kn_lim.expired ? WHY_TIME : WHY_WORK;
    lua_pushstring(L, kn_lim.why == WHY_TIME ? "time limit reached" : "work limit reached");
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
    if (kn_lim.interrupted) {
        kn_lim.interrupted = 0;
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &interrupt_key) != LUA_TNIL) lua_error(L);
        luaL_error(L, "interrupted");
    }
    if (kn_lim.armed && (kn_lim.killed || kn_lim.expired)) kn_limit_error(L);
    /* Set by the watchdog or for SIGINT, and no longer needed. */
    lua_sethook(L, NULL, 0, 0);
}

/* Sets the hook on `co` if the armed call is over its limits already: a
 * coroutine resumed (or closed) after that must stop at once too. */
void kn_hook_if_over(lua_State *co) {
    if (kn_lim.armed && (kn_lim.killed || kn_lim.expired))
        lua_sethook(co, sb_hook, LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET, 1);
}

static void on_tick(int sig) {
    (void)sig;
    if (!kn_lim.armed || kn_lim.expired) return;
    if (--kn_lim.ticks_left > 0) return;
    kn_lim.expired = 1;
    lua_State *L = kn_lim.running;
    if (L != NULL) lua_sethook(L, sb_hook, LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET, 1);
}

/* Starts the watchdog's timer (once: see disarm). */
static void start_ticking(void) {
    if (kn_lim.ticking) return;
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_interval.tv_usec = TICK_USEC;
    it.it_value.tv_usec = TICK_USEC;
    setitimer(ITIMER_PROF, &it, NULL);
    kn_lim.ticking = 1;
}

static lua_State *main_thread;

/* lua.c's way: the handler only sets a flag and a hook. */
static void on_sigint(int sig) {
    (void)sig;
    kn_lim.interrupted = 1;
    lua_State *L = kn_lim.armed && kn_lim.running ? kn_lim.running : main_thread;
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
    kn_lim.ticking = 0;
    sigaction(SIGPROF, &host_prof, NULL);
}

lua_State *kn_newstate(void) {
    pooled = KN_POOLED && kn_pool_init(&pool, POOL_RESERVE) == 0;
    lua_State *L = lua_newstate(sb_alloc, NULL);
    if (L == NULL) return NULL;
    lua_atpanic(L, sb_panic);
    /* A collection cycle when the heap is 4 times what the last one kept.
     * A cycle walks the whole heap (the engine's modules and the rule
     * scripts, about 365 KB under kontor sim) for the few KB of garbage
     * each game leaves, and that walk is what loses most to another
     * process on the same core: on the shared 2-core machine, Sea
     * Merchants 4p played 7,455 games a second against 6,731 with
     * Lua's default of twice (the median of 30 batches of 400 games each
     * way, taking turns in one process), Caribbean 2p 3,743 against 3,637
     * and Old World 4p the same. (On the quiet machine of before, twice
     * was the faster by about 3%, best of 10 alternating runs:
     * docs/performance.md.) Near the memory limit nothing
     * changes: an allocation the limit refuses makes Lua collect in full
     * first. */
    lua_gc(L, LUA_GCINC, 400, 0, 0);
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
    kn_lim.used = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB);
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
    kn_lim.time = t;
    kn_lim.replay_time = rt;
    kn_lim.ticks = ticks_of(t);
    kn_lim.replay_ticks = ticks_of(rt);
}

static void reset_clock(void) {
    if (kn_lim.ticks == 0) set_times(kn_lim.time, kn_lim.replay_time);   /* the defaults */
    kn_lim.ticks_left = kn_lim.replaying ? kn_lim.replay_ticks : kn_lim.ticks;
}

static void arm(lua_State *running) {
    kn_lim.killed = 0;
    kn_lim.oom = 0;
    kn_lim.why = WHY_NONE;
    kn_lim.finishing = 0;
    kn_lim.expired = 0;
    kn_lim.left = kn_lim.work;
    reset_clock();
    kn_lim.running = running;
    kn_lim.armed = 1;
    start_ticking();
}

/* The timer keeps ticking once started: a tick while disarmed does
 * nothing, and ITIMER_PROF counts only the CPU time the process uses, so an
 * idle prompt gets no tick at all. Stopping and starting it around every
 * armed call cost two system calls a step. (A child made by fork() has no
 * timer; Kontor starts its jobs as new programs.) */
static void disarm(void) {
    kn_lim.armed = 0;
    kn_lim.running = NULL;
}

/* Lua's own memory error, or a library's that ran out (lauxlib's buffers
 * raise a runtime error): the allocator refused a block and nothing took
 * the error since (kn_lim.oom). Not the message: a memory error caught by a
 * script's pcall does not make later errors read as one, and no text a
 * script raises reads as a memory error. */
static int is_memory_error(lua_State *co, int status) {
    (void)co;
    return status == LUA_ERRMEM || kn_lim.oom;
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
    int was_armed = kn_lim.armed;
    kn_lim.armed = 0;
    int status = lua_pcall(L, 2, 1, 0);
    kn_lim.armed = was_armed;
    if (status != LUA_OK || lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_replace(L, -2);
}

/* The limit an armed call's error reached: "time", "work", "memory", or
 * NULL (the script's own error). */
static const char *limit_of(int memory) {
    if (kn_lim.killed) return kn_lim.why == WHY_TIME ? "time" : "work";
    return memory ? "memory" : NULL;
}

/* Turns the error object at the top of `co` into the value returned to
 * the engine, pushed on L: the finish token and Ctrl-C's value as they
 * are; anything else as one string with the script's file:line and a
 * traceback of `co`. */
static void push_error(lua_State *L, lua_State *co, int memory) {
    if (kn_lim.finishing || lua_touserdata(co, -1) == &finish_token) {
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
    if (kn_lim.killed && kn_lim.why == WHY_TIME) {
        snprintf(buf, sizeof buf, "time limit reached (%g s of CPU per step%s)",
                 kn_lim.replaying ? kn_lim.replay_time : kn_lim.time,
                 kn_lim.replaying ? ", replaying" : "");
        msg = buf;
    } else if (kn_lim.killed) {
        snprintf(buf, sizeof buf, "work limit reached (%ld units per step)", kn_lim.work);
        msg = buf;
    } else if (memory) {
        snprintf(buf, sizeof buf, "memory limit reached (%zu MiB)", kn_lim.limit >> 20);
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
    lua_pushfstring(L, "memory limit reached (%d MiB)%s%s", (int)(kn_lim.limit >> 20),
                    oom_trace[0] != '\0' ? "\nstack traceback:" : "", oom_trace);
    return 1;
}

/* Calls the function at base with the values above it as arguments,
 * armed (sandbox.call): leaves true and its results, or false and the
 * message (or the finish token), from base on; their number. */
int kn_call_at(lua_State *L, int base) {
    int was_armed = kn_lim.armed;
    lua_State *was_running = kn_lim.running;
    int n = lua_gettop(L) - base;
    lua_pushcfunction(L, msgh);
    lua_insert(L, base);
    /* The caller's own hook (a debugger's, the fuzz harness's line hook)
     * is put back if the watchdog replaced it. */
    lua_Hook old_hook = lua_gethook(L);
    int old_mask = lua_gethookmask(L), old_count = lua_gethookcount(L);
    if (!was_armed) arm(L);
    else kn_lim.running = L;
    int status = lua_pcall(L, n, LUA_MULTRET, base);
    if (!was_armed) disarm();
    else kn_lim.running = was_running;
    if (!was_armed && lua_gethook(L) == sb_hook && old_hook != sb_hook)
        lua_sethook(L, old_hook, old_mask, old_count);
    if (status != LUA_OK) {
        /* a memory error (LUA_ERRMEM) reaches no message handler: its
         * message is Lua's, its kind the allocator's (msgh made the rest) */
        if (status == LUA_ERRMEM && !kn_lim.finishing) {
            if (lua_checkstack(L, 2)) {
                lua_pushcfunction(L, memory_message);
                if (lua_pcall(L, 0, 1, 0) == LUA_OK) lua_replace(L, -2);
                else lua_pop(L, 1);
            }
            make_limit_error(L, "memory");
        }
        if (!was_armed) kn_lim.oom = 0;
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
    return kn_call_at(L, 1);
}

/* sandbox.resume(co, ...) -> true, yielded... | false, message | false, finish_token
 * The coroutine's own traceback is attached to an error. */
static int sb_resume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "coroutine");
    int n = lua_gettop(L) - 1;
    if (!lua_checkstack(co, n)) return luaL_error(L, "too many arguments to resume");
    lua_xmove(L, co, n);
    int nres, was_armed = kn_lim.armed;
    lua_State *was_running = kn_lim.running;
    if (!was_armed) arm(co);
    else kn_lim.running = co;
    kn_hook_if_over(co);
    int status = lua_resume(co, L, n, &nres);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!was_armed) disarm();
        else kn_lim.running = was_running;
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            return luaL_error(L, "too many results to resume");
        }
        lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return nres + 1;
    }
    int memory = is_memory_error(co, status);
    if (memory && !kn_lim.finishing && lua_touserdata(co, -1) != &finish_token) {
        /* Memory is full, and the dead coroutine's frames still hold what
         * filled it (until the engine drops the thread). Let go of it first
         * (still armed: pending __close handlers run under the limits), or
         * neither the message nor the engine's rollback would fit. */
        lua_resetthread(co);
        lua_gc(L, LUA_GCCOLLECT);
        lua_pushnil(co);
        if (!was_armed) disarm();
        else kn_lim.running = was_running;
        lua_pushboolean(L, 0);
        push_error(L, co, 1);
    } else {
        /* The message is built unarmed (under the full cap: it may raise
         * a memory error, and must not leave the limits armed), then the
         * frames that raised run their pending __close handlers, armed
         * again, under what is left of the limits. */
        int armed_now = kn_lim.armed;
        kn_lim.armed = was_armed;
        lua_pushboolean(L, 0);
        push_error(L, co, memory);
        kn_lim.armed = armed_now;
        lua_resetthread(co);
        if (!was_armed) disarm();
        else kn_lim.running = was_running;
    }
    if (!was_armed) kn_lim.oom = 0;             /* told in the error returned */
    lua_settop(co, 0);
    return 2;
}

/* sandbox.rearm(): a fresh time and work budget for the next step, for
 * bots that choose inside the armed call (a killed call stays killed). */
void kn_sandbox_rearm(void) {
    if (kn_lim.armed && !kn_lim.killed && !kn_lim.expired) {
        kn_lim.left = kn_lim.work;
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

int kn_is_game_thread(lua_State *L, int idx) {
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
    int was = kn_lim.replaying;
    kn_lim.replaying = 1;
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    kn_lim.replaying = was;
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
    return kn_lim.armed && kn_lim.oom && kn_lim.oom_size <= kn_sandbox_cap();
}

/* The sandbox's pcall: like pcall, but a limit, a finish or a memory
 * error that depends on the process cannot be caught. */
static int must_rethrow(lua_State *L) {
    if (kn_lim.finishing) {  /* whatever an xpcall handler made of it */
        lua_pushlightuserdata(L, &finish_token);
        return 1;
    }
    return kn_lim.killed || sticky_memory_error();
}

/* sandbox.finish(): ends the game at once; g:finish() calls it. */
int kn_sb_finish(lua_State *L) {
    kn_lim.finishing = 1;
    lua_pushlightuserdata(L, &finish_token);
    return lua_error(L);
}

static int finish_pcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        if (must_rethrow(L)) return lua_error(L);
        kn_lim.oom = 0;                         /* the script took it */
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
        kn_lim.oom = 0;                         /* the script took it */
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
    if (kn_is_game_thread(L, 1))
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
    lua_State *was_running = kn_lim.running;
    if (kn_lim.armed) kn_lim.running = co;
    kn_hook_if_over(co);
    int status = lua_resume(co, L, n, &nres);
    if (kn_lim.armed) kn_lim.running = was_running;
    kn_hook_if_over(L);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) return luaL_error(L, "too many results to resume");
        lua_pushboolean(L, 1);
        lua_xmove(co, L, nres);
        return nres + 1;
    }
    lua_xmove(co, L, 1);
    if (must_rethrow(L)) return lua_error(L);
    kn_lim.oom = 0;                             /* the script took it */
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* sandbox.load(source, chunkname, env) -> function | nil, message
 * Text only: a binary chunk is refused whatever it claims to be. */
static kn_compiled_fn compiled;

void kn_sandbox_compiled(kn_compiled_fn f) {
    compiled = f;
}

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
    /* a shipped rule script, unchanged: its chunk compiled at build time
     * from this very text (the same function, lines and names) */
    int done = compiled != NULL && name[0] == '@' && compiled(L, src, len, name + 1) == LUA_OK;
    if (!done && luaL_loadbufferx(L, src, len, name, "t") != LUA_OK) {
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
        double t = opt_seconds(L, "time", kn_lim.time);
        double rt = opt_seconds(L, "replay_time", kn_lim.replay_time);
        lua_Integer work = opt_count(L, "work", 1000, "1000", kn_lim.work);
        lua_Integer mem = opt_count(L, "memory", (lua_Integer)1 << 20, "1 MiB",
                                    (lua_Integer)kn_lim.limit);
        if (rt < t) rt = t;
        set_times(t, rt);
        kn_lim.work = (long)work;
        kn_lim.limit = (size_t)mem;
    }
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, kn_lim.time);
    lua_setfield(L, -2, "time");
    lua_pushnumber(L, kn_lim.replay_time);
    lua_setfield(L, -2, "replay_time");
    lua_pushinteger(L, kn_lim.work);
    lua_setfield(L, -2, "work");
    lua_pushinteger(L, (lua_Integer)kn_lim.limit);
    lua_setfield(L, -2, "memory");
    lua_pushinteger(L, (lua_Integer)kn_lim.used);
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
    kn_lim.interrupted = 0;
    if (!on && !kn_lim.armed) lua_sethook(L, NULL, 0, 0);
    return 0;
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
    lua_pushboolean(L, kn_lim.oom);
    kn_lim.oom = 0;
    return 1;
}

static const luaL_Reg sandbox_funcs[] = {
    {"limit_errors", sb_limit_errors},
    {"out_of_memory", sb_out_of_memory},
    {"call", sb_call},
    {"inspect", kn_sb_inspect},
    {"inspecting", kn_sb_inspecting},
    {"resume", sb_resume},
    {"pcall", sb_pcall},
    {"xpcall", sb_xpcall},
    {"coresume", sb_coresume},
    {"load", sb_load},
    {"limits", sb_limits},
    {"catch_sigint", sb_catch_sigint},
    {"finish", kn_sb_finish},
    {"thread", sb_thread},
    {"rearm", sb_rearm},
    {"replay", sb_replay},
    {"ordered", kn_sb_ordered},
    {NULL, NULL}
};

void kn_open_sandbox(lua_State *L) {
    kn_open_guards(L);
    luaL_newlib(L, sandbox_funcs);
    lua_pushlightuserdata(L, &finish_token);
    lua_setfield(L, -2, "FINISH");
    lua_setfield(L, -2, "sandbox");
}
